"""Archimedes (Niek Neuwahl, 1995): the rules, in the order of RULINGS.md (ARC-*).

Set-up (ARC-S1, ARC-S2), the move (ARC-M1 distance, ARC-M2 path, ARC-M3 no touching, ARC-M4
early stop, ARC-M5 arrived cubes, ARC-M7 release with three players, ARC-M6 passing), the end
(ARC-E1, passes, the move limit) and the ranking. :meth:`ArchimedesState.problem` is the one
place a move's legality is decided in the rulebook's terms; ``legal_actions`` comes from the fast
generator of ``_fast.py``, which the tests check against it. Notation: ``moves.py``; the
position document: ``position.py``; evaluation and adjudication: ``heuristic.py``; the text
board and the observation: ``display.py``; the game's options and set-up (ARC-S1, ARC-S2):
``game.py``.

Cubes are kept as a flat list of cells, four per player: cube ``k`` belongs to player ``k // 4``.
Sets of cells are int bit masks (bit ``i`` is cell ``i`` of the board file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.core.errors import IllegalActionError
from palaestra.core.game import (
    TERMINAL,
    State,
    is_int,
    outcome_text,
    returns_from_ranks,
    set_bits,
)
from palaestra.core.termination import Termination
from palaestra.games.archimedes import display, heuristic, position
from palaestra.games.archimedes.moves import Move, decode, encode, format_move, parse_move

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
        self._legal: list[int] | None = None
        self._dead: bool | None = None  # dead_position(), once known (evaluate() finds it too)
        #: the position this state's history starts from (None: the standard start)
        self._origin: dict[str, Any] | None = None
        self._settle()

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

    # --- ARC-M1: distance --------------------------------------------------------------------
    def distance(self, cell: int) -> int:
        """ARC-M1: cubes in the three rows through ``cell`` (the cube there included)."""
        return (self._occ & self.game.board.rows_mask[cell]).bit_count()

    # --- ARC-M2, ARC-M3, ARC-M4: the path -----------------------------------------------------
    def free_cells(self, cell: int) -> int:
        """ARC-M3: the cells the cube on ``cell`` may enter: neither taken by another cube nor
        next to one."""
        g = self.game
        blocked = 0
        for c in self._pos:
            if c != cell:
                blocked |= g.block_mask[c]
        return g.all_mask & ~blocked

    def path_ends(self, cell: int) -> int:
        """The cells (a mask) where the cube on ``cell`` can end a move: a path of exactly its
        distance in steps (ARC-M1, ARC-M2) from cell to adjacent cell, through free cells only
        (ARC-M3), entering no cell twice unless the ``revisit`` option is on, never ending on its
        start (ARC-M2); or a shorter path that reaches one of its player's goal cells (ARC-M4)."""
        g = self.game
        steps = self.distance(cell)
        free = self.free_cells(cell)
        goal = g.goal_mask[self._pos.index(cell) // CUBES]
        ends = 0
        walked: set[tuple[int, int]] = set()  # with revisits: (cell, steps) already walked from
        stack = [(cell, 0, 1 << cell)]
        while stack:
            here, taken, entered = stack.pop()
            if taken and here != cell and (taken == steps or goal >> here & 1):
                ends |= 1 << here
            if taken == steps:
                continue
            for m in g.board.neighbours[here]:
                if not free >> m & 1 or (not g.revisit and entered >> m & 1):
                    continue
                if g.revisit:
                    if (m, taken + 1) in walked:
                        continue
                    walked.add((m, taken + 1))
                stack.append((m, taken + 1, entered | 1 << m))
        return ends

    # --- ARC-M5, ARC-M7: which cubes may move -------------------------------------------------
    def _home(self, player: int) -> int:
        goal = self.game.goal_mask[player]
        return sum(1 for c in self.cube_cells(player) if goal >> c & 1)

    def arrived(self) -> list[int]:
        """Cubes on goal cells, per player (ARC-M5)."""
        return [self._home(p) for p in range(self.game.num_players)]

    def released(self, player: int) -> bool:
        """ARC-M7: may a cube on one of ``player``'s start cells move now? With three players,
        only while fewer than 2 + (arrived cubes) of its cubes stand off their start cells."""
        g = self.game
        if g.players != RELEASE_PLAYERS:
            return True
        start = g.start_mask[player]
        goal = g.goal_mask[player]
        off = home = 0
        for c in self._pos[CUBES * player : CUBES * (player + 1)]:  # a loop: called by every generation
            if not start >> c & 1:
                off += 1
            if goal >> c & 1:
                home += 1
        return off < FREE_CUBES + home

    def _cube_problem(self, cell: int) -> str | None:
        """Why the player to move may not move a cube from ``cell`` (ARC-M1, ARC-M5, ARC-M7)."""
        g = self.game
        p = self._to_move
        name = g.board.names[cell]
        owner = self.owner(cell)
        if owner is None:
            return f"there is no cube on {name}"
        if owner != p:
            return f"the cube on {name} belongs to {g.player_name(owner)}; {g.player_name(p)} is to move"
        if g.goal_mask[p] >> cell & 1:
            return f"the cube on {name} has arrived and may not move any more (ARC-M5)"
        if g.start_mask[p] >> cell & 1 and not self.released(p):
            home = self._home(p)
            return (
                f"the cube on {name} may not leave its start cell yet (ARC-M7): {g.player_name(p)} "
                f"has {FREE_CUBES + home} cubes out and {home} home; one more must arrive first"
            )
        return None

    # --- legality: the one place it is decided ------------------------------------------------
    def problem(self, action: int) -> str | None:
        """None when ``action`` is legal here; else why not, citing the ruling."""
        g = self.game
        if not 0 <= action <= g.pass_action:
            return f"{action!r} is not an archimedes action id (0 to {g.pass_action})"
        if self._end is not None:
            return "the game is over"
        move = decode(action, g.board)
        if move.is_pass:
            return self._pass_problem()
        return self._move_problem(move)

    def _pass_problem(self) -> str | None:
        """ARC-M6: a player passes only without a legal move."""
        moves = self.moves_by_the_rules()
        if not moves:
            return None
        return (
            f"{self.game.player_name(self._to_move)} cannot pass: a player passes only without a "
            f"legal move (ARC-M6), and {len(moves)} moves are legal, e.g. {self.action_to_string(moves[0])}"
        )

    def _move_problem(self, move: Move) -> str | None:
        g = self.game
        names = g.board.names
        why = self._cube_problem(move.start)
        if why is not None:
            return why
        if move.start == move.end:
            return f"a move may not end on its start cell {names[move.start]} (ARC-M2)"
        owner = self.owner(move.end)
        if owner is not None:
            return f"{names[move.end]} is taken by a cube of {g.player_name(owner)}"
        for c in self._pos:
            if c != move.start and g.block_mask[c] >> move.end & 1:
                return f"{names[move.end]} touches the cube on {names[c]} (ARC-M3)"
        if self.path_ends(move.start) >> move.end & 1:
            return None
        return self._no_path_text(move)

    def _no_path_text(self, move: Move) -> str:
        """Why no path takes the cube from ``move.start`` to ``move.end`` (ARC-M1..M3): none of the
        right length on the empty board, or each one meets a cube or a cell next to one."""
        g = self.game
        names = g.board.names
        start, end = move
        s, e = names[start], names[end]
        steps = self.distance(start)
        goal = g.goal_mask[self._to_move]
        reach = "at most" if goal >> end & 1 else "exactly"
        path = self._find_path(start, steps, g.all_mask, goal, end)
        if path is None:
            return f"no path of {reach} {steps} steps from {s} reaches {e} (distance {steps}: ARC-M1, ARC-M2)"
        shown = "-".join(names[x] for x in path[1:])
        example = ""
        for c in path[1:]:
            if c in self._pos and c != start:
                example = f"; {s}-{shown} meets the cube on {names[c]}"
                break
            touching = [names[x] for x in self._pos if x != start and g.block_mask[x] >> c & 1]
            if touching:
                example = f"; {s}-{shown}: {names[c]} touches the cube on {touching[0]}"
                break
        return (
            f"every path of {reach} {steps} steps from {s} to {e} enters a cell that is taken "
            f"or touches another cube (ARC-M3){example}"
        )

    def _find_path(self, start: int, steps: int, free: int, goal: int, end: int) -> list[int] | None:
        """One path (cells, start first) of ``steps`` steps (or fewer to a ``goal`` cell) from
        ``start`` to ``end`` through ``free`` cells, or None. Slow; for explanations only."""
        g = self.game
        nbrs = g.board.neighbours
        if g.revisit:
            layers = [1 << start]
            for _ in range(steps):
                grown = 0
                for c in set_bits(layers[-1]):
                    grown |= g.board.neighbour_mask[c]
                layers.append(grown & free)
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
            for m in nbrs[path[-1]]:
                if free >> m & 1 and m not in path:
                    if m == end and (left == 1 or goal >> m & 1):
                        return [*path, m]
                    if left > 1:
                        found = search([*path, m], left - 1)
                        if found is not None:
                            return found
            return None

        return search([start], steps)

    def moves_by_the_rules(self) -> list[int]:
        """Every move of the player to move, sorted, from :meth:`path_ends` and the cube rules
        (slow: what :meth:`problem` allows; the tests check ``legal_actions`` against it)."""
        out = []
        for cell in sorted(self.cube_cells(self._to_move)):
            if self._cube_problem(cell) is None:
                out += [encode(Move(cell, end), self.game.board) for end in set_bits(self.path_ends(cell))]
        return out

    def moves_of(self, player: int) -> list[int]:
        """Every move of ``player`` now (no pass), sorted: from the fast generator."""
        return self.game.move_generator.moves(self._pos, self._occ, player, self.released(player))

    def cube_moves(self, player: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(cell, action ids)`` of each of ``player``'s cubes that has a move (fast generator)."""
        return self.game.move_generator.cube_moves(self._pos, self._occ, player, self.released(player))

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
        """An independent copy. Written out field by field on purpose: an object whose ``__dict__``
        is filled with ``update`` or ``copy.copy`` loses CPython's shared-key layout, and every
        later attribute read of it is some three times slower (searches clone all the time); a
        test checks that every field is copied."""
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
        other._legal = self._legal  # never changed in place
        other._dead = self._dead
        other._origin = self._origin
        return other

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
        return format_move(decode(action, g.board), g.board)

    def string_to_action(self, text: str) -> int:
        return encode(parse_move(text, self.game.board), self.game.board)

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
