"""Property tests on random playouts of every variant combination (AGA-T1, AGA-T2, AGA-V1..V3):
legal ends, legal_actions against is_legal/apply_action, records, JSON and positions round-trip."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.core.errors import IllegalActionError
from palaestra.core.game import CHANCE, sample_outcome
from palaestra.core.record import Record
from palaestra.core.registry import load_game
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState

COMBINATIONS: list[dict[str, Any]] = [
    dict(zip(("loom", "oracle", "defying"), flags, strict=True))
    for flags in itertools.product((False, True), repeat=3)
]
COMBINATIONS += [
    {"loom": True, "setup": "III,I,IV"},
    {"loom": True, "oracle": True, "setup": "IV,II,I", "first": 1},
    {"first": 1, "defying": True},
]
IDS = ["-".join(f"{k}={v}" for k, v in c.items() if v) or "plain" for c in COMBINATIONS]


def check_node(state: AgamemnonState, rng: random.Random, deep: bool) -> None:
    """legal_actions never offers an illegal action; apply_action rejects every other id unchanged."""
    game = state.game
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and legal
    limit = game.max_chance_outcomes() if state.current_player == CHANCE else game.num_distinct_actions()
    assert all(0 <= a < limit for a in legal)
    for a in legal:
        assert state.is_legal(a)
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(p > 0 for _, p in outcomes)
    others = [a for a in range(-2, game.num_distinct_actions() + 3) if a not in set(legal)]
    sample = others if deep else rng.sample(others, min(12, len(others)))
    before = state.to_json() if deep else None
    n = len(state.history)
    for a in sample:
        assert not state.is_legal(a)
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(a)
        assert str(err.value)
    assert len(state.history) == n
    if before is not None:
        assert state.to_json() == before
    for bad in (True, 1.0, "1"):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # type: ignore[arg-type]


def check_end(state: AgamemnonState) -> None:
    game = state.game
    assert state.is_terminal() and state.legal_actions() == []
    assert state.tiles_placed == 30
    assert state.pool(0) == [] and state.pool(1) == [] and state.hand == []
    board = game.board
    empty = [s for s in range(board.num_spaces) if state.tile_at(s) is None]
    if game.loom:
        assert len(empty) == 3 and state.out_of_play in empty
    else:
        assert len(empty) == 2
    assert len(state.history) <= game.max_game_length()
    p0, p1 = state.scores()
    assert state.returns() == ([1.0, -1.0] if p0 > p1 else [-1.0, 1.0] if p1 > p0 else [0.0, 0.0])
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)


@pytest.mark.slow
@pytest.mark.parametrize("options", COMBINATIONS, ids=IDS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_reach_a_legal_end_and_everything_round_trips(
    options: dict[str, Any], seed: int
) -> None:
    game = AgamemnonGame(**options)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    record = Record.start(game, seed=seed)
    step = 0
    while not state.is_terminal():
        check_node(state, rng, deep=step % 23 == 0)
        if step % 7 == 0:
            check_round_trips(state)
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        record.apply(state, action)
        step += 1
    check_end(state)
    check_round_trips(state)
    # a record replays to the same state, also after a trip through JSON
    replayed = Record.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert replayed.to_json() == state.to_json()
    record.check_result(replayed)


def check_round_trips(state: AgamemnonState) -> None:
    game = state.game
    # to_json / state_from_json: the full state
    doc = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(doc)
    assert again.to_json() == state.to_json()
    assert again.legal_actions() == state.legal_actions()
    assert again.scores() == state.scores()
    assert again.current_player == state.current_player
    # clone is independent and equal
    clone = state.clone()
    assert clone.to_json() == state.to_json()
    if clone.legal_actions():
        clone.apply_action(clone.legal_actions()[-1])
        assert clone.to_json() != state.to_json()
        assert again.to_json() == state.to_json()
    # positions: to_position / state_from_position
    position = json.loads(json.dumps(state.to_position()))
    from_pos = game.state_from_position(position)
    assert from_pos.to_position() == position
    # as `palaestra score FILE` reads it: the game built from the position's own options
    via_options = load_game("agamemnon", **position.get("options", {})).state_from_position(position)
    assert via_options.to_position() == position
    assert from_pos.scores() == state.scores()
    assert from_pos.score_details() == state.score_details()
    assert from_pos.is_terminal() == state.is_terminal()
    if not state.aside and not state.named_stacks:
        # no set-aside tiles or named stacks pending: the position is the whole state
        assert from_pos.legal_actions() == state.legal_actions()
        assert from_pos.current_player == state.current_player
        if state.is_chance_node():
            assert from_pos.chance_outcomes() == state.chance_outcomes()


def test_sample_chance_is_reproducible_from_the_seed() -> None:
    game = AgamemnonGame(loom=True)
    a = game.new_initial_state(seed=7)
    b = game.new_initial_state(seed=7)
    for _ in range(3):
        x, y = a.sample_chance(), b.sample_chance()
        assert x == y
        a.apply_action(x)
        b.apply_action(y)
        while not a.is_chance_node():
            a.apply_action(a.legal_actions()[0])
            b.apply_action(b.legal_actions()[0])
