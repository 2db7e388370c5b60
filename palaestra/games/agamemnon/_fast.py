"""The fast Agamemnon scoring: bit masks and caches for speed, no rules of its own. (Legality
needs nothing from here: the predicates of ``turns.py`` and ``warps.py`` read the state's own
incremental data, ``rules.py``.)

It gives the same strings, controllers and points as the readable scoring of ``rules.py``
(``AgamemnonState.strings_by_the_rules``), which the tests check over thousands of random
positions (tests/agamemnon/test_agamemnon_fast.py). Sets of spaces and of connections are int bit
masks (bit ``s`` is space ``s``, bit ``c`` connection ``c`` of the board file).

* The position is mirrored in :data:`NUM_MASKS` space masks (:func:`mark`): per player its tiles,
  the bits of their spears and each leader; for both the tiled spaces, the Wefts, the spaces a
  string passes (tiled, not a Weft) and the leaders. Sums of spears or tiles are
  ``int.bit_count`` of masks.
* :class:`KindMaps` holds the connections of each kind for one assignment of string tiles (it
  changes only when a Warp swaps). Each kind's connections fall into a few *parts* (their
  components when every space passes); the strings inside a part depend only on which of its
  spaces pass, so they come from a per-game cache (a flood fill on a miss).
* The live score is kept per part (:func:`live_score`): a placement re-scores only the (at most
  three) parts holding its space (:func:`update_live_score`).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from palaestra.games.agamemnon.board import (
    EMPTY,
    FORCE,
    LEADERSHIP,
    MAX_SPACES,
    STRENGTH,
    STRING_KINDS,
    Board,
)
from palaestra.games.agamemnon.tiles import LEADERS, NUM_CODES, NUM_PLAYERS, SPEARS, WEFT

# --- the position as masks -----------------------------------------------------------------------
#: a player's masks (player ``p``'s start at ``p * PLAYER_MASKS``): its tiles, the tiles whose
#: spears have bit 1, 2 or 4 set, and one per leader (A first)
OWN, SPEARS_1, SPEARS_2, SPEARS_4 = range(4)
FIRST_LEADER = 4
PLAYER_MASKS = FIRST_LEADER + len(LEADERS)
#: where the second player's masks start
SECOND = PLAYER_MASKS
#: masks of both players: tiled spaces, Wefts, spaces strings pass through, leaders
OCCUPIED = 2 * PLAYER_MASKS
WEFTS = OCCUPIED + 1
PASSABLE = OCCUPIED + 2
ALL_LEADERS = OCCUPIED + 3
NUM_MASKS = OCCUPIED + 4
#: the two players' masks of each leader, highest rank first
RANK_SLOTS = tuple((FIRST_LEADER + r, SECOND + FIRST_LEADER + r) for r in range(len(LEADERS)))

#: the masks the scoring of each kind reads (one call instead of a look-up per mask); in the
#: functions below ``m`` is a position's list of masks, ``a1, a2, a4`` (``b1, b2, b4``) the spaces
#: of player 0's (player 1's) tiles whose spears have bit 1, 2, 4 set
_STRENGTH_MASKS = itemgetter(
    OCCUPIED, PASSABLE, SPEARS_1, SPEARS_2, SPEARS_4, SECOND + SPEARS_1, SECOND + SPEARS_2, SECOND + SPEARS_4
)
_FORCE_MASKS = itemgetter(OCCUPIED, PASSABLE, WEFTS, OWN, SECOND + OWN)
_LEADERSHIP_MASKS = itemgetter(ALL_LEADERS, PASSABLE, OWN, SECOND + OWN)

#: the masks of its player (offsets from the player's first) a tile of each code belongs to
_CODE_SLOTS = tuple(
    tuple(
        [OWN]
        + [slot for slot, bit in ((SPEARS_1, 1), (SPEARS_2, 2), (SPEARS_4, 4)) if SPEARS[code] & bit]
        + [FIRST_LEADER + rank for rank, leader in enumerate(LEADERS) if leader == code]
    )
    for code in range(NUM_CODES)
)

#: every mask a tile sets, by its pool slot ``player * NUM_CODES + code``: its player's masks of
#: its code, then the shared ones (occupied; wefts or passable; leaders)
TILE_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        [player * PLAYER_MASKS + slot for slot in _CODE_SLOTS[code]]
        + [OCCUPIED, WEFTS if code == WEFT else PASSABLE]
        + ([ALL_LEADERS] if code in LEADERS else [])
    )
    for player in range(NUM_PLAYERS)
    for code in range(NUM_CODES)
)


def mark(masks: list[int], space: int, player: int, code: int) -> None:
    """Add the tile ``code`` of ``player`` on ``space`` to the masks."""
    bit = 1 << space
    for i in TILE_MASKS[player * NUM_CODES + code]:
        masks[i] |= bit


def masks_of(tiles: list[tuple[int, int, int]]) -> list[int]:
    """The masks of the tiles ``(space, player, code)``."""
    masks = [0] * NUM_MASKS
    for space, player, code in tiles:
        mark(masks, space, player, code)
    return masks


# --- strings ---------------------------------------------------------------------------------------
#: a look-up value packs a mask of spaces (low bits) and a mask of connections shifted by this
_SPACE_BITS = MAX_SPACES
_SPACES_MASK = (1 << _SPACE_BITS) - 1
#: entries of a game's strings cache (``KindMaps.memo``; cleared when full)
MEMO_LIMIT = 100_000

#: the strings of a part: (spaces and connection ends, connections, number of connections)
Strings = tuple[tuple[int, int, int], ...]


def _component(links: dict[int, int], start: int, passable: int) -> tuple[int, int]:
    """The spaces joined to the space bit ``start`` through ``passable`` spaces, and every look-up
    value they reach (their neighbours and their connections, shifted)."""
    component = reached = 0
    frontier = start
    while frontier:
        component |= frontier
        while frontier:
            bit = frontier & -frontier
            reached |= links[bit]
            frontier ^= bit
        frontier = reached & passable & ~component
    return component, reached


class KindMaps:
    """The connections of each kind for one assignment of string tiles (immutable, shared).

    ``links[k][1 << s]`` packs the spaces joined to space ``s`` by kind-``k`` connections (low 33
    bits) and those connections (shifted by 33): a flood fill needs one look-up per space.
    ``spaces[k]``: the spaces with a kind-``k`` connection; ``connections[k]``: those connections.

    ``parts[k]``: the components of the kind-``k`` connections with every space passable, as
    (spaces, connections shifted by 33). ``memo`` (one per game, shared by all its assignments:
    parts a Warp did not touch keep their entries) caches the strings of a part under
    ``shifted connections | passable spaces`` (:meth:`strings_in`).

    ``part_list[j]`` = (kind, spaces, shifted connections) numbers the parts of all kinds;
    ``part_at[k][s]`` is the number of the kind-``k`` part holding space ``s`` (-1: none).
    """

    __slots__ = ("connections", "kinds", "links", "memo", "part_at", "part_list", "parts", "spaces")

    def __init__(
        self,
        kinds: tuple[int, ...],
        links: tuple[dict[int, int], ...],
        spaces: tuple[int, ...],
        connections: tuple[int, ...],
        memo: dict[int, Strings],
        parts: tuple[tuple[tuple[int, int], ...], ...] | None = None,
    ) -> None:
        self.kinds = kinds
        self.links = links
        self.spaces = spaces
        self.connections = connections
        self.memo = memo
        self.parts = parts if parts is not None else tuple(self._parts(k) for k in STRING_KINDS)
        # numbered on the first live score: random playouts with Warp swaps never need them
        self.part_list: tuple[tuple[int, int, int], ...] = ()
        self.part_at: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def build(cls, board: Board, kinds: tuple[int, ...], memo: dict[int, Strings]) -> KindMaps:
        links: list[dict[int, int]] = [{1 << s: 0 for s in range(board.num_spaces)} for _ in STRING_KINDS]
        spaces = [0] * len(STRING_KINDS)
        connections = [0] * len(STRING_KINDS)
        for c, (a, b) in enumerate(board.connections):
            k = kinds[c]
            if k != EMPTY:
                _link(links[k], a, b, c, True)
                spaces[k] |= (1 << a) | (1 << b)
                connections[k] |= 1 << c
        return cls(kinds, tuple(links), tuple(spaces), tuple(connections), memo)

    def swapped(self, board: Board, c1: int, c2: int) -> KindMaps:
        """The maps after a Warp swaps the string tiles of connections ``c1`` and ``c2`` (AGA-T4)."""
        kinds = list(self.kinds)
        k1, k2 = kinds[c1], kinds[c2]
        kinds[c1], kinds[c2] = k2, k1
        links = list(self.links)
        connections = list(self.connections)
        touched: set[int] = set()
        for c, old, new in ((c1, k1, k2), (c2, k2, k1)):
            a, b = board.connections[c]
            for k, add in ((old, False), (new, True)):
                if k == EMPTY:
                    continue
                if k not in touched:
                    links[k] = dict(links[k])
                    touched.add(k)
                _link(links[k], a, b, c, add)
                connections[k] = connections[k] | 1 << c if add else connections[k] & ~(1 << c)
        spaces = list(self.spaces)
        for k in touched:
            spaces[k] = sum(bit for bit, v in links[k].items() if v)
        parts = list(self.parts)
        maps = KindMaps(tuple(kinds), tuple(links), tuple(spaces), tuple(connections), self.memo, self.parts)
        for k in touched:  # the kinds whose connections changed get their own parts
            parts[k] = maps._parts(k)
        maps.parts = tuple(parts)
        return maps

    def _parts(self, k: int) -> tuple[tuple[int, int], ...]:
        """The components of the kind-``k`` connections, every space passable."""
        links = self.links[k]
        left = self.spaces[k]
        out = []
        while left:
            component, reached = _component(links, left & -left, _SPACES_MASK)
            left &= ~component
            out.append((component, reached & ~_SPACES_MASK))
        return tuple(out)

    def index(self) -> None:
        """Number the parts (``part_list``, ``part_at``) for the live score."""
        part_list: list[tuple[int, int, int]] = []
        part_at = []
        for k in STRING_KINDS:
            at = [-1] * len(self.links[k])
            for spaces, shifted in self.parts[k]:
                left = spaces
                while left:
                    bit = left & -left
                    left ^= bit
                    at[bit.bit_length() - 1] = len(part_list)
                part_list.append((k, spaces, shifted))
            part_at.append(tuple(at))
        self.part_list = tuple(part_list)
        self.part_at = tuple(part_at)

    def strings_in(self, k: int, shifted: int, passable: int) -> Strings:
        """The kind-``k`` strings through the ``passable`` spaces of the part whose shifted
        connections are ``shifted`` (AGA-SC1): for each, the mask of its spaces and connection
        ends, the mask of its connections, and their number."""
        memo = self.memo
        found = memo.get(shifted | passable)
        if found is not None:
            return found
        links = self.links[k]
        left = passable
        out = []
        while left:  # the flood fill of _component, written out (speed)
            frontier = left & -left
            component = reached = 0
            while frontier:
                component |= frontier
                while frontier:
                    bit = frontier & -frontier
                    reached |= links[bit]
                    frontier ^= bit
                frontier = reached & passable & ~component
            left &= ~component
            conns = reached >> _SPACE_BITS
            out.append(((reached | component) & _SPACES_MASK, conns, conns.bit_count()))
        result = tuple(out)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[shifted | passable] = result
        return result


def _link(links: dict[int, int], a: int, b: int, c: int, add: bool) -> None:
    """Add (or remove) connection ``c`` between spaces ``a`` and ``b`` to the look-ups of its kind."""
    shifted = 1 << (c + _SPACE_BITS)
    if add:
        links[1 << a] |= (1 << b) | shifted
        links[1 << b] |= (1 << a) | shifted
    else:
        links[1 << a] &= ~((1 << b) | shifted)
        links[1 << b] &= ~((1 << a) | shifted)


# --- control (AGA-SC3) --------------------------------------------------------------------------------
def spear_lead(s: int, m: list[int]) -> int:
    """Spears of player 0 minus spears of player 1 on the spaces ``s`` (strength)."""
    return (
        (s & m[SPEARS_1]).bit_count()
        + 2 * (s & m[SPEARS_2]).bit_count()
        + 4 * (s & m[SPEARS_4]).bit_count()
        - (s & m[SECOND + SPEARS_1]).bit_count()
        - 2 * (s & m[SECOND + SPEARS_2]).bit_count()
        - 4 * (s & m[SECOND + SPEARS_4]).bit_count()
    )


def tile_lead(s: int, m: list[int]) -> int:
    """Tiles of player 0 minus tiles of player 1 on the spaces ``s`` (force)."""
    return (s & m[OWN]).bit_count() - (s & m[SECOND + OWN]).bit_count()


def rank_lead(s: int, m: list[int]) -> int:
    """Leadership on the spaces ``s``: the first rank (from A down) that only one player holds
    decides; ``5`` for A of player 0 down to ``1`` for E, negative for player 1, 0 for a tie."""
    if s & m[ALL_LEADERS]:
        steps = len(LEADERS)
        for mine, theirs in RANK_SLOTS:
            if s & m[mine]:
                if not s & m[theirs]:
                    return steps
            elif s & m[theirs]:
                return -steps
            steps -= 1
    return 0


# --- the score of a whole position (AGA-SC1..SC4) ---------------------------------------------------
# The loops below are written out (no call per string, the memo read in place): they are the
# searches' inner loops.
def points(maps: KindMaps, m: list[int], ends: tuple[int, ...]) -> tuple[int, int]:
    """The connections of the strings each player controls, from scratch (finished games)."""
    s0, s1 = _strength_points(maps, m)
    f0, f1 = _force_points(maps, m, ends)
    l0, l1 = _leadership_points(maps, m)
    return s0 + f0 + l0, s1 + f1 + l1


def _strength_points(maps: KindMaps, m: list[int]) -> tuple[int, int]:
    p0 = p1 = 0
    occupied, passable, a1, a2, a4, b1, b2, b4 = _STRENGTH_MASKS(m)
    spears0, spears1 = a1 | a2 | a4, b1 | b2 | b4
    memo = maps.memo
    for part, shifted in maps.parts[STRENGTH]:
        key = passable & part
        if not key:
            continue
        found = memo.get(shifted | key)
        for ends_mask, _, n in found if found is not None else maps.strings_in(STRENGTH, shifted, key):
            s = ends_mask & occupied
            # one-sided strings need no sums (weavers alone have no spears: a tie)
            if not s & spears1:
                if s & spears0:
                    p0 += n
                continue
            if not s & spears0:
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
    return p0, p1


def _force_points(maps: KindMaps, m: list[int], ends: tuple[int, ...]) -> tuple[int, int]:
    p0 = p1 = 0
    occupied, passable, wefts, own0, own1 = _FORCE_MASKS(m)
    memo = maps.memo
    covered = 0
    for part, shifted in maps.parts[FORCE]:
        key = passable & part
        if not key:
            continue
        found = memo.get(shifted | key)
        for ends_mask, conns, n in found if found is not None else maps.strings_in(FORCE, shifted, key):
            covered |= conns
            s = ends_mask & occupied
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
    if wefts:
        w0, w1 = _weft_points(maps.connections[FORCE] & ~covered, m, ends)
        p0 += w0
        p1 += w1
    return p0, p1


def _weft_points(rest: int, m: list[int], ends: tuple[int, ...]) -> tuple[int, int]:
    """The force connections ``rest`` with no tiled non-Weft end are strings of their own where
    only Wefts count (AGA-T5)."""
    p0 = p1 = 0
    wefts = m[WEFTS]
    while rest:
        bit = rest & -rest
        rest ^= bit
        s = ends[bit.bit_length() - 1] & wefts
        if s:
            lead = tile_lead(s, m)
            if lead > 0:
                p0 += 1
            elif lead < 0:
                p1 += 1
    return p0, p1


def _leadership_points(maps: KindMaps, m: list[int]) -> tuple[int, int]:
    p0 = p1 = 0
    leaders, passable, own0, own1 = _LEADERSHIP_MASKS(m)
    if not leaders:
        return 0, 0
    memo = maps.memo
    for part, shifted in maps.parts[LEADERSHIP]:
        key = passable & part
        if not key or not leaders & part:
            continue
        found = memo.get(shifted | key)
        for ends_mask, _, n in found if found is not None else maps.strings_in(LEADERSHIP, shifted, key):
            s = ends_mask & leaders
            if not s:
                continue
            if not s & own1:
                p0 += n
            elif not s & own0:
                p1 += n
            else:
                for mine, theirs in RANK_SLOTS:
                    if s & m[mine]:
                        if not s & m[theirs]:
                            p0 += n
                            break
                    elif s & m[theirs]:
                        p1 += n
                        break
    return p0, p1


# --- the live score, part by part ------------------------------------------------------------------
# One flat list per state (copied by clone), built on the first request and then kept up to date
# at every placement; a Warp swap drops it: the totals (points of player 0, of player 1, the soft
# value of ``evaluate``), then the same three numbers for each part of ``KindMaps.part_list``.
LIVE_POINTS_0, LIVE_POINTS_1, LIVE_SOFT = range(3)
#: where the numbers of part ``j`` start: ``LIVE_PARTS + LIVE_STEP * j``
LIVE_PARTS = LIVE_STEP = 3


def live_score(maps: KindMaps, m: list[int], ends: tuple[int, ...]) -> list[Any]:
    """The live score list of a position (see above)."""
    if not maps.part_list:
        maps.index()
    live: list[Any] = [0, 0, 0.0]
    p0 = p1 = 0
    soft = 0.0
    for j in range(len(maps.part_list)):
        a, b, v = part_value(maps, j, m, ends)
        live += (a, b, v)
        p0 += a
        p1 += b
        soft += v
    live[LIVE_POINTS_0] = p0
    live[LIVE_POINTS_1] = p1
    live[LIVE_SOFT] = soft
    return live


def update_live_score(live: list[Any], maps: KindMaps, m: list[int], ends: tuple[int, ...], s: int) -> None:
    """Update the live score for a tile just put on space ``s`` (the masks already hold it)."""
    for at in maps.part_at:
        j = at[s]
        if j >= 0:
            a, b, v = part_value(maps, j, m, ends)
            i = LIVE_PARTS + LIVE_STEP * j
            live[LIVE_POINTS_0] += a - live[i]
            live[LIVE_POINTS_1] += b - live[i + 1]
            live[LIVE_SOFT] += v - live[i + 2]
            live[i] = a
            live[i + 1] = b
            live[i + 2] = v


def part_value(maps: KindMaps, j: int, m: list[int], ends: tuple[int, ...]) -> tuple[int, int, float]:
    """Points of each player and the soft value (for ``evaluate``) of the strings of part ``j``.
    A string led by ``d`` spears or tiles has the soft value ``points * d / (|d| + 1)`` (negative
    for player 1), a controlled leadership string ``0.8 * points``."""
    k, part, shifted = maps.part_list[j]
    key = m[PASSABLE] & part
    strings: Strings = ()
    if key:
        found = maps.memo.get(shifted | key)
        strings = found if found is not None else maps.strings_in(k, shifted, key)
    if k == STRENGTH:
        return _strength_value(strings, m)
    if k == FORCE:
        return _force_value(strings, m, part, shifted, ends)
    return _leadership_value(strings, m, part)


def _strength_value(strings: Strings, m: list[int]) -> tuple[int, int, float]:
    p0 = p1 = 0
    soft = 0.0
    occupied, _, a1, a2, a4, b1, b2, b4 = _STRENGTH_MASKS(m)
    for ends_mask, _, n in strings:
        s = ends_mask & occupied
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


def _force_value(
    strings: Strings, m: list[int], part: int, shifted: int, ends: tuple[int, ...]
) -> tuple[int, int, float]:
    p0 = p1 = 0
    soft = 0.0
    occupied, _, wefts, own0, own1 = _FORCE_MASKS(m)
    covered = 0
    for ends_mask, conns, n in strings:
        covered |= conns
        s = ends_mask & occupied
        lead = (s & own0).bit_count() - (s & own1).bit_count()
        if lead > 0:
            p0 += n
            soft += n * lead / (lead + 1.0)
        elif lead < 0:
            p1 += n
            soft += n * lead / (1.0 - lead)
    wefts &= part
    if wefts:
        # force connections with no tiled non-Weft end: one-connection strings of the Wefts (AGA-T5)
        rest = (shifted >> _SPACE_BITS) & ~covered
        while rest:
            bit = rest & -rest
            rest ^= bit
            s = ends[bit.bit_length() - 1] & wefts
            if s:
                lead = tile_lead(s, m)
                if lead > 0:
                    p0 += 1
                    soft += lead / (lead + 1.0)
                elif lead < 0:
                    p1 += 1
                    soft += lead / (1.0 - lead)
    return p0, p1, soft


def _leadership_value(strings: Strings, m: list[int], part: int) -> tuple[int, int, float]:
    p0 = p1 = 0
    soft = 0.0
    leaders = m[ALL_LEADERS]
    if leaders & part:
        for ends_mask, _, n in strings:
            s = ends_mask & leaders
            if s:
                for mine, theirs in RANK_SLOTS:
                    if s & m[mine]:
                        if not s & m[theirs]:
                            p0 += n
                            soft += 0.8 * n
                            break
                    elif s & m[theirs]:
                        p1 += n
                        soft -= 0.8 * n
                        break
    return p0, p1, soft
