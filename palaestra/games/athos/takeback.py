"""Athos's undo policy (``State.can_take_back``; declared in ``info.py``).

Athos has no chance and no hidden information, and nobody else acts during a turn, so a player
may take back any of their own actions of the current turn (steps, flips, end-move, an Athos
stone, placements) until the turn ends with ``end-turn`` (ATH-T9), which is final. The handicap
placements (ATH-V2) are a phase of their own: they can be taken back while it lasts, not once the
first turn has begun.
"""

from __future__ import annotations

from palaestra.core.game import State


def can_take_back(before: State, action: int) -> bool:
    """May the player who plays ``action`` in ``before`` take it back while still to move?"""
    if before.action_to_string(action) == "end-turn":
        return False
    after = before.clone()
    after.apply_action(action)
    if after.is_terminal() or before.current_player != after.current_player:
        return False
    b, a = before.to_position(), after.to_position()
    if b["round"] != a["round"]:
        return False
    return bool((b["phase"] == "handicap") == (a["phase"] == "handicap"))
