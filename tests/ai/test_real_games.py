"""The agents and the arena on the real games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.ai import make_agent
from palaestra.ai.arena import run_match
from palaestra.core.record import Record
from tests.ai.real import SETUPS, load, random_position, setup_id

SPECS = [
    "greedy",
    "beginner",
    "mcts:iterations=15,rollout_depth=3",
    "mcts:iterations=15,rollout_depth=0,widen=1,order=eval",
    "casual",
    "expert:iterations=15,time=none",
]


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), spec=st.sampled_from(SPECS))
def test_agents_play_legal_actions_in_real_games(
    setup: tuple[str, dict[str, object]], seed: int, spec: str
) -> None:
    game = load(*setup)
    rng = random.Random(seed)
    state = random_position(game, rng, 120)
    if state is None:
        return
    before = state.to_json()
    agent = make_agent(spec, seed=seed)
    action = agent.select_action(state)
    assert action in state.legal_actions()
    assert state.to_json() == before
    for a, value in agent.analyse(state, top=3):
        assert a in state.legal_actions()
        assert -1.0 - 1e-9 <= value <= 1.0 + 1e-9


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_evaluate_is_a_value_per_player_in_range(setup: tuple[str, dict[str, object]]) -> None:
    game = load(*setup)
    rng = random.Random(1)
    for _ in range(10):
        state = random_position(game, rng, 200)
        if state is None:
            continue
        values = state.evaluate()
        assert len(values) == game.num_players
        assert all(-1.0 <= v <= 1.0 for v in values)


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_mcts_reproduces_its_moves_in_real_games(setup: tuple[str, dict[str, object]]) -> None:
    game = load(*setup)

    def moves(seed: int) -> list[int]:
        state = random_position(game, random.Random(3), 30)
        assert state is not None
        agent = make_agent("mcts:iterations=25,rollout_depth=2", seed=seed)
        out = []
        rng = random.Random(seed)
        for _ in range(4):
            if state.is_terminal():
                break
            if state.is_chance_node():
                a = state.sample_chance(rng)
            else:
                a = agent.select_action(state)
                out.append(a)
            state.apply_action(a)
        return out

    assert moves(5) == moves(5)


@pytest.mark.parametrize("setup", SETUPS[:2], ids=setup_id)
def test_arena_on_real_games_records_replay(setup: tuple[str, dict[str, object]], tmp_path: Path) -> None:
    game = load(*setup)
    result = run_match(game, ["greedy", "beginner"], 2, seed=9, record_dir=tmp_path)
    assert not result.failures
    for o in result.outcomes:
        assert o.record is not None
        rec = Record.load(o.record)
        state = rec.replay()
        rec.check_result(state)
        assert state.returns() == o.returns
