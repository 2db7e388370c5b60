"""Playing levels: ``beginner``, ``casual``, ``strong``, ``expert``.

A level is an agent spec chosen per game (and player count) the first time the level agent sees
a state of that game. The table below is the single source of truth; docs/ai.md explains it and
gives the measured strength. Parameters given to a level (``expert:workers=2``, ``strong:time=3``)
override those of its spec. As a level is a different kind of agent in different games, a
parameter that the level's agent for the game at hand does not take, but another agent does
(``strong:iterations=150`` where ``strong`` is greedy), is left out for that game; a parameter
that no agent takes is an error.
"""

from __future__ import annotations

import inspect
from typing import Any

from palaestra.ai.base import AGENTS, Agent, make_agent, parse_spec, register_agent
from palaestra.core.errors import OptionError
from palaestra.core.game import State

LEVEL_NAMES = ("beginner", "casual", "strong", "expert")

#: level -> game name (or "*" for any game) -> agent spec
LEVELS: dict[str, dict[str, str]] = {
    "beginner": {
        "*": "greedy:epsilon=0.5",
    },
    "casual": {
        "*": "greedy:noise=0.02",
        "archimedes/3": "greedy:epsilon=0.25",
        "athos": "greedy:epsilon=0.15",
        "athos/3": "greedy:epsilon=0.25",
    },
    "strong": {
        "*": "mcts:iterations=300,rollout_depth=20",
        "archimedes": "mcts:iterations=300,rollout_depth=0,c=0.02",
        "archimedes/3": "greedy:noise=0.02",
        "athos": "greedy",
    },
    "expert": {
        "*": "mcts:time=9,iterations=5000,rollout_depth=20",
        "archimedes": "mcts:time=9,iterations=3000,rollout_depth=0,c=0.02,contempt=0.2",
        "archimedes/3": "mcts:time=9,iterations=6000,rollout_depth=0,c=0.02,contempt=0.2",
        "athos": "turn:width=3,replies=3,cap=100,reply_cap=100,time=6",
        "athos/3": "turn:width=5,replies=4,cap=100,reply_cap=100,time=6",
        "athos/4": "turn:width=5,replies=4,cap=100,reply_cap=100,time=6",
    },
}


def level_spec(level: str, game_name: str, num_players: int = 2) -> str:
    """The agent spec of ``level`` for a game (keys ``"game/players"`` beat ``"game"`` beat ``"*"``)."""
    table = LEVELS[level]
    for key in (f"{game_name}/{num_players}", game_name, "*"):
        if key in table:
            return table[key]
    raise OptionError(f"level {level!r} has no agent for {game_name!r}")


class LevelAgent(Agent):
    """A level: the agent of ``LEVELS[level]`` for the game being played."""

    def __init__(self, level: str, seed: int | None = None, **overrides: Any) -> None:
        super().__init__(seed)
        if level not in LEVELS:
            raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
        self.level = level
        self.name = level
        self.overrides = overrides
        self._agent: Agent | None = None
        self._for: tuple[str, int] | None = None

    def agent_for(self, state: State) -> Agent:
        """The agent that plays this level in ``state``'s game (made on first use)."""
        key = (state.game.name, state.game.num_players)
        if self._agent is None or self._for != key:
            name, params = parse_spec(level_spec(self.level, *key))
            taken = _parameters(name)
            for param, value in self.overrides.items():
                if taken is None or param in taken:
                    params[param] = value
                elif not any(param in (_parameters(other) or ()) for other in AGENTS):
                    raise OptionError(f"{self.level}: no agent takes the parameter {param!r}")
            spec = name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
            self._agent = make_agent(spec, seed=self.seed)
            self._for = key
        return self._agent

    def select_action(self, state: State) -> int:
        return self.agent_for(state).select_action(state)

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        return self.agent_for(state).analyse(state, top)

    def reset(self) -> None:
        super().reset()
        if self._agent is not None:
            self._agent.reset()

    def close(self) -> None:
        if self._agent is not None:
            self._agent.close()


def _parameters(agent_name: str) -> set[str] | None:
    """The keyword parameters agent ``agent_name`` takes (``None``: any, or unknown agent)."""
    factory = AGENTS.get(agent_name)
    if factory is None:
        return None
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.name != "seed"}


def _level_factory(level: str) -> Any:
    def factory(seed: int | None = None, **overrides: Any) -> LevelAgent:
        return LevelAgent(level, seed, **overrides)

    return factory


for _level in LEVEL_NAMES:
    register_agent(_level, _level_factory(_level))
