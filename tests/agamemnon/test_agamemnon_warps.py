"""Loom Warps as amended on 2026-11-25 (AGA-T4, AGA-B2, AGA-V1): a string tile moves only onto an
empty connection printed with the set-up's fourth class and never onto one touching the out-of-play
space; records of games played by the earlier rulings (option ``rules``) still replay."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.core.errors import PositionError, RecordError
from palaestra.core.game import RULES_ORIGINAL
from palaestra.core.record import Record
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState
from palaestra.games.agamemnon.moves import SWAP_START
from palaestra.games.agamemnon.tiles import SETUP_NAMES


def loom_position(
    setup: str,
    tiles: list[tuple[int, int, str]],
    warp: int,
    moved: tuple[str, str] | None = None,
    **options: Any,
) -> AgamemnonState:
    """A loom position with orange's Warp on ``warp`` awaiting its swap; ``moved`` = (from, to):
    an earlier Warp moved the string tile of connection ``from`` onto the empty ``to``."""
    game = AgamemnonGame(loom=True, setup=setup, **options)
    conns = [[a, b, k] for a, b, k in game.new_initial_state().connection_kinds()]
    if moved is not None:
        index = {f"{a}-{b}": i for i, (a, b, _) in enumerate(conns)}
        i, j = index[moved[0]], index[moved[1]]
        assert conns[j][2] == "empty"
        conns[i][2], conns[j][2] = "empty", conns[i][2]
    doc = {
        "game": "agamemnon",
        "board": "loom",
        "options": {"setup": setup, **options},
        "connections": conns,
        "tiles": [{"space": s, "player": p, "tile": t} for s, p, t in tiles],
        "to_move": 0,
        "warp": warp,
    }
    return game.state_from_position(doc)


def offered(state: AgamemnonState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# orange A on 5, black's Warp on 0 and W1 on 10, orange's Warp on 1 (turn 3, orange to swap)
TILES = [(5, 0, "A"), (0, 1, "WARP"), (10, 1, "W1"), (1, 0, "WARP")]
# the same with orange's Warp on 27, beside the out-of-play space 31 of set-up I,II,III
TILES_27 = [(5, 0, "A"), (0, 1, "WARP"), (10, 1, "W1"), (27, 0, "WARP")]


def test_aga_t4_a_warp_never_moves_a_tile_back_onto_a_connection_an_earlier_warp_emptied() -> None:
    # issue 16: set-up I,II,III; black's Warp on 0 moved the strength tile of 0-1 onto 0-4 (class IV)
    state = loom_position("I,II,III", TILES, warp=1, moved=("0-1", "0-4"))
    assert offered(state) == ["noswap", "swap 1-4 1-5"]
    # a legal action is explained in the core's words
    assert state.explain_illegal(state.string_to_action("swap 1-4 1-5")) == "swap 1-4 1-5 is legal"
    for text in ("swap 0-1 1-4", "swap 0-1 1-5"):
        action = state.string_to_action(text)
        assert not state.is_legal(action)
        assert state.explain_illegal(action) == (
            f"{text}: a string tile may move only onto an empty connection of the fourth class "
            "(AGA-T4): 0-1 is of class I, left empty by an earlier Warp"
        )
    # the earlier rulings (records of games played before the amendment) allowed them
    old = loom_position("I,II,III", TILES, warp=1, moved=("0-1", "0-4"), rules=RULES_ORIGINAL)
    assert offered(old) == ["noswap", "swap 0-1 1-4", "swap 0-1 1-5", "swap 1-4 1-5"]


def test_aga_t4_aga_b2_a_warp_beside_the_out_of_play_space_cannot_use_its_connections() -> None:
    # set-up I,II,III: 31 is out of play; 27-31 is of class IV but touches it
    state = loom_position("I,II,III", TILES_27, warp=27)
    assert state.out_of_play == 31
    assert offered(state) == ["noswap", "swap 22-27 26-27"]
    action = state.string_to_action("swap 26-27 27-31")
    assert state.explain_illegal(action).endswith("(AGA-T4): 27-31 touches the out-of-play space 31 (AGA-B2)")
    old = loom_position("I,II,III", TILES_27, warp=27, rules=RULES_ORIGINAL)
    assert "swap 26-27 27-31" in offered(old)


def test_aga_b2_a_position_with_a_string_tile_beside_the_out_of_play_space_is_refused() -> None:
    with pytest.raises(PositionError, match="27-31 touches the out-of-play space 31"):
        loom_position("I,II,III", TILES, warp=1, moved=("26-27", "27-31"))


def play_loom(setup: int, seed: int) -> AgamemnonState:
    """A random loom game in which every Warp swaps when it can, checking at every step that the
    swaps offered move string tiles only onto fourth-class connections away from the out-of-play
    space, and that this space's connections stay empty and in no string (AGA-T4, AGA-B2)."""
    game = AgamemnonGame(loom=True, setup=SETUP_NAMES[setup])
    board = game.board
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = state.out_of_play
    assert out is not None
    fourth = board.labels[board.incident[out][0]]
    outside = set(board.incident[out])
    swapped = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if state.phase == "warp":
            swaps = [a for a in legal if a >= SWAP_START]
            kinds = [k for _, _, k in state.connection_kinds()]
            for a in swaps:
                c1, c2, _ = board.pairs[a - SWAP_START]
                for target in (c1, c2):
                    if kinds[target] == "empty":
                        text = state.action_to_string(a)
                        assert board.labels[target] == fourth and target not in outside, text
            if swaps:
                legal = swaps
                swapped += 1
        state.apply_action(rng.choice(legal))
        kinds = [k for _, _, k in state.connection_kinds()]
        assert all(kinds[c] == "empty" for c in outside)
    cut = {board.connections[c] for c in outside}
    assert not any(tuple(c) in cut for s in state.strings() for c in s["connections"])
    assert swapped <= 4
    return state


@pytest.mark.parametrize("setup", range(24), ids=SETUP_NAMES)
def test_aga_t4_aga_b2_random_loom_games_offer_only_fourth_class_warp_targets(setup: int) -> None:
    play_loom(setup, seed=setup)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 23), st.integers(0, 2**32 - 1))
def test_aga_t4_aga_b2_property_no_warp_target_outside_the_fourth_class(setup: int, seed: int) -> None:
    play_loom(setup, seed)


def old_record_with_a_now_illegal_swap() -> Record:
    """A record of a game played by the rulings of 2026-11-23 in which a Warp moved a string tile
    onto a connection the amended AGA-T4 refuses, written as old records were (no version)."""
    for seed in range(50):
        game = AgamemnonGame(loom=True, setup="I,II,III", rules=RULES_ORIGINAL)
        current = AgamemnonGame(loom=True, setup="I,II,III")
        record = Record.start(game, seed=seed)
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        illegal_now = False
        while not state.is_terminal():
            if state.is_chance_node():
                record.apply(state, state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if state.phase == "warp":
                targets = current.warp_targets(-1 if state.out_of_play is None else state.out_of_play)
                kinds = [k for _, _, k in state.connection_kinds()]
                pairs = [game.board.pairs[a - SWAP_START][:2] for a in legal[1:]]
                banned = [
                    a
                    for a, pair in zip(legal[1:], pairs, strict=True)
                    if any(kinds[c] == "empty" and not targets >> c & 1 for c in pair)
                ]
                if banned:
                    illegal_now = True
                    legal = banned
            record.apply(state, rng.choice(legal))
        if illegal_now:
            doc = record.to_json()
            del doc["options"]["rules"]  # records written before 2026-11-25 name no version
            return Record.from_json(doc)
    raise AssertionError("no random game used a now-illegal swap")  # pragma: no cover


def test_aga_t4_an_old_record_with_a_now_illegal_swap_replays_by_its_rules() -> None:
    record = old_record_with_a_now_illegal_swap()
    assert "rules" not in record.options
    state = record.replay()
    assert state.is_terminal() and state.game.options["rules"] == RULES_ORIGINAL
    record.check_result(state)
    # the same moves under the amended rulings stop at the swap, saying why
    record.options["rules"] = "2026-11-25"
    with pytest.raises(RecordError, match=r"does not replay: swap .*onto an empty connection of the fourth"):
        record.replay()


def test_aga_t4_new_records_name_the_rules_they_are_played_by() -> None:
    record = Record.start(AgamemnonGame(loom=True))
    assert record.to_json()["options"]["rules"] == "2026-11-25"
    assert record.make_game().options["rules"] == "2026-11-25"
