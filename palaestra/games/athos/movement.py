"""Athos, the movement phase (RULINGS.md ATH-T1..T6, ATH-T10): each ruling once, as a predicate
that changes nothing.

A predicate returns ``None`` when its ruling allows the move, else why not (a sentence that
cites the ruling); :func:`enterable` takes the steps to ask about and returns those it allows
(the form both callers need). :func:`step_problem`, :func:`flip_problem` and
:func:`end_move_problem` compose the predicates for one move (``AthosState.problem``), and
:func:`steps` and :func:`flips` compose the same predicates over every candidate
(``legal_actions``). The position after a step or a flip is described to
``_fast.movement_can_end``, never played.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from palaestra.games.athos import _fast
from palaestra.games.athos.constants import FLIP_COST, OPEN, arrival_bonus
from palaestra.games.athos.tiles import cut_off_text, held_tile_text, loose_tiles, rubble_allowed

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

#: a step: the node it enters and anything that goes with it (an action id)
Step = tuple[int, int]


# --- ATH-T1: six movement points, one per step of one of the mover's monks ----------------------
def own_monk(state: AthosState, u: int) -> str | None:
    """ATH-T1: a step moves one of the mover's monks."""
    if u in state.monks[state.seat]:
        return None
    return f"no monk of yours stands on {state.board.names[u]}"


def points_for(state: AthosState, cost: int) -> str | None:
    """ATH-T1, ATH-T5: a step costs one movement point, a flip four."""
    if state.points >= cost:
        return None
    if cost == 1:
        return "no movement points left"
    return f"a flip costs {cost} movement points, you have {state.points} (ATH-T5)"


# --- ATH-T2, ATH-T4: no step into rubble ---------------------------------------------------------
def enterable(state: AthosState, steps: Iterable[Step]) -> list[Step]:
    """ATH-T2: the steps of ``steps`` that enter no rubble (a field showing rubble may not be
    entered or crossed; ATH-T4: start fields may, and so may the summit)."""
    rubble = state.rubble
    return [step for step in steps if not rubble[step[0]]]


# --- ATH-T3, ATH-T10: monks share a field only while the movement goes on ----------------------
def can_end_after_step(state: AthosState, u: int, v: int) -> str | None:
    """ATH-T3, ATH-T10: after the step from ``u`` to ``v`` the movement can still end with no
    ordinary field holding two monks (ATH-T6: an arrival adds its bonus to the points)."""
    b = state.board
    if not state.crowded and (v >= b.n or not state.occupants[v]):
        return None  # nobody shares a field after it
    monks = list(state.monks[state.seat])
    arrived = len(state.arrivals)
    points = state.points - 1
    if v == b.summit:
        monks.remove(u)
        points += arrival_bonus(arrived)
        arrived += 1
    else:
        monks[monks.index(u)] = v
    if _fast.movement_can_end(state, monks, points, arrived):
        return None
    crowded = ", ".join(b.names[x] for x in _fast.crowded_fields(state, monks))
    return (
        f"after this step the monks on {crowded} could not be separated with the points left, "
        "and no ordinary field may hold two monks when the movement ends (ATH-T3)"
    )


def can_end_after_flip(state: AthosState, f: int) -> str | None:
    """ATH-T3, ATH-T10: while monks share a field, after the flip of the tile on ``f`` (four
    points fewer, the field's rubble turned) the movement can still end without."""
    if not state.crowded:
        return None
    rubble = state.rubble[:]
    rubble[f] = not rubble[f]
    if _fast.movement_can_end(state, points=state.points - FLIP_COST, rubble=rubble):
        return None
    crowded = ", ".join(state.board.names[x] for x in _fast.crowded_fields(state))
    return (
        f"after the flip the monks on {crowded} could not be separated, "
        "and no ordinary field may hold two monks when the movement ends (ATH-T3)"
    )


def end_move_problem(state: AthosState) -> str | None:
    """ATH-T3: the movement ends with no ordinary field holding two monks."""
    if not state.crowded:
        return None
    fields = ", ".join(state.board.names[x] for x in _fast.crowded_fields(state))
    return f"{fields} holds two monks; the movement cannot end so (ATH-T3)"


# --- the moves of the movement, composed ---------------------------------------------------------
def step_problem(state: AthosState, u: int, v: int) -> str | None:
    """ATH-T1, T2, T3, T10: why the mover may not step a monk from ``u`` to the neighbour ``v``."""
    why = own_monk(state, u) or points_for(state, 1)
    if why is None and not enterable(state, [(v, -1)]):
        why = f"field {state.board.names[v]} holds rubble (ATH-T2)"
    return why or can_end_after_step(state, u, v)


def flip_problem(state: AthosState, f: int) -> str | None:
    """ATH-T5 (four points, a tile without monk or stone), ATH-P1 (rubble cuts no monk off),
    ATH-T10: why the mover may not flip the tile on ``f``."""
    why = points_for(state, FLIP_COST)
    if why is None and not loose_tiles(state, (f,)):
        why = held_tile_text(state, f, "flip", "ATH-T5")
    if why is None and state.tile[f] == OPEN and not rubble_allowed(state, (f,)):
        why = cut_off_text(state, f)
    return why or can_end_after_flip(state, f)


def steps(state: AthosState, out: list[int]) -> None:
    """The legal steps, added to ``out``: every step of a mover's monk to a neighbour (the
    candidates) that the predicates of :func:`step_problem` allow."""
    if points_for(state, 1) is not None:
        return
    out_of = state.board.out
    for u in set(state.monks[state.seat]):
        out.extend([e for v, e in enterable(state, out_of[u]) if can_end_after_step(state, u, v) is None])


def flips(state: AthosState, out: list[int]) -> None:
    """The legal flips, added to ``out``: every tile on the board (the candidates) that the
    predicates of :func:`flip_problem` allow."""
    if points_for(state, FLIP_COST) is not None:
        return
    start = state.game.first_id["flip"]
    loose = loose_tiles(state, state.tiled_fields())
    tile = state.tile
    allowed = set(rubble_allowed(state, [f for f in loose if tile[f] == OPEN]))
    out.extend(
        [
            start + f
            for f in loose
            if (tile[f] != OPEN or f in allowed) and can_end_after_flip(state, f) is None
        ]
    )
