"""MCTSAgent's parameters: one typed settings dataclass with one parser (issue 19)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from palaestra.ai import make_agent
from palaestra.ai.mcts import MCTSAgent, MCTSSettings
from palaestra.core.errors import OptionError

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
    assert (agent.iterations, agent.c, agent.reuse, agent.order) == (50, 1.0, False, "eval")


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
@given(st.dictionaries(st.sampled_from([*NAMES, "other"]), VALUES, max_size=5))
def test_any_parameters_are_settings_or_an_option_error(params: dict[str, Any]) -> None:
    """Outside input (an agent spec): either valid typed settings or a clear OptionError."""
    try:
        s = MCTSSettings.parse(params)
    except OptionError as err:
        assert "mcts" in str(err)
        return
    assert s.iterations is not None or s.time is not None or s.turn_time is not None
    assert s.iterations is None or (isinstance(s.iterations, int) and s.iterations >= 1)
    assert isinstance(s.c, float) and 0.0 <= s.epsilon <= 1.0 and 0.0 <= s.contempt <= 2.0
    assert s.order in ("random", "eval") and s.clock in ("wall", "cpu") and isinstance(s.reuse, bool)
    assert isinstance(s.workers, int) and s.workers >= 1 and s.eval_cap >= 1
