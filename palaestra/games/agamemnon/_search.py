"""Agamemnon's fast paths for searches, no rules of their own: the playout
(``AgamemnonState.playout_scores``) and the actions worth searching (``search_actions``).

**The playout.** A *playout* here is the game played on to its end with uniformly random legal
actions, every chance outcome drawn with its probability, except that every Warp declines its swap
(``noswap``): the leaf value of the expert's search (docs/ai.md). Its end position has a simple
distribution:

* every tile is placed by the end (AGA-T1: 30 tiles are placed, both players' fifteen), whatever
  the order of the draws, Oracle stacks, set-asides or Defying choices;
* every placement puts its tile on a uniformly random free space (a random legal placement is a
  drawn code, then a space uniform over the free spaces in play, whatever the code).

So the end position is the tiles still to place (both pools, the mover's drawn and set-aside
tiles) put on the free spaces by a uniformly random one-to-one map, the two spaces left over
staying empty, with the string tiles where they lie now. :func:`playout_scores` draws that map at
once (one sort of the free spaces by random keys) and scores the end position with the fast
scoring (``_fast.points``) instead of playing some four actions per tile through the rules: about
7 times faster from positions of every stage of a game (docs/benchmarks.md).
tests/agamemnon/test_agamemnon_playout.py checks that both give the same distribution of end
scores.

**The actions worth searching.** The two tiles of a turn are drawn before either is placed and may
be placed in either order (AGA-T2): ``X@a`` then ``Y@b`` reaches the position ``Y@b`` then ``X@a``
reaches (a Warp's swap changes string tiles only, never where a tile may go). With two different
tiles in hand a search needs only the placements of the lower code: half of the turn's first
actions, and no position of the end of the turn is lost (the test above checks it turn by turn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from palaestra.games.agamemnon._fast import TILE_MASKS, KindMaps, points
from palaestra.games.agamemnon.board import MAX_SPACES
from palaestra.games.agamemnon.moves import NOSWAP
from palaestra.games.agamemnon.tiles import NUM_CODES

NUM_SLOTS = len(TILE_MASKS)


def tiles_to_place(pools: Sequence[int], mover: int, in_hand: Sequence[int]) -> list[int]:
    """The pool slot of every tile still to place: the pools (``pools[slot]`` tiles each) and the
    mover's tiles drawn or set aside (``in_hand``, codes)."""
    tiles: list[int] = []
    for slot in range(NUM_SLOTS):
        n = pools[slot]
        if n:
            tiles += [slot] * n
    base = NUM_CODES * mover
    tiles += [base + code for code in in_hand]
    return tiles


def playout_scores(
    maps: KindMaps,
    masks: list[int],
    free: Sequence[int],
    tiles: Sequence[int],
    ends: tuple[int, ...],
    random: Callable[[], float],
) -> list[float]:
    """The points of both players once ``tiles`` (pool slots) lie on distinct uniformly random
    spaces of ``free`` (``masks`` is not changed; ``random()`` gives the keys)."""
    spaces = sorted(free, key=lambda _: random())
    placed = [0] * NUM_SLOTS
    for slot, space in zip(tiles, spaces, strict=False):
        placed[slot] |= 1 << space
    m = masks.copy()
    for slot in range(NUM_SLOTS):
        bits = placed[slot]
        if bits:
            for i in TILE_MASKS[slot]:
                m[i] |= bits
    p0, p1 = points(maps, m, ends)
    return [float(p0), float(p1)]


def one_order(actions: list[int], hand: Sequence[int]) -> list[int]:
    """``actions`` (a placement's legal actions, ``hand`` the codes drawn) less the placements of
    the higher of two different tiles in hand (see the module docstring)."""
    if len(hand) != 2 or hand[0] == hand[1]:
        return actions
    first = min(hand) * MAX_SPACES
    return [a for a in actions if first <= a < first + MAX_SPACES or a >= NOSWAP]
