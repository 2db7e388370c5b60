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
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING

from palaestra.games.athos import _fast
from palaestra.games.athos.constants import FLIP_COST, arrival_bonus
from palaestra.games.athos.tiles import cut_off_text, held_tile_text, loose_tiles, rubble_cuts_off, tile_on

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

#: a step: the node it enters, its action id (-1: none asked) and the node it leaves
Step = tuple[int, int, int]


# --- ATH-T1: six movement points, one per step of one of the mover's monks ----------------------
def own_monk(state: AthosState, u: int) -> str | None:
    """ATH-T1: a step moves one of the mover's monks."""
    if u in state.monks[state.seat]:
        return None
    return f"no monk of yours stands on {state.board.names[u]}"


def points_for(state: AthosState, cost: int) -> bool:
    """ATH-T1, ATH-T5: the mover has the points a move costs: a step one, a flip four."""
    return state.points >= cost


def no_points_text(state: AthosState, cost: int) -> str:
    """Why the mover cannot pay ``cost`` (:func:`points_for`)."""
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
def _after_step(state: AthosState, v: int) -> tuple[int, int]:
    """The mover's points and the arrivals after a step to ``v`` (ATH-T1: it costs a point; ATH-T6:
    an arrival leaves play and adds its bonus), described, not played."""
    arrived = len(state.arrivals)
    if v == state.board.summit:
        return state.points - 1 + arrival_bonus(arrived), arrived + 1
    return state.points - 1, arrived


def separable_steps(state: AthosState, steps: Iterable[Step]) -> list[Step]:
    """ATH-T3, ATH-T10: the steps of ``steps`` after which the movement can still end with no
    ordinary field holding two monks (searched only where a field is or becomes shared)."""
    can_end = _fast.movement_can_end
    if state.crowded:
        return [s for s in steps if can_end(state, (s[2], s[0]), *_after_step(state, s[0]))]
    occupants, n = state.occupants, state.board.n
    return [
        s
        for s in steps
        if not occupants[s[0]] or s[0] >= n or can_end(state, (s[2], s[0]), *_after_step(state, s[0]))
    ]


def separable_flips(state: AthosState, fields: list[int]) -> list[int]:
    """ATH-T3, ATH-T10: the tiles of ``fields`` after whose flip (four points fewer, the field's
    rubble turned) the movement can still end with no ordinary field holding two monks."""
    if not state.crowded:
        return fields
    points = state.points - FLIP_COST
    out = []
    for f in fields:
        rubble = state.rubble[:]
        rubble[f] = not rubble[f]
        if _fast.movement_can_end(state, points=points, rubble=rubble):
            out.append(f)
    return out


def _crowded_text(state: AthosState, fields: list[int], after: str) -> str:
    names = state.board.names
    return (
        f"after {after} the monks on {', '.join(names[x] for x in fields)} could not be separated"
        f"{' with the points left' if after == 'this step' else ''}, "
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
    why = own_monk(state, u) or (None if points_for(state, 1) else no_points_text(state, 1))
    if why is None and not enterable(state, [(v, -1, u)]):
        why = f"field {state.board.names[v]} holds rubble (ATH-T2)"
    if why is None and not separable_steps(state, [(v, -1, u)]):
        why = _crowded_text(state, _fast.crowded_fields(state, (u, v)), "this step")
    return why


def flip_problem(state: AthosState, f: int) -> str | None:
    """ATH-T5 (four points, a tile without monk or stone), ATH-P1 (rubble cuts no monk off),
    ATH-T10: why the mover may not flip the tile on ``f``."""
    why = None if points_for(state, FLIP_COST) else no_points_text(state, FLIP_COST)
    why = why or tile_on(state, f, "flip")
    if why is None and not loose_tiles(state, (f,)):
        why = held_tile_text(state, f, "flip", "ATH-T5")
    if why is None and rubble_cuts_off(state, (f,)):
        why = cut_off_text(state, f)
    if why is None and not separable_flips(state, [f]):
        why = _crowded_text(state, _fast.crowded_fields(state), "the flip")
    return why


def steps(state: AthosState, out: list[int]) -> None:
    """The legal steps, added to ``out``: every step of a mover's monk to a neighbour (the
    candidates) that the predicates of :func:`step_problem` allow."""
    if not points_for(state, 1):
        return
    candidates = chain.from_iterable(map(state.game.steps_from.__getitem__, set(state.monks[state.seat])))
    out.extend(map(itemgetter(1), separable_steps(state, enterable(state, candidates))))


def flips(state: AthosState, out: list[int]) -> None:
    """The legal flips, added to ``out``: every tile on the board (the candidates) that the
    predicates of :func:`flip_problem` allow."""
    if not points_for(state, FLIP_COST):
        return
    start = state.game.first_id["flip"]
    loose = loose_tiles(state, state.tiled_fields())
    cut_off = rubble_cuts_off(state, loose)
    if cut_off:
        loose = [f for f in loose if f not in cut_off]
    out.extend(map(start.__add__, separable_flips(state, loose)))
