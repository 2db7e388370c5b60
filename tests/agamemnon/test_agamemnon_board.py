"""The board data file: counts of the printed board and the loader's checks (AGA-B1, AGA-B2)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from palaestra.core.errors import BoardFileError
from palaestra.games.agamemnon import load_boards, parse_boards
from palaestra.games.agamemnon.board import CLASS_NAMES, KIND_NAMES

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "agamemnon-boards.txt"
PACKAGE_FILE = Path(__file__).resolve().parents[2] / "palaestra" / "games" / "agamemnon" / "boards.txt"


def test_aga_b1_front_board_has_32_spaces_and_49_connections() -> None:
    front = load_boards()["front"]
    assert front.num_spaces == 32
    assert front.num_connections == 49
    counts = Counter(KIND_NAMES[k] for k in front.labels)
    assert counts == {"strength": 17, "force": 16, "leadership": 16}


def test_aga_b2_loom_has_33_spaces_and_66_connections_in_four_classes() -> None:
    loom = load_boards()["loom"]
    assert loom.num_spaces == 33
    assert loom.num_connections == 66
    counts = Counter(CLASS_NAMES[k] for k in loom.labels)
    assert counts == {"I": 19, "II": 15, "III": 17, "IV": 15}


def test_aga_b2_one_out_of_play_space_per_empty_class() -> None:
    loom = load_boards()["loom"]
    # IV empty -> 31, III empty -> 32, II empty -> 3, I empty -> 15
    assert [loom.out_of_play(c) for c in range(4)] == [15, 3, 32, 31]
    for empty in range(4):
        lonely = [s for s in range(33) if all(loom.labels[c] == empty for c in loom.incident[s])]
        assert len(lonely) == 1


def _shared_connections(section: str) -> list[tuple[int, int, str]]:
    out = []
    current = None
    for line in SHARED.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line[1:-1]
            continue
        if current == section:
            a, b, label = line.split()
            out.append((int(a), int(b), label))
    return out


@pytest.mark.skipif(not SHARED.exists(), reason="shared/rules not beside the project")
def test_package_board_is_a_faithful_transcription_of_the_shared_board_file() -> None:
    boards = load_boards()
    for side, names in (("front", KIND_NAMES), ("loom", CLASS_NAMES)):
        board = boards[side]
        mine = [(a, b, names[k]) for (a, b), k in zip(board.connections, board.labels, strict=True)]
        theirs = [(min(a, b), max(a, b), label) for a, b, label in _shared_connections(side)]
        assert mine == theirs


def test_loading_by_path_gives_the_same_boards() -> None:
    by_path = load_boards(PACKAGE_FILE)
    assert by_path["front"] == load_boards()["front"]
    assert by_path["loom"] == load_boards()["loom"]


def test_warp_pairs_are_the_pairs_of_connections_sharing_a_space() -> None:
    front = load_boards()["front"]
    for c1, c2, s in front.pairs:
        assert c1 < c2
        assert s in front.connections[c1] and s in front.connections[c2]
    degrees = [len(x) for x in front.incident]
    assert len(front.pairs) == sum(d * (d - 1) // 2 for d in degrees)


GOOD = PACKAGE_FILE.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("[front]", "[back]"), "unknown section"),
        (lambda t: t.replace("spaces 32", "spaces many"), "spaces N"),
        (lambda t: t.replace("0 1 strength", "0 1 might"), "unknown kind 'might'"),
        (lambda t: t.replace("0 1 I\n", "0 1 V\n"), "unknown class 'V'"),
        (lambda t: t.replace("0 1 strength", "0 40 strength"), "space 40 is out of range"),
        (lambda t: t.replace("0 1 strength", "1 1 strength"), "two different spaces"),
        (lambda t: t.replace("0 4 strength", "1 0 strength"), "connection 0-1 already given"),
        (lambda t: t.replace("0 1 strength", "0 1"), "expected 'SPACE SPACE KIND'"),
        (lambda t: t.replace("0 1 strength", "a b strength"), "spaces are whole numbers"),
        (lambda t: t[: t.rindex("[loom]")], "section [loom] is missing"),
        (
            lambda t: t.replace("0 1 strength\n", "").replace("0 4 strength\n", ""),
            "space 0 has no connection",
        ),
        (lambda t: "0 1 strength\n" + t, "before any section"),
        (lambda t: t.replace("spaces 33\n", ""), "must start with 'spaces N'"),
        # with class IV empty, space 31 would no longer be the only space with only IV connections
        (lambda t: t.replace("26 31 IV", "26 31 I"), "exactly one must"),
    ],
)
def test_a_broken_board_file_raises_board_file_error_naming_the_problem(change: object, message: str) -> None:
    text = change(GOOD)  # type: ignore[operator]
    with pytest.raises(BoardFileError, match=re.escape(message)):
        parse_boards(text, "broken.txt")


def test_board_file_error_names_the_line() -> None:
    text = GOOD.replace("0 1 strength", "0 1 might")
    line = GOOD.splitlines().index("0 1 strength") + 1
    with pytest.raises(BoardFileError, match=f"broken.txt line {line}:"):
        parse_boards(text, "broken.txt")


def test_a_missing_board_file_raises_board_file_error(tmp_path: Path) -> None:
    with pytest.raises(BoardFileError, match="cannot read board file"):
        load_boards(tmp_path / "nope.txt")
