"""Playing levels: ``beginner``, ``casual``, ``strong``, ``expert``.

A level is an agent spec chosen per game (and player count) the first time the level agent sees
a state of that game: the spec the game declares (``GameInfo.levels``, in its ``info.py``), else
the generic one below. docs/ai.md explains them and gives the measured strength. Parameters
given to a level (``expert:workers=2``, ``strong:time=3``) override those of its spec. As a level
is a different kind of agent in different games, a parameter that the level's agent for the game
at hand does not take, but another agent does (``strong:iterations=150`` where ``strong`` is
greedy), is left out for that game; a parameter that no agent takes is an error.
"""

from __future__ import annotations

import inspect
from typing import Any

from palaestra.ai.base import AGENTS, Agent, make_agent, parse_spec, register_agent
from palaestra.core.errors import OptionError
from palaestra.core.game import State
from palaestra.core.registry import game_info

LEVEL_NAMES = ("beginner", "casual", "strong", "expert")

#: level -> the generic agent spec, for games that declare none for the level
#: (``GameInfo.levels``, keys ``"level"`` and ``"level/players"``)
LEVELS: dict[str, str] = {
    "beginner": "greedy:epsilon=0.5",
    "casual": "greedy:noise=0.02",
    "strong": "mcts:iterations=300,rollout_depth=20",
    "expert": "mcts:time=9,iterations=5000,rollout_depth=20",
}


def level_spec(level: str, game_name: str, num_players: int = 2) -> str:
    """The agent spec of ``level`` for a game: what the game declares for the level and player
    count, or for the level, else the generic spec of :data:`LEVELS`."""
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
    try:
        declared = game_info(game_name).level_spec(level, num_players)
    except OptionError:  # a game class played without registering it declares nothing
        declared = None
    return declared if declared is not None else LEVELS[level]


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
    declared = getattr(factory, "PARAMETERS", None)  # an agent whose settings are a dataclass
    if declared is not None:
        return set(declared)
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
