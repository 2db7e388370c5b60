"""The real games for the agent tests: the setups played, and random positions reached in them."""

from __future__ import annotations

import random
from typing import Any

from palaestra.core.game import Game, State, random_playout
from palaestra.core.registry import load_game

SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("agamemnon", {}),
    ("archimedes", {}),
    ("archimedes", {"players": 3}),
    ("athos", {}),
    ("athos", {"players": 3}),
    ("athos", {"players": 4}),
    ("athos", {"players": 4, "teams": True}),
]


def setup_id(setup: tuple[str, dict[str, Any]]) -> str:
    name, options = setup
    return name + "".join(f"-{k}{v}" for k, v in options.items())


def load(name: str, options: dict[str, Any]) -> Game:
    return load_game(name, **options)


def random_position(game: Game, rng: random.Random, max_plies: int) -> State | None:
    """A position after up to ``max_plies`` random actions, at a decision node (``None``: game over)."""
    state = game.new_initial_state(rng.randrange(10**6))
    random_playout(state, rng, rng.randrange(max_plies))
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return None if state.is_terminal() else state
