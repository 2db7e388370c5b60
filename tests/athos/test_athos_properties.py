"""Property tests over random playouts for 2, 3, 4 players and teams (ATH-P1, ATH-B3, ATH-T3, ...)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.core.errors import IllegalActionError
from palaestra.core.record import Record
from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import MOVE, NONE, RUBBLE

from .helpers import cut_off_monks, random_playout

CONFIGS = [
    {"players": 2, "round_limit": 6},
    {"players": 3, "round_limit": 5},
    {"players": 4, "round_limit": 5},
    {"players": 4, "teams": True, "round_limit": 5},
    {"players": 2, "round_limit": 5, "bare_stone": True, "handicap_player": 1, "handicap_tiles": 6},
    # every variant at once (ATH-V1 + ATH-V2 + ATH-V3), seats in another order (ATH-S2)
    {
        "players": 4,
        "teams": True,
        "bare_stone": True,
        "handicap_player": 2,
        "handicap_tiles": 3,
        "order": "EBDA",
        "round_limit": 4,
    },
]
SETTINGS = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_invariants_hold_in_every_reached_state(options: dict[str, object], seed: int) -> None:
    """ATH-P1 in every state; ATH-B3 at most 16 tiles per terrain; ATH-T3 one monk per field
    outside the movement phase; scores and returns well formed."""
    game = AthosGame(**options)
    final, reached = random_playout(game, seed)
    assert final.is_terminal()
    for s in reached:
        assert cut_off_monks(s) == []  # ATH-P1
        per_terrain = [0] * 5
        for f in range(s.board.n):
            if s.tile[f] != NONE:
                per_terrain[s.tile_terrain[f]] += 1
        assert max(per_terrain) <= 16  # ATH-B3
        assert [16 - k for k in per_terrain] == s.supply
        if s.phase != MOVE:
            assert all(s.occupants[f] <= 1 for f in range(s.board.n))  # ATH-T3
        on_board = sum(1 for x in s.stone if x >= 0) + len(s.stacked)  # ATH-T7: stones may stack
        assert sum(s.stones_left) + on_board == 2 * game.num_players
        ev = s.evaluate()
        assert all(-1.0 <= x <= 1.0 for x in ev)
        assert len(s.observation_tensor(0)) == game.observation_shape()[0]
    r = final.returns()
    assert len(r) == game.num_players and abs(sum(r)) < 1e-9
    assert max(r) > min(r) or len(set(final.side_ranks())) == 1


@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS[:4], ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_legal_actions_are_exactly_the_legal_ones(options: dict[str, object], seed: int) -> None:
    """legal_actions() == every id that is_legal accepts; apply_action rejects the others; every
    action refused for ATH-P1 really cuts a monk off, every offered blocking action does not."""
    game = AthosGame(**options)
    _, reached = random_playout(game, seed)
    rng = random.Random(seed)
    sample = rng.sample(reached[:-1], min(6, len(reached) - 1))
    for s in sample:
        legal = s.legal_actions()
        assert legal == sorted(set(legal))
        everything = [a for a in range(game.num_distinct_actions()) if s.is_legal(a)]
        assert everything == legal
        for a in legal:
            child = s.clone()
            child.apply_action(a)
            assert cut_off_monks(child) == []
        illegal = [a for a in range(game.num_distinct_actions()) if a not in set(legal)]
        for a in rng.sample(illegal, 40):
            before = s.to_json()
            with pytest.raises(IllegalActionError):
                s.apply_action(a)
            assert s.to_json() == before
        for a in illegal:
            if "ATH-P1" in s.explain_illegal(a):
                child = s.clone()
                child._apply(a)
                assert cut_off_monks(child) != [], s.action_to_string(a)


@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_records_replay_and_json_round_trips(options: dict[str, object], seed: int) -> None:
    """Records replay to the same state; to_json and to_position round-trip."""
    game = AthosGame(**options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = Record.start(game)
    checked = 0
    while not state.is_terminal():
        record.apply(state, rng.choice(state.legal_actions()))
        if rng.random() < 0.05:
            assert game.state_from_json(state.to_json()) == state
            again = game.state_from_position(state.to_position())
            assert again.to_position() == state.to_position()
            assert again.legal_actions() == state.legal_actions()
            checked += 1
    replayed = Record.from_json(record.to_json()).replay()
    assert replayed == state
    assert replayed.returns() == state.returns()
    record.check_result(replayed)
    assert game.state_from_json(state.to_json()) == state


def test_round_limit_bounds_the_game() -> None:
    """ATH-E3: a random game ends at the round limit at the latest; max_game_length bounds it."""
    game = AthosGame(players=2, round_limit=3)
    final, reached = random_playout(game, 7)
    assert final.is_terminal() and final.round <= 3
    assert len(reached) - 1 <= game.max_game_length()
    assert all(s.tile[f] != RUBBLE or s.occupants[f] == 0 for s in reached for f in range(s.board.n))
