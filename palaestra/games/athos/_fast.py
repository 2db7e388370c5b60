"""The speed machinery behind Athos's rules (rules.py asks, this module answers fast).

* ATH-P1, the path rule: one depth-first search from the summit over the rubble-free fields per
  tile layout (Tarjan's cut-vertex search, :func:`cut_search`): for every field, the parts of
  the board that hang off it. Whether rubble on a field would cut a monk off is then a lookup
  of the monks' discovery numbers in that field's intervals (:func:`critical_fields`, kept per
  monk layout). Before any search, a constant-time test on the six neighbours of a field (its
  rubble-free neighbours form one arc: :func:`locally_safe`) settles most candidates. A
  relocation of a rubble tile (:func:`relocation_allowed`) splits the rubble-free fields once
  per target field into components.
* ATH-T3, ATH-T10, monks sharing a field: a quick test (the one shared field can be left within
  the points left) and else an exact search over the mover's continuations with a memo of the
  situations already tried (:func:`movement_can_end`).
* The legal-action generator (:func:`legal_actions`), which the tests check against
  :meth:`AthosState.problem <palaestra.games.athos.rules.AthosState.problem>`.

Every answer here is checked by tests/athos/test_athos_fast.py against the readable rules (a
plain walk over the position after the action) on thousands of random positions, and by
tests/athos/test_athos_pathrule.py and test_athos_movement.py on crowded ones.

The functions take the state (:class:`~palaestra.games.athos.rules.AthosState`) and read its
fields directly; the caches they fill are the state's (``_cut``, ``_critical_fields``,
``_relocation_parts``), emptied by the state whenever the tiles change.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from palaestra.games.athos.board import walk
from palaestra.games.athos.constants import (
    FLIP_COST,
    HANDICAP,
    MOVE,
    NO_TILE,
    OPEN,
    PLACE,
    RELOCATED,
    RUBBLE,
    STONE,
    arrival_bonus,
)
from palaestra.games.athos.moves import (
    END_MOVE_ID,
    END_TURN_ID,
    FLIP_IDS,
    HANDICAP_IDS,
    OPEN_IDS,
    PLACE_IDS,
    RELOCATE_IDS,
    STONE_IDS,
)

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

#: the result of :func:`cut_search`: discovery numbers, and per field the cut-off intervals
CutSearch = tuple[list[int], dict[int, list[tuple[int, int]]]]

#: the six positions around a field (a ring, Board.ring)
RING_SIZE = 6
FULL_RING = (1 << RING_SIZE) - 1
#: a placement uses the local test on each candidate rather than one search up to this many
LOCAL_TEST_CANDIDATES = 40


def _arcs(mask: int) -> int:
    """Number of cyclic runs of set bits in a ring mask of RING_SIZE bits."""
    if mask == FULL_RING:
        return 1
    return sum(1 for i in range(RING_SIZE) if mask >> i & 1 and not mask >> ((i - 1) % RING_SIZE) & 1)


#: the number of arcs of every ring mask
ARCS = tuple(_arcs(m) for m in range(1 << RING_SIZE))


# --- ATH-P1: the path rule --------------------------------------------------------------------
def cut_search(open_adj: list[tuple[int, ...]], root: int, size: int) -> CutSearch:
    """One depth-first search from ``root`` (the summit) over the rubble-free graph ``open_adj``
    (Tarjan's cut-vertex search, without recursion so that boards of any size fit).

    Returns the discovery number of every node (0: not reachable) and, for each node ``c`` other
    than the root, the pre-order intervals ``[start, end)`` of its DFS children whose subtree is
    cut off from the root when ``c`` becomes rubble (``low >= disc[c]``)."""
    disc = [0] * size
    cut_off: dict[int, list[tuple[int, int]]] = {}
    disc[root] = 1
    count = 1
    # the path from the root to v: each ancestor with its neighbour iterator and its low value
    stack: list[tuple[int, Iterator[int], int]] = []
    v = root
    low = 1  # the least discovery number reached from v's subtree (so far)
    neighbours = iter(open_adj[root])
    while True:
        for w in neighbours:
            dw = disc[w]
            if not dw:  # a tree edge: descend
                count += 1
                disc[w] = count
                stack.append((v, neighbours, low))
                v = w
                low = count
                neighbours = iter(open_adj[w])
                break
            if dw < low:  # the parent edge too: harmless for cut vertices
                low = dw
        else:  # v is done: back to its parent
            if not stack:
                break
            child, child_low = v, low
            v, neighbours, low = stack.pop()
            if child_low < low:
                low = child_low
            if child_low >= disc[v]:
                interval = (disc[child], count + 1)
                if v in cut_off:
                    cut_off[v].append(interval)
                else:
                    cut_off[v] = [interval]
    cut_off.pop(root, None)  # the summit is never rubble
    return disc, cut_off


def _cut(state: AthosState) -> CutSearch:
    if state._cut is None:
        board = state.board
        state._cut = cut_search(state.open_adj, board.summit, board.size)
    return state._cut


def critical_fields(state: AthosState) -> frozenset[int]:
    """Fields that, made rubble, would cut a monk in play off the summit (cached per state)."""
    if state._critical_fields is None:
        disc, cut_off = _cut(state)
        marks = [disc[v] for ms in state.monks for v in ms]
        state._critical_fields = frozenset(
            c for c, intervals in cut_off.items() if any(lo <= m < hi for lo, hi in intervals for m in marks)
        )
    return state._critical_fields


def locally_safe(state: AthosState, f: int) -> bool:
    """True if rubble on ``f`` cannot disconnect anything: its rubble-free neighbours form one
    arc of its ring (not for the fields touching a start field or the summit)."""
    board = state.board
    if board.special_neighbour[f]:
        return False
    rubble = state.rubble
    mask = 0
    bit = 1
    for j in board.ring[f]:
        if j >= 0 and not rubble[j]:
            mask |= bit
        bit <<= 1
    return ARCS[mask] <= 1


def rubble_allowed(state: AthosState, f: int) -> bool:
    """ATH-P1 for making the free field or open tile ``f`` rubble now."""
    critical = state._critical_fields
    if critical is not None:
        return f not in critical
    if state._cut is None and locally_safe(state, f):
        return True
    disc, cut_off = _cut(state)
    intervals = cut_off.get(f)
    if not intervals:
        return True
    for ms in state.monks:
        for v in ms:
            m = disc[v]
            for lo, hi in intervals:
                if lo <= m < hi:
                    return False
    return True


def _allowed_flips(state: AthosState, flippable: list[int], flip_start: int, out: list[int]) -> None:
    """Add the flips of ``flippable`` (tiles without monk or stone) allowed by ATH-P1 to ``out``:
    rubble may always be opened; an open tile may be turned if the local test says so, or else
    the one search per tile layout (made at the first tile the local test leaves open) shows
    that it cuts no monk off."""
    tile = state.tile
    critical = state._critical_fields
    if critical is not None:
        out.extend(flip_start + f for f in flippable if tile[f] == RUBBLE or f not in critical)
        return
    k = 0
    if state._cut is None:
        for f in flippable:
            if tile[f] == RUBBLE or locally_safe(state, f):
                out.append(flip_start + f)
                k += 1
            else:
                break
        else:
            return
    disc, cut_off = _cut(state)
    marks = [disc[v] for ms in state.monks for v in ms]
    for f in flippable[k:]:
        if tile[f] == OPEN:
            intervals = cut_off.get(f)
            if intervals and any(lo <= m < hi for lo, hi in intervals for m in marks):
                continue
        out.append(flip_start + f)


def relocation_allowed(state: AthosState, f: int, g: int) -> bool:
    """ATH-P1 for relocating the rubble tile on ``f`` to the free field ``g``.

    If ``g`` is not critical now, opening ``f`` can only help. Otherwise the rubble-free fields
    without ``g`` are split into components once per ``g``; the relocation is legal iff ``f``
    touches the summit's component and every component that holds a monk."""
    if g not in critical_fields(state):
        return True
    parts = state._relocation_parts.get(g)
    if parts is None:
        board = state.board
        blocked = state.rubble[:]
        blocked[g] = True
        label = [-1] * board.size
        count = 0
        for start in range(board.size):
            if label[start] == -1 and not blocked[start]:
                for w, _ in walk(board.adj, [start], blocked):
                    label[w] = count
                count += 1
        needed = frozenset({label[board.summit]} | {label[v] for ms in state.monks for v in ms})
        parts = state._relocation_parts[g] = (label, needed)
    label, needed = parts
    return needed <= {label[w] for w in state.board.adj[f]}


# --- ATH-T3, ATH-T10: can the movement still end? ------------------------------------------------
def crowded_fields(state: AthosState) -> list[int]:
    """Ordinary fields holding more than one monk now (during a movement phase only the
    mover's monks can make them: ATH-T3 allows them until the movement ends)."""
    occupants = state.occupants
    n = state.board.n
    out: list[int] = []
    for v in state.monks[state.seat]:
        if v < n and occupants[v] >= 2 and v not in out:
            out.append(v)
    return out


def _can_clear(state: AthosState, x: int, points: int) -> bool:
    """Can a monk leave the shared field ``x`` for a field where it may end the movement (a
    free ordinary field, a start field or the summit) within ``points`` steps?"""
    if points <= 0:
        return False
    board = state.board
    n = board.n
    occupants, rubble = state.occupants, state.rubble
    for w in board.adj[x]:  # the usual answer, one step away
        if not rubble[w] and (w >= n or occupants[w] == 0):
            return True
    return points > 1 and any(
        steps and (w >= n or occupants[w] == 0) for w, steps in walk(board.adj, [x], rubble, points)
    )


def movement_can_end(state: AthosState) -> bool:
    """ATH-T3: can the mover still end the movement with no ordinary field holding two monks?"""
    crowded = crowded_fields(state)
    if not crowded:
        return True
    if state.points <= 0:
        return False
    if len(crowded) == 1 and state.occupants[crowded[0]] == 2 and _can_clear(state, crowded[0], state.points):
        return True
    return _SeparationSearch(state).possible()


class _SeparationSearch:
    """The exact answer of :func:`movement_can_end`: a search over the mover's possible
    continuations (steps, arrivals with their bonus, flips of rubble to open), made only when the
    quick test of one shared field fails. Flips to rubble never help and are left out. The memo
    ``tried`` holds the situations already searched (monks, points, arrivals, opened tiles)."""

    def __init__(self, state: AthosState) -> None:
        board = state.board
        self.board = board
        self.rubble = state.rubble
        self.stone = state.stone
        self.state = state
        me = state.seat
        #: monks of the other players on each node
        self.others = state.occupants[:]
        for v in state.monks[me]:
            self.others[v] -= 1
        self.tried: set[tuple[tuple[int, ...], int, int, frozenset[int]]] = set()
        #: per set of opened tiles: the nodes a monk may enter, and the distances to the summit
        self.views: dict[frozenset[int], tuple[list[bool], list[int]]] = {}

    def possible(self) -> bool:
        state = self.state
        return self.search(
            tuple(sorted(state.monks[state.seat])), state.points, len(state.arrivals), frozenset()
        )

    def crowded(self, monks: tuple[int, ...]) -> bool:
        last = -1
        n = self.board.n
        for v in monks:
            if v < n and (self.others[v] or v == last):
                return True
            last = v
        return False

    def view(self, opened: frozenset[int]) -> tuple[list[bool], list[int]]:
        """The rubble with the ``opened`` tiles open, and the distances to the summit over it."""
        found = self.views.get(opened)
        if found is None:
            board = self.board
            blocked = [r and w not in opened for w, r in enumerate(self.rubble)]
            dist = [-1] * board.size
            for w, steps in walk(board.adj, [board.summit], blocked):
                dist[w] = steps
            found = self.views[opened] = (blocked, dist)
        return found

    def flips(self, monks: tuple[int, ...], points: int, opened: frozenset[int]) -> list[int]:
        """Rubble worth opening: it touches a field some monk reaches with the points left after
        the flip (not through the summit)."""
        board = self.board
        blocked = self.view(opened)[0][:]
        blocked[board.summit] = True
        reach = [w for w, _ in walk(board.adj, monks, blocked, points - FLIP_COST)]
        adj = board.adj
        rubble, stone = self.rubble, self.stone
        return sorted({w for u in reach for w in adj[u] if rubble[w] and w not in opened and stone[w] < 0})

    def search(self, monks: tuple[int, ...], points: int, arrived: int, opened: frozenset[int]) -> bool:
        key = (monks, points, arrived, opened)
        if key in self.tried:
            return False
        self.tried.add(key)
        if not self.crowded(monks):
            return True
        if points <= 0:
            return False
        if any(self.steps(monks, points, arrived, opened)):
            return True
        if points >= FLIP_COST:
            for f in self.flips(monks, points, opened):
                if self.search(monks, points - FLIP_COST, arrived, opened | {f}):
                    return True
        return False

    def steps(
        self, monks: tuple[int, ...], points: int, arrived: int, opened: frozenset[int]
    ) -> Iterator[bool]:
        """The outcomes of the searches after each useful step (a generator: stopped at the
        first success)."""
        board = self.board
        n, summit, adj = board.n, board.summit, board.adj
        blocked, dist = self.view(opened)
        for i, u in enumerate(monks):
            if i and monks[i - 1] == u:
                continue
            # a monk alone on its field moves only to arrive (for the bonus) along a shortest
            # way: leaving room never beats passing through, since monks never block
            alone = u >= n or not (self.others[u] or (i + 1 < len(monks) and monks[i + 1] == u))
            if alone and not 0 < dist[u] <= points:
                continue
            rest = monks[:i] + monks[i + 1 :]
            for v in adj[u]:
                if blocked[v] or (alone and dist[v] != dist[u] - 1):
                    continue
                if v == summit:
                    gain = arrival_bonus(arrived)
                    yield self.search(rest, points - 1 + gain, arrived + 1, opened)
                else:
                    yield self.search(tuple(sorted((*rest, v))), points - 1, arrived, opened)


# --- the legal actions ------------------------------------------------------------------------------
def legal_actions(state: AthosState) -> list[int]:
    """Every legal action of ``state``, sorted: what :meth:`AthosState.problem` allows, made
    without asking it of every id."""
    phase = state.phase
    if phase == MOVE:
        out = _movement_actions(state)
    elif phase in (STONE, PLACE):
        out = []
        if phase == STONE and state.stones_left[state.seat]:
            out.extend(relocations(state) or stone_targets(state))
        if state.placed_total < state.game.max_tiles:
            _placements(state, out)
        out.append(state.game.first_id[END_TURN_ID])
    elif phase == RELOCATED:
        return stone_targets(state)
    elif phase == HANDICAP:
        out = handicap_actions(state)
    else:
        return []
    out.sort()
    return out


def _movement_actions(state: AthosState) -> list[int]:
    """ATH-T1..T6, T10: steps, flips and end-move."""
    first_id = state.game.first_id
    out: list[int] = []
    occupants = state.occupants
    crowded = crowded_fields(state) if state.crowded else []
    if state.points >= 1:
        rubble = state.rubble
        plain = not crowded
        n = state.board.n
        out_of = state.board.out
        for u in set(state.monks[state.seat]):
            for v, e in out_of[u]:
                if rubble[v]:
                    continue
                if (plain and (v >= n or occupants[v] == 0)) or state.step_problem(u, v) is None:
                    out.append(e)
    if state.points >= FLIP_COST:
        start = first_id[FLIP_IDS]
        stone = state.stone
        flippable = [f for f in state.tiled_fields() if not occupants[f] and stone[f] < 0]
        if crowded:
            out.extend(start + f for f in flippable if state.flip_problem(f) is None)
        else:
            _allowed_flips(state, flippable, start, out)
    if not crowded:
        out.append(first_id[END_MOVE_ID])
    return out


def _placements(state: AthosState, out: list[int]) -> None:
    """ATH-T8, ATH-P1: the rubble placements of a turn."""
    game = state.game
    tile, occupants, stone = state.tile, state.occupants, state.stone
    start = game.first_id[PLACE_IDS]
    candidates = [
        f
        for t, fields in enumerate(state.board.fields_of_terrain)
        if state.supply[t] and state.placed[t] < game.max_per_terrain
        for f in fields
        if not tile[f] and not occupants[f] and stone[f] < 0
    ]
    # few candidates: the local test on each is cheaper than a search, which is made only if
    # some candidate is not settled by it
    few = state._critical_fields is None and state._cut is None and len(candidates) <= LOCAL_TEST_CANDIDATES
    if few and all(locally_safe(state, f) for f in candidates):
        out.extend(start + f for f in candidates)
        return
    # one search serves every candidate
    critical = critical_fields(state)
    out.extend(start + f for f in candidates if f not in critical)


def handicap_actions(state: AthosState) -> list[int]:
    """ATH-V2: a tile of any terrain left in the supply on any free field, either side up (by the
    rulings of 2026-11-23: of the field's own terrain)."""
    game = state.game
    board = state.board
    place, place_open = game.first_id[PLACE_IDS], game.first_id[OPEN_IDS]
    handicap = game.action_space[HANDICAP_IDS]
    others = [] if game.original_rules else [t for t in range(len(board.terrains)) if state.supply[t]]
    out = []
    for f in range(board.n):
        if not state.free(f):
            continue
        own = board.terrain[f]
        rubble_ok = rubble_allowed(state, f)
        if state.supply[own]:
            if rubble_ok:
                out.append(place + f)
            out.append(place_open + f)
        for t in others:
            if t != own:
                rubble_id = handicap.encode(t, f, 0)
                if rubble_ok:
                    out.append(rubble_id)
                out.append(rubble_id + 1)
    return out


def relocations(state: AthosState, any_one: bool = False) -> list[int]:
    """ATH-T7, ATH-P1: the legal relocations (``any_one``: stop at the first one found)."""
    n = state.board.n
    tile, occupants, stone = state.tile, state.occupants, state.stone
    movable = [f for f in state.tiled_fields() if not occupants[f] and stone[f] < 0]
    if not movable:
        return []
    free = [x for x in range(n) if not tile[x] and not occupants[x] and stone[x] < 0]
    start = state.game.first_id[RELOCATE_IDS]
    out: list[int] = []
    for f in movable:
        base = start + f * n
        if tile[f] == OPEN:
            out.extend(base + x for x in free)
        else:
            critical = critical_fields(state)
            out.extend(base + x for x in free if x not in critical or relocation_allowed(state, f, x))
        if any_one and out:
            break
    return out


def stone_targets(state: AthosState) -> list[int]:
    """ATH-T7: any tile, one with a stone too (by the rulings of 2026-11-23 not); ATH-V3: a free
    bare field (one with a stone too)."""
    game = state.game
    start = game.first_id[STONE_IDS]
    out = []
    for f in range(state.board.n):
        if state.stone[f] >= 0 and game.original_rules:
            continue
        if state.tile[f] != NO_TILE or (game.bare_stone and state.occupants[f] == 0):
            out.append(start + f)
    return out
