"""The agent protocol and the random agent."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from palaestra.core.errors import OptionError
from palaestra.core.game import State


class Agent(ABC):
    """Chooses actions for whichever player is to move. Reproducible for a given seed."""

    name: str = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def select_action(self, state: State) -> int:
        """An action from ``state.legal_actions()`` for ``state.current_player``."""

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        """The agent's best candidate actions with a value each (higher is better for the mover)."""
        actions = state.legal_actions()
        return [(a, 0.0) for a in actions[:top]]

    def reset(self) -> None:
        """Forget anything kept between moves (called at the start of each game)."""
        self.rng = random.Random(self.seed)


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def select_action(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


AGENTS: dict[str, type[Agent]] = {"random": RandomAgent}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from its name (``random``; later levels add ``greedy``, ``mcts``, ...)."""
    try:
        cls = AGENTS[spec]
    except KeyError:
        raise OptionError(f"unknown agent {spec!r} (agents: {', '.join(sorted(AGENTS))})") from None
    return cls(seed=seed)
