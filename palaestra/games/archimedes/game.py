"""Archimedes (Niek Neuwahl, 1995) on the Palaestra core protocol: rulings ARC-* of RULINGS.md.

Notation and formats are documented in docs/archimedes.md:

* a move is ``START-END`` in the board's cell names (``a2-b1``); a pass is ``pass``;
* action ids: ``start * 96 + end`` for a move, ``96 * 96 = 9216`` for the pass;
* a position is ``{"game": "archimedes", "players": 2, "revisit": false, "move_limit": 1000,
  "cubes": [["a2", "a4", "a6", "a8"], ["h2", "h4", "h6", "h8"]], "to_move": 0, "passes": 0,
  "ply": 0}`` (only ``game`` and ``cubes`` are required).

Cubes are kept as a flat list of cells, four per player: cube ``k`` belongs to player ``k // 4``.
Sets of cells are int bit masks (bit ``i`` is cell ``i`` of the board file).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import islice
from typing import Any, ClassVar

from palaestra.core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
)
from palaestra.core.game import TERMINAL, Game, Option, State, outcome_text, returns_from_ranks
from palaestra.games.archimedes.board import OPPOSITE, Board, default_board

CUBES = 4
#: entries kept per player in the game's memo of single-cube moves: when it is full, its older
#: half goes (an entry takes about 250 bytes: at most some 12 MB per player)
_MEMO_LIMIT = 50_000
#: moves of 3 to this many steps (no revisits) are found with the tables of paths of
#: ``ArchimedesGame._path_table`` (at most some 4 MB per player), longer ones (rare) by a search
_TABLE_STEPS = 7


#: the paths of ArchimedesGame._path_table: cells entered and end, exact length and early stops
_PathTable = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _forget_older_half(memo: dict[int, Any]) -> None:
    """Drop the first half of ``memo`` in insertion order (the entries made longest ago). Safe if
    two threads searching the same game do it at once (``pop``: a key may be gone already)."""
    for key in list(islice(memo, len(memo) // 2)):
        memo.pop(key, None)


#: start side of each player, by player count (ARC-S1, ARC-S2)
START_SIDES: dict[int, tuple[str, ...]] = {2: ("S", "N"), 3: ("S", "NE", "NW")}
#: how the game ended
HOME, PASSES, LIMIT = "home", "passes", "limit"
DEFAULT_MOVE_LIMIT = 1000

_MOVE = re.compile(r"^\s*([a-z]\d{1,2})\s*-\s*([a-z]\d{1,2})\s*$")
_POSITION_KEYS = (
    "game",
    "options",
    "players",
    "revisit",
    "move_limit",
    "cubes",
    "to_move",
    "passes",
    "ply",
    "format",
)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class ArchimedesGame(Game):
    """Archimedes for 2 or 3 players (ARC-S1, ARC-S2)."""

    name: ClassVar[str] = "archimedes"
    title: ClassVar[str] = "Archimedes"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (2 or 3)", choices=(2, 3)),
        Option(
            "revisit",
            bool,
            False,
            "paths may enter a cell more than once (ARC-M2 game option; never end on the start)",
        ),
        Option(
            "move_limit",
            int,
            DEFAULT_MOVE_LIMIT,
            "the game ends after this many plies, passes included (software limit; ranked as in ARC-M6)",
            minimum=1,
            maximum=10_000_000,
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.board: Board = default_board()
        b = self.board
        n = self.num_players
        #: the number of players (``num_players``, as a plain attribute for speed)
        self.players = n
        self.size = b.size
        #: the action id of a pass
        self.pass_action = b.size * b.size
        self.revisit = bool(self.options["revisit"])
        limit = self.options["move_limit"]
        assert isinstance(limit, int)
        self.move_limit: int = limit
        self.start_sides = START_SIDES[n]
        self.goal_sides = tuple(OPPOSITE[s] for s in self.start_sides)
        self.start_cells: tuple[tuple[int, ...], ...] = tuple(b.sides[s] for s in self.start_sides)
        self.start_mask: tuple[int, ...] = tuple(b.side_mask(s) for s in self.start_sides)
        self.goal_mask: tuple[int, ...] = tuple(b.side_mask(s) for s in self.goal_sides)
        #: ARC-M7 applies with three players
        self.restrict_release = n == 3
        self.all_mask = b.all_mask
        self.block_mask: tuple[int, ...] = tuple((1 << c) | b.neighbour_mask[c] for c in range(b.size))
        self.nbr_bits: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((m, 1 << m) for m in nbrs) for nbrs in b.neighbours
        )
        #: ``reach[c << 4 | r]``: the cells within ``r`` steps of cell ``c`` (ignoring cubes); a
        #: path of ``r`` steps from ``c`` stays inside it, so it is all the move generator needs to
        #: see. ``reach_tag[c << 4 | r]`` is ``(c << 4 | r) << size``, to make memo keys.
        # a distance counts cubes (ARC-M1): never more than all of them (at most 12 < 16)
        most = CUBES * n
        reach = [0] * (b.size << 4)
        for c in range(b.size):
            ball = 1 << c
            for r in range(most + 1):
                reach[c << 4 | r] = ball
                grown = ball
                for m in range(b.size):
                    if ball >> m & 1:
                        grown |= b.neighbour_mask[m]
                ball = grown
        self.reach: tuple[int, ...] = tuple(reach)
        self.reach_tag: tuple[int, ...] = tuple(i << b.size for i in range(b.size << 4))
        #: the action ids as shared int objects (the memos hold many of them)
        self.action_ids: tuple[int, ...] = tuple(range(b.size * b.size + 1))
        #: paths without revisits, made on first use: see :meth:`_path_table`
        self._path_tables: dict[int, _PathTable] = {}
        self._new_memos()
        #: what evaluate() knows of each player's goal side (made on first use: _goal_plans)
        self._goal_plans: list[_GoalPlan] | None = None
        #: steps from each cell to the nearest goal cell, per player (for evaluate)
        self.goal_distance: tuple[tuple[int, ...], ...] = tuple(b.distances_to(m) for m in self.goal_mask)

    def _new_memos(self) -> None:
        """Empty move memos and path tables (pure caches: they never change a result)."""
        self._path_tables = {}
        self._empty_moves_memo()

    def _empty_moves_memo(self) -> None:
        """Empty the memos of single-cube moves (the path tables stay)."""
        n = self.num_players
        #: per player, a memo of the moves of one cube: key ``(free cells within reach) |
        #: reach_tag[cell << 4 | steps]``, value the sorted action ids (a pure function of the
        #: key; its older half goes when it reaches ``_MEMO_LIMIT``; see ``ArchimedesState._cube_moves``)
        self._moves_memo: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in range(n))

    def _path_table(self, start: int, steps: int, player: int) -> _PathTable:
        """The paths without revisits from ``start`` (ARC-M2) that may end a move of ``player``:
        ``(cells, ends, early cells, early ends)``. ``cells``/``ends``: every path of exactly
        ``steps`` steps, the cells it enters as a mask (its end included) and its end as a bit
        (the same tuples for every player); ``early ...``: the shorter paths that end on one of
        the player's goal cells (ARC-M4; most often none). A cube on ``start`` can end a move on
        the end of every path whose cells are all free (ARC-M3). Made on first use and kept; one
        table is at most ``3 * 2 ** (steps - 1)`` paths."""
        key = ((start << 4 | steps) << 2) + player
        table = self._path_tables.get(key)
        if table is None:
            goal = self.goal_mask[player]
            full = self._path_tables.get(key - player + 3)
            exact: dict[tuple[int, int], None] = {}  # ordered sets
            early: dict[tuple[int, int], None] = {}
            nbrs = self.board.neighbours
            stack = [(start, 0, 0)]
            while stack:
                c, cells, k = stack.pop()
                if k == steps:
                    exact[cells, 1 << c] = None
                    continue
                if k and goal >> c & 1:
                    early[cells, 1 << c] = None
                if full is None or k + 1 < steps:  # the full length only when not made yet
                    for m in nbrs[c]:
                        if m != start and not cells >> m & 1:
                            stack.append((m, cells | 1 << m, k + 1))
            if full is None:  # slot 3 (never a player): the exact paths, shared by the players
                full = self._path_tables[key - player + 3] = (
                    tuple(m for m, _ in exact),
                    tuple(e for _, e in exact),
                    (),
                    (),
                )
            table = self._path_tables[key] = (
                full[0],
                full[1],
                tuple(m for m, _ in early),
                tuple(e for _, e in early),
            )
        return table

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (and deep-copied) without the memos, which are rebuilt empty."""
        state = self.__dict__.copy()
        for key in ("_moves_memo", "_path_tables"):
            del state[key]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._new_memos()

    # --- facts -------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        players = self.options["players"]
        assert isinstance(players, int)
        return players

    def num_distinct_actions(self) -> int:
        return self.size * self.size + 1

    def max_game_length(self) -> int:
        return self.move_limit

    def observation_shape(self) -> tuple[int, ...]:
        return (3 * self.num_players + 1, self.size)

    def player_name(self, player: int) -> str:
        return f"player {player + 1} ({self.start_sides[player]})"

    # --- states ------------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> ArchimedesState:
        pos = [c for cells in self.start_cells for c in cells]
        return ArchimedesState(self, pos, seed=seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> ArchimedesState:
        start = doc.get("start")
        history = doc.get("history", [])
        if not isinstance(history, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in history
        ):
            raise RecordError("'history' of a saved state is a list of action ids")
        try:
            state = self.new_initial_state(doc.get("seed")) if start is None else self._from_position(start)
        except PositionError as err:
            raise RecordError(f"the saved state's start position is broken: {err}") from None
        state.seed = doc.get("seed")
        for i, action in enumerate(history):
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise RecordError(f"action {i + 1} of the saved state does not replay: {err}") from None
        position = doc.get("position")
        if position is not None and position != state.to_position():
            raise RecordError("the saved position differs from the one its history gives")
        return state

    def state_from_position(self, doc: Mapping[str, Any]) -> ArchimedesState:
        return self._from_position(doc)

    def _from_position(self, doc: object) -> ArchimedesState:
        if not isinstance(doc, Mapping):
            raise PositionError("a position is a JSON object")
        if doc.get("game", self.name) != self.name:
            raise PositionError(f"this position is of {doc.get('game')!r}, not archimedes")
        unknown = sorted(set(doc) - set(_POSITION_KEYS))
        if unknown:
            raise PositionError(
                f"unknown field {unknown[0]!r} in an archimedes position (fields: "
                f"{', '.join(_POSITION_KEYS)})"
            )
        cubes = doc.get("cubes")
        if not isinstance(cubes, list) or not all(isinstance(c, list) for c in cubes):
            raise PositionError("'cubes' is a list with one list of cell names per player")
        options: dict[str, object] = {k: v for k, v in self.options.items() if k in ("revisit", "move_limit")}
        given = doc.get("options", {})
        if not isinstance(given, Mapping):
            raise PositionError("'options' is a JSON object")
        options.update(given)
        for key in ("players", "revisit", "move_limit"):
            if key in doc:
                options[key] = doc[key]
        if "players" not in options:
            options["players"] = len(cubes) if len(cubes) in (2, 3) else self.num_players
        try:
            game = self if options == self.options else ArchimedesGame(**options)
        except OptionError as err:
            raise PositionError(str(err)) from None
        n = game.num_players
        if len(cubes) != n:
            raise PositionError(f"'cubes' has {len(cubes)} lists, one per player: {n} are needed")
        b = game.board
        pos: list[int] = []
        owner: dict[int, int] = {}
        for p, cells in enumerate(cubes):
            who = game.player_name(p)
            if len(cells) != CUBES:
                raise PositionError(f"{who} has {len(cells)} cubes, not {CUBES}")
            for name in cells:
                if not isinstance(name, str) or name.strip().lower() not in b.index:
                    raise PositionError(f"{who}: {name!r} is not a cell of the board ({_cell_help(b)})")
                c = b.index[name.strip().lower()]
                if c in owner:
                    raise PositionError(f"two cubes on {b.names[c]} ({game.player_name(owner[c])} and {who})")
                owner[c] = p
                pos.append(c)
        to_move = _int_field(doc, "to_move", 0)
        if not 0 <= to_move < n:
            raise PositionError(f"'to_move' is a player number from 0 to {n - 1}, not {to_move}")
        passes = _int_field(doc, "passes", 0)
        if not 0 <= passes <= n:
            raise PositionError(f"'passes' (passes in a row) is from 0 to {n}, not {passes}")
        ply = _int_field(doc, "ply", 0)
        if ply < 0:
            raise PositionError(f"'ply' is 0 or more, not {ply}")
        home = [p for p in range(n) if all(game.goal_mask[p] >> c & 1 for c in pos[4 * p : 4 * p + 4])]
        if len(home) > 1:
            raise PositionError(" and ".join(game.player_name(p) for p in home) + " all have four cubes home")
        state = ArchimedesState(game, pos, to_move=to_move, passes=passes, ply=ply)
        if not home:
            # the players who passed just before had no move here (ARC-M6): the position is static
            for back in range(1, passes + 1):
                p = (to_move - back) % n
                passed = state._generate(p)
                if passed:
                    raise PositionError(
                        f"'passes' is {passes}, but {game.player_name(p)} has a legal move here "
                        f"({state.action_to_string(passed[0])}) and cannot have passed"
                    )
        state._origin = state.to_position()
        return state


def _int_field(doc: Mapping[str, Any], key: str, default: int) -> int:
    value = doc.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{key!r} is a whole number, not {value!r}")
    return value


def _cell_help(b: Board) -> str:
    rows: dict[str, int] = {}
    for name in b.names:
        rows[name[0]] = max(rows.get(name[0], 0), int(name[1:]))
    return "cells are " + ", ".join(f"{r}1..{r}{m}" for r, m in rows.items())


class ArchimedesState(State):
    """A position of Archimedes with its history."""

    game: ArchimedesGame

    def __init__(
        self,
        game: ArchimedesGame,
        pos: list[int],
        seed: int | None = None,
        to_move: int = 0,
        passes: int = 0,
        ply: int = 0,
    ) -> None:
        super().__init__(game, seed)
        self._pos = pos
        #: the occupied cells (a mask), kept up to date by _apply
        self._occ = 0
        for c in pos:
            self._occ |= 1 << c
        self._to_move = to_move
        self._passes = passes
        self._ply = ply
        self._end: str | None = None
        self._winner: int | None = None
        self._legal: list[int] | None = None
        self._dead: bool | None = None  # dead_position(), once known (evaluate() finds it too)
        #: the position this state's history starts from (None: the standard start)
        self._origin: dict[str, Any] | None = None
        self._settle()

    def _settle(self) -> None:
        """Decide from the position alone whether the game is over (ARC-E1, ARC-M6, limit)."""
        g = self.game
        for p in range(g.num_players):
            if self._home(p) == CUBES:
                self._end, self._winner = HOME, p
                return
        if self._passes >= g.num_players:
            self._end = PASSES
        elif self._ply >= g.move_limit:
            self._end = LIMIT

    # --- facts of the position ---------------------------------------------------------------
    def cubes(self, player: int) -> list[str]:
        """Cell names of a player's cubes."""
        names = self.game.board.names
        return [names[c] for c in self._pos[4 * player : 4 * player + 4]]

    def occupied(self) -> int:
        """The cells with a cube, as a bit mask."""
        return self._occ

    def distance(self, cell: int) -> int:
        """ARC-M1: cubes in the three rows through ``cell`` (the cube there included)."""
        return (self.occupied() & self.game.board.rows_mask[cell]).bit_count()

    def _home(self, player: int) -> int:
        goal = self.game.goal_mask[player]
        return sum(1 for c in self._pos[4 * player : 4 * player + 4] if goal >> c & 1)

    def arrived(self) -> list[int]:
        """Cubes on goal cells, per player (ARC-M5)."""
        return [self._home(p) for p in range(self.game.num_players)]

    def _released(self, player: int) -> bool:
        """ARC-M7: may a cube on one of ``player``'s start cells move now? (position alone)"""
        g = self.game
        if not g.restrict_release:
            return True
        start = g.start_mask[player]
        mine = self._pos[4 * player : 4 * player + 4]
        off = sum(1 for c in mine if not start >> c & 1)
        return off < 2 + self._home(player)

    @property
    def current_player(self) -> int:
        return TERMINAL if self._end is not None else self._to_move

    @property
    def passes(self) -> int:
        return self._passes

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def end_reason(self) -> str | None:
        """``"home"`` (ARC-E1), ``"passes"`` (ARC-M6), ``"limit"`` (move limit) or None."""
        return self._end

    # --- move generation ---------------------------------------------------------------------
    def _free_for(self, index: int) -> int:
        """Cells a cube may enter while cube ``index`` moves: not taken, not next to another (ARC-M3)."""
        g = self.game
        blocked = 0
        block = g.block_mask
        for j, c in enumerate(self._pos):
            if j != index:
                blocked |= block[c]
        return g.all_mask & ~blocked

    def _ends(self, start: int, steps: int, free: int, goal: int) -> int:
        """Cells a cube on ``start`` can end on with ``steps`` steps through ``free`` cells
        (ARC-M2), stopping early on a ``goal`` cell (ARC-M4)."""
        g = self.game
        nmask = g.board.neighbour_mask
        if g.revisit:
            # walks: a set of cells per step is exact
            front = 1 << start
            ends = 0
            for k in range(steps):
                nxt = 0
                m = front
                while m:
                    low = m & -m
                    nxt |= nmask[low.bit_length() - 1]
                    m ^= low
                front = nxt & free
                if k < steps - 1:
                    ends |= front & goal
            return (ends | front) & ~(1 << start)
        nbr_bits = g.nbr_bits
        ends = 0
        stack = [(start, 1 << start, steps)]
        pop = stack.pop
        push = stack.append
        while stack:
            c, vis, r = pop()
            if r == 1:
                ends |= nmask[c] & free & ~vis
                continue
            if r == 2:
                for m, bit in nbr_bits[c]:
                    if free & bit and not vis & bit:
                        if goal & bit:
                            ends |= bit
                        ends |= nmask[m] & free & ~(vis | bit)
                continue
            r -= 1
            for m, bit in nbr_bits[c]:
                if free & bit and not vis & bit:
                    if goal & bit:
                        ends |= bit
                    push((m, vis | bit, r))
        return ends

    def _movable(self, player: int) -> list[int]:
        """Indices (into the cube list) of the player's cubes that may move (ARC-M5, ARC-M7)."""
        g = self.game
        goal = g.goal_mask[player]
        start = g.start_mask[player]
        released = self._released(player)
        out = []
        for i in range(4 * player, 4 * player + 4):
            c = self._pos[i]
            if goal >> c & 1:
                continue
            if not released and start >> c & 1:
                continue
            out.append(i)
        return out

    def _cube_moves(self, player: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(cell, action ids)`` of each of ``player``'s cubes that has a move, in cube order.

        The moves of one cube depend only on its cell, its distance (ARC-M1) and the free cells
        within that many steps (ARC-M2, ARC-M3), with the player's goal cells (ARC-M4): they are
        looked up in the game's per-player memo, and found with :meth:`_ends` on a miss."""
        g = self.game
        pos = self._pos
        block = g.block_mask
        base = 4 * player
        c0, c1, c2, c3 = mine = pos[base : base + 4]
        others = 0
        for c in pos[:base]:
            others |= block[c]
        for c in pos[base + 4 :]:
            others |= block[c]
        goal = g.goal_mask[player]
        start = g.start_mask[player]
        released = True
        if g.restrict_release:  # ARC-M7, on the position alone
            off = 0
            home = 0
            for c in mine:
                if not start >> c & 1:
                    off += 1
                if goal >> c & 1:
                    home += 1
            released = off < 2 + home
        b0, b1, b2, b3 = block[c0], block[c1], block[c2], block[c3]
        all_mask = g.all_mask
        free01 = all_mask & ~(others | b0 | b1)
        free23 = all_mask & ~(others | b2 | b3)
        occ = self._occ
        rows = g.board.rows_mask
        reach = g.reach
        tag = g.reach_tag
        memo = g._moves_memo[player]
        found: list[tuple[int, tuple[int, ...]]] = []
        for c, free in ((c0, free23 & ~b1), (c1, free23 & ~b0), (c2, free01 & ~b3), (c3, free01 & ~b2)):
            if goal >> c & 1:  # ARC-M5: arrived cubes stay
                continue
            if not released and start >> c & 1:
                continue
            i = c << 4 | (occ & rows[c]).bit_count()
            key = free & reach[i] | tag[i]
            moves = memo.get(key)
            if moves is None:
                if len(memo) >= _MEMO_LIMIT:
                    _forget_older_half(memo)
                steps = i & 15
                if 3 <= steps <= _TABLE_STEPS and not g.revisit:
                    table = g._path_tables.get(((c << 4 | steps) << 2) + player)
                    cells_of, end_of, early_cells, early_ends = table or g._path_table(c, steps, player)
                    taken = all_mask & ~free
                    ends = 0
                    for cells, end in zip(cells_of, end_of, strict=True):
                        if not cells & taken:
                            ends |= end
                    for cells, end in zip(early_cells, early_ends, strict=True):
                        if not cells & taken:
                            ends |= end
                else:
                    ends = self._ends(c, steps, free, goal)
                first = c * g.size - 1
                ids = g.action_ids
                found_ids = []
                while ends:
                    low = ends & -ends
                    found_ids.append(ids[first + low.bit_length()])
                    ends ^= low
                moves = memo[key] = tuple(found_ids)
            if moves:
                found.append((c, moves))
        return found

    def _generate(self, player: int) -> list[int]:
        """Every move of ``player`` (no pass), sorted: one id per start and end cell."""
        found = self._cube_moves(player)
        if len(found) == 1:
            return list(found[0][1])
        found.sort()  # by start cell: the ids (start * 96 + end) come out sorted
        out: list[int] = []
        for _, moves in found:
            out.extend(moves)
        return out

    def compute_legal_actions(self) -> list[int]:
        """The legal actions generated afresh, without the per-state cache (benchmarks)."""
        if self._end is not None:
            return []
        return self._generate(self._to_move) or [self.game.pass_action]  # ARC-M6

    def legal_actions(self) -> list[int]:
        if self._end is not None:
            return []
        if self._legal is None:
            self._legal = self.compute_legal_actions()
        return list(self._legal)

    def is_legal(self, action: int) -> bool:
        if self._end is not None:
            return False
        if self._legal is None:
            self.legal_actions()
        assert self._legal is not None
        return action in self._legal

    def _apply(self, action: int) -> None:
        g = self.game
        p = self._to_move
        self._legal = None
        self._dead = None
        if action == g.pass_action:
            self._passes += 1
            if self._passes >= g.players:
                self._end = PASSES  # ARC-M6
        else:
            start, end = divmod(action, g.size)
            pos = self._pos
            pos[pos.index(start)] = end
            self._occ ^= 1 << start | 1 << end
            self._passes = 0
            # only the cube that moved can bring the fourth home (arrived cubes stay: ARC-M5)
            if g.goal_mask[p] >> end & 1 and self._home(p) == CUBES:
                self._end, self._winner = HOME, p  # ARC-E1
        self._ply += 1
        self._to_move = (p + 1) % g.players
        if self._end is None and self._ply >= g.move_limit:
            self._end = LIMIT

    def clone(self) -> ArchimedesState:
        other = object.__new__(ArchimedesState)
        other.game = self.game
        other.seed = self.seed
        other.history = list(self.history)
        other._pos = list(self._pos)
        other._occ = self._occ
        other._to_move = self._to_move
        other._passes = self._passes
        other._ply = self._ply
        other._end = self._end
        other._winner = self._winner
        other._legal = self._legal  # never mutated in place
        other._dead = self._dead
        other._origin = self._origin
        return other

    # --- notation ----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action <= g.pass_action:
            raise IllegalActionError(f"{action!r} is not an archimedes action id (0 to {g.pass_action})")
        if action == g.pass_action:
            return "pass"
        start, end = divmod(action, g.size)
        return f"{g.board.names[start]}-{g.board.names[end]}"

    def string_to_action(self, text: str) -> int:
        g = self.game
        if not isinstance(text, str):
            raise NotationError(f"a move is a text like a2-a1 or 'pass', not {text!r}")
        t = text.strip().lower()
        if t == "pass":
            return g.pass_action
        match = _MOVE.match(t)
        if match is None:
            raise NotationError(
                f"cannot read {text.strip()!r}: write a move as START-END with two cell names "
                "(for example a2-a1), or 'pass'"
            )
        cells = []
        for name in match.groups():
            if name not in g.board.index:
                raise NotationError(f"{name} is not a cell of the board ({_cell_help(g.board)})")
            cells.append(g.board.index[name])
        return cells[0] * g.size + cells[1]

    def explain_illegal(self, action: object) -> str:
        g = self.game
        b = g.board
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action <= g.pass_action:
            return f"{action!r} is not an archimedes action id (0 to {g.pass_action})"
        if self._end is not None:
            return "the game is over"
        legal = self.legal_actions()
        if action in legal:
            return f"{self.action_to_string(action)} is legal"
        p = self._to_move
        who = g.player_name(p)
        if action == g.pass_action:
            return (
                f"{who} cannot pass: a player passes only without a legal move (ARC-M6), "
                f"and {len(legal)} moves are legal, e.g. {self.action_to_string(legal[0])}"
            )
        start, end = divmod(action, g.size)
        s, e = b.names[start], b.names[end]
        if start not in self._pos:
            return f"there is no cube on {s}"
        i = self._pos.index(start)
        if i // 4 != p:
            return f"the cube on {s} belongs to {g.player_name(i // 4)}; {who} is to move"
        if g.goal_mask[p] >> start & 1:
            return f"the cube on {s} has arrived and may not move any more (ARC-M5)"
        if not self._released(p) and g.start_mask[p] >> start & 1:
            home = self._home(p)
            return (
                f"the cube on {s} may not leave its start cell yet (ARC-M7): {who} has "
                f"{2 + home} cubes out and {home} home; one more must arrive first"
            )
        if start == end:
            return f"a move may not end on its start cell {s} (ARC-M2)"
        if end in self._pos:
            return f"{e} is taken by a cube of {g.player_name(self._pos.index(end) // 4)}"
        steps = self.distance(start)
        for j, c in enumerate(self._pos):
            if j != i and g.block_mask[c] >> end & 1:
                return f"{e} touches the cube on {b.names[c]} (ARC-M3)"
        goal = g.goal_mask[p]
        reach = "at most" if goal >> end & 1 else "exactly"
        path = self._find_path(start, steps, g.all_mask, goal, end)
        if path is None:
            return f"no path of {reach} {steps} steps from {s} reaches {e} (distance {steps}: ARC-M1, ARC-M2)"
        example = ""
        for c in path[1:]:
            if c in self._pos and c != start:
                example = f"; {s}-{'-'.join(b.names[x] for x in path[1:])} meets the cube on {b.names[c]}"
                break
            touching = [b.names[x] for j, x in enumerate(self._pos) if j != i and g.block_mask[x] >> c & 1]
            if touching:
                example = (
                    f"; {s}-{'-'.join(b.names[x] for x in path[1:])}: "
                    f"{b.names[c]} touches the cube on {touching[0]}"
                )
                break
        return (
            f"every path of {reach} {steps} steps from {s} to {e} enters a cell that is taken "
            f"or touches another cube (ARC-M3){example}"
        )

    def _find_path(self, start: int, steps: int, free: int, goal: int, end: int) -> list[int] | None:
        """One path (cells, start first) the ends of :meth:`_ends` allow from ``start`` to ``end``,
        or None. Slow; for explanations only."""
        g = self.game
        nbrs = g.board.neighbours
        if g.revisit:
            layers = [1 << start]
            for _ in range(steps):
                nxt = 0
                for c in _bits(layers[-1]):
                    nxt |= g.board.neighbour_mask[c]
                layers.append(nxt & free)
            hits = [
                k for k in range(1, steps + 1) if layers[k] >> end & 1 and (k == steps or goal >> end & 1)
            ]
            if end == start or not hits:
                return None
            path = [end]
            for k in range(hits[0] - 1, -1, -1):
                path.append(next(c for c in nbrs[path[-1]] if layers[k] >> c & 1))
            return path[::-1]

        def search(path: list[int], left: int) -> list[int] | None:
            c = path[-1]
            for m in nbrs[c]:
                if free >> m & 1 and m not in path:
                    if m == end and (left == 1 or goal >> m & 1):
                        return [*path, m]
                    if left > 1:
                        found = search([*path, m], left - 1)
                        if found is not None:
                            return found
            return None

        return search([start], steps)

    # --- results -----------------------------------------------------------------------------
    def ranks(self) -> list[int]:
        """Final ranks (0 best): the winner alone first (ARC-E1); otherwise by arrived cubes."""
        n = self.game.num_players
        if self._end == HOME:
            return [0 if p == self._winner else 1 for p in range(n)]
        home = self.arrived()
        return [sum(1 for h in home if h > home[p]) for p in range(n)]

    def returns(self) -> list[float]:
        if self._end is None:
            return [0.0] * self.game.num_players
        return returns_from_ranks(self.ranks())

    def scores(self) -> list[float]:
        return [float(h) for h in self.arrived()]

    def score_details(self) -> dict[str, Any]:
        g = self.game
        return {
            "scores": self.scores(),
            "arrived": self.arrived(),
            "cubes": [
                [
                    {
                        "cell": g.board.names[c],
                        "distance": self.distance(c),
                        "arrived": bool(g.goal_mask[p] >> c & 1),
                    }
                    for c in self._pos[4 * p : 4 * p + 4]
                ]
                for p in range(g.num_players)
            ],
            "to_move": None if self._end is not None else self._to_move,
            "ended": self._end,
        }

    def result_text(self) -> str:
        if self._end is None:
            return "the game is not over"
        g = self.game
        home = "-".join(str(h) for h in self.arrived())
        if self._end == HOME:
            assert self._winner is not None
            return f"{g.player_name(self._winner)} wins: all four cubes home (cubes home {home})"
        why = (
            "every player passed in a row"
            if self._end == PASSES
            else f"the move limit of {g.move_limit} plies was reached"
        )
        return f"{super().result_text()} ({why}; cubes home {home})"

    def hemmed_in(self) -> int:
        """Cells (a mask) of the cubes that have not arrived and can never move again.

        Arrived cubes never move (ARC-M5), and no cube may enter a cell next to another cube
        (ARC-M3): a cube whose every neighbouring cell is taken by, or touches, a cube that never
        moves is stuck for good, and so is a group of cubes that hem each other in (the largest
        such group: start from every cube, drop any that has a neighbouring cell free of the
        others, repeat). Whose turn it is and ARC-M7 do not matter: no later move frees them."""
        g = self.game
        block = g.block_mask
        nmask = g.board.neighbour_mask
        goal = g.goal_mask
        fixed = 0  # blocks of the arrived cubes
        cand: list[int] = []
        for i, c in enumerate(self._pos):
            if goal[i >> 2] >> c & 1:
                fixed |= block[c]
            else:
                cand.append(c)
        while cand:
            k = len(cand)
            after = [0] * (k + 1)  # after[i]: blocks of cand[i:]
            for i in range(k - 1, -1, -1):
                after[i] = after[i + 1] | block[cand[i]]
            keep: list[int] = []
            before = fixed
            for i, c in enumerate(cand):
                if not nmask[c] & ~(before | after[i + 1]):
                    keep.append(c)
                before |= block[c]
            if len(keep) == k:
                break
            cand = keep
        out = 0
        for c in cand:
            out |= 1 << c
        return out

    def can_arrive(self) -> list[bool]:
        """Per player: whether one of its cubes might still arrive (ARC-M5), as far as the cells
        that no cube may ever enter again tell (a sound test: False is certain).

        A cube that never moves again (arrived, or :meth:`hemmed_in`) keeps every cube out of its
        cell and the cells next to it for good (ARC-M3). Any other cube can only ever be in the
        connected region of the remaining cells that it touches now, moving or not (that region
        only shrinks as more cubes stop for good), so it can arrive only on a goal cell of its
        player in that region. Distances, other cubes that may move away and ARC-M7 are ignored:
        they can only forbid more."""
        g = self.game
        stuck = self.hemmed_in()
        goal = g.goal_mask
        nbrs = g.board.neighbours
        pos = self._pos
        fixed = stuck  # the cells of the cubes that never move again
        for i, c in enumerate(pos):
            if goal[i >> 2] >> c & 1:
                fixed |= 1 << c
        allowed = g.all_mask & ~_blocked(fixed, g.block_mask)
        nmask = g.board.neighbour_mask
        out = []
        for p in range(g.players):
            seeds = 0  # the open cells next to the player's cubes that may still move
            for c in pos[4 * p : 4 * p + 4]:
                if not (goal[p] >> c & 1 or stuck >> c & 1):
                    seeds |= nmask[c] & allowed
            out.append(bool(_flood(seeds, allowed, nbrs) & goal[p]))
        return out

    def settled_result(self) -> tuple[list[float], str] | None:
        """When no cube of any player can arrive any more (:meth:`can_arrive`), the cubes home are
        final and the end is the ranking by them, the same at the move limit as when every player
        passes (ARC-M6): that result, with its sentence. A player with four cubes home has won,
        so a settled game is always one that nobody wins outright."""
        if self._end is not None or any(self.can_arrive()):
            return None
        returns = returns_from_ranks(self.ranks())
        cubes = "-".join(str(h) for h in self.arrived())
        why = "settled: no cube can reach a goal cell any more"
        return returns, f"{outcome_text(self.game, returns)} ({why}; cubes home {cubes})"

    def _prospects(self, stuck: int) -> list[tuple[int, int, int]]:
        """Per player, with the hemmed-in cubes ``stuck``: its goal cells filled (a mask), the
        most cubes it can still have home (``cap``) and the goal cells to fill next (a mask)."""
        g = self.game
        plans = g._goal_plans or _goal_plans(g)
        closed = _blocked(stuck, g.block_mask)
        out = []
        for p in range(g.players):
            goal = g.goal_mask[p]
            filled = 0
            lost = 0
            for c in self._pos[4 * p : 4 * p + 4]:
                if goal >> c & 1:
                    filled |= 1 << c
                elif stuck >> c & 1:
                    lost += 1
            cap, targets = plans[p].entry(filled, closed)
            out.append((filled, min(cap, CUBES - lost), targets))
        return out

    def dead_position(self) -> bool:
        """No player can bring all four cubes home any more (ARC-E1): each has a cube hemmed in
        for good (:meth:`hemmed_in`) or a goal cell closed for good (see :meth:`evaluate`). Only
        the move limit (or every player passing, ARC-M6) ends the game, ranked by cubes home."""
        if self._end is not None:
            return False
        if self._dead is None:
            self._dead = all(cap < CUBES for _, cap, _ in self._prospects(self.hemmed_in()))
        return self._dead

    def evaluate(self) -> list[float]:
        """Per player in [-1, 1]: its raw value minus the raw value of the other player (with
        three players: of the best other player), clamped; at the end of the game ``returns()``.

        The raw value is ``0.6 × progress + 0.25 × arrived / 4 + 0.15 × mobility`` minus ``0.4``
        for each cube that can no longer arrive and ``0.08`` / ``0.12`` for each goal cell held by a
        cube / a player that cannot move now (below). A goal cell is closed when no cube can ever
        enter it again: every path into a rim goal cell goes through one of its two rim
        neighbours, which no cube may enter next to an arrived cube (ARC-M3, ARC-M5); filling the
        goal cells in a bad order (the two outer ones of a side, then one between them) closes
        the last one. A cube hemmed in for good (:meth:`hemmed_in`) closes the cells it stands
        on and touches, and cannot arrive itself: an opponent's cube left on a goal cell between
        two arrived cubes closes that cell. Progress is 1 − (steps still to go of the unarrived
        cubes, ignoring cubes, to the nearest goal cell that can be filled next without closing
        another, preferring cells no cube stands on) / (4 × the steps from the start side).
        Mobility is the number of legal moves / (4 × the unarrived cubes), capped at 1 (an
        arrival does not lower it). Each goal cell taken by another player's cube that cannot move
        now costs ``0.08``; each goal cell taken or touched by a cube (not arrived, not hemmed in)
        of another player who has no move at all (passes, ARC-M6) ``0.12`` more: the cube is in
        the way until it can leave, and the player's own cubes are often what keeps it there (a
        search that ignores it hems the other's start cubes in, or waits forever beside a cube
        that shuts two of its goal cells). The small weight of the first is deliberate: at
        ``0.2`` a player gained more by parking its own cubes, unable to move, on the other's
        goal cells than it lost by leaving them behind."""
        if self._end is not None:
            return self.returns()
        g = self.game
        n = g.players
        raw = []
        pos = self._pos
        occ = self._occ
        plans = g._goal_plans or _goal_plans(g)
        legal = self._legal
        stuck = self.hemmed_in()
        prospects = self._prospects(stuck)
        counts = []
        waiting: list[int] = []  # per player: cells taken or touched by its cubes if it has no move
        movable = 0
        size = g.size
        for p in range(n):
            if p == self._to_move and legal is not None:
                if legal[0] == g.pass_action:
                    k = 0
                else:
                    k = len(legal)
                    for a in legal:
                        movable |= 1 << a // size
            else:
                k = 0
                for c, moves in self._cube_moves(p):
                    k += len(moves)
                    movable |= 1 << c
            counts.append(k)
            w = 0
            if not k:
                home_p = g.goal_mask[p]
                for c in pos[4 * p : 4 * p + 4]:
                    if not home_p >> c & 1 and not stuck >> c & 1:
                        w |= g.block_mask[c]
            waiting.append(w)
        caps: list[int] = []
        for p in range(n):
            plan = plans[p]
            goal = g.goal_mask[p]
            mine = pos[4 * p : 4 * p + 4]
            filled, cap, targets = prospects[p]
            home = filled.bit_count()
            free_targets = targets & ~occ
            dist = plan.distances(free_targets or targets or goal & ~filled or goal)
            far = plan.far
            togo = 0
            for c in mine:
                if not goal >> c & 1:
                    d = dist[c]
                    togo += d if d < far else far
            progress = 1.0 - togo / (CUBES * far)
            mobility = min(1.0, counts[p] / (4.0 * (CUBES - home)))
            # goal cells taken or touched by the cubes of another player who has no move now
            blocked = 0
            for q in range(n):
                if q != p:
                    blocked |= waiting[q]
            held = (goal & ~filled & blocked).bit_count()
            idle = (goal & occ & ~filled & ~movable & ~stuck).bit_count()
            raw.append(0.6 * progress + 0.25 * home / CUBES + 0.15 * mobility - 0.12 * held - 0.08 * idle)
            caps.append(cap)
        self._dead = max(caps) < CUBES
        if self._dead:
            # nobody can win any more: the move limit will rank by cubes home, and each player
            # can bring home all it still can in the plies left; what counts is the caps
            value = [0.4 * cap + 0.25 * r for cap, r in zip(caps, raw, strict=True)]
        else:
            value = [r - 0.4 * (CUBES - cap) for cap, r in zip(caps, raw, strict=True)]
        if n == 2:
            diff = max(-1.0, min(1.0, value[0] - value[1]))
            return [diff, -diff]
        out = []
        for p in range(n):
            best = max(value[q] for q in range(n) if q != p)
            out.append(max(-1.0, min(1.0, value[p] - best)))
        return out

    # --- views -------------------------------------------------------------------------------
    def render(self, labels: bool = False) -> str:
        """The hexagon, row h (side N) at the top, the six sides named around it: a cube shows its
        player number and its distance (``1:4``; ``1:*`` once arrived); an empty cell shows ``/\\``
        or ``\\/`` (the way it points), or its name with ``labels``."""
        g = self.game
        b = g.board
        owner = {c: i // 4 for i, c in enumerate(self._pos)}
        width = 4
        us = [y - z for _, y, z in b.coords]
        umin, umax = min(us), max(us)
        by_row: dict[int, dict[int, int]] = {}
        for i, (x, y, z) in enumerate(b.coords):
            by_row.setdefault(x, {})[y - z] = i
        span = (umax - umin + 1) * width
        half = (span - width) // 2

        def sides(left: str, middle: str, right: str) -> str:
            text = f"    {left}".ljust(half + 1) + middle.center(width) + f"{right}   ".rjust(half)
            return text.rstrip()

        lines = [sides("NW", "N", "NE")]
        for x in sorted(by_row, reverse=True):
            row = by_row[x]
            slots = []
            for u in range(umin, umax + 1):
                c = row.get(u)
                if c is None:
                    text = ""
                elif c in owner:
                    p = owner[c]
                    mark = "*" if g.goal_mask[p] >> c & 1 else str(self.distance(c))
                    text = f"{p + 1}:{mark}"
                elif labels:
                    text = b.names[c]
                else:
                    up = sum(b.coords[c]) == -1
                    text = "/\\" if up else "\\/"
                slots.append(text.center(width))
            lines.append(" " + "".join(slots).rstrip())
        lines.append(sides("SW", "S", "SE"))
        lines.append("")
        for p in range(g.num_players):
            cubes = []
            for c in self._pos[4 * p : 4 * p + 4]:
                mark = "home" if g.goal_mask[p] >> c & 1 else f"distance {self.distance(c)}"
                cubes.append(f"{b.names[c]} ({mark})")
            lines.append(f"{p + 1}: {g.player_name(p)}, to side {g.goal_sides[p]}: " + ", ".join(cubes))
        if self._end is None:
            lines.append(f"to move: {g.player_name(self._to_move)}")
        else:
            lines.append(self.result_text())
        return "\n".join(lines)

    def observation_tensor(self, player: int) -> list[float]:
        """Planes of 96 cells (flattened row by row), players seen from ``player`` (k = 0 is
        ``player``, then the next in turn order): cubes of player k (n planes), goal cells of
        player k (n planes), each cube's distance / 12 (1 plane), player k to move (n planes, all
        ones or all zeros)."""
        g = self.game
        n = g.num_players
        size = g.size
        planes = [[0.0] * size for _ in range(3 * n + 1)]
        for k in range(n):
            q = (player + k) % n
            for c in self._pos[4 * q : 4 * q + 4]:
                planes[k][c] = 1.0
                planes[2 * n][c] = self.distance(c) / 12.0
            for c in _bits(g.goal_mask[q]):
                planes[n + k][c] = 1.0
            if self._end is None and self._to_move == q:
                planes[2 * n + 1 + k] = [1.0] * size
        return [v for plane in planes for v in plane]

    # --- serialisation -----------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        g = self.game
        return {
            "game": g.name,
            "players": g.num_players,
            "revisit": g.revisit,
            "move_limit": g.move_limit,
            "cubes": [self.cubes(p) for p in range(g.num_players)],
            "to_move": self._to_move,
            "passes": self._passes,
            "ply": self._ply,
        }

    def _to_dict(self) -> dict[str, Any]:
        return {"start": self._origin, "position": self.to_position()}


class _GoalPlan:
    """What :meth:`ArchimedesState.evaluate` knows of one player's goal side (made once per game
    and player): for every set of filled goal cells (a cell mask), the most cubes that can still
    arrive and the goal cells that can be filled next without lowering that number (``table``;
    :meth:`entry` for the same with cells closed for good by cubes hemmed in); the steps from
    every cell to a set of goal cells (made on first use)."""

    def __init__(self, game: ArchimedesGame, player: int) -> None:
        b = game.board
        self.game = game
        self.goals = _bits(game.goal_mask[player])
        self.board = b
        self.far = max(game.goal_distance[player][c] for c in game.start_cells[player])
        self._dist: dict[int, tuple[int, ...]] = {}
        self.table: dict[int, tuple[int, int]] = self._solve_all(0)
        #: ``entry`` tables for other closed cells, made on first use
        self._closed_tables: dict[int, dict[int, tuple[int, int]]] = {}

    def _enterable(self, filled: int, closed: int) -> int:
        """Goal cells a cube can still reach from the open board with ``filled`` held for good
        and the ``closed`` cells never to be entered."""
        game = self.game
        b = self.board
        nbrs = b.neighbours
        closed |= _blocked(filled, game.block_mask)
        allowed = game.all_mask & ~closed
        # the largest region of cells a cube may cross (the open board)
        best, seen = 0, 0
        for c in range(b.size):
            if allowed >> c & 1 and not seen >> c & 1:
                region = _flood(1 << c, allowed, nbrs)
                seen |= region
                if region.bit_count() > best.bit_count():
                    best = region
        return sum(
            1 << gc for gc in self.goals if not closed >> gc & 1 and any(best >> m & 1 for m in nbrs[gc])
        )

    def _solve_all(self, closed: int) -> dict[int, tuple[int, int]]:
        table: dict[int, tuple[int, int]] = {}

        def solve(filled: int) -> int:
            if filled in table:
                return table[filled][0]
            nxt = {gc: solve(filled | 1 << gc) for gc in _bits(self._enterable(filled, closed))}
            cap = max(nxt.values(), default=filled.bit_count())
            good = sum(1 << gc for gc, v in nxt.items() if v == cap)
            table[filled] = (cap, good)
            return cap

        goals = self.goals
        for k in range(1 << len(goals)):
            solve(sum(1 << gc for i, gc in enumerate(goals) if k >> i & 1))
        return table

    def entry(self, filled: int, closed: int) -> tuple[int, int]:
        """``table[filled]`` when the ``closed`` cells can never be entered (cubes hemmed in)."""
        if not closed:
            return self.table[filled]
        table = self._closed_tables.get(closed)
        if table is None:
            if len(self._closed_tables) >= 256:
                self._closed_tables.clear()
            table = self._closed_tables[closed] = self._solve_all(closed)
        return table[filled]

    def distances(self, targets: int) -> tuple[int, ...]:
        dist = self._dist.get(targets)
        if dist is None:
            dist = self._dist[targets] = self.board.distances_to(targets)
        return dist


def _blocked(cells: int, block: tuple[int, ...]) -> int:
    """The cells (a mask) that no cube may enter while cubes stand on ``cells``: those cells and
    the cells next to them (ARC-M3); ``block`` is the game's ``block_mask``."""
    out = 0
    for c in _bits(cells):
        out |= block[c]
    return out


def _flood(seeds: int, allowed: int, neighbours: tuple[tuple[int, ...], ...]) -> int:
    """The cells reached from the cells ``seeds`` (a mask of ``allowed`` cells) by steps to
    neighbouring ``allowed`` cells: the connected regions of ``allowed`` that hold the seeds."""
    region = seeds
    stack = _bits(seeds)
    while stack:
        x = stack.pop()
        for m in neighbours[x]:
            if allowed >> m & 1 and not region >> m & 1:
                region |= 1 << m
                stack.append(m)
    return region


def _goal_plans(game: ArchimedesGame) -> list[_GoalPlan]:
    """The :class:`_GoalPlan` of every player of ``game``, made on first use and kept on the game."""
    plans = game._goal_plans
    if plans is None:
        plans = game._goal_plans = [_GoalPlan(game, p) for p in range(game.num_players)]
    return plans


def _goal_plan(game: ArchimedesGame, player: int) -> _GoalPlan:
    """The :class:`_GoalPlan` of ``player`` in ``game``."""
    return _goal_plans(game)[player]
