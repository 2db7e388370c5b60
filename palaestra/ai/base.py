"""The agent protocol, the random agent, agent specs and the registry of agents.

An agent is made from a *spec* (``make_agent(spec, seed)``):

* a name: ``random``, ``greedy``, ``mcts``, or a level ``beginner``, ``casual``, ``strong``,
  ``expert`` (see :mod:`palaestra.ai.levels` and docs/ai.md);
* optionally followed by ``:`` and comma-separated parameters: ``mcts:iterations=500,c=1.2``,
  ``greedy:epsilon=0.2``, ``expert:workers=2``. Values are read as ``none``, ``true``/``false``,
  whole numbers, decimals, or else text.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from palaestra.core.errors import OptionError
from palaestra.core.game import Game, State


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

    def close(self) -> None:
        """Release resources (worker processes); the agent stays usable."""
        return None


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def select_action(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


AgentFactory = Callable[..., Agent]

AGENTS: dict[str, AgentFactory] = {"random": RandomAgent}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make ``factory(seed=..., **params)`` available as spec ``name`` (tests, plug-ins)."""
    AGENTS[name] = factory


def parse_value(text: str) -> Any:
    """A parameter value of a spec: none, true/false, int, float, or the text itself."""
    low = text.strip().lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(low)
    except ValueError:
        pass
    try:
        return float(low)
    except ValueError:
        return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=500,c=1.2"`` -> ``("mcts", {"iterations": 500, "c": 1.2})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"agent parameter {part!r} of {spec!r} is not of the form key=value")
        params[key.strip().replace("-", "_")] = parse_value(value)
    return name.strip().lower(), params


def split_specs(text: str) -> list[str]:
    """A comma-separated list of agent specs whose parameters may also be comma-separated:
    ``"mcts:iterations=300,c=0.1,random"`` -> ``["mcts:iterations=300,c=0.1", "random"]``.

    A part of the form ``key=value`` (no ``:`` before its ``=``) continues the previous spec."""
    specs: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, _ = part.partition("=")
        if eq and ":" not in key and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def game_heuristic(game: Game, name: str) -> Callable[[State], list[float]]:
    """The heuristic ``name`` that ``game`` declares (``HEURISTICS`` of the ``heuristic`` module of
    the game's package, e.g. ``palaestra.games.NAME.heuristic``): a function ``state ->``
    one value per player in [-1, 1], used by agents instead of ``State.evaluate``. The module is
    found from the game's class, never from the name, so no agent names a game."""
    package = type(game).__module__.rpartition(".")[0]
    target = package + ".heuristic"
    try:
        module = importlib.import_module(target)
    except ModuleNotFoundError as err:
        if err.name != target:
            raise
        table: dict[str, Any] = {}
    else:
        table = getattr(module, "HEURISTICS", {})
    if name not in table:
        known = ", ".join(sorted(table)) or "none"
        raise OptionError(f"{game.name} has no heuristic {name!r} (its heuristics: {known})")
    fn: Callable[[State], list[float]] = table[name]
    return fn


def _ensure_registered() -> None:
    # The richer agents live in their own modules (which import this one); load them on demand.
    if "mcts" not in AGENTS or "turn" not in AGENTS or "openspiel-mcts" not in AGENTS:
        import palaestra.ai.greedy
        import palaestra.ai.levels
        import palaestra.ai.mcts
        import palaestra.ai.spiel  # OpenSpiel itself is imported when such an agent is made
        import palaestra.ai.turn  # noqa: F401


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from its spec: ``random``, ``greedy``, ``mcts:iterations=500``, ``expert`` ..."""
    _ensure_registered()
    name, params = parse_spec(spec)
    try:
        factory = AGENTS[name]
    except KeyError:
        raise OptionError(f"unknown agent {name!r} (agents: {', '.join(sorted(AGENTS))})") from None
    try:
        return factory(seed=seed, **params)
    except TypeError as err:
        raise OptionError(f"bad parameters for agent {name!r}: {err}") from None
