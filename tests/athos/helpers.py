"""Shared helpers of the Athos tests: positions by hand and an independent path-rule check."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from typing import Any

from palaestra.games.athos import AthosGame
from palaestra.games.athos.board import Board
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


def reaching_summit(board: Board, rubble: Collection[int]) -> set[int]:
    """Every node with a path to the summit avoiding the fields in ``rubble`` (plain search)."""
    seen = {board.summit}
    stack = [board.summit]
    while stack:
        u = stack.pop()
        for v in board.adj[u]:
            if v not in seen and v not in rubble:
                seen.add(v)
                stack.append(v)
    return seen


def all_reach_summit(board: Board, rubble: Collection[int], monks: Iterable[int]) -> bool:
    """ATH-P1 by a plain search: every monk field reaches the summit avoiding ``rubble``."""
    seen = reaching_summit(board, rubble)
    return all(m in seen for m in monks)


def cut_off_monks(state: AthosState) -> list[int]:
    """Monks in play with no path to the summit over non-rubble fields (plain search, no engine code)."""
    rubble = {f for f in range(state.board.n) if state.tile[f] == RUBBLE}
    seen = reaching_summit(state.board, rubble)
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
