"""OpenSpiel's MCTSBot as an arena agent (``openspiel-mcts``, palaestra/ai/spiel.py)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")  # the research extra; CI installs it

from palaestra.ai import make_agent
from palaestra.ai.arena import run_match
from palaestra.ai.spiel import OpenSpielMCTSAgent
from palaestra.core.errors import OptionError
from palaestra.core.registry import load_game
from tests.ai.real import random_position


@pytest.mark.slow
@pytest.mark.parametrize("name", ["agamemnon", "archimedes"])
def test_openspiel_mcts_plays_whole_legal_games_in_the_arena(name: str) -> None:
    game = load_game(name, **({"move_limit": 40} if name == "archimedes" else {}))
    result = run_match(game, ["openspiel-mcts:simulations=8", "random"], 2, seed=3)
    assert result.failures == []  # an illegal action or an exception would lose the game here
    assert len(result.outcomes) == 2
    for outcome in result.outcomes:
        assert outcome.returns is not None and sorted(outcome.returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_mcts_uses_its_simulation_budget_and_is_reproducible() -> None:
    game = load_game("agamemnon")
    state = random_position(game, random.Random(5), 6)
    assert state is not None
    before = state.to_json()
    chosen = []
    for budget in (10, 60):
        agent = make_agent(f"openspiel-mcts:simulations={budget}", seed=11)
        assert isinstance(agent, OpenSpielMCTSAgent)
        action = agent.select_action(state)
        assert action in state.legal_actions()
        assert agent.last_simulations == budget
        chosen.append(action)
    assert state.to_json() == before  # searched a copy
    again = make_agent("openspiel-mcts:simulations=60", seed=11)
    assert again.select_action(state) == chosen[1]


@pytest.mark.slow
def test_openspiel_mcts_time_budget_is_cpu_time_and_a_larger_one_searches_more() -> None:
    game = load_game("agamemnon")
    state = random_position(game, random.Random(2), 4)
    assert state is not None
    counts = []
    for budget in (0.05, 0.4):
        agent = make_agent(f"openspiel-mcts:time={budget}", seed=1)
        assert isinstance(agent, OpenSpielMCTSAgent)
        agent.select_action(state)
        assert agent.last_seconds >= budget  # stops only once the budget is spent ...
        assert agent.last_seconds < budget + 1.0  # ... checked before every simulation
        counts.append(agent.last_simulations)
    assert counts[1] > 3 * counts[0] > 0


def test_openspiel_mcts_analyse_gives_legal_actions_with_values_in_range() -> None:
    state = random_position(load_game("agamemnon"), random.Random(9), 10)
    assert state is not None
    rows = make_agent("openspiel-mcts:simulations=40", seed=2).analyse(state, top=3)
    assert 1 <= len(rows) <= 3
    for action, value in rows:
        assert action in state.legal_actions()
        assert -1.0 <= value <= 1.0


@pytest.mark.parametrize(
    "spec",
    [
        "openspiel-mcts:simulations=0",
        "openspiel-mcts:time=-1",
        "openspiel-mcts:rollouts=0",
        "openspiel-mcts:depth=3",
    ],
)
def test_openspiel_mcts_bad_parameters_are_option_errors(spec: str) -> None:
    with pytest.raises(OptionError):
        make_agent(spec, seed=0)
