"""MCTSAgent's parameters: one typed settings dataclass with one parser (issue 19)."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from palaestra.ai import make_agent
from palaestra.ai.evaluators import Contempt, HeuristicEvaluator, PlayoutEvaluator, RolloutEvaluator
from palaestra.ai.mcts import UCB1, MCTSAgent, MCTSSettings
from palaestra.core.errors import OptionError
from palaestra.core.game import State
from tests.ai.games import TTTGame

NAMES = sorted(f.name for f in fields(MCTSSettings))


def test_the_agent_declares_exactly_the_settings_fields() -> None:
    assert frozenset(NAMES) == MCTSAgent.PARAMETERS


def test_defaults_and_typed_values() -> None:
    assert MCTSSettings.parse({}).iterations == 1000
    only_time = MCTSSettings.parse({"time": 2})
    assert only_time.iterations is None and only_time.time == 2.0 and isinstance(only_time.time, float)
    agent = make_agent("mcts:iterations=50,c=1,reuse=false,order=eval", seed=1)
    assert isinstance(agent, MCTSAgent)
    assert agent.settings == MCTSSettings(iterations=50, c=1.0, reuse=False, order="eval")
    # the settings make the search's parts: UCB1 with c, the order judged by evaluate()
    assert agent.selection == UCB1(1.0)
    assert agent.expansion.judge is not None and agent.expansion.judge.name is None


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"iterations": 0}, "iterations is a whole number of at least 1, not 0"),
        ({"iterations": 2.5}, "iterations is a whole number"),
        ({"time": -1}, "time is a number of seconds above 0"),
        ({"c": "high"}, "c is a number, not 'high'"),
        ({"order": "best"}, "order is random or eval"),
        ({"workers": True}, "workers is a whole number"),
        ({"clock": "process"}, "clock is wall or cpu"),
        ({"bogus": 1}, "mcts has no parameter 'bogus'"),
    ],
)
def test_bad_parameters_are_named(params: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        MCTSSettings.parse(params)
    with pytest.raises(OptionError, match=message):
        MCTSAgent(seed=0, **params)


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5000), st.floats(allow_nan=True), st.text(max_size=6)
)


@pytest.mark.slow
@given(st.dictionaries(st.sampled_from([*NAMES, "other", "win_share"]), VALUES, max_size=5))
def test_any_parameters_are_settings_or_an_option_error(params: dict[str, Any]) -> None:
    """Outside input (an agent spec): either valid typed settings or a clear OptionError."""
    try:
        s = MCTSSettings.parse(params)
    except OptionError as err:
        assert "mcts" in str(err)
        return
    assert s.iterations is not None or s.time is not None
    assert s.iterations is None or (isinstance(s.iterations, int) and s.iterations >= 1)
    assert isinstance(s.c, float) and 0.0 <= s.epsilon <= 1.0 and 0.0 <= s.contempt <= 2.0
    assert s.order in ("random", "eval") and s.clock in ("wall", "cpu") and isinstance(s.reuse, bool)
    assert isinstance(s.workers, int) and s.workers >= 1 and s.eval_cap >= 1


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("mcts:iterations=300,rollout_depth=20", RolloutEvaluator),
        ("mcts:iterations=300,rollout_depth=0,c=0.02", HeuristicEvaluator),
        ("mcts:time=0.36,clock=cpu,iterations=none,rollout=playout,c=0.6,terminal=result", PlayoutEvaluator),
    ],
)
def test_a_spec_makes_the_parts_of_the_search(spec: str, kind: type) -> None:
    """The one mapping of a spec's strings to the injected parts (issue 32): the leaf evaluator,
    UCB1 with the spec's ``c``, and an expansion without widening in random order."""
    agent = make_agent(spec, seed=0)
    assert isinstance(agent, MCTSAgent)
    assert type(agent.evaluator) is kind
    assert agent.selection == UCB1(agent.settings.c)
    assert agent.expansion.widen is None and agent.expansion.judge is None
    contempt = make_agent(spec + ",contempt=0.2", seed=0)
    assert isinstance(contempt, MCTSAgent) and isinstance(contempt.evaluator, Contempt)
    assert type(contempt.evaluator.inner) is kind and contempt.evaluator.contempt == 0.2
    if kind is PlayoutEvaluator:
        assert isinstance(agent.evaluator, PlayoutEvaluator) and agent.evaluator.terminal_result


def test_parts_made_elsewhere_are_injected() -> None:
    """An evaluator given to the agent judges every leaf: here one that always favours seat 1."""

    class SeatOne:
        calls = 0

        def prepare(self, root: State) -> None:
            return None

        def evaluate(self, state: State, rng: random.Random) -> list[float]:
            SeatOne.calls += 1
            return [-1.0, 1.0]

    agent = MCTSAgent(seed=0, iterations=30, evaluator=SeatOne(), selection=UCB1(0.0))
    state = TTTGame().new_initial_state()
    agent.select_action(state)
    assert SeatOne.calls == 30
    assert agent.root is not None
    assert all(child.mean(1) == 1.0 for child in agent.root.children.values())
