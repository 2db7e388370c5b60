"""Agamemnon knowledge for the AI: heuristics the searches may use instead of ``State.evaluate``.

``HEURISTICS`` maps a name to a function ``state -> [value of player 0, value of player 1]`` in
[-1, 1], comparable with ``returns()``; an agent names one with ``eval=NAME``
(``mcts:eval=outlook``, docs/ai.md). The AI finds this table through the game's package
(``palaestra.games.<game>.heuristic``), so nothing in ``palaestra/ai`` names a game.

``outlook`` judges what every string is likely to *become*, not only who leads it now
(``State.evaluate``: live score plus a soft share ``points * d / (|d| + 1)`` of every led string):

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

from palaestra.core.game import State
from palaestra.games.agamemnon.game import _LEADERS, _OCC, _PASS, END, FORCE, STRENGTH, AgamemnonState

#: squashing scale of the outlook value (points)
OUTLOOK_SCALE = 10.0


def outlook(state: State) -> list[float]:
    """Each string's likely end value for its leader (see the module docstring), squashed."""
    assert isinstance(state, AgamemnonState)
    if state._phase == END:
        return state.returns()
    maps = state._maps
    if maps is None:
        return [0.0, 0.0]
    if not maps.part_list:
        maps.index()
    m = state._masks
    free = 0
    for s in state._free:
        free |= 1 << s
    occ = m[_OCC]
    passable = m[_PASS]
    leaders = m[_LEADERS]
    a1, a2, a4, b1, b2, b4 = m[1], m[2], m[3], m[10], m[11], m[12]
    own0, own1 = m[0], m[9]
    memo = maps.memo
    total = 0.0
    for k, part, cshift in maps.part_list:
        key = passable & part
        if not key:
            continue
        strings = memo.get(cshift | key)
        if strings is None:
            strings = maps.strings_in(k, cshift, key)
        for ends_mask, _conns, n in strings:
            s = ends_mask & occ
            if k == STRENGTH:
                d = (
                    (s & a1).bit_count()
                    + 2 * (s & a2).bit_count()
                    + 4 * (s & a4).bit_count()
                    - (s & b1).bit_count()
                    - 2 * (s & b2).bit_count()
                    - 4 * (s & b4).bit_count()
                )
            elif k == FORCE:
                d = (s & own0).bit_count() - (s & own1).bit_count()
            else:
                t = s & leaders
                d = 0
                if t:
                    for r in range(4, 9):  # the highest rank present decides (AGA-SC4)
                        x, y = t & m[r], t & m[r + 9]
                        if x and not y:
                            d = 9 - r
                            break
                        if y and not x:
                            d = r - 9
                            break
            if not d:
                continue
            f = (ends_mask & free).bit_count()
            if f == 0:
                total += n if d > 0 else -n
            else:
                ad = abs(d)
                v = n * ad / (ad + 1.0 + 0.5 * f)
                total += v if d > 0 else -v
    value = math.tanh(total / OUTLOOK_SCALE)
    return [value, -value]


HEURISTICS: dict[str, Callable[[State], list[float]]] = {"outlook": outlook}
