"""Agamemnon knowledge for the AI: ``evaluate`` (``State.evaluate``) and the heuristics the searches
may use instead of it.

``HEURISTICS`` maps a name to a function ``state -> [value of player 0, value of player 1]`` in
[-1, 1], comparable with ``returns()``; an agent names one with ``eval=NAME``
(``mcts:eval=outlook``, docs/ai.md). The AI finds this table through the game's package
(``palaestra.games.<game>.heuristic``), so nothing in ``palaestra/ai`` names a game.

:func:`evaluate` is the live score margin plus a soft share of every contested string: a string
led by ``d`` spears or tiles counts ``points * d / (|d| + 1)`` for its leader, a leadership string
``0.8 * points``; the value is ``tanh((margin + soft) / 12)`` (kept up to date part by part by
``_fast.py``).

:func:`outlook` judges what every string is likely to *become*, not only who leads it now:

* a string none of whose connection ends is free any more can only change through a Warp swap:
  it counts in full for its leader;
* a string with ``f`` free ends can still be joined (and its lead overturned) by the tiles placed
  there: its leader gets ``points * |d| / (|d| + 1 + f / 2)`` (``d`` the lead in spears, tiles or
  leader rank steps), so a wide lead on a closed string is worth nearly all its points and a
  narrow one on an open string about a third;
* tied strings count nothing.

The sum is squashed as ``tanh(sum / 10)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from palaestra.core.game import State
from palaestra.games.agamemnon import _fast
from palaestra.games.agamemnon._fast import LIVE_POINTS_0, LIVE_POINTS_1, LIVE_SOFT
from palaestra.games.agamemnon.board import FORCE, STRENGTH

if TYPE_CHECKING:
    from palaestra.games.agamemnon.rules import AgamemnonState

#: squashing scale of ``evaluate`` (points)
EVALUATE_SCALE = 12.0
#: squashing scale of the outlook value (points)
OUTLOOK_SCALE = 10.0
#: the lead of a string by kind: spears (strength), tiles (force), leader rank steps (leadership)
_LEAD = {STRENGTH: _fast.spear_lead, FORCE: _fast.tile_lead}


def evaluate(live: list[Any]) -> list[float]:
    """The live score margin plus the soft value of the strings, squashed (see above), from the
    live score of ``_fast.py`` (``AgamemnonState.live_score``)."""
    v = math.tanh((live[LIVE_POINTS_0] - live[LIVE_POINTS_1] + live[LIVE_SOFT]) / EVALUATE_SCALE)
    return [v, -v]


def outlook(state: State) -> list[float]:
    """Each string's likely end value for its leader (see the module docstring), squashed."""
    if state.is_terminal():
        return state.returns()
    maps, m, free_spaces = cast("AgamemnonState", state).fast_position()
    if maps is None:
        return [0.0, 0.0]
    if not maps.part_list:
        maps.index()
    free = 0
    for s in free_spaces:
        free |= 1 << s
    total = 0.0
    for k, part, shifted in maps.part_list:
        key = m[_fast.PASSABLE] & part
        if key:
            total = _add_outlook(
                total, maps.strings_in(k, shifted, key), _LEAD.get(k, _fast.rank_lead), m, free
            )
    value = math.tanh(total / OUTLOOK_SCALE)
    return [value, -value]


def _add_outlook(
    total: float, strings: _fast.Strings, lead: Callable[[int, list[int]], int], m: list[int], free: int
) -> float:
    """``total`` plus the outlook of the strings of one part (``free``: the free spaces, a mask)."""
    occupied = m[_fast.OCCUPIED]
    for ends_mask, _conns, n in strings:
        d = lead(ends_mask & occupied, m)
        if not d:
            continue
        f = (ends_mask & free).bit_count()
        if f == 0:
            total += n if d > 0 else -n
        else:
            ad = abs(d)
            v = n * ad / (ad + 1.0 + 0.5 * f)
            total += v if d > 0 else -v
    return total


HEURISTICS: dict[str, Callable[[State], list[float]]] = {"outlook": outlook}
