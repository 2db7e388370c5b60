"""Playing levels: ``beginner``, ``casual``, ``strong``, ``expert``.

A level is an agent spec chosen per game (and player count) the first time the level agent sees
a state of that game. The table below is the single source of truth; docs/ai.md explains it and
gives the measured strength. Parameters given to a level (``expert:workers=2``, ``strong:time=3``)
override those of its spec.
"""

from __future__ import annotations

from typing import Any

from palaestra.ai.base import Agent, make_agent, parse_spec, register_agent
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
        "archimedes": "mcts:iterations=100,rollout_depth=0,c=0.1",
        "athos": "greedy:epsilon=0.15",
    },
    "strong": {
        "*": "mcts:iterations=1000,rollout_depth=20",
        "archimedes": "mcts:iterations=300,rollout_depth=8",
        "athos": "greedy",
    },
    "expert": {
        "*": "mcts:time=3,iterations=200000,rollout_depth=20",
        "archimedes": "mcts:time=3,iterations=200000,rollout_depth=8",
        "athos": "mcts:time=2,turn_time=8,iterations=50000,rollout_depth=0,widen=2,order=eval,c=0.05",
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
            params.update(self.overrides)
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


def _level_factory(level: str) -> Any:
    def factory(seed: int | None = None, **overrides: Any) -> LevelAgent:
        return LevelAgent(level, seed, **overrides)

    return factory


for _level in LEVEL_NAMES:
    register_agent(_level, _level_factory(_level))
