"""What Athos tells the AI: the evaluation of a position and its weights (docs/athos.md, *Scores,
returns, evaluation*; docs/ai.md, *Levels*; the AI levels themselves are declared in info.py).
The rules never use this module: their distances are the rubble-free ones of ATH-E3
(``AthosState.distances``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from palaestra.games.athos.constants import FLIP_COST, Phase

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

#: larger than any distance on a board
UNREACHABLE = 1 << 20
#: the remaining distance of a side with all monks arrived: minus this share of the points its
#: finisher kept (the ATH-E2 tie-break)
KEPT_POINTS_WEIGHT = 0.5
#: the distance difference per side member that evaluates to tanh(1), about 0.76
DISTANCE_SCALE = 30.0


def flip_distances(state: AthosState) -> list[int]:
    """Distance of every node to the summit for the AI, counting rubble as passable at a cost.

    Entering an open field (or the summit) costs 1, entering a rubble tile 5 (flip it open for 4
    points, then step, ATH-T5), and a rubble tile under an Athos stone cannot be entered (it is
    never flipped again, ATH-T7). A wall of rubble then lengthens a path by at most what it costs
    to flip through it. A shortest-path search with a bucket per distance (the costs are small
    whole numbers), from the summit outwards: the cost of entering ``w`` from ``v`` is that of
    ``w``, so going outwards a node's neighbours get its distance plus its own cost."""
    b = state.board
    dist = [UNREACHABLE] * b.size
    summit = b.summit
    dist[summit] = 0
    rubble = state.rubble
    stone = state.stone
    adj = b.adj
    buckets: list[list[int]] = [[summit]]
    d = 0
    while d < len(buckets):
        for w in buckets[d]:
            if dist[w] != d:
                continue
            if rubble[w]:
                if stone[w] >= 0:
                    continue
                nd = d + FLIP_COST + 1
            else:
                nd = d + 1
            for v in adj[w]:
                if nd < dist[v]:
                    dist[v] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(v)
        d += 1
    return dist


def evaluate(state: AthosState) -> list[float]:
    """How far each side is from the summit against the opponents, in (-1, 1).

    A side's remaining distance is the sum over its monks in play of :func:`flip_distances`
    (arrived monks count 0): rubble counts as a detour or as the flip through it, whichever is
    shorter. A side that has brought in all its monks counts minus half the movement points its
    finisher kept (ATH-E2 ranks such sides by those points; during that player's movement
    phase, the points left). The value is ``tanh(diff / (30 * members))`` of the difference
    between the opponents' mean and the own side's: it does not saturate, so a search still
    tells a large lead from a larger one."""
    g = state.game
    distance = flip_distances(state)
    monks = state.monks
    remaining = [float(sum(distance[v] for p in g.members[s] for v in monks[p])) for s in range(g.num_sides)]
    for p in state.finishers:
        moving = state.phase == Phase.MOVE and state.seat == p
        kept = state.points if moving else (state.unused[p] or 0)
        remaining[g.side_of[p]] = -KEPT_POINTS_WEIGHT * kept
    out = []
    for p in range(g.num_players):
        s = g.side_of[p]
        others = [remaining[o] for o in range(g.num_sides) if o != s]
        diff = sum(others) / len(others) - remaining[s]
        out.append(math.tanh(diff / (DISTANCE_SCALE * len(g.members[s]))))
    return out
