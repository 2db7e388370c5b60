"""Perft: count the leaf nodes of the move tree, the way chess engines check move generators.

Every player action counts as one move (a pass included). Chance nodes are not counted as plies:
``perft`` expands every outcome (so it counts leaves of the full tree); games with chance are
better checked on positions without pending chance.
"""

from __future__ import annotations

from palaestra.core.game import State


def perft(state: State, depth: int) -> int:
    """Number of leaf nodes ``depth`` player moves below ``state`` (terminal nodes count as leaves)."""
    if depth == 0 or state.is_terminal():
        return 1
    if state.is_chance_node():
        total = 0
        for action, _ in state.chance_outcomes():
            child = state.clone()
            child.apply_action(action)
            total += perft(child, depth)
        return total
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """``perft`` split by first move: ``[(move, leaves below it), ...]`` (depth >= 1)."""
    out = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        out.append((state.action_to_string(action), perft(child, depth - 1)))
    return out
