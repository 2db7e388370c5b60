"""What makes the Athos rulings cheap: indexes, search results and memos, no rule of its own.

Each ruling is stated once, as a predicate of the rules modules (``movement.py``, ``tiles.py``);
the predicates consult this module for the two costly questions they ask, and nothing here
decides what is legal:

* ATH-P1, the path rule ("would rubble on this field cut a monk off the summit?"): one
  depth-first search from the summit over the rubble-free fields per tile layout (Tarjan's
  cut-vertex search, :func:`cut_search`): for every field, the parts of the board that hang off
  it. The answer is then a lookup of the monks' discovery numbers in that field's intervals
  (:func:`critical_fields`, kept per monk layout). Before any search, a constant-time test on
  the six neighbours of a field (its rubble-free neighbours form one arc: :func:`locally_safe`)
  settles most fields. The predicates ask it of many fields at once
  (:func:`rubble_refused_among`; :func:`rubble_allowed` is one field of it). A relocation of a
  rubble tile (:func:`relocation_targets_among`) splits the rubble-free fields once per target
  field into components.
* ATH-T3, ATH-T10 ("can the movement still end with no two monks on an ordinary field?"), for
  the position or for one after a step or a flip that is only described, never played: a quick
  test (the one shared field can be left within the points left) and else an exact search over
  the mover's continuations with a memo of the situations already tried
  (:func:`movement_can_end`).

There is no batch move generator here: ``rules.py`` derives ``legal_actions`` from the kinds of
move of the phase and the same predicates that ``problem`` composes. Every answer here is checked
by tests/athos/test_athos_fast.py against the readable rules (a plain walk over the position
after the action) on thousands of random positions, and by tests/athos/test_athos_pathrule.py
and test_athos_movement.py on crowded ones.

The functions take the state (:class:`~palaestra.games.athos.rules.AthosState`) and read its
fields directly; the caches they fill are the state's (``_cut``, ``_critical_fields``,
``_relocation_parts``), declared and emptied in one place, ``AthosState._position_changed``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from palaestra.games.athos.board import walk
from palaestra.games.athos.constants import FLIP_COST, arrival_bonus

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

#: the result of :func:`cut_search`: discovery numbers, and per field the cut-off intervals
CutSearch = tuple[list[int], dict[int, list[tuple[int, int]]]]

#: the six positions around a field (a ring, Board.ring)
RING_SIZE = 6
FULL_RING = (1 << RING_SIZE) - 1
#: ATH-P1 for more placements than this: the search at once rather than the local test of each
#: (one of so many fails the local test all but surely, and the search is needed anyway)
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
    """ATH-P1 for making the free field or open tile ``f`` rubble now (one field of
    :func:`rubble_refused_among`)."""
    return not rubble_refused_among(state, (f,))


def rubble_refused_among(state: AthosState, fields: Sequence[int], local: bool = True) -> list[int]:
    """ATH-P1 for each of ``fields`` at once: those where rubble would cut a monk off (what
    :func:`rubble_allowed` refuses), skipping the fields that are rubble already (a rubble tile
    flipped opens its field). Without a search made yet, the local test on each field until one
    fails (unless ``local`` is False: many fields, where one of them fails all but surely), then
    at most one search for the rest; usually none is refused."""
    rubble = state.rubble
    critical = state._critical_fields
    if critical is not None:
        return [f for f in fields if f in critical and not rubble[f]]
    k = 0
    if state._cut is None and local:
        for f in fields:
            if not (rubble[f] or locally_safe(state, f)):
                break
            k += 1
        else:
            return []
    disc, cut_off = _cut(state)
    marks = [disc[v] for ms in state.monks for v in ms]
    refused = []
    for f in fields[k:]:
        if not rubble[f]:
            intervals = cut_off.get(f)
            if intervals and any(lo <= m < hi for lo, hi in intervals for m in marks):
                refused.append(f)
    return refused


def relocation_allowed(state: AthosState, f: int, g: int) -> bool:
    """ATH-P1 for relocating the rubble tile on ``f`` to the free field ``g`` (one field of
    :func:`relocation_targets_among`)."""
    return bool(relocation_targets_among(state, f, (g,)))


def relocation_targets_among(state: AthosState, f: int, fields: Sequence[int]) -> list[int]:
    """ATH-P1 for relocating the rubble tile on ``f`` to each of the free ``fields``: those it may
    go to without cutting a monk off.

    If a target ``g`` is not critical now, opening ``f`` can only help. Otherwise the rubble-free
    fields without ``g`` are split into components once per ``g``; the relocation is legal iff
    ``f`` touches the summit's component and every component that holds a monk."""
    critical = critical_fields(state)
    return [g for g in fields if g not in critical or _opens_a_way(state, f, g)]


def _opens_a_way(state: AthosState, f: int, g: int) -> bool:
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
#: a step described, not played: a monk of the mover from the first node to the second (the
#: summit: it leaves play); ``NO_STEP``: none
Moved = tuple[int, int]
NO_STEP: Moved = (-1, -1)


def crowded_fields(state: AthosState, moved: Moved = NO_STEP) -> list[int]:
    """Ordinary fields holding more than one monk now, or after the step ``moved`` (during a
    movement phase only the mover's monks can make them: ATH-T3 allows them until the movement
    ends)."""
    occupants = state.occupants
    n = state.board.n
    u, v = moved
    out: list[int] = []
    for x in state.monks[state.seat]:
        if x == u:
            x = v
            u = -1  # one monk moves
        if x < n and x not in out and occupants[x] - (x == moved[0]) + (x == v) >= 2:
            out.append(x)
    return out


def _can_clear(state: AthosState, x: int, points: int, moved: Moved, rubble: Sequence[bool]) -> bool:
    """Can a monk leave the shared field ``x`` for a field where it may end the movement (a
    free ordinary field, a start field or the summit) within ``points`` steps, after the step
    ``moved``?"""
    if points <= 0:
        return False
    board = state.board
    n = board.n
    occupants = state.occupants
    u, v = moved
    for w in board.adj[x]:  # the usual answer, one step away
        if not rubble[w] and (w >= n or occupants[w] - (w == u) + (w == v) == 0):
            return True
    return points > 1 and any(
        steps and (w >= n or occupants[w] - (w == u) + (w == v) == 0)
        for w, steps in walk(board.adj, [x], rubble, points)
    )


def movement_can_end(
    state: AthosState,
    moved: Moved = NO_STEP,
    points: int | None = None,
    arrived: int | None = None,
    rubble: Sequence[bool] | None = None,
) -> bool:
    """ATH-T3: can the mover still end the movement with no ordinary field holding two monks?
    Asked of the position, or of one described by a step of the mover (``moved``), the points
    left, the arrivals so far and the rubble (each defaults to the state's own): the position
    after a step or a flip, which is never played to ask."""
    crowded = crowded_fields(state, moved)
    if not crowded:
        return True
    points = state.points if points is None else points
    if points <= 0:
        return False
    rubble = state.rubble if rubble is None else rubble
    x = crowded[0]
    u, v = moved
    pair = len(crowded) == 1 and state.occupants[x] - (x == u) + (x == v) == 2
    if pair and _can_clear(state, x, points, moved, rubble):
        return True
    monks = list(state.monks[state.seat])
    if u >= 0:
        i = monks.index(u)
        if v == state.board.summit:
            del monks[i]
        else:
            monks[i] = v
    arrived = len(state.arrivals) if arrived is None else arrived
    return _SeparationSearch(state, rubble).search(tuple(sorted(monks)), points, arrived, frozenset())


class _SeparationSearch:
    """The exact answer of :func:`movement_can_end`: a search over the mover's possible
    continuations (steps, arrivals with their bonus, flips of rubble to open), made only when the
    quick test of one shared field fails. Flips to rubble never help and are left out. The memo
    ``tried`` holds the situations already searched (monks, points, arrivals, opened tiles)."""

    def __init__(self, state: AthosState, rubble: Sequence[bool]) -> None:
        board = state.board
        self.board = board
        self.rubble = rubble
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
