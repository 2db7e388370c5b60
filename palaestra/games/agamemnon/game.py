"""Agamemnon on the core protocol: every AGA-* ruling of RULINGS.md (see docs/agamemnon.md).

Design for speed (pure Python): the board is precomputed once (connection ids, incident lists,
Warp swap pairs); a state is a handful of small lists and ints; the position is mirrored in
bitmasks (tiles per player, spear bits, leader ranks, Wefts) so that scoring works on space
bitmasks per string kind with ``int.bit_count`` for the sums. Each kind's connections fall into a
few small parts; the strings of a part, per pattern of tiled spaces, come from a per-game cache
(a flood fill on a miss), and the live score is kept per part (a placement re-scores at most three
parts). The per-kind adjacency masks only change when a Warp swaps string tiles and are shared
(immutable, apart from the cache) between clones.

Action ids (player actions), see docs/agamemnon.md:

* ``code * 33 + space`` — place tile ``code`` (0..9: A B C D E W1 W2 W3 WARP WEFT) on ``space``
* ``330`` — ``noswap``; ``331``/``332`` — ``aside WARP``/``aside WEFT``;
  ``333``..``335`` — ``stack leaders|weavers|warriors``
* ``336 + p`` — ``swap`` of Warp pair ``p`` (the board's pairs of connections sharing a space)

Chance outcomes share the integer range (as in OpenSpiel, ``0 <= id < max_chance_outcomes``):
``0..9`` draw that tile code, ``10..33`` the loom set-up number ``id - 10``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import permutations
from typing import Any

from palaestra.core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
)
from palaestra.core.game import CHANCE, RULES_ORIGINAL, TERMINAL, Game, Option, State, rules_option
from palaestra.games.agamemnon.board import CLASS_NAMES, KIND_NAMES, Board, load_boards

__all__ = ["CLASS_NAMES", "KIND_NAMES", "AgamemnonGame", "AgamemnonState", "Board"]

# --- tiles (AGA-C1) ---------------------------------------------------------------------------
CODES = ("A", "B", "C", "D", "E", "W1", "W2", "W3", "WARP", "WEFT")
CODE_INDEX = {c: i for i, c in enumerate(CODES)}
A, B, C, D, E, W1, W2, W3, WARP, WEFT = range(10)
NUM_CODES = 10
SPEARS = (1, 3, 4, 3, 2, 1, 2, 3, 0, 0)
SUPPLY = (1, 1, 1, 1, 1, 3, 2, 1, 2, 2)
TILES_PER_PLAYER = 15
TOTAL_TILES = 30
#: Oracle stacks (AGA-V2) and the codes in each
STACK_NAMES = ("leaders", "weavers", "warriors")
STACK_CODES = ((A, B, C, D, E), (WARP, WEFT), (W1, W2, W3))
STACK_OF = (0, 0, 0, 0, 0, 2, 2, 2, 1, 1)
#: per stack, 1 for the codes in it (masks a pool's counts)
_STACK_KEEP = tuple(tuple(1 if STACK_OF[c] == st else 0 for c in range(10)) for st in range(3))
#: tiles placed in each of the 16 turns (AGA-T1)
TURN_TILES = (1,) + (2,) * 14 + (1,)
NUM_TURNS = len(TURN_TILES)
PLAYER_NAMES = ("orange", "black")
KIND_LETTERS = "SFL-"
STRENGTH, FORCE, LEADERSHIP, EMPTY = range(4)

# --- action ids --------------------------------------------------------------------------------
MAX_SPACES = 33
NOSWAP = NUM_CODES * MAX_SPACES  # 330
ASIDE_WARP = NOSWAP + 1  # 331
ASIDE_WEFT = NOSWAP + 2  # 332
STACK_BASE = NOSWAP + 3  # 333..335
SWAP_BASE = STACK_BASE + 3  # 336
#: loom set-ups: (strength class, force class, leadership class), classes 0..3 = I..IV
SETUPS: tuple[tuple[int, ...], ...] = tuple(permutations(range(4), 3))
SETUP_NAMES = tuple(",".join(CLASS_NAMES[c] for c in s) for s in SETUPS)
SETUP_BASE = NUM_CODES  # chance ids 10..33
MAX_CHANCE = SETUP_BASE + len(SETUPS)  # 34

# --- phases ------------------------------------------------------------------------------------
SETUP, STACK, DRAW, PLACE, SWAP, END = range(6)
PHASE_NAMES = ("setup", "stack", "draw", "place", "warp", "end")

# --- bitmask slots: per player p at p*9: own tiles, spear bits 1/2/4, leaders A..E -------------
_OWN, _SP1, _SP2, _SP4, _LA = 0, 1, 2, 3, 4
_OCC, _WEFTS, _PASS, _LEADERS = 18, 19, 20, 21
NUM_MASKS = 22
#: slots (offsets within a player's 9) a tile code sets
_CODE_SLOTS = tuple(
    tuple(
        [_OWN]
        + ([_SP1] if SPEARS[c] & 1 else [])
        + ([_SP2] if SPEARS[c] & 2 else [])
        + ([_SP4] if SPEARS[c] & 4 else [])
        + ([_LA + c] if c < 5 else [])
    )
    for c in range(NUM_CODES)
)

# --- observation layout ------------------------------------------------------------------------
OBS_SPACE = 22  # per space: 10 own codes, 10 opponent codes, empty in play, not in play
OBS_SPACES = 0
OBS_CONNS = OBS_SPACES + MAX_SPACES * OBS_SPACE  # 726: 66 connections x 4 kinds
MAX_CONNS = 66
OBS_POOLS = OBS_CONNS + MAX_CONNS * 4  # 990: own pool 10, opponent pool 10 (count / supply)
OBS_HAND = OBS_POOLS + 20  # 1010: drawn tiles (counts)
OBS_ASIDE = OBS_HAND + NUM_CODES  # 1020: set-aside tiles (counts)
OBS_STACKS = OBS_ASIDE + NUM_CODES  # 1030: named Oracle stacks (counts)
OBS_PHASE = OBS_STACKS + 3  # 1033: phase one-hot (6)
OBS_WARP = OBS_PHASE + 6  # 1039: space of the Warp awaiting its swap (33)
OBS_MISC = OBS_WARP + MAX_SPACES  # 1072: mover is me, turn/15, tiles left this turn/2, redraw allowed
OBS_SCORE = OBS_MISC + 4  # 1076: live score me/66, opponent/66
OBS_SIZE = OBS_SCORE + 2  # 1078


_SPACE_BITS = 33  # connection bits of a lookup value start here
_SPACES_MASK = (1 << _SPACE_BITS) - 1
#: entries of a game's strings cache (_KindMaps.memo; cleared when full)
_MEMO_LIMIT = 100_000


class _KindMaps:
    """Per-kind adjacency of one assignment of string tiles to connections (immutable, shared).

    ``look[k][1 << s]`` packs, for kind ``k`` and space ``s``, the mask of the spaces joined to ``s``
    by kind-``k`` connections (low 33 bits) and the mask of those connections (shifted by 33): a
    flood fill needs one dict look-up per space. ``sact[k]``: spaces with a kind-``k`` connection;
    ``allc[k]``: the kind-``k`` connections.

    ``parts[k]``: the components of the kind-``k`` connections with every space passable, each as
    (space mask, connection mask shifted by 33). The strings inside one part depend only on its
    connections and on which of its spaces hold a non-Weft tile, so ``memo`` (one dict per game,
    shared by all its assignments: parts a Warp did not touch keep their entries) caches them under
    ``connection mask << 33 | passable spaces``. A pure cache, bounded in size: the same answer as
    a flood fill; see :meth:`strings_in`.

    ``part_list[j]`` = (kind, space mask, shifted connection mask) numbers the parts of all kinds;
    ``part_at[k][s]`` is the number of the kind-``k`` part holding space ``s`` (-1: none).
    """

    __slots__ = ("allc", "kinds", "look", "memo", "part_at", "part_list", "parts", "sact")

    def __init__(
        self,
        kinds: tuple[int, ...],
        look: tuple[dict[int, int], ...],
        sact: tuple[int, ...],
        allc: tuple[int, ...],
        memo: dict[int, tuple[tuple[int, int, int], ...]],
        parts: tuple[tuple[tuple[int, int], ...], ...] | None = None,
    ) -> None:
        self.kinds = kinds
        self.look = look
        self.sact = sact
        self.allc = allc
        self.memo = memo
        self.parts = parts if parts is not None else tuple(self._parts(k) for k in range(3))
        # built on the first incremental score (``index``): random playouts with Warp swaps never
        # need them
        self.part_list: tuple[tuple[int, int, int], ...] = ()
        self.part_at: tuple[tuple[int, ...], ...] = ()

    def index(self) -> None:
        """Number the parts (``part_list``, ``part_at``) for the incremental score."""
        n = len(self.look[0])
        part_list: list[tuple[int, int, int]] = []
        part_at = []
        for k in range(3):
            at = [-1] * n
            for part, cshift in self.parts[k]:
                x = part
                while x:
                    bit = x & -x
                    x ^= bit
                    at[bit.bit_length() - 1] = len(part_list)
                part_list.append((k, part, cshift))
            part_at.append(tuple(at))
        self.part_list = tuple(part_list)
        self.part_at = tuple(part_at)

    def _parts(self, k: int) -> tuple[tuple[int, int], ...]:
        """The components of the kind-``k`` connections, every space passable: (spaces, connections
        shifted by 33)."""
        t = self.look[k]
        rem = self.sact[k]
        out = []
        while rem:
            comp = acc = 0
            frontier = rem & -rem
            while frontier:
                comp |= frontier
                while frontier:
                    bit = frontier & -frontier
                    acc |= t[bit]
                    frontier ^= bit
                frontier = acc & _SPACES_MASK & ~comp
            rem &= ~comp
            out.append((comp, acc & ~_SPACES_MASK))
        return tuple(out)

    def strings_in(self, k: int, cshift: int, key: int) -> tuple[tuple[int, int, int], ...]:
        """The kind-``k`` strings through the passable spaces ``key`` of the part whose shifted
        connection mask is ``cshift``: for each, the mask of its spaces and connection ends, the
        mask of its connections, and their count."""
        memo = self.memo
        found = memo.get(cshift | key)
        if found is not None:
            return found
        t = self.look[k]
        rem = key
        out = []
        while rem:
            frontier = rem & -rem
            comp = acc = 0
            while frontier:
                comp |= frontier
                while frontier:
                    bit = frontier & -frontier
                    acc |= t[bit]
                    frontier ^= bit
                frontier = acc & key & ~comp
            rem &= ~comp
            conns = acc >> _SPACE_BITS
            out.append(((acc | comp) & _SPACES_MASK, conns, conns.bit_count()))
        result = tuple(out)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[cshift | key] = result
        return result

    @classmethod
    def build(
        cls, board: Board, kinds: tuple[int, ...], memo: dict[int, tuple[tuple[int, int, int], ...]]
    ) -> _KindMaps:
        look: list[dict[int, int]] = [{1 << x: 0 for x in range(board.num_spaces)} for _ in range(3)]
        allc = [0, 0, 0]
        sact = [0, 0, 0]
        for c, (a, b) in enumerate(board.connections):
            k = kinds[c]
            if k == EMPTY:
                continue
            cbit = 1 << (c + _SPACE_BITS)
            look[k][1 << a] |= (1 << b) | cbit
            look[k][1 << b] |= (1 << a) | cbit
            allc[k] |= 1 << c
            sact[k] |= (1 << a) | (1 << b)
        return cls(kinds, tuple(look), tuple(sact), tuple(allc), memo)

    def swapped(self, board: Board, c1: int, c2: int) -> _KindMaps:
        """The maps after a Warp swaps the string tiles of connections ``c1`` and ``c2`` (AGA-T4)."""
        kinds = list(self.kinds)
        k1, k2 = kinds[c1], kinds[c2]
        kinds[c1], kinds[c2] = k2, k1
        look = list(self.look)
        allc = list(self.allc)
        touched: set[int] = set()
        for c, old, new in ((c1, k1, k2), (c2, k2, k1)):
            a, b = board.connections[c]
            cbit = 1 << (c + _SPACE_BITS)
            for k, add in ((old, False), (new, True)):
                if k == EMPTY:
                    continue
                if k not in touched:
                    look[k] = dict(look[k])
                    touched.add(k)
                d = look[k]
                if add:
                    d[1 << a] |= (1 << b) | cbit
                    d[1 << b] |= (1 << a) | cbit
                    allc[k] |= 1 << c
                else:
                    d[1 << a] &= ~((1 << b) | cbit)
                    d[1 << b] &= ~((1 << a) | cbit)
                    allc[k] &= ~(1 << c)
        sact = list(self.sact)
        for k in touched:
            sact[k] = sum(bit for bit, v in look[k].items() if v)
        maps = _KindMaps(tuple(kinds), tuple(look), tuple(sact), tuple(allc), self.memo, self.parts)
        parts = list(self.parts)
        for k in touched:  # the kinds whose connections changed get their own parts
            parts[k] = maps._parts(k)
        maps.parts = tuple(parts)
        return maps


def _lead(k: int, s: int, m: list[int]) -> int:
    """Who leads a string whose tiles stand on the spaces ``s`` (AGA-SC3): >0 player 0, <0 player 1."""
    if k == STRENGTH:
        return (
            (s & m[1]).bit_count()
            + 2 * (s & m[2]).bit_count()
            + 4 * (s & m[3]).bit_count()
            - (s & m[10]).bit_count()
            - 2 * (s & m[11]).bit_count()
            - 4 * (s & m[12]).bit_count()
        )
    if k == FORCE:
        return (s & m[0]).bit_count() - (s & m[9]).bit_count()
    if s & m[_LEADERS]:
        for r in range(4, 9):
            x = s & m[r]
            y = s & m[r + 9]
            if x:
                if not y:
                    return 1
            elif y:
                return -1
    return 0


def _points(maps: _KindMaps, m: list[int], ends: tuple[int, ...]) -> tuple[int, int]:
    """The live score (AGA-SC1..4): string tiles won by each player.

    Strings of kind k are the components of the tiled non-Weft spaces joined by kind-k
    connections, each with every kind-k connection touching it (AGA-SC1), plus single
    connections with no such end. The tiles of a string stand on its spaces and on the far ends
    of its connections (AGA-SC2, AGA-T5).
    """
    p0 = p1 = 0
    occ = m[_OCC]
    passable = m[_PASS]
    own0, own1 = m[0], m[9]
    strings_in = maps.strings_in
    memo = maps.memo
    # strength
    a1, a2, a4, b1, b2, b4 = m[1], m[2], m[3], m[10], m[11], m[12]
    spear0 = a1 | a2 | a4
    spear1 = b1 | b2 | b4
    for part, cshift in maps.parts[STRENGTH]:
        key = passable & part
        if not key:
            continue
        found = memo.get(cshift | key)
        for ends_mask, _, n in found if found is not None else strings_in(STRENGTH, cshift, key):
            s = ends_mask & occ
            # one-sided strings need no sums (weavers alone have no spears: a tie)
            if not s & spear1:
                if s & spear0:
                    p0 += n
                continue
            if not s & spear0:
                p1 += n
                continue
            lead = (
                (s & a1).bit_count()
                + 2 * (s & a2).bit_count()
                + 4 * (s & a4).bit_count()
                - (s & b1).bit_count()
                - 2 * (s & b2).bit_count()
                - 4 * (s & b4).bit_count()
            )
            if lead > 0:
                p0 += n
            elif lead < 0:
                p1 += n
    # force
    covered = 0
    for part, cshift in maps.parts[FORCE]:
        key = passable & part
        if not key:
            continue
        found = memo.get(cshift | key)
        for ends_mask, conns, n in found if found is not None else strings_in(FORCE, cshift, key):
            covered |= conns
            s = ends_mask & occ
            if not s & own1:
                p0 += n
            elif not s & own0:
                p1 += n
            else:
                lead = (s & own0).bit_count() - (s & own1).bit_count()
                if lead > 0:
                    p0 += n
                elif lead < 0:
                    p1 += n
    wefts = m[_WEFTS]
    if wefts:
        # force connections with no tiled non-Weft end: one-connection strings where only Wefts count
        rest = maps.allc[FORCE] & ~covered
        while rest:
            bit = rest & -rest
            rest ^= bit
            s = ends[bit.bit_length() - 1] & wefts
            if s:
                lead = (s & own0).bit_count() - (s & own1).bit_count()
                if lead > 0:
                    p0 += 1
                elif lead < 0:
                    p1 += 1
    # leadership
    leaders = m[_LEADERS]
    if leaders:
        for part, cshift in maps.parts[LEADERSHIP]:
            key = passable & part
            if not key or not leaders & part:
                continue
            found = memo.get(cshift | key)
            for ends_mask, _, n in found if found is not None else strings_in(LEADERSHIP, cshift, key):
                s = ends_mask & leaders
                if s:
                    if not s & own1:
                        p0 += n
                        continue
                    if not s & own0:
                        p1 += n
                        continue
                    for r in range(4, 9):
                        if s & m[r]:
                            if not s & m[r + 9]:
                                p0 += n
                                break
                        elif s & m[r + 9]:
                            p1 += n
                            break
    return p0, p1


def _strings(maps: _KindMaps, m: list[int], ends: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every string as (kind, connection mask, lead) — the complete version of ``_points``."""
    out: list[tuple[int, int, int]] = []
    occ = m[_OCC]
    passable = m[_PASS]
    for k in range(3):
        t = maps.look[k]
        covered = 0
        rem = passable & maps.sact[k]
        while rem:
            frontier = rem & -rem
            comp = acc = 0
            while frontier:
                comp |= frontier
                while frontier:
                    bit = frontier & -frontier
                    acc |= t[bit]
                    frontier ^= bit
                frontier = acc & passable & ~comp
            rem &= ~comp
            conns = acc >> _SPACE_BITS
            covered |= conns
            out.append((k, conns, _lead(k, (acc | comp) & occ & _SPACES_MASK, m)))
        rest = maps.allc[k] & ~covered
        while rest:
            bit = rest & -rest
            rest ^= bit
            out.append((k, bit, _lead(k, ends[bit.bit_length() - 1] & occ, m)))
    return out


# --- incremental strings ---------------------------------------------------------------------
# The live score is kept per part of the board (``_KindMaps.part_list``): a tile on space s can only
# change the strings of the (at most three) parts that hold s, one per kind. One flat list per
# state (copied by clone), built on the first score request and then kept up to date at every
# placement; a Warp swap drops it (rebuilt on the next request): the totals (points of player 0,
# of player 1, soft value for ``evaluate``), then the same three numbers for each part.
_H0, _H1, _SOFTSUM = 0, 1, 2


def _part_value(maps: _KindMaps, j: int, m: list[int], ends: tuple[int, ...]) -> tuple[int, int, float]:
    """Points of each player and the soft value (for ``evaluate``) of the strings of part ``j``
    (AGA-SC1..SC4, AGA-T5). A string led by ``d`` spears or tiles has the soft value
    ``points * d / (|d| + 1)`` (negative for player 1), a controlled leadership string
    ``0.8 * points``."""
    k, part, cshift = maps.part_list[j]
    key = m[_PASS] & part
    p0 = p1 = 0
    soft = 0.0
    if key:
        strings = maps.memo.get(cshift | key)
        if strings is None:
            strings = maps.strings_in(k, cshift, key)
    else:
        strings = ()
    if k == STRENGTH:
        occ = m[_OCC]
        a1, a2, a4, b1, b2, b4 = m[1], m[2], m[3], m[10], m[11], m[12]
        for ends_mask, _, n in strings:
            s = ends_mask & occ
            lead = (
                (s & a1).bit_count()
                + 2 * (s & a2).bit_count()
                + 4 * (s & a4).bit_count()
                - (s & b1).bit_count()
                - 2 * (s & b2).bit_count()
                - 4 * (s & b4).bit_count()
            )
            if lead > 0:
                p0 += n
                soft += n * lead / (lead + 1.0)
            elif lead < 0:
                p1 += n
                soft += n * lead / (1.0 - lead)
        return p0, p1, soft
    if k == FORCE:
        occ = m[_OCC]
        own0, own1 = m[0], m[9]
        covered = 0
        for ends_mask, conns, n in strings:
            covered |= conns
            s = ends_mask & occ
            lead = (s & own0).bit_count() - (s & own1).bit_count()
            if lead > 0:
                p0 += n
                soft += n * lead / (lead + 1.0)
            elif lead < 0:
                p1 += n
                soft += n * lead / (1.0 - lead)
        wefts = m[_WEFTS] & part
        if wefts:
            # force connections with no tiled non-Weft end: one-connection strings of the Wefts
            rest = (cshift >> _SPACE_BITS) & ~covered
            while rest:
                bit = rest & -rest
                rest ^= bit
                s = ends[bit.bit_length() - 1] & wefts
                if s:
                    lead = (s & own0).bit_count() - (s & own1).bit_count()
                    if lead > 0:
                        p0 += 1
                        soft += lead / (lead + 1.0)
                    elif lead < 0:
                        p1 += 1
                        soft += lead / (1.0 - lead)
        return p0, p1, soft
    leaders = m[_LEADERS]
    if leaders & part:
        for ends_mask, _, n in strings:
            s = ends_mask & leaders
            if s:
                for r in range(4, 9):
                    if s & m[r]:
                        if not s & m[r + 9]:
                            p0 += n
                            soft += 0.8 * n
                            break
                    elif s & m[r + 9]:
                        p1 += n
                        soft -= 0.8 * n
                        break
    return p0, p1, soft


def _inc_build(maps: _KindMaps, m: list[int], ends: tuple[int, ...]) -> list[Any]:
    """The incremental score list of a position (see above)."""
    if not maps.part_list:
        maps.index()
    inc: list[Any] = [0, 0, 0.0]
    h0 = h1 = 0
    soft = 0.0
    for j in range(len(maps.part_list)):
        a, b, v = _part_value(maps, j, m, ends)
        inc += (a, b, v)
        h0 += a
        h1 += b
        soft += v
    inc[_H0] = h0
    inc[_H1] = h1
    inc[_SOFTSUM] = soft
    return inc


def _inc_update(inc: list[Any], maps: _KindMaps, m: list[int], ends: tuple[int, ...], s: int) -> None:
    """Update the incremental score for a tile just put on space ``s`` (masks already updated)."""
    for at in maps.part_at:
        j = at[s]
        if j >= 0:
            a, b, v = _part_value(maps, j, m, ends)
            i = 3 + 3 * j
            inc[_H0] += a - inc[i]
            inc[_H1] += b - inc[i + 1]
            inc[_SOFTSUM] += v - inc[i + 2]
            inc[i] = a
            inc[i + 1] = b
            inc[i + 2] = v


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out


class AgamemnonGame(Game):
    """Agamemnon for two players; variants Loom (AGA-V1), Oracle (AGA-V2), Defying the gods (AGA-V3)."""

    name = "agamemnon"
    title = "Agamemnon"
    OPTIONS = (
        Option("players", int, 2, "number of players (Agamemnon is for 2)", choices=(2,)),
        Option("loom", bool, False, "AGA-V1 Loom: play on the loom side of the board"),
        Option(
            "oracle", bool, False, "AGA-V2 Oracle: name the stack (leaders/weavers/warriors) of each draw"
        ),
        Option("defying", bool, False, "AGA-V3 Defying the gods: open tiles, choose which to place"),
        Option(
            "setup",
            str,
            None,
            "loom set-up (implies the loom): the classes of strength, force and leadership, "
            "e.g. I,II,III (unset: drawn at random)",
            choices=SETUP_NAMES,
        ),
        Option("first", int, 0, "the starting player (0 orange, 1 black)", choices=(0, 1)),
        rules_option(),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if self.options["setup"] is not None:
            # a loom set-up implies the loom (so that a position's options {"setup": ...} load)
            if "loom" in options and self.options["loom"] is False:
                raise OptionError("option 'setup' (the loom set-up) needs the loom variant")
            self.options["loom"] = True
        self.loom = bool(self.options["loom"])
        self.oracle = bool(self.options["oracle"])
        self.defying = bool(self.options["defying"])
        first = self.options["first"]
        self.first = first if isinstance(first, int) else 0
        setup = self.options["setup"]
        self.setup_index = SETUP_NAMES.index(str(setup)) if setup is not None else -1
        self.board: Board = load_boards()["loom" if self.loom else "front"]
        self._maps_cache: dict[tuple[int, ...], _KindMaps] = {}
        #: the strings cache shared by every assignment of string tiles on this game (_KindMaps)
        self._strings_memo: dict[int, tuple[tuple[int, int, int], ...]] = {}
        #: both ends of each connection as a space mask
        self.ends = tuple((1 << a) | (1 << b) for a, b in self.board.connections)
        #: the rulings of 2026-11-23 let a Warp move a string tile onto any empty connection
        self.any_warp_target = self.options["rules"] == RULES_ORIGINAL
        self._targets: dict[int, int] = {}
        if not self.loom:
            self._start_kinds: tuple[int, ...] | None = self.board.labels
            self._start_out = -1
        elif self.setup_index >= 0:
            self._start_kinds, self._start_out = self.setup_kinds(self.setup_index)
        else:
            self._start_kinds, self._start_out = None, -1

    # --- facts ---------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return SWAP_BASE + len(self.board.pairs)

    def max_chance_outcomes(self) -> int:
        return MAX_CHANCE

    def max_game_length(self) -> int:
        # set-up 1; per tile at most stack + draw + place (90); 4 Warp decisions; per player at
        # most 4 set-asides in each of the first two turns, each aside + stack + draw (48)
        return 1 + 3 * TOTAL_TILES + 4 + 2 * 2 * 4 * 3

    def observation_shape(self) -> tuple[int, ...]:
        return (OBS_SIZE,)

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player] if player in (0, 1) else f"player {player}"

    def setup_kinds(self, index: int) -> tuple[tuple[int, ...], int]:
        """Connection kinds and the out-of-play space of loom set-up ``index`` (AGA-B2)."""
        s_cls, f_cls, l_cls = SETUPS[index]
        empty_cls = ({0, 1, 2, 3} - {s_cls, f_cls, l_cls}).pop()
        kind_of = {s_cls: STRENGTH, f_cls: FORCE, l_cls: LEADERSHIP, empty_cls: EMPTY}
        return tuple(kind_of[x] for x in self.board.labels), self.board.out_of_play(empty_cls)

    def warp_targets(self, out: int) -> int:
        """The connections (a mask) onto which a loom Warp may move a string tile when they are
        empty (AGA-T4): those printed with the fourth class of the set-up (the class of the
        out-of-play space ``out``'s connections) that do not touch ``out`` (AGA-B2)."""
        targets = self._targets.get(out)
        if targets is None:
            board = self.board
            if self.any_warp_target:
                targets = (1 << board.num_connections) - 1
            elif out < 0:
                targets = 0
            else:
                empty_class = board.labels[board.incident[out][0]]
                targets = sum(
                    1 << c
                    for c, (a, b) in enumerate(board.connections)
                    if board.labels[c] == empty_class and out not in (a, b)
                )
            self._targets[out] = targets
        return targets

    def kind_maps(self, kinds: tuple[int, ...]) -> _KindMaps:
        """The per-kind adjacency of ``kinds`` (memoised per game: it only depends on the board)."""
        maps = self._maps_cache.get(kinds)
        if maps is None:
            if len(self._maps_cache) > 64:
                self._maps_cache.clear()
            maps = _KindMaps.build(self.board, kinds, self._strings_memo)
            self._maps_cache[kinds] = maps
        return maps

    # --- states --------------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> AgamemnonState:
        return AgamemnonState(self, seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> AgamemnonState:
        return AgamemnonState._from_dict(self, doc)

    def state_from_position(self, doc: Mapping[str, Any]) -> AgamemnonState:
        from palaestra.games.agamemnon.position import state_from_position

        return state_from_position(self, doc)


class AgamemnonState(State):
    game: AgamemnonGame

    def __init__(self, game: AgamemnonGame, seed: int | None = None) -> None:
        super().__init__(game, seed)
        board = game.board
        self._n = board.num_spaces
        self._owner = [-1] * self._n
        self._code = [-1] * self._n
        self._pools = list(SUPPLY) * 2
        self._hand: list[int] = []
        self._aside: list[int] = []
        self._pending: list[int] = []
        self._masks = [0] * NUM_MASKS
        self._turn = 0
        self._todo = 0
        self._warp = -1
        self._placed = 0
        self._mover = game.first
        self._inc: list[Any] | None = None
        self._setup = game.setup_index
        if game._start_kinds is None:
            self._kinds: tuple[int, ...] = ()
            self._maps: _KindMaps | None = None
            self._out = -1
            self._free: list[int] = []
            self._phase = SETUP
        else:
            self._set_board(game._start_kinds, game._start_out)
            self._start_turn()

    # --- internal helpers ------------------------------------------------------------------------
    def _set_board(self, kinds: tuple[int, ...], out: int) -> None:
        self._inc = None
        self._kinds = kinds
        self._maps = self.game.kind_maps(kinds)
        self._out = out
        self._free = [s for s in range(self._n) if s != out and self._owner[s] < 0]

    def _start_turn(self) -> None:
        if self._placed >= TOTAL_TILES:
            self._phase = END
            return
        t = self._turn
        self._mover = self.game.first if t % 2 == 0 else 1 - self.game.first
        self._todo = TURN_TILES[t]
        self._next_draw()

    def _next_draw(self) -> None:
        """Choose the phase for the drawing part of a turn (AGA-T2, AGA-V2, AGA-V3)."""
        if self.game.defying:
            self._phase = PLACE
            return
        need = self._todo - len(self._hand)
        if need <= 0:
            self._phase = PLACE
        elif self.game.oracle and len(self._pending) < need:
            self._phase = STACK
        else:
            self._phase = DRAW

    def _redraw_allowed(self) -> bool:
        """AGA-T3: a weaver may be set aside in a player's first two turns, before placing."""
        return self._turn < 4 and self._todo == TURN_TILES[self._turn] and not self.game.defying

    def _put(self, s: int, player: int, code: int) -> None:
        self._owner[s] = player
        self._code[s] = code
        self._mark(s, player, code)
        self._free.remove(s)

    def _mark(self, s: int, player: int, code: int) -> None:
        bit = 1 << s
        m = self._masks
        base = 9 * player
        for slot in _CODE_SLOTS[code]:
            m[base + slot] |= bit
        m[_OCC] |= bit
        if code == WEFT:
            m[_WEFTS] |= bit
        else:
            m[_PASS] |= bit
        if code < 5:
            m[_LEADERS] |= bit

    def _rebuild_masks(self) -> None:
        self._masks = [0] * NUM_MASKS
        owner, code = self._owner, self._code
        for s in range(self._n):
            if owner[s] >= 0:
                self._mark(s, owner[s], code[s])
        self._free = [s for s in range(self._n) if s != self._out and owner[s] < 0]

    # --- protocol: whose turn ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        ph = self._phase
        if ph in (DRAW, SETUP):
            return CHANCE
        if ph == END:
            return TERMINAL
        return self._mover

    def is_chance_node(self) -> bool:
        return self._phase == DRAW or self._phase == SETUP

    def is_terminal(self) -> bool:
        return self._phase == END

    @property
    def phase(self) -> str:
        """``setup``, ``stack``, ``draw``, ``place``, ``warp`` or ``end``."""
        return PHASE_NAMES[self._phase]

    @property
    def mover(self) -> int:
        """The player whose turn it is (also while their tiles are drawn)."""
        return self._mover

    @property
    def hand(self) -> list[str]:
        """The tiles drawn and not yet placed this turn."""
        return [CODES[c] for c in self._hand]

    @property
    def tiles_placed(self) -> int:
        return self._placed

    @property
    def out_of_play(self) -> int | None:
        """The loom's out-of-play space (None on the front)."""
        return self._out if self._out >= 0 else None

    def pool(self, player: int) -> list[str]:
        """``player``'s tiles not yet drawn (or, with Defying the gods, not yet placed)."""
        p = self._pools
        return [CODES[c] for c in range(NUM_CODES) for _ in range(p[player * 10 + c])]

    def connection_kinds(self) -> list[tuple[int, int, str]]:
        """Every connection with the kind of string tile it carries now."""
        conns = self.game.board.connections
        return [(a, b, KIND_NAMES[k]) for (a, b), k in zip(conns, self._kinds, strict=True)]

    def tile_at(self, space: int) -> tuple[int, str] | None:
        if 0 <= space < self._n and self._owner[space] >= 0:
            return self._owner[space], CODES[self._code[space]]
        return None

    # --- protocol: actions ---------------------------------------------------------------------
    def _draw_counts(self) -> list[int]:
        base = 10 * self._mover
        counts = self._pools[base : base + 10]
        if self._pending:
            return [n * k for n, k in zip(counts, _STACK_KEEP[self._pending[0]], strict=True)]
        return counts

    def legal_actions(self) -> list[int]:
        ph = self._phase
        if ph == PLACE:
            free = self._free
            if self.game.defying:
                base = 10 * self._mover
                pools = self._pools
                codes = [c for c in range(NUM_CODES) if pools[base + c]]
            else:
                codes = sorted(set(self._hand))
            out: list[int] = []
            for c in codes:
                b = c * MAX_SPACES
                out.extend([b + s for s in free])
            if self._redraw_allowed():
                if WARP in self._hand:
                    out.append(ASIDE_WARP)
                if WEFT in self._hand:
                    out.append(ASIDE_WEFT)
            return out
        if ph == DRAW:
            return [c for c, n in enumerate(self._draw_counts()) if n]
        if ph == SWAP:
            kinds = self._kinds
            pairs = self.game.board.pairs
            targets = self.game.warp_targets(self._out)
            out = [NOSWAP]
            for p in self.game.board.pairs_at[self._warp]:
                c1, c2, _ = pairs[p]
                k1, k2 = kinds[c1], kinds[c2]
                # AGA-T4: a string tile moves onto an empty connection only of the fourth class
                if k1 != k2 and (k1 != EMPTY or targets >> c1 & 1) and (k2 != EMPTY or targets >> c2 & 1):
                    out.append(SWAP_BASE + p)
            return out
        if ph == STACK:  # _stack_available for the three stacks, inlined
            base = 10 * self._mover
            n = self._pools
            pending = self._pending
            out = []
            if n[base] + n[base + 1] + n[base + 2] + n[base + 3] + n[base + 4] > pending.count(0):
                out.append(STACK_BASE)
            if n[base + WARP] + n[base + WEFT] > pending.count(1):
                out.append(STACK_BASE + 1)
            if n[base + W1] + n[base + W2] + n[base + W3] > pending.count(2):
                out.append(STACK_BASE + 2)
            return out
        if ph == SETUP:
            return list(range(SETUP_BASE, MAX_CHANCE))
        return []

    def _stack_available(self, st: int) -> bool:
        """AGA-V2: the stack ``st`` holds more tiles than it is already named for this turn."""
        base = 10 * self._mover
        p = self._pools
        if st == 0:
            n = p[base] + p[base + 1] + p[base + 2] + p[base + 3] + p[base + 4]
        elif st == 1:
            n = p[base + WARP] + p[base + WEFT]
        else:
            n = p[base + W1] + p[base + W2] + p[base + W3]
        return n > self._pending.count(st)

    def _swap_problem(self, c1: int, c2: int) -> str | None:
        """Why the Warp may not swap connections ``c1`` and ``c2`` at its space (AGA-T4), or None."""
        k1, k2 = self._kinds[c1], self._kinds[c2]
        if k1 == k2:
            same = "are empty" if k1 == EMPTY else f"carry {KIND_NAMES[k1]}"
            return f"both connections {same}, swapping them changes nothing (write 'noswap')"
        empty = c1 if k1 == EMPTY else c2 if k2 == EMPTY else -1
        if empty < 0 or self.game.warp_targets(self._out) >> empty & 1:
            return None
        board = self.game.board
        a, b = board.connections[empty]
        if self._out in (a, b):
            why = f"{a}-{b} touches the out-of-play space {self._out} (AGA-B2)"
        else:
            why = f"{a}-{b} is of class {CLASS_NAMES[board.labels[empty]]}, left empty by an earlier Warp"
        return f"a string tile may move only onto an empty connection of the fourth class (AGA-T4): {why}"

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self._phase
        if ph == DRAW:
            counts = self._draw_counts()
            total = sum(counts)
            return [(c, n / total) for c, n in enumerate(counts) if n]
        if ph == SETUP:
            p = 1.0 / len(SETUPS)
            return [(SETUP_BASE + i, p) for i in range(len(SETUPS))]
        return []

    def is_legal(self, action: int) -> bool:
        ph = self._phase
        if ph == PLACE:
            if 0 <= action < NOSWAP:
                c, s = divmod(action, MAX_SPACES)
                if s >= self._n or s == self._out or self._owner[s] >= 0:
                    return False
                if self.game.defying:
                    return self._pools[10 * self._mover + c] > 0
                return c in self._hand
            if action in (ASIDE_WARP, ASIDE_WEFT):
                return self._redraw_allowed() and (WARP if action == ASIDE_WARP else WEFT) in self._hand
            return False
        if ph == DRAW:
            if not 0 <= action < NUM_CODES or self._pools[10 * self._mover + action] <= 0:
                return False
            return not self._pending or STACK_OF[action] == self._pending[0]
        if ph == SWAP:
            if action == NOSWAP:
                return True
            p = action - SWAP_BASE
            if not 0 <= p < len(self.game.board.pairs):
                return False
            c1, c2, s = self.game.board.pairs[p]
            return s == self._warp and self._swap_problem(c1, c2) is None
        if ph == STACK:
            return STACK_BASE <= action < STACK_BASE + 3 and self._stack_available(action - STACK_BASE)
        if ph == SETUP:
            return SETUP_BASE <= action < MAX_CHANCE
        return False

    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises :class:`IllegalActionError` with the reason
        (``explain_illegal``) and changes nothing. Same contract as the core, inlined for speed."""
        if type(action) is not int or not self.is_legal(action):
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self.history.append(action)

    def apply_legal(self, action: int) -> None:
        """An action from this very state's ``legal_actions()`` or ``chance_outcomes()`` (searches),
        without the check: the core's fast path, which the ``apply_action`` above would block."""
        self._apply(action)
        self.history.append(action)

    def _apply(self, action: int) -> None:
        ph = self._phase
        if ph == PLACE:
            if action < NOSWAP:
                c, s = divmod(action, MAX_SPACES)
                p = self._mover
                if self.game.defying:
                    self._pools[10 * p + c] -= 1
                else:
                    self._hand.remove(c)
                    if self._aside:  # AGA-T3: set-aside tiles go back after the turn's draws
                        for x in self._aside:
                            self._pools[10 * p + x] += 1
                        self._aside = []
                self._put(s, p, c)
                if self._inc is not None:
                    assert self._maps is not None
                    _inc_update(self._inc, self._maps, self._masks, self.game.ends, s)
                self._placed += 1
                self._todo -= 1
                if c == WARP:
                    self._warp = s
                    self._phase = SWAP
                    return
                self._after_placement()
                return
            code = WARP if action == ASIDE_WARP else WEFT
            self._hand.remove(code)
            self._aside.append(code)
            self._next_draw()
            return
        if ph == DRAW:
            self._pools[10 * self._mover + action] -= 1
            self._hand.append(action)
            if self._pending:
                self._pending.pop(0)
            self._next_draw()
            return
        if ph == SWAP:
            if action != NOSWAP:
                c1, c2, _ = self.game.board.pairs[action - SWAP_BASE]
                assert self._maps is not None
                self._maps = self._maps.swapped(self.game.board, c1, c2)
                self._kinds = self._maps.kinds
                self._inc = None
            self._warp = -1
            self._after_placement()
            return
        if ph == STACK:
            self._pending.append(action - STACK_BASE)
            need = self._todo - len(self._hand)
            self._phase = STACK if len(self._pending) < need else DRAW
            return
        if ph == SETUP:
            self._setup = action - SETUP_BASE
            kinds, out = self.game.setup_kinds(self._setup)
            self._set_board(kinds, out)
            self._start_turn()
            return
        raise IllegalActionError("the game is over")  # pragma: no cover

    def _after_placement(self) -> None:
        if self._todo == 0:
            self._turn += 1
            self._start_turn()
        else:
            self._next_draw()

    def clone(self) -> AgamemnonState:
        new = object.__new__(AgamemnonState)
        new.game = self.game
        new.seed = self.seed
        new.history = self.history.copy()
        new._n = self._n
        new._owner = self._owner.copy()
        new._code = self._code.copy()
        new._pools = self._pools.copy()
        new._hand = self._hand.copy()
        new._aside = self._aside.copy()
        new._pending = self._pending.copy()
        new._masks = self._masks.copy()
        new._free = self._free.copy()
        new._turn = self._turn
        new._todo = self._todo
        new._warp = self._warp
        new._placed = self._placed
        new._mover = self._mover
        new._inc = None if self._inc is None else self._inc.copy()
        new._setup = self._setup
        new._kinds = self._kinds
        new._maps = self._maps
        new._out = self._out
        new._phase = self._phase
        return new

    # --- notation ------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.is_chance_node() and 0 <= action < MAX_CHANCE:
            if action < NUM_CODES:
                return f"draw {CODES[action]}"
            return f"setup {SETUP_NAMES[action - SETUP_BASE]}"
        return self._player_action_text(action)

    def _player_action_text(self, action: int) -> str:
        if not isinstance(action, int) or isinstance(action, bool):
            raise NotationError(f"{action!r} is not an action id")
        if 0 <= action < NOSWAP:
            c, s = divmod(action, MAX_SPACES)
            return f"{CODES[c]}@{s}"
        if action == NOSWAP:
            return "noswap"
        if action in (ASIDE_WARP, ASIDE_WEFT):
            return "aside " + ("WARP" if action == ASIDE_WARP else "WEFT")
        if STACK_BASE <= action < SWAP_BASE:
            return f"stack {STACK_NAMES[action - STACK_BASE]}"
        pairs = self.game.board.pairs
        if SWAP_BASE <= action < SWAP_BASE + len(pairs):
            c1, c2, _ = pairs[action - SWAP_BASE]
            conns = self.game.board.connections
            return f"swap {conns[c1][0]}-{conns[c1][1]} {conns[c2][0]}-{conns[c2][1]}"
        raise NotationError(f"{action} is not an action id of Agamemnon")

    def string_to_action(self, text: str) -> int:
        words = text.strip().replace("@", " @ ").split()
        if not words:
            raise NotationError("empty move: " + _NOTATION_HELP)
        head = words[0].lower()
        chance = self.is_chance_node()
        if head in ("draw", "setup"):
            if head == "draw":
                if len(words) != 2 or words[1].upper() not in CODE_INDEX:
                    raise NotationError(f"{text!r}: write 'draw CODE' with CODE one of {' '.join(CODES)}")
                action = CODE_INDEX[words[1].upper()]
                if self._phase != DRAW:
                    raise IllegalActionError(f"no tile is being drawn now ({self._what_now()})")
                return action
            name = "".join(words[1:]).upper()
            if name not in SETUP_NAMES:
                raise NotationError(
                    f"{text!r}: write 'setup S,F,L' with three different classes of I, II, III, IV "
                    "(for strength, force, leadership), e.g. 'setup I,II,III'"
                )
            if self._phase != SETUP:
                raise IllegalActionError(f"the loom set-up is not being drawn now ({self._what_now()})")
            return SETUP_BASE + SETUP_NAMES.index(name)
        action = self._parse_player_action(text, words)
        if chance:
            raise IllegalActionError(f"{text!r} cannot be played now: {self._what_now()}")
        return action

    def _parse_player_action(self, text: str, words: list[str]) -> int:
        head = words[0].lower()
        board = self.game.board
        if head in ("noswap", "pass") or [w.lower() for w in words] == ["no", "swap"]:
            return NOSWAP
        if head == "aside":
            if len(words) != 2 or words[1].upper() not in ("WARP", "WEFT"):
                raise NotationError(f"{text!r}: write 'aside WARP' or 'aside WEFT'")
            return ASIDE_WARP if words[1].upper() == "WARP" else ASIDE_WEFT
        if head == "stack":
            names = {n: i for i, n in enumerate(STACK_NAMES)}
            names.update({n[:-1]: i for i, n in enumerate(STACK_NAMES)})
            if len(words) != 2 or words[1].lower() not in names:
                raise NotationError(f"{text!r}: write 'stack leaders', 'stack weavers' or 'stack warriors'")
            return STACK_BASE + names[words[1].lower()]
        if head == "swap":
            if len(words) != 3:
                raise NotationError(f"{text!r}: write 'swap A-B C-D' (two connections at the Warp's space)")
            ids = []
            for w in words[1:]:
                parts = w.split("-")
                if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
                    raise NotationError(f"{text!r}: {w!r} is not a connection (write it as A-B, e.g. 3-7)")
                a, b = int(parts[0]), int(parts[1])
                key = (min(a, b), max(a, b))
                if key not in board.conn_id:
                    raise NotationError(f"there is no connection {a}-{b} on the {board.side} board")
                ids.append(board.conn_id[key])
            if ids[0] == ids[1]:
                raise NotationError(f"{text!r}: a swap needs two different connections")
            c1, c2 = sorted(ids)
            pid = board.pair_id.get((c1, c2))
            if pid is None:
                raise NotationError(f"connections {words[1]} and {words[2]} do not touch a common space")
            return SWAP_BASE + pid
        if len(words) == 3 and words[1] == "@":
            code = words[0].upper()
            if code not in CODE_INDEX:
                raise NotationError(f"{text!r}: unknown tile {words[0]!r} (tiles: {' '.join(CODES)})")
            if not words[2].isdigit():
                raise NotationError(f"{text!r}: {words[2]!r} is not a space number")
            s = int(words[2])
            if s >= board.num_spaces:
                raise NotationError(f"there is no space {s} (spaces 0-{board.num_spaces - 1})")
            return CODE_INDEX[code] * MAX_SPACES + s
        raise NotationError(f"cannot read {text!r}: " + _NOTATION_HELP)

    def _what_now(self) -> str:
        ph = self._phase
        who = PLAYER_NAMES[self._mover]
        if ph == SETUP:
            return "the loom set-up is drawn first (write 'setup I,II,III')"
        if ph == DRAW:
            return f"{who}'s tile is being drawn (write 'draw CODE')"
        if ph == STACK:
            return f"{who} names the stack of the next draw (write 'stack leaders|weavers|warriors')"
        if ph == SWAP:
            return f"{who} chooses the Warp's swap on space {self._warp} ('swap A-B C-D' or 'noswap')"
        if ph == PLACE:
            if self.game.defying:
                return f"{who} places a tile (write e.g. 'W2@12')"
            return f"{who} places a drawn tile ({' '.join(CODES[c] for c in self._hand)})"
        return "the game is over"

    def explain_illegal(self, action: object) -> str:
        if not isinstance(action, int) or isinstance(action, bool):
            return f"{action!r} is not an action (actions are whole numbers)"
        ph = self._phase
        who = PLAYER_NAMES[self._mover]
        if ph == END:
            return "the game is over"
        if ph in (DRAW, SETUP):
            if ph == SETUP:
                if NUM_CODES <= action < MAX_CHANCE:
                    return f"setup {SETUP_NAMES[action - SETUP_BASE]} is possible"  # pragma: no cover
                return f"{action} is not a loom set-up (set-ups are {SETUP_BASE}..{MAX_CHANCE - 1})"
            if not 0 <= action < NUM_CODES:
                return f"{action} is not a tile to draw: {self._what_now()}"
            where = f"the {STACK_NAMES[self._pending[0]]} stack" if self._pending else "the pool"
            if action in self._aside:
                return f"{who}'s {CODES[action]} is set aside and cannot be drawn again this turn"
            return f"{who} has no {CODES[action]} left in {where}"
        try:
            text = self._player_action_text(action)
        except NotationError as err:
            return str(err)
        if ph == PLACE:
            if 0 <= action < NOSWAP:
                c, s = divmod(action, MAX_SPACES)
                if s >= self._n:
                    return f"there is no space {s}"
                if s == self._out:
                    return f"space {s} is out of play"
                if self._owner[s] >= 0:
                    return f"space {s} is taken"
                if self.game.defying:
                    return f"you have no {CODES[c]} left"
                drawn = " ".join(CODES[x] for x in self._hand)
                return f"you have not drawn a {CODES[c]} (your drawn tiles: {drawn})"
            if action in (ASIDE_WARP, ASIDE_WEFT):
                code = WARP if action == ASIDE_WARP else WEFT
                if self.game.defying:
                    return "with Defying the gods nothing is drawn, so nothing is set aside"
                if self._turn >= 4:
                    return "weavers may be set aside only in a player's first two turns (AGA-T3)"
                if self._todo != TURN_TILES[self._turn]:
                    return "weavers may be set aside only before the turn's first tile is placed (AGA-T3)"
                return f"you have not drawn a {CODES[code]}"
            return f"{text} is not possible now: {self._what_now()}"
        if ph == SWAP:
            if SWAP_BASE <= action < SWAP_BASE + len(self.game.board.pairs):
                c1, c2, s = self.game.board.pairs[action - SWAP_BASE]
                if s != self._warp:
                    return f"{text}: the connections must both touch space {self._warp}, the Warp's space"
                return f"{text}: {self._swap_problem(c1, c2) or 'it is legal'}"
            return f"{text} is not possible now: {self._what_now()}"
        if ph == STACK:
            if STACK_BASE <= action < SWAP_BASE:
                return f"{who}'s {STACK_NAMES[action - STACK_BASE]} stack has no tile left for this draw"
            return f"{text} is not possible now: {self._what_now()}"
        return f"{text} is not a legal move now"  # pragma: no cover

    # --- results -------------------------------------------------------------------------------
    def _incremental(self) -> list[Any]:
        inc = self._inc
        if inc is None:
            if self._maps is None:  # the loom set-up is not drawn yet: nothing to keep
                return [0, 0, 0.0]
            else:
                inc = self._inc = _inc_build(self._maps, self._masks, self.game.ends)
        return inc

    def _points(self) -> tuple[int, int]:
        inc = self._inc
        if inc is None:
            if self._phase == END and self._maps is not None:
                # a finished game is scored once: ``_points`` is cheaper than building the
                # incremental score (kept in ``_inc`` as totals only: nothing changes any more)
                p0, p1 = _points(self._maps, self._masks, self.game.ends)
                self._inc = [p0, p1, 0.0]
                return p0, p1
            inc = self._incremental()
        return inc[_H0], inc[_H1]

    def scores(self) -> list[float]:
        p0, p1 = self._points()
        return [float(p0), float(p1)]

    def returns(self) -> list[float]:
        if self._phase != END:
            return [0.0, 0.0]
        p0, p1 = self._points()
        if p0 > p1:
            return [1.0, -1.0]
        if p1 > p0:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def strings(self) -> list[dict[str, Any]]:
        """Every string: kind, connections, controller (None when tied), as in ``score_details``."""
        if self._maps is None:
            return []
        conns = self.game.board.connections
        out = []
        for k, mask, lead in _strings(self._maps, self._masks, self.game.ends):
            out.append(
                {
                    "kind": KIND_NAMES[k],
                    "connections": [list(conns[c]) for c in _bits(mask)],
                    "controller": 0 if lead > 0 else 1 if lead < 0 else None,
                }
            )
        return out

    def score_details(self) -> dict[str, Any]:
        return {"scores": self.scores(), "strings": self.strings()}

    def evaluate(self) -> list[float]:
        """Live score margin plus a soft share of every contested string, squashed to [-1, 1].

        A string led by ``d`` spears or tiles counts ``points * d / (|d| + 1)`` for its leader, a
        leadership string ``0.8 * points``; the value is ``tanh((margin + soft) / 12)``."""
        if self._phase == END:
            return self.returns()
        inc = self._inc
        if inc is None:
            inc = self._incremental()
        v = math.tanh((inc[_H0] - inc[_H1] + inc[_SOFTSUM]) / 12.0)
        return [v, -v]

    # --- views ---------------------------------------------------------------------------------
    def render(self, labels: bool = False) -> str:
        from palaestra.games.agamemnon.view import render

        return render(self, labels)

    def observation_tensor(self, player: int) -> list[float]:
        obs = [0.0] * OBS_SIZE
        n = self._n
        for s in range(MAX_SPACES):
            base = OBS_SPACES + s * OBS_SPACE
            if s >= n or s == self._out:
                obs[base + 21] = 1.0
            elif self._owner[s] < 0:
                obs[base + 20] = 1.0
            else:
                mine = self._owner[s] == player
                obs[base + (0 if mine else 10) + self._code[s]] = 1.0
        for c, k in enumerate(self._kinds):
            obs[OBS_CONNS + 4 * c + k] = 1.0
        for c in range(NUM_CODES):
            obs[OBS_POOLS + c] = self._pools[10 * player + c] / SUPPLY[c]
            obs[OBS_POOLS + 10 + c] = self._pools[10 * (1 - player) + c] / SUPPLY[c]
        for c in self._hand:
            obs[OBS_HAND + c] += 1.0
        for c in self._aside:
            obs[OBS_ASIDE + c] += 1.0
        for st in self._pending:
            obs[OBS_STACKS + st] += 1.0
        obs[OBS_PHASE + self._phase] = 1.0
        if self._warp >= 0:
            obs[OBS_WARP + self._warp] = 1.0
        obs[OBS_MISC] = 1.0 if self._mover == player else 0.0
        obs[OBS_MISC + 1] = min(self._turn, NUM_TURNS - 1) / (NUM_TURNS - 1)
        obs[OBS_MISC + 2] = self._todo / 2.0
        obs[OBS_MISC + 3] = 1.0 if self._phase == PLACE and self._redraw_allowed() else 0.0
        points = self._points()
        obs[OBS_SCORE] = points[player] / MAX_CONNS
        obs[OBS_SCORE + 1] = points[1 - player] / MAX_CONNS
        return obs

    # --- serialisation -------------------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "state": {
                "phase": PHASE_NAMES[self._phase],
                "setup": SETUP_NAMES[self._setup] if self._setup >= 0 else None,
                "kinds": [KIND_NAMES[k] for k in self._kinds],
                "out_of_play": self._out if self._out >= 0 else None,
                "tiles": [
                    [s, self._owner[s], CODES[self._code[s]]] for s in range(self._n) if self._owner[s] >= 0
                ],
                "pools": [
                    [CODES[c] for c in range(NUM_CODES) for _ in range(self._pools[10 * p + c])]
                    for p in range(2)
                ],
                "hand": [CODES[c] for c in self._hand],
                "aside": [CODES[c] for c in self._aside],
                "stacks": [STACK_NAMES[st] for st in self._pending],
                "turn": self._turn,
                "todo": self._todo,
                "warp": self._warp if self._warp >= 0 else None,
            }
        }

    def to_position(self) -> dict[str, Any]:
        from palaestra.games.agamemnon.position import state_to_position

        return state_to_position(self)

    @classmethod
    def _from_dict(cls, game: AgamemnonGame, doc: Mapping[str, Any]) -> AgamemnonState:
        from palaestra.games.agamemnon.position import state_from_saved

        return state_from_saved(game, doc)


_NOTATION_HELP = (
    "moves are CODE@SPACE (e.g. W2@12), 'swap A-B C-D', 'noswap', 'aside WARP|WEFT', "
    "'stack leaders|weavers|warriors'; chance: 'draw CODE', 'setup I,II,III'"
)
