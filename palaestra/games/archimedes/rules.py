"""Archimedes (Niek Neuwahl, 1995): the rules, in the order of RULINGS.md (ARC-*).

Set-up (ARC-S1, ARC-S2: ``game.py``), the move (ARC-M1 distance, ARC-M2 path, ARC-M3 no touching,
ARC-M4 early stop, ARC-M5 arrived cubes, ARC-M7 release with three players, ARC-M6 passing), the
end (ARC-E1, passes, the move limit) and the ranking.

Each ruling of a move is stated once, as a predicate of :class:`ArchimedesState` that changes
nothing: :meth:`~ArchimedesState.distance` (ARC-M1), :meth:`~ArchimedesState.free_cells_of`
(ARC-M3), :meth:`~ArchimedesState.arrived_cells` (ARC-M5), :meth:`~ArchimedesState.held_cells`
(ARC-M7); the path (ARC-M2, ARC-M4) is stated where they are composed,
:meth:`~ArchimedesState.cube_moves`, which asks the game's path index for the ends.
:meth:`~ArchimedesState.candidates` names the cubes that might move (the player to move's, none
once the game is over) and applies no ruling. :meth:`~ArchimedesState.problem` checks one move
against the same predicates in the rulebook's order, for a reason that cites the ruling, and
takes its verdict on the path from :meth:`~ArchimedesState.cube_moves`; ``legal_actions`` is the
moves of :meth:`~ArchimedesState.cube_moves` for the candidates, or the pass (ARC-M6). ``_fast.py``
holds only what makes the path cheap (path tables, a path search, memos): no batch generator and
no rule of its own. The tests check ``legal_actions`` against ``problem`` over
the whole action space and against the independent generator of
tests/archimedes/archimedes_reference.py.

Notation: ``moves.py``; the position document: ``position.py``; evaluation and adjudication:
``heuristic.py``; the text board and the observation: ``display.py``; the game's options and
set-up: ``game.py``.

Cubes are kept as a flat list of cells, four per player: cube ``k`` belongs to player ``k // 4``.
Sets of cells are int bit masks (bit ``i`` is cell ``i`` of the board file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.core.cloning import SLICE, clone_by_fields
from palaestra.core.errors import IllegalActionError
from palaestra.core.game import (
    TERMINAL,
    State,
    is_int,
    outcome_text,
    returns_from_ranks,
)
from palaestra.core.termination import Termination
from palaestra.games.archimedes import display, heuristic, position
from palaestra.games.archimedes.moves import Kind, Move, cube_move, format_move, parse_move

#: cubes per player
CUBES = 4
#: start side of each player, by player count (ARC-S1, ARC-S2)
START_SIDES: dict[int, tuple[str, ...]] = {2: ("S", "N"), 3: ("S", "NE", "NW")}
#: ARC-M7 holds with this many players
RELEASE_PLAYERS = 3
#: ARC-M7: cubes a player may have off its start cells before its first arrival
FREE_CUBES = 2
#: how the game ended
HOME, PASSES, LIMIT = "home", "passes", "limit"
DEFAULT_MOVE_LIMIT = 1000

if TYPE_CHECKING:  # game.py imports this module; the type only for the checker
    from palaestra.games.archimedes.game import ArchimedesGame


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
        self._occ = sum(1 << c for c in pos)
        self._to_move = to_move
        self._passes = passes
        self._ply = ply
        self._end: str | None = None
        self._winner: int | None = None
        #: the position this state's history starts from (None: the standard start)
        self._origin: dict[str, Any] | None = None
        self._position_changed()
        self._settle()

    def _position_changed(self) -> None:
        """Forget what was derived from the position: the one place where the state's caches are
        declared and invalidated (``__init__`` and every move). ``_legal``: the legal actions,
        never changed in place once made; ``_dead``: :meth:`dead_position`, once known
        (``evaluate()`` finds it too)."""
        self._legal: list[int] | None = None
        self._dead: bool | None = None

    # --- facts of the position ---------------------------------------------------------------
    @property
    def cells(self) -> list[int]:
        """The cells of every cube, four per player in player order (the state's own list: read
        it, never change it)."""
        return self._pos

    def cube_cells(self, player: int) -> list[int]:
        """The cells of ``player``'s cubes."""
        return self._pos[CUBES * player : CUBES * (player + 1)]

    def cubes(self, player: int) -> list[str]:
        """Cell names of a player's cubes."""
        names = self.game.board.names
        return [names[c] for c in self.cube_cells(player)]

    def owner(self, cell: int) -> int | None:
        """The player whose cube stands on ``cell``, or None."""
        return self._pos.index(cell) // CUBES if self._occ >> cell & 1 else None

    def occupied(self) -> int:
        """The cells with a cube, as a bit mask."""
        return self._occ

    @property
    def current_player(self) -> int:
        return TERMINAL if self._end is not None else self._to_move

    @property
    def to_move(self) -> int:
        """The player whose turn it is (or would be, once the game is over)."""
        return self._to_move

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

    # --- the rulings of a move, in the rulebook's order: predicates that change nothing -------
    def distance(self, cell: int) -> int:
        """ARC-M1: cubes in the three rows through ``cell`` (the cube there included)."""
        return (self._occ & self.game.rows_mask[cell]).bit_count()

    def free_cells_of(self, player: int) -> tuple[int, int, int, int]:
        """ARC-M3, for each of ``player``'s cubes in order: the cells it may enter, neither taken
        by another cube nor next to one (``game.block_mask[c]``: a cube on ``c`` keeps every
        other cube out of ``c`` and its neighbours)."""
        g = self.game
        block = g.block_mask
        pos = self._pos
        base = CUBES * player
        others = 0
        for c in pos[:base]:
            others |= block[c]
        for c in pos[base + CUBES :]:
            others |= block[c]
        c0, c1, c2, c3 = pos[base : base + CUBES]
        b0, b1, b2, b3 = block[c0], block[c1], block[c2], block[c3]
        free = g.all_mask & ~others
        return free & ~(b1 | b2 | b3), free & ~(b0 | b2 | b3), free & ~(b0 | b1 | b3), free & ~(b0 | b1 | b2)

    def free_cells(self, cell: int) -> int:
        """ARC-M3: the cells the cube on ``cell`` may enter (:meth:`free_cells_of`)."""
        i = self._pos.index(cell)
        return self.free_cells_of(i // CUBES)[i % CUBES]

    def arrived_cells(self, player: int) -> int:
        """ARC-M5: the cells (a mask) where ``player``'s cubes have arrived: a cube there never
        moves again. They are its goal cells."""
        return self.game.goal_mask[player]

    def held_cells(self, player: int) -> int:
        """ARC-M7: the cells (a mask) from which ``player``'s cubes may not move now. With three
        players, a cube on one of its start cells may move only while fewer than 2 + (arrived
        cubes) of its cubes stand off their start cells: else its start cells hold; otherwise none."""
        g = self.game
        if g.players != RELEASE_PLAYERS:
            return 0
        start = g.start_mask[player]
        goal = g.goal_mask[player]
        off = home = 0
        for c in self._pos[CUBES * player : CUBES * (player + 1)]:
            if not start >> c & 1:
                off += 1
            if goal >> c & 1:
                home += 1
        return 0 if off < FREE_CUBES + home else start

    def _home(self, player: int) -> int:
        goal = self.game.goal_mask[player]
        return sum(1 for c in self.cube_cells(player) if goal >> c & 1)

    def arrived(self) -> list[int]:
        """Cubes on goal cells, per player (ARC-M5)."""
        return [self._home(p) for p in range(self.game.num_players)]

    # --- legality: candidates, problem() composed of the rulings, legal_actions() from both ---
    def candidates(self, player: int | None = None) -> list[int]:
        """The cells of the cubes that might move, before any ruling: every cube of the player to
        move, none once the game is over; with ``player``, that player's cubes in this position
        whatever the phase (the evaluation and the position checks ask about every player)."""
        if player is None:
            if self._end is not None:
                return []
            player = self._to_move
        return self._pos[CUBES * player : CUBES * (player + 1)]

    def problem(self, move: Move) -> str | None:
        """None when ``move`` is legal here; else why not, citing the ruling (an action id from
        outside: ``action_problem``, core)."""
        if self._end is not None:
            return "the game is over"
        if move.kind is Kind.PASS:
            return self._pass_problem()
        size = self.game.size
        if move.kind is not Kind.MOVE or not (0 <= move.start < size and 0 <= move.end < size):
            return f"{move!r} is not a move of {self.game.name}"
        return self._cube_problem(move.start) or self._end_problem(move)

    def _cube_problem(self, cell: int) -> str | None:
        """Why the player to move may not move a cube from ``cell`` (its own cube; ARC-M5, ARC-M7)."""
        g = self.game
        p = self._to_move
        name = g.board.names[cell]
        owner = self.owner(cell)
        if owner is None:
            return f"there is no cube on {name}"
        if owner != p:
            return f"the cube on {name} belongs to {g.player_name(owner)}; {g.player_name(p)} is to move"
        if self.arrived_cells(p) >> cell & 1:
            return f"the cube on {name} has arrived and may not move any more (ARC-M5)"
        if self.held_cells(p) >> cell & 1:
            home = self._home(p)
            return (
                f"the cube on {name} may not leave its start cell yet (ARC-M7): {g.player_name(p)} "
                f"has {FREE_CUBES + home} cubes out and {home} home; one more must arrive first"
            )
        return None

    def _end_problem(self, move: Move, explain: bool = True) -> str | None:
        """Why the cube on ``move.start`` may not end on ``move.end`` (ARC-M2, ARC-M3, the path:
        ARC-M1..M4); without ``explain``, a short text instead of the search for an example."""
        names = self.game.board.names
        start, end = move.start, move.end
        if start == end:
            return f"a move may not end on its start cell {names[start]} (ARC-M2)"
        owner = self.owner(end)
        if owner is not None:
            return f"{names[end]} is taken by a cube of {self.game.player_name(owner)}"
        free = self.free_cells(start)
        if not free >> end & 1:
            near = next(c for c in self._pos if c != start and self.game.block_mask[c] >> end & 1)
            return f"{names[end]} touches the cube on {names[near]} (ARC-M3)"
        if self.game.encode(move) in dict(self.cube_moves(self._to_move)).get(start, ()):
            return None
        return self._no_path_text(move) if explain else "no path (ARC-M1..M4)"

    def _pass_problem(self) -> str | None:
        """ARC-M6: a player passes only without a legal move."""
        moves = self.moves_of(self._to_move)
        if not moves:
            return None
        return (
            f"{self.game.player_name(self._to_move)} cannot pass: a player passes only without a "
            f"legal move (ARC-M6), and {len(moves)} moves are legal, e.g. {self.action_to_string(moves[0])}"
        )

    def _no_path_text(self, move: Move) -> str:
        """Why no path takes the cube from ``move.start`` to ``move.end`` (ARC-M1..M3): none of the
        right length on the empty board, or each one meets a cube or a cell next to one."""
        g = self.game
        names = g.board.names
        start, end = move.start, move.end
        s, e = names[start], names[end]
        steps = self.distance(start)
        goal = g.goal_mask[self._to_move]
        reach = "at most" if goal >> end & 1 else "exactly"
        path = g.move_generator.example_path(start, steps, g.all_mask, goal, end)
        if path is None:
            return f"no path of {reach} {steps} steps from {s} reaches {e} (distance {steps}: ARC-M1, ARC-M2)"
        return (
            f"every path of {reach} {steps} steps from {s} to {e} enters a cell that is taken "
            f"or touches another cube (ARC-M3){self._first_block(path)}"
        )

    def _first_block(self, path: list[int]) -> str:
        """Where ``path`` (start first) first meets a cube or a cell next to one (ARC-M3), as a
        clause for :meth:`_no_path_text`."""
        g = self.game
        names = g.board.names
        start = path[0]
        shown = f"{names[start]}-" + "-".join(names[x] for x in path[1:])
        for c in path[1:]:
            if c in self._pos and c != start:
                return f"; {shown} meets the cube on {names[c]}"
            touching = [names[x] for x in self._pos if x != start and g.block_mask[x] >> c & 1]
            if touching:
                return f"; {shown}: {names[c]} touches the cube on {touching[0]}"
        return ""

    def cube_moves(self, player: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(cell, action ids)`` of each of ``player``'s cubes that has a move, in cube order: the
        rulings composed for every candidate at once. A cube that has arrived (ARC-M5) or is
        held on its start cell (ARC-M7) stays; another moves to the end of every path of exactly
        its distance in steps (ARC-M1) from cell to adjacent cell through its free cells (ARC-M3),
        entering no cell twice unless the ``revisit`` option is on and never ending on its start
        (ARC-M2), or of a shorter path that reaches one of the player's goal cells (ARC-M4). The
        ends of those paths come from the game's path tables, search and memos (``game.ends``:
        ``_fast.py``), which hold no rule of their own."""
        stuck = self.arrived_cells(player) | self.held_cells(player)
        ends, distance = self.game.ends, self.distance
        found = []
        for cell, free in zip(self.candidates(player), self.free_cells_of(player), strict=False):
            if not stuck >> cell & 1:
                moves = ends(cell, distance(cell), free, player)
                if moves:
                    found.append((cell, moves))
        return found

    def moves_of(self, player: int) -> list[int]:
        """Every move of ``player`` now (no pass), sorted (from :meth:`cube_moves`)."""
        found = self.cube_moves(player)
        if len(found) == 1:
            return list(found[0][1])
        found.sort()  # by start cell: the ids (start * size + end) come out sorted
        out: list[int] = []
        for _, moves in found:
            out.extend(moves)
        return out

    def moves_by_the_rules(self) -> list[int]:
        """Every move of the player to move that :meth:`problem` allows, sorted: each candidate
        cube to each cell (slow; the tests check ``legal_actions`` against it)."""
        g = self.game
        out = []
        for cell in sorted(self.candidates()):
            if self._cube_problem(cell) is None:
                moves = [cube_move(cell, e) for e in range(g.size)]
                out += [g.encode(m) for m in moves if self._end_problem(m, explain=False) is None]
        return out

    def legal_actions(self) -> list[int]:
        if self._end is not None:
            return []
        if self._legal is None:
            self._legal = self.moves_of(self._to_move) or [self.game.pass_action]  # ARC-M6
        return list(self._legal)

    def cached_legal_actions(self) -> list[int] | None:
        """The legal actions if this state has generated them already (never to be changed)."""
        return self._legal

    def is_legal(self, action: int) -> bool:
        return self._end is None and action in (self._legal or self.legal_actions())

    # --- playing a move; the end: ARC-E1, ARC-M6, the move limit -----------------------------
    def _apply(self, action: int) -> None:
        g = self.game
        p = self._to_move
        self._position_changed()
        if action == g.pass_action:
            self._passes += 1
            if self._passes >= g.players:
                self._end = PASSES  # ARC-M6
        else:
            start, end = divmod(action, g.size)  # the id of a cube's move (moves.layout)
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

    def clone(self) -> ArchimedesState:
        """An independent copy: every field of this state, with new lists for the ones a move
        changes in place (:data:`OWN_COPY`). Derived data (the legal actions,
        :meth:`dead_position`) is shared: it is never changed in place, and a move replaces it
        (:meth:`_position_changed`). The copying function is written from the state's own fields
        (:func:`palaestra.core.cloning.clone_by_fields`) at the first clone, and replaces this
        method: every state has the fields ``__init__`` sets, in that order."""
        return clone_by_fields(self, OWN_COPY)

    # --- ranking: ARC-E1, ARC-M6 ----------------------------------------------------------------
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
                    for c in self.cube_cells(p)
                ]
                for p in range(g.num_players)
            ],
            "to_move": None if self._end is not None else self._to_move,
            "ended": self._end,
        }

    def termination(self) -> Termination:
        return Termination.MOVE_LIMIT if self._end == LIMIT else Termination.RULES

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

    # --- adjudication and evaluation (heuristic.py) --------------------------------------------
    def hemmed_in(self) -> int:
        """Cells (a mask) of the cubes that have not arrived and can never move again
        (:func:`heuristic.hemmed_in`)."""
        return heuristic.hemmed_in(self)

    def can_arrive(self) -> list[bool]:
        """Per player: whether one of its cubes might still arrive (:func:`heuristic.can_arrive`;
        False is certain)."""
        return heuristic.can_arrive(self)

    def settled_result(self) -> tuple[list[float], str] | None:
        """When no cube of any player can arrive any more (:meth:`can_arrive`), the cubes home are
        final and the end is the ranking by them, the same at the move limit as when every player
        passes (ARC-M6): that result, with its sentence. A player with four cubes home has won,
        so a settled game is always one that nobody wins outright."""
        if self._end is not None or any(heuristic.arrivals(self)):
            return None
        returns = returns_from_ranks(self.ranks())
        cubes = "-".join(str(h) for h in self.arrived())
        why = "settled: no cube can reach a goal cell any more"
        return returns, f"{outcome_text(self.game, returns)} ({why}; cubes home {cubes})"

    def dead_position(self) -> bool:
        """No player can bring all four cubes home any more (ARC-E1): each has a cube hemmed in
        for good (:meth:`hemmed_in`) or a goal cell closed for good (see :meth:`evaluate`). Only
        the move limit (or every player passing, ARC-M6) ends the game, ranked by cubes home."""
        if self._end is not None:
            return False
        if self._dead is None:
            self._dead = heuristic.dead_position(self)
        return self._dead

    def note_dead_position(self, dead: bool) -> None:
        """Keep what :func:`heuristic.evaluate` found out about :meth:`dead_position`."""
        self._dead = dead

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
        return heuristic.evaluate(self)

    # --- notation (moves.py), views (display.py), documents (position.py) ---------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        if not is_int(action) or not 0 <= action <= g.pass_action:
            raise IllegalActionError(f"{action!r} is not an archimedes action id (0 to {g.pass_action})")
        return format_move(g.decode(action), g.board)

    def string_to_action(self, text: str) -> int:
        return self.game.encode(parse_move(text, self.game.board))

    def render(self, labels: bool = False) -> str:
        """The hexagon, row h (side N) at the top, the six sides named around it: a cube shows its
        player number and its distance (``1:4``; ``1:*`` once arrived); an empty cell shows ``/\\``
        or ``\\/`` (the way it points), or its name with ``labels``."""
        return display.render(self, labels)

    def observation_tensor(self, player: int) -> list[float]:
        """Planes of the board's cells (96, flattened row by row), players seen from ``player``
        (k = 0 is ``player``, then the next in turn order): cubes of player k (n planes), goal
        cells of player k (n planes), each cube's distance / 12 (1 plane), player k to move (n
        planes, all ones or all zeros)."""
        return display.observation_tensor(self, player)

    def to_position(self) -> dict[str, Any]:
        return position.position_of(self)

    def _to_dict(self) -> dict[str, Any]:
        return {"start": self._origin, "position": self.to_position()}


#: the fields of a state that a move changes in place: :meth:`ArchimedesState.clone` gives the
#: copy its own (:mod:`palaestra.core.cloning`)
OWN_COPY = {"history": SLICE, "_pos": SLICE}
