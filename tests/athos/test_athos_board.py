"""The shipped board meets ATH-B1/ATH-B2; broken board files are rejected (BoardFileError)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from palaestra.core.errors import BoardFileError
from palaestra.games.athos import AthosGame, load_board
from palaestra.games.athos.board import BOARD_FILE, START_LETTERS, design_problems

BOARD = load_board()


def doc() -> dict[str, Any]:
    return json.loads(BOARD_FILE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_ath_b1_summit_touches_seven_fields_at_the_narrow_top() -> None:
    top = BOARD.max_row
    summit_nb = BOARD.adj[BOARD.summit]
    assert len(summit_nb) == 7
    assert all(BOARD.rows[f] == top for f in summit_nb)
    assert sum(1 for f in range(BOARD.n) if BOARD.rows[f] == top) == 7
    widths = [sum(1 for f in range(BOARD.n) if BOARD.rows[f] == r) for r in range(1, top + 1)]
    assert widths[-1] < widths[0]  # broad bottom, narrow top


def test_ath_b1_start_fields_along_the_bottom_left_to_right() -> None:
    cols = []
    for k, s in enumerate(BOARD.start_ids):
        front = [f for f in BOARD.adj[s] if f < BOARD.n]
        others = sorted(BOARD.names[x] for x in BOARD.adj[s] if x in BOARD.start_ids)
        assert front and all(BOARD.rows[f] == 1 for f in front)
        expected = sorted(START_LETTERS[j] for j in (k - 1, k + 1) if 0 <= j < 5)
        assert others == expected  # A-B, B-C, C-D, D-E
        cols.append(min(BOARD.cols[f] for f in front))
    assert cols == sorted(cols)
    bottom = {f for f in range(BOARD.n) if BOARD.rows[f] == 1}
    assert bottom == {f for s in BOARD.start_ids for f in BOARD.adj[s] if f < BOARD.n}


def test_ath_b2_shipped_board_meets_every_constraint() -> None:
    assert design_problems(BOARD) == []
    assert BOARD.n >= 110
    assert len(BOARD.terrains) == 5
    patches = BOARD.patches()
    for t in range(5):
        assert 20 <= len(BOARD.fields_of_terrain[t]) <= 30
        assert len(patches[t]) >= 2
        assert {BOARD.third(f) for f in BOARD.fields_of_terrain[t]} == {0, 1, 2}
    for s in BOARD.start_ids:
        assert BOARD.reachable(s) == set(range(BOARD.size))


def test_ath_b2_board_design_fair_and_without_dead_ends() -> None:
    # mirror-symmetric geometry and terrains: seats B and D (and A/E) are equal
    centre = (BOARD.min_col + BOARD.max_col) // 2
    for f in range(BOARD.n):
        m = BOARD.by_coord.get((2 * centre - BOARD.cols[f], BOARD.rows[f]))
        assert m is not None and BOARD.terrain[m] == BOARD.terrain[f]
    # no dead ends: every field has at least three neighbours and no single tile splits the board
    assert all(len(BOARD.adj[f]) >= 3 for f in range(BOARD.n))
    assert BOARD.cut_fields() == []
    # some bottlenecks: a row crossed by every path that is at most 6 fields wide below the top
    narrow = [r for r in range(2, BOARD.max_row) if sum(1 for f in range(BOARD.n) if BOARD.rows[f] == r) <= 6]
    assert narrow


def test_ath_b2_design_problems_reports_a_bad_board(tmp_path: Path) -> None:
    d = doc()
    d["fields"] = [x for x in d["fields"] if x["terrain"] != "vine" or x["row"] > 8]
    problems = design_problems(load_board(write(tmp_path, d)))
    assert any("vine" in p and "lower third" in p for p in problems)
    assert any("vine has 18 fields" in p for p in problems)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: "{not json", "not valid JSON"),
        (lambda d: {**d, "format": 2}, "unknown format"),
        (lambda d: {**d, "terrains": d["terrains"][:4]}, "4 terrains"),
        (lambda d: {**d, "fields": d["fields"] + [d["fields"][0]]}, "listed twice"),
        (
            lambda d: {**d, "fields": d["fields"] + [{"col": 4, "row": 1, "terrain": "vine"}]},
            "off the hex grid",
        ),
        (
            lambda d: {**d, "fields": d["fields"] + [{"col": 1, "row": 1, "terrain": "lava"}]},
            "unknown terrain",
        ),
        (lambda d: {**d, "summit": d["summit"][:6]}, "6 distinct fields"),
        (lambda d: {**d, "summit": [*d["summit"][:6], "d1"]}, "not at the top"),
        (lambda d: {**d, "starts": {**d["starts"], "C": ["k2"]}}, "not in the bottom row"),
        (
            lambda d: {**d, "starts": {k: v for k, v in d["starts"].items() if k != "E"}},
            "exactly the start fields",
        ),
        (lambda d: {**d, "starts": {**d["starts"], "A": ["zz9"]}}, "not a field"),
        (
            lambda d: {**d, "fields": d["fields"] + [{"col": 25, "row": 9, "terrain": "vine"}]},
            "cannot be reached",
        ),
    ],
)
def test_broken_board_files_are_rejected_naming_the_problem(
    tmp_path: Path, change: Any, message: str
) -> None:
    path = write(tmp_path, change(doc()))
    with pytest.raises(BoardFileError, match=message):
        load_board(path)
    with pytest.raises(BoardFileError, match=message):
        AthosGame(board=path)


def test_missing_board_file(tmp_path: Path) -> None:
    with pytest.raises(BoardFileError, match="cannot be read"):
        AthosGame(board=str(tmp_path / "none.json"))


def test_board_option_plays_on_another_board(tmp_path: Path) -> None:
    d = doc()
    for x in d["fields"]:
        if x["row"] == 2:
            x["terrain"] = "forest"
    path = write(tmp_path, d)
    g = AthosGame(board=path)
    assert g.board.source == path
    assert all(
        g.board.terrains[g.board.terrain[f]] == "forest" for f in range(g.board.n) if g.board.rows[f] == 2
    )
    s = g.new_initial_state()
    s.apply_action(s.string_to_action("B-h1"))
    assert s.board.names[s.monks[0][-1]] == "h1"


@pytest.mark.slow
def test_a_board_file_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    # loaded boards are cached by path, modification time and size: a game made after the file
    # changed plays on the new board, not on the one cached under the same path
    path = write(tmp_path, doc())

    def row_2_terrains(g: AthosGame) -> set[str]:
        return {g.board.terrains[g.board.terrain[f]] for f in range(g.board.n) if g.board.rows[f] == 2}

    assert row_2_terrains(AthosGame(board=path)) != {"forest"}
    d = doc()
    for x in d["fields"]:
        if x["row"] == 2:
            x["terrain"] = "forest"
    Path(path).write_text(json.dumps(d, indent=1), encoding="utf-8")  # another size, too
    assert row_2_terrains(AthosGame(board=path)) == {"forest"}
