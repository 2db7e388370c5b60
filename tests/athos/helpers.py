"""Shared helpers of the Athos tests: positions by hand and an independent path-rule check."""

from __future__ import annotations

import random
from typing import Any

from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import RUBBLE, AthosState


def position(game: AthosGame | None = None, **fields: Any) -> AthosState:
    """A state from a position document; ``fields`` are the document's fields."""
    g = game or AthosGame()
    doc: dict[str, Any] = {"game": "athos"}
    doc.update(fields)
    return g.state_from_position(doc)


def play(state: AthosState, *moves: str) -> AthosState:
    """Apply moves in notation (each must be legal)."""
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


def cut_off_monks(state: AthosState) -> list[int]:
    """Monks in play with no path to the summit over non-rubble fields (plain BFS, no engine code)."""
    b = state.board
    seen = {b.summit}
    stack = [b.summit]
    while stack:
        u = stack.pop()
        for v in b.adj[u]:
            if v not in seen and state.tile[v] != RUBBLE:
                seen.add(v)
                stack.append(v)
    return [v for ms in state.monks for v in ms if v not in seen]


def random_playout(game: AthosGame, seed: int, limit: int = 100000) -> tuple[AthosState, list[AthosState]]:
    """Play random legal actions; returns the final state and every state reached (clones)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    reached = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < limit:
        state.apply_action(rng.choice(state.legal_actions()))
        reached.append(state.clone())
        steps += 1
    return state, reached
