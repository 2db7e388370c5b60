"""What makes the Archimedes rules cheap: tables, memos and path searches, no rule of its own.

Each ruling is stated once, in ``rules.py`` (``ArchimedesState``): which cubes may move (ARC-M5,
ARC-M7), how far (ARC-M1), through which cells (ARC-M3). What this module adds is the one costly
question those predicates ask, "where can a path of this many steps from this cell through these
free cells end" (ARC-M2, with the early stop of ARC-M4), answered from tables of every path
(3 to :data:`TABLE_STEPS` steps without revisits) or a search, and memoised per player under the
only key the answer depends on: the cell, the step count and the free cells within that reach.
There is no batch move generator here: ``rules.py`` derives ``legal_actions`` from its own
predicates, and the tests check it against ``problem`` and against the independent reference of
tests/archimedes/archimedes_reference.py (tests/archimedes/test_archimedes_memo.py).

Sets of cells are int bit masks (bit ``i`` is cell ``i`` of the board file).
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from palaestra.core.game import set_bits
from palaestra.games.archimedes.board import Board

#: entries kept per player in the memo of single-cube moves: when it is full, its older half
#: goes (an entry takes about 250 bytes: at most some 12 MB per player)
MEMO_LIMIT = 50_000
#: moves of 3 to this many steps (no revisits) come from the tables of paths of
#: :meth:`MoveGenerator.path_table` (at most some 4 MB per player), longer ones (rare) from a search
TABLE_STEPS = 7
#: a memo key packs a cell and a step count as ``cell << STEP_BITS | steps``: a distance counts
#: cubes (ARC-M1), never more than all 12 of three players, so it fits in 4 bits
STEP_BITS = 4
_STEPS = (1 << STEP_BITS) - 1
#: the table slot that holds the exact paths shared by every player (no player has number 3)
_SHARED = 3

#: the paths of a table: cells entered and end of each exact path, the same of each early stop
PathTable = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _forget_older_half(memo: dict[int, Any]) -> None:
    """Drop the first half of ``memo`` in insertion order (the entries made longest ago). Safe if
    two threads searching the same game do it at once (``pop``: a key may be gone already)."""
    for key in list(islice(memo, len(memo) // 2)):
        memo.pop(key, None)


class MoveGenerator:
    """The path tables and memos of one game (its board, goal cells and revisit option).

    Pickled (and deep-copied) without its memos and tables, which are rebuilt empty: they are
    pure caches and never change a result."""

    def __init__(
        self,
        board: Board,
        goal_mask: tuple[int, ...],
        revisit: bool,
        max_steps: int,
    ) -> None:
        self.board = board
        self.size = board.size
        self.all_mask = board.all_mask
        #: per player, its goal cells (a mask): a path may stop early on one (ARC-M4)
        self.goal_mask = goal_mask
        self.revisit = revisit
        self.neighbour_bits: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((m, 1 << m) for m in nbrs) for nbrs in board.neighbours
        )
        #: ``reach[c << STEP_BITS | r]``: the cells within ``r`` steps of cell ``c`` (ignoring
        #: cubes); a path of ``r`` steps from ``c`` stays inside it, so it is all a memo key needs
        #: to see (``r`` up to ``max_steps``, the largest distance: every cube on the board).
        #: ``reach_tag[i]`` is ``i << size``, to make the memo keys.
        assert max_steps <= _STEPS
        reach = [0] * (board.size << STEP_BITS)
        for c in range(board.size):
            ball = 1 << c
            for r in range(max_steps + 1):
                reach[c << STEP_BITS | r] = ball
                grown = ball
                for m in range(board.size):
                    if ball >> m & 1:
                        grown |= board.neighbour_mask[m]
                ball = grown
        self.reach: tuple[int, ...] = tuple(reach)
        self.reach_tag: tuple[int, ...] = tuple(i << board.size for i in range(board.size << STEP_BITS))
        #: the action ids as shared int objects (the memos hold many of them)
        self.action_ids: tuple[int, ...] = tuple(range(board.size * board.size + 1))
        self.clear()

    def clear(self) -> None:
        """Empty the memos and the path tables: the one place they are made (and thrown away)."""
        #: paths without revisits, made on first use: see :meth:`path_table`
        self.path_tables: dict[int, PathTable] = {}
        self.clear_memos()

    def clear_memos(self) -> None:
        """Empty the memos of single-cube moves (the path tables stay)."""
        #: per player, a memo of the moves of one cube: key ``(free cells within reach) |
        #: reach_tag[cell << STEP_BITS | steps]``, value the sorted action ids (a pure function
        #: of the key; its older half goes when it reaches MEMO_LIMIT)
        self.memos: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in self.goal_mask)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["memos"], state["path_tables"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.clear()

    def path_table(self, start: int, steps: int, player: int) -> PathTable:
        """The paths without revisits from ``start`` (ARC-M2) that may end a move of ``player``:
        ``(cells, ends, early cells, early ends)``. ``cells``/``ends``: every path of exactly
        ``steps`` steps, the cells it enters as a mask (its end included) and its end as a bit
        (the same tuples for every player); ``early ...``: the shorter paths that end on one of
        the player's goal cells (ARC-M4; most often none). A cube on ``start`` can end a move on
        the end of every path whose cells are all free (ARC-M3). Made on first use and kept; one
        table is at most ``3 * 2 ** (steps - 1)`` paths."""
        key = ((start << STEP_BITS | steps) << 2) + player
        table = self.path_tables.get(key)
        if table is not None:
            return table
        goal = self.goal_mask[player]
        shared_key = key - player + _SHARED
        shared = self.path_tables.get(shared_key)
        exact: dict[tuple[int, int], None] = {}  # ordered sets
        early: dict[tuple[int, int], None] = {}
        neighbours = self.board.neighbours
        stack = [(start, 0, 0)]
        while stack:
            c, cells, k = stack.pop()
            if k == steps:
                exact[cells, 1 << c] = None
                continue
            if k and goal >> c & 1:
                early[cells, 1 << c] = None
            if shared is None or k + 1 < steps:  # the full length only when not made yet
                for m in neighbours[c]:
                    if m != start and not cells >> m & 1:
                        stack.append((m, cells | 1 << m, k + 1))
        if shared is None:
            shared = self.path_tables[shared_key] = (
                tuple(m for m, _ in exact),
                tuple(e for _, e in exact),
                (),
                (),
            )
        table = self.path_tables[key] = (
            shared[0],
            shared[1],
            tuple(m for m, _ in early),
            tuple(e for _, e in early),
        )
        return table

    def search_ends(self, start: int, steps: int, free: int, goal: int) -> int:
        """The cells a cube on ``start`` can end on with ``steps`` steps through ``free`` cells
        (ARC-M2), stopping early on a ``goal`` cell (ARC-M4): a depth-first search, with the last
        two steps unrolled; with revisits one set of cells per step (exact for walks)."""
        nmask = self.board.neighbour_mask
        if self.revisit:
            front = 1 << start
            ends = 0
            for k in range(steps):
                grown = 0
                m = front
                while m:
                    low = m & -m
                    grown |= nmask[low.bit_length() - 1]
                    m ^= low
                front = grown & free
                if k < steps - 1:
                    ends |= front & goal
            return (ends | front) & ~(1 << start)
        neighbour_bits = self.neighbour_bits
        ends = 0
        stack = [(start, 1 << start, steps)]
        pop = stack.pop
        push = stack.append
        while stack:
            c, visited, left = pop()
            if left == 1:
                ends |= nmask[c] & free & ~visited
                continue
            if left == 2:
                for m, bit in neighbour_bits[c]:
                    if free & bit and not visited & bit:
                        if goal & bit:
                            ends |= bit
                        ends |= nmask[m] & free & ~(visited | bit)
                continue
            left -= 1
            for m, bit in neighbour_bits[c]:
                if free & bit and not visited & bit:
                    if goal & bit:
                        ends |= bit
                    push((m, visited | bit, left))
        return ends

    def _table_ends(self, start: int, steps: int, free: int, player: int) -> int:
        table = self.path_tables.get(((start << STEP_BITS | steps) << 2) + player)
        cells_of, end_of, early_cells, early_ends = table or self.path_table(start, steps, player)
        taken = self.all_mask & ~free
        ends = 0
        for cells, end in zip(cells_of, end_of, strict=True):
            if not cells & taken:
                ends |= end
        for cells, end in zip(early_cells, early_ends, strict=True):
            if not cells & taken:
                ends |= end
        return ends

    def ends(self, c: int, steps: int, free: int, player: int) -> tuple[int, ...]:
        """The action ids, sorted, of the moves of ``player``'s cube on ``c`` with ``steps`` steps
        through the ``free`` cells: to the end of every path the rules allow (see :meth:`path_table`
        and :meth:`search_ends`). Memoised: the answer depends only on the cells of ``free``
        within ``steps`` steps of ``c``."""
        i = c << STEP_BITS | steps
        key = free & self.reach[i] | self.reach_tag[i]
        memo = self.memos[player]
        moves = memo.get(key)
        if moves is None:
            moves = memo[key] = self._new_moves(c, steps, free, player, memo)
        return moves

    def _new_moves(self, c: int, steps: int, free: int, player: int, memo: dict[int, Any]) -> tuple[int, ...]:
        if len(memo) >= MEMO_LIMIT:
            _forget_older_half(memo)
        if 3 <= steps <= TABLE_STEPS and not self.revisit:
            ends = self._table_ends(c, steps, free, player)
        else:
            ends = self.search_ends(c, steps, free, self.goal_mask[player])
        first = c * self.size - 1
        ids = self.action_ids
        found = []
        while ends:
            low = ends & -ends
            found.append(ids[first + low.bit_length()])
            ends ^= low
        return tuple(found)

    def example_path(self, start: int, steps: int, free: int, goal: int, end: int) -> list[int] | None:
        """One path (cells, start first) of ``steps`` steps (or fewer to a ``goal`` cell) from
        ``start`` to ``end`` through ``free`` cells, or None. Slow; for explanations only."""
        if end == start:
            return None
        if self.revisit:
            return self._example_walk(start, steps, free, goal, end)
        return self._example_path([start], steps, free, goal, end)

    def _example_walk(self, start: int, steps: int, free: int, goal: int, end: int) -> list[int] | None:
        """:meth:`example_path` with revisits: the cells reachable after each step, walked back."""
        layers = [1 << start]
        for _ in range(steps):
            grown = 0
            for c in set_bits(layers[-1]):
                grown |= self.board.neighbour_mask[c]
            layers.append(grown & free)
        hits = [k for k in range(1, steps + 1) if layers[k] >> end & 1 and (k == steps or goal >> end & 1)]
        if not hits:
            return None
        path = [end]
        for k in range(hits[0] - 1, -1, -1):
            path.append(next(c for c in self.board.neighbours[path[-1]] if layers[k] >> c & 1))
        return path[::-1]

    def _example_path(self, path: list[int], left: int, free: int, goal: int, end: int) -> list[int] | None:
        """:meth:`example_path` without revisits: a depth-first search, neighbours in board order."""
        for m in self.board.neighbours[path[-1]]:
            if not free >> m & 1 or m in path:
                continue
            if m == end and (left == 1 or goal >> m & 1):
                return [*path, m]
            if left > 1:
                found = self._example_path([*path, m], left - 1, free, goal, end)
                if found is not None:
                    return found
        return None
