"""The Archimedes board data file and its loader (ARC-B1, ARC-B2)."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from palaestra.core.errors import BoardFileError
from palaestra.games.archimedes.board import SIDES, default_board, load_board, parse_board

BOARD_TEXT = resources.files("palaestra.games.archimedes").joinpath("board.txt").read_text()
SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "archimedes-board.txt"


def test_arc_b1_cell_counts() -> None:
    b = default_board()
    assert b.size == 96
    degrees = Counter(len(n) for n in b.neighbours)
    assert degrees == {3: 72, 2: 24}
    rim = {c for side in SIDES for c in b.sides[side]}
    assert len(rim) == 24
    assert rim == {c for c in range(96) if len(b.neighbours[c]) == 2}
    assert all(len(b.sides[s]) == 4 for s in SIDES)


def test_arc_b1_adjacency_is_symmetric_and_shares_an_edge() -> None:
    b = default_board()
    for c, nbrs in enumerate(b.neighbours):
        for m in nbrs:
            assert c in b.neighbours[m]
            # neighbours point the other way (up vs down) and differ in one index by one
            assert sum(b.coords[c]) != sum(b.coords[m])
            diff = sorted(abs(p - q) for p, q in zip(b.coords[c], b.coords[m], strict=True))
            assert diff == [0, 0, 1]
        assert b.neighbour_mask[c] == sum(1 << m for m in nbrs)


def test_arc_b1_row_widths_and_names() -> None:
    b = default_board()
    widths = Counter(name[0] for name in b.names)
    assert [widths[r] for r in "abcdefgh"] == [9, 11, 13, 15, 15, 13, 11, 9]
    assert b.names[b.cell("d15")] == "d15"


def test_arc_b2_three_rows_per_cell() -> None:
    b = default_board()
    rows = b.rows()
    assert len(rows) == 24  # 8 strips in each of the three directions
    per_cell = Counter(c for row in rows for c in row)
    assert all(per_cell[c] == 3 for c in range(96))
    # each row is a straight strip: consecutive cells along it are neighbours
    for row in rows:
        assert len(row) in (9, 11, 13, 15)
    a2 = b.cell("a2")
    through = [row for row in rows if a2 in row]
    assert sorted(len(r) for r in through) == [9, 9, 15]
    assert b.rows_mask[a2] == sum(1 << c for c in set().union(*through))


def test_arc_b1_sides_and_rim_cells() -> None:
    b = default_board()
    names = {s: [b.names[c] for c in b.sides[s]] for s in SIDES}
    assert names["S"] == ["a2", "a4", "a6", "a8"]
    assert names["N"] == ["h2", "h4", "h6", "h8"]
    assert names["NE"] == ["e15", "f13", "g11", "h9"]
    assert names["NW"] == ["e1", "f1", "g1", "h1"]


@pytest.mark.skipif(not SHARED.exists(), reason="shared/rules not beside the project")
def test_arc_b1_matches_the_shared_transcription() -> None:
    b = default_board()
    for line in SHARED.read_text().splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "side":
            assert [b.names[c] for c in b.sides[f[1].rstrip(":")]] == f[2:]
            continue
        c = b.cell(f[0])
        assert b.coords[c] == tuple(int(v) for v in f[1:4])
        assert [b.names[m] for m in b.neighbours[c]] == f[4:]


def _broken(old: str, new: str) -> str:
    assert old in BOARD_TEXT
    return BOARD_TEXT.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("cell a1   -4 -1  3   b2 a2", "cell a1   -4 -1  3   b2 a2 zz9", "neighbour zz9 is not a cell"),
        ("cell a1   -4 -1  3   b2 a2", "cell a1   -4 -1  3   b2", "neighbour a2 (by the coordinates)"),
        ("cell a1   -4 -1  3   b2 a2", "cell a1   -4 -1  3   b2 a2 b1", "b1 does not share an edge"),
        ("cell a1   -4 -1  3   b2 a2", "cell a1   -4 -1  5   b2 a2", "x+y+z is 0, it must be -1"),
        ("cell a1   -4 -1  3   b2 a2", "cell a1   -4 -1  x   b2 a2", "not whole numbers"),
        ("cell a2 ", "cell a1 ", "cell a1 is given twice"),
        ("cell a1   -4 -1  3   b2 a2", "dot a1", "unknown entry 'dot'"),
        ("side S  a2 a4 a6 a8", "", "side S is missing"),
        ("side S  a2 a4 a6 a8", "side S  a2 a4 a6 a8 b2", "b2 has three neighbours"),
        ("side S  a2 a4 a6 a8", "side S  a2 a4 a6", "rim cell a8"),
        ("side N  h2 h4 h6 h8", "side N  h2 h4 h6 h8 a2", "a2 is already on side S"),
    ],
)
def test_broken_board_files_name_the_problem(old: str, new: str, message: str) -> None:
    with pytest.raises(BoardFileError) as err:
        parse_board(_broken(old, new), "test.txt")
    assert message in str(err.value)
    assert str(err.value).startswith("test.txt")


def test_asymmetric_neighbours_are_reported() -> None:
    # drop a2 from a3's list but keep a3 in a2's: a3 misses a neighbour by the coordinates
    with pytest.raises(BoardFileError, match="a3: its neighbour a2"):
        parse_board(_broken("cell a3   -4  0  2   b4 a4 a2", "cell a3   -4  0  2   b4 a4"))


def test_empty_and_unreadable_board_files(tmp_path: Path) -> None:
    with pytest.raises(BoardFileError, match="no cells"):
        parse_board("# nothing\n")
    with pytest.raises(BoardFileError, match="cannot read board file"):
        load_board(tmp_path / "missing.txt")
    path = tmp_path / "board.txt"
    path.write_text(BOARD_TEXT)
    assert load_board(path).names == default_board().names


def test_distances_to_goal() -> None:
    b = default_board()
    north = b.side_mask("N")
    dist = b.distances_to(north)
    assert dist[b.cell("h4")] == 0
    assert dist[b.cell("h3")] == 1
    assert max(dist) > 0 and min(dist) == 0
