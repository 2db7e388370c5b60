"""The fast Archimedes move generator: tables and memos for speed, no rules of its own.

It finds the same moves as the readable rules of ``rules.py`` (``ArchimedesState.problem`` and
``moves_by_the_rules``), which the tests check over thousands of random positions
(tests/archimedes/test_archimedes_memo.py). What a cube may do depends only on its cell, its
distance (ARC-M1) and the free cells within that many steps (ARC-M2, ARC-M3), with the player's
goal cells (ARC-M4); so the moves of one cube are memoised per player under that key, and moves
of 3 to :data:`TABLE_STEPS` steps without revisits are read from tables of every path.

Sets of cells are int bit masks (bit ``i`` is cell ``i`` of the board file).
"""

from __future__ import annotations

from itertools import islice
from typing import Any

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
    """The move tables and memos of one game (its board, goal cells and revisit option).

    Pickled (and deep-copied) without its memos and tables, which are rebuilt empty: they are
    pure caches and never change a result."""

    def __init__(
        self,
        board: Board,
        start_mask: tuple[int, ...],
        goal_mask: tuple[int, ...],
        block_mask: tuple[int, ...],
        revisit: bool,
        max_steps: int,
    ) -> None:
        self.board = board
        self.size = board.size
        self.all_mask = board.all_mask
        #: per player, its start cells and its goal cells (masks)
        self.start_mask = start_mask
        self.goal_mask = goal_mask
        #: ``block_mask[c]``: cell ``c`` and its neighbours, which a cube on ``c`` keeps others out of
        self.block_mask = block_mask
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
        """Empty the memos and the path tables."""
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

    def cube_moves(
        self, pos: list[int], occupied: int, player: int, released: bool
    ) -> list[tuple[int, tuple[int, ...]]]:
        """``(cell, action ids)`` of each of ``player``'s cubes that has a move, in cube order:
        ``pos`` holds four cells per player, ``occupied`` all of them as a mask; ``released``
        says whether cubes on the player's start cells may move (ARC-M7, decided by the rules)."""
        block = self.block_mask
        base = 4 * player
        c0, c1, c2, c3 = pos[base : base + 4]
        others = 0
        for c in pos[:base]:
            others |= block[c]
        for c in pos[base + 4 :]:
            others |= block[c]
        goal = self.goal_mask[player]
        start_cells = 0 if released else self.start_mask[player]
        b0, b1, b2, b3 = block[c0], block[c1], block[c2], block[c3]
        all_mask = self.all_mask
        free01 = all_mask & ~(others | b0 | b1)
        free23 = all_mask & ~(others | b2 | b3)
        rows = self.board.rows_mask
        reach = self.reach
        tag = self.reach_tag
        memo = self.memos[player]
        found: list[tuple[int, tuple[int, ...]]] = []
        for c, free in ((c0, free23 & ~b1), (c1, free23 & ~b0), (c2, free01 & ~b3), (c3, free01 & ~b2)):
            if (goal | start_cells) >> c & 1:  # arrived (ARC-M5) or held on its start cell (ARC-M7)
                continue
            i = c << STEP_BITS | (occupied & rows[c]).bit_count()
            key = free & reach[i] | tag[i]
            moves = memo.get(key)
            if moves is None:
                moves = memo[key] = self._new_moves(c, i & _STEPS, free, player, memo)
            if moves:
                found.append((c, moves))
        return found

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

    def moves(self, pos: list[int], occupied: int, player: int, released: bool) -> list[int]:
        """Every move of ``player`` (no pass), sorted: one action id per start and end cell."""
        found = self.cube_moves(pos, occupied, player, released)
        if len(found) == 1:
            return list(found[0][1])
        found.sort()  # by start cell: the ids (start * size + end) come out sorted
        out: list[int] = []
        for _, moves in found:
            out.extend(moves)
        return out
