"""The position format of issue 2: reading, checking, writing (AGA-B1, AGA-B2, AGA-C1, AGA-T1)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from palaestra.core.errors import PositionError
from palaestra.core.game import CHANCE
from palaestra.core.record import load_state_file
from palaestra.games.agamemnon import AgamemnonGame


def doc(tiles: list[tuple[int, int, str]], **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "agamemnon",
        "board": "front",
        "tiles": [{"space": s, "player": p, "tile": t} for s, p, t in tiles],
    }
    out.update(fields)
    return out


def read(document: Any) -> Any:
    return AgamemnonGame().state_from_position(document)


FOUR = [(4, 0, "W3"), (0, 0, "A"), (9, 1, "W2"), (12, 1, "WEFT")]


def test_a_position_gives_a_mid_game_state_with_pools_and_turn() -> None:
    state = read(doc(FOUR, to_move=0))
    # 4 tiles: orange placed 1 + 1, black 2; orange is in its second turn with one tile to go
    assert state.tiles_placed == 4
    assert state.mover == 0 and state.current_player == CHANCE  # orange's last tile is drawn next
    assert "A" not in state.pool(0) and "W3" not in state.pool(0) and len(state.pool(0)) == 13
    assert state.pool(1).count("W2") == 1 and state.pool(1).count("WEFT") == 1
    out = state.to_position()
    assert out["board"] == "front" and out["to_move"] == 0
    assert out["tiles"] == sorted(doc(FOUR)["tiles"], key=lambda t: t["space"])
    assert len(out["connections"]) == 49
    assert read(out).to_position() == out


def test_connections_default_to_the_printed_board_and_may_be_given() -> None:
    state = read(doc(FOUR, to_move=0))
    printed = state.to_position()["connections"]
    assert [0, 1, "strength"] in printed
    again = read(doc(FOUR, to_move=0, connections=printed))
    assert again.to_position() == state.to_position()
    # a Warp may have swapped string tiles: kinds can move, the counts stay 17/16/16
    swapped = [list(c) for c in printed]
    i = swapped.index([0, 1, "strength"])
    j = swapped.index([1, 5, "force"])
    swapped[i][2], swapped[j][2] = "force", "strength"
    moved = read(doc(FOUR, to_move=0, connections=swapped))
    kinds = {(a, b): k for a, b, k in moved.connection_kinds()}
    assert kinds[(0, 1)] == "force" and kinds[(1, 5)] == "strength"


def test_to_move_is_optional_and_sets_the_starting_player() -> None:
    default = read(doc([(4, 0, "W3")]))
    assert default.mover == 1  # 1 tile: orange started, black's turn
    black_first = read(doc([(4, 1, "W3")], to_move=0))
    assert black_first.game.first == 1 and black_first.mover == 0
    assert black_first.to_position()["options"]["first"] == 1


def test_empty_positions_start_the_game() -> None:
    front = read({"game": "agamemnon", "tiles": []})
    assert front.tiles_placed == 0 and front.current_player == CHANCE and front.mover == 0
    loom = read({"game": "agamemnon", "board": "loom", "tiles": []})
    assert loom.phase == "setup"
    assert read(loom.to_position()).phase == "setup"


def test_loom_positions_infer_the_set_up_from_the_connections() -> None:
    game = AgamemnonGame(loom=True, setup="II,IV,I")
    state = game.new_initial_state()
    position = state.to_position()
    assert position["options"]["setup"] == "II,IV,I"
    del position["options"]["setup"]
    again = AgamemnonGame().state_from_position(position)
    assert again.out_of_play == 32  # strength II, force IV, leadership I: III is empty
    assert again.to_position()["options"]["setup"] == "II,IV,I"


def test_the_end_of_a_game_is_a_position_too() -> None:
    game = AgamemnonGame(defying=True)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    position = state.to_position()
    assert position["to_move"] is None and len(position["tiles"]) == 30
    end = game.state_from_position(position)
    assert end.is_terminal() and end.returns() == state.returns()


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "a position is a JSON object"),
        ({"game": "athos", "tiles": []}, "this position is of 'athos'"),
        (doc([], colour="red"), "unknown field 'colour'"),
        (doc([], board="back"), "'board' is 'front' or 'loom'"),
        ({"game": "agamemnon", "tiles": {"space": 1}}, "'tiles' is a list"),
        ({"game": "agamemnon", "tiles": [{"space": 1, "tile": "A"}]}, "tile 1: write it as"),
        (doc([(40, 0, "A")]), "tile 1: there is no space 40 on the front board"),
        (doc([(4, 2, "A")]), "tile 1: player is 0 (orange) or 1 (black)"),
        (doc([(4, 0, "Z")]), "tile 1: unknown tile 'Z'"),
        (doc([(4, 0, "A"), (4, 1, "B")]), "tile 2: space 4 already holds tile 1"),
        (
            doc([(1, 0, "W2"), (2, 0, "W2"), (3, 0, "W2"), (5, 1, "A"), (6, 1, "B"), (7, 1, "C")]),
            "orange has 2 W2 tile(s), not 3",
        ),
        (doc([(1, 0, "A"), (2, 0, "B")]), "with 2 tiles placed and orange starting, orange has placed 1"),
        (doc([(1, 0, "A")], to_move=3), "'to_move' is 0 (orange) or 1 (black)"),
        (doc([], connections=[[0, 1, "strength"]]), "0-4 is missing"),
        (doc([], connections=[[0, 1, "strength"], [1, 0, "strength"]]), "1-0 is given twice"),
        (doc([], connections=[[0, 2, "strength"]]), "there is no connection 0-2 on the front board"),
        (doc([], connections=[[0, 1, "empty"]]), "kind is one of strength, force, leadership"),
        (doc([], connections=[[0, 1]]), "write it as [a, b, kind]"),
        (doc([], board="loom"), None),  # fine: an empty loom waits for its set-up
        (doc([(1, 0, "A")], board="loom"), "needs its 'connections' or the set-up"),
        (doc([(31, 0, "A")], board="loom", options={"setup": "I,II,III"}), "space 31 is out of play"),
        (doc([], options={"setup": "I,II,III"}), "makes no sense on the front board"),
        (doc([], board="front", options={"loom": True}), "options say loom=True"),
        (doc([], options={"oracle": "maybe"}), "bad options"),
        (doc([(1, 0, "A")], warp=1), "does not hold a Warp"),
        (doc([(1, 0, "A")], warp=2), "'warp' names the space"),
        (doc([(1, 0, "A")], hand=["A", "B", "C"]), "has 2 tile(s) left to place this turn, not 3"),
        (doc([(1, 0, "A"), (2, 1, "W3")], hand=["W3"]), "black has no W3 left to hold in hand"),
        (doc([(1, 0, "A")], hand=["Q"]), "'hand' is a list of tile codes"),
        (doc([(1, 0, "A")], hand=["B"], options={"defying": True}), "nothing is drawn"),
    ],
)
def test_bad_positions_are_refused_with_a_clear_message(document: Any, message: str | None) -> None:
    if message is None:
        read(document)
        return
    with pytest.raises(PositionError, match=re.escape(message)):
        read(document)


def test_front_connections_must_keep_the_string_tile_counts() -> None:
    printed = read(doc([])).to_position()["connections"]
    changed = [list(c) for c in printed]
    changed[0][2] = "force"
    with pytest.raises(PositionError, match="17 strength, 16 force and 16 leadership"):
        read(doc([], connections=changed))


def test_hand_and_pending_warp_round_trip() -> None:
    state = read(doc(FOUR, to_move=0, hand=["WARP"]))
    assert state.phase == "place" and state.hand == ["WARP"]
    state.apply_action(state.string_to_action("WARP@5"))
    position = state.to_position()
    assert position["warp"] == 5 and "hand" not in position
    again = read(position)
    assert again.phase == "warp" and again.legal_actions() == state.legal_actions()


def test_score_command_reads_a_position_file(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc(FOUR, to_move=0)), encoding="utf-8")
    state, record = load_state_file(path)
    assert record is None
    details = state.score_details()
    assert details["scores"] == state.scores()
    assert {s["kind"] for s in details["strings"]} == {"strength", "force", "leadership"}
