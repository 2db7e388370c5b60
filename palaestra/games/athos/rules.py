"""Athos (Kramer & Kübler, 1993): the rules of play, in the order of RULINGS.md (ATH-*).

The set-up of a position (ATH-S1 the monks on their start fields, ATH-V2 the handicap first; the
options, the board and the seats are the game's, in game.py), the turn (ATH-T1..T6 and ATH-T10
the movement, ATH-P1 the path rule, ATH-T7 the Athos stone, ATH-T8 the placement, ATH-T9 the end
of the turn), the end (ATH-E1, ATH-E3) and the ranking (ATH-E2, ATH-E4).
:meth:`AthosState.problem` is the one place an action's legality is decided, in the rulebook's
terms; ``is_legal`` and ``explain_illegal`` read it, and ``legal_actions`` is the fast generator
of ``_fast.py``, which the tests check against it. The path rule and the end of the movement
are answered by ``_fast.py`` too (checked against plain walks of the position after the
action). Moves and notation: ``moves.py``; the position document: ``position.py``; the AI's
evaluation: ``heuristic.py``; the text board and the observation: ``display.py``.

Node ids: ordinary fields ``0 .. N-1``, the start fields A-E, the summit (``board.py``). A state
keeps per node the tile's side (``tile``), the tile's own terrain (``tile_terrain``), whether it
is rubble (``rubble``), its rubble-free neighbours (``open_adj``), the player of its Athos stone
(``stone``) and the number of monks on it (``occupants``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.core.errors import NotationError
from palaestra.core.game import TERMINAL, State, is_int, returns_from_ranks
from palaestra.games.athos import _fast, display, heuristic, moves, position
from palaestra.games.athos.board import walk
from palaestra.games.athos.constants import (
    FLIP_COST,
    HANDICAP,
    MONKS,
    MOVE,
    MOVEMENT_POINTS,
    NO_TILE,
    OPEN,
    OVER,
    PLACE,
    RELOCATED,
    RUBBLE,
    STONE,
    STONES,
    TILES_PER_TERRAIN,
    Side,
    arrival_bonus,
)
from palaestra.games.athos.moves import Move, encode, format_move, parse_move

if TYPE_CHECKING:  # game.py imports this module; the type only for the checker
    from palaestra.games.athos.game import AthosGame


class AthosState(State):
    """One Athos position. Node ids and action ids: see docs/athos.md."""

    game: AthosGame

    # --- set-up: ATH-S1 (three monks on each start field), ATH-V2 (the handicap first) ----------
    def __init__(self, game: AthosGame, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.board = b = game.board
        n = game.num_players
        self.tile = [NO_TILE] * b.size
        self.tile_terrain = [-1] * b.size
        self.rubble = [False] * b.size
        #: the rubble-free neighbours of every node (kept up to date by _set_tile)
        self.open_adj: list[tuple[int, ...]] = list(b.adj)
        self.stone = [-1] * b.size
        #: (field, player) of each stone put on a field that already held one (ATH-T7)
        self.stacked: list[tuple[int, int]] = []
        self.occupants = [0] * b.size
        self.monks: list[list[int]] = [[game.start_of[p]] * MONKS for p in range(n)]
        for p in range(n):
            self.occupants[game.start_of[p]] += MONKS
        self.arrivals: list[int] = []
        self.stones_left = [STONES] * n
        self.supply = [TILES_PER_TERRAIN] * len(b.terrains)
        self.seat = 0
        self.round = 1
        self.phase = MOVE
        self.points = MOVEMENT_POINTS
        self.placed = [0] * len(b.terrains)
        self.placed_total = 0
        #: number of ordinary fields holding more than one monk (only while moving, ATH-T3)
        self.crowded = 0
        self.unused: list[int | None] = [None] * n
        self.finishers: list[int] = []
        self.final_round = False
        self.handicap_left = 0
        # caches of _fast.py, emptied when the tiles change (_tiles_changed)
        self._cut: _fast.CutSearch | None = None
        self._critical_fields: frozenset[int] | None = None
        self._relocation_parts: dict[int, tuple[list[int], frozenset[int]]] = {}
        self._distances: list[int] | None = None
        self._tiled: list[int] | None = None
        if game.handicap_tiles:
            self.phase = HANDICAP
            self.handicap_left = game.handicap_tiles
            self.seat = game.handicap_player

    def clone(self) -> AthosState:
        """An independent copy. Written out field by field on purpose (an object whose
        ``__dict__`` is filled with ``update`` loses CPython's shared-key layout, and every later
        attribute read is slower); a test checks that every field is copied."""
        c = object.__new__(AthosState)
        c.game = self.game
        c.seed = self.seed
        c.history = self.history[:]
        c.board = self.board
        c.tile = self.tile[:]
        c.tile_terrain = self.tile_terrain[:]
        c.rubble = self.rubble[:]
        c.open_adj = self.open_adj[:]
        c.stone = self.stone[:]
        c.stacked = self.stacked[:]
        c.occupants = self.occupants[:]
        c.monks = [m[:] for m in self.monks]
        c.arrivals = self.arrivals[:]
        c.stones_left = self.stones_left[:]
        c.supply = self.supply[:]
        c.seat = self.seat
        c.round = self.round
        c.phase = self.phase
        c.points = self.points
        c.placed = self.placed[:]
        c.placed_total = self.placed_total
        c.crowded = self.crowded
        c.unused = self.unused[:]
        c.finishers = self.finishers[:]
        c.final_round = self.final_round
        c.handicap_left = self.handicap_left
        c._cut = self._cut  # the caches are never changed in place, only replaced
        c._critical_fields = self._critical_fields
        c._relocation_parts = {}
        c._distances = self._distances
        c._tiled = self._tiled
        return c

    # --- facts of the position -----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    def free(self, f: int) -> bool:
        """No tile, no monk, no stone (a bare stone of ATH-V3 keeps tiles off) on the ordinary
        field ``f``."""
        return self.tile[f] == NO_TILE and self.occupants[f] == 0 and self.stone[f] < 0

    def tiled_fields(self) -> list[int]:
        """The ordinary fields holding a tile, in order (cached per tile layout)."""
        if self._tiled is None:
            tile = self.tile
            self._tiled = [f for f in self.board.ordinary if tile[f]]
        return self._tiled

    def crowded_fields(self) -> list[int]:
        """Ordinary fields holding more than one monk (ATH-T3: only while moving)."""
        return _fast.crowded_fields(self)

    # --- ATH-P1: the path rule ---------------------------------------------------------------
    def distances(self) -> list[int]:
        """Shortest rubble-free distance of every node to the summit (-1: cut off)."""
        if self._distances is None:
            b = self.board
            dist = [-1] * b.size
            for w, steps in walk(b.adj, [b.summit], self.rubble):
                dist[w] = steps
            self._distances = dist
        return self._distances

    def path_rule_holds(self) -> bool:
        """ATH-P1: every monk in play has a rubble-free path to the summit."""
        dist = self.distances()
        return all(dist[v] >= 0 for ms in self.monks for v in ms)

    # --- legality: the one place it is decided -------------------------------------------------
    def problem(self, action: object) -> str | None:
        """None when ``action`` is legal here; else why not, citing the ruling."""
        table = self.game.moves
        if not (type(action) is int or is_int(action)) or not 0 <= action < len(table):  # int first: speed
            return f"{action!r} is not an action of this game"
        phase = self.phase
        if phase == OVER:
            return "the game is over"
        move = table[action]
        kind, field, to, _, _ = move
        if kind is moves.STEP or kind is moves.FLIP or kind is moves.END_MOVE:
            if phase != MOVE:
                return f"the movement phase is over ({self._phase_text()})"
            if kind is moves.STEP:
                return self.step_problem(field, to)
            if kind is moves.FLIP:
                return self.flip_problem(field)
            return self._end_move_problem()
        if kind is moves.END_TURN:
            return self._end_turn_problem()
        if kind is moves.RELOCATE:
            return self._relocate_problem(field, to)
        if kind is moves.STONE:
            return self._stone_problem(field)
        return self._place_phase_problem(move)

    def is_legal(self, action: int) -> bool:
        return self.problem(action) is None

    def explain_illegal(self, action: object) -> str:
        why = self.problem(action)
        if why is None:
            return f"{self.action_to_string(action)} is legal"  # type: ignore[arg-type]
        if is_int(action) and 0 <= action < self.game.action_space.size:
            return f"{self.action_to_string(action)}: {why}"
        return why

    #: the legal actions, sorted: the fast generator of _fast.py (the tests check it against
    #: :meth:`problem`)
    legal_actions = _fast.legal_actions

    def _phase_text(self) -> str:
        return {
            HANDICAP: "handicap tiles are being placed",
            MOVE: "it is the movement phase",
            STONE: "the movement has ended",
            RELOCATED: "a tile was relocated, the stone is to be put",
            PLACE: "tiles are being placed",
            OVER: "the game is over",
        }[self.phase]

    # --- the movement: ATH-T1..T6, ATH-T10 -----------------------------------------------------
    def step_problem(self, u: int, v: int) -> str | None:
        """ATH-T1, T2, T3, T10: why the mover may not step a monk from ``u`` to the neighbour
        ``v`` (None: legal)."""
        b = self.board
        names = b.names
        ms = self.monks[self.seat]
        if u not in ms:
            return f"no monk of yours stands on {names[u]}"
        if self.points < 1:
            return "no movement points left"
        if self.rubble[v]:
            return f"field {names[v]} holds rubble (ATH-T2)"
        if (v >= b.n or self.occupants[v] == 0) and not self.crowded:
            return None
        crowded = self._after_step_crowded(u, v)
        if crowded is None:
            return None
        return (
            f"after this step the monks on {crowded} could not be separated with the points left, "
            "and no ordinary field may hold two monks when the movement ends (ATH-T3)"
        )

    def _after_step_crowded(self, u: int, v: int) -> str | None:
        """ATH-T10: the step tried in place: None when the movement can still end without two
        monks on a field, else the fields that could not be cleared."""
        b = self.board
        ms = self.monks[self.seat]
        occupants = self.occupants
        points = self.points
        i = ms.index(u)
        arrive = v == b.summit
        occupants[u] -= 1
        if arrive:
            self.points = points - 1 + arrival_bonus(len(self.arrivals))
            del ms[i]
            self.arrivals.append(self.seat)
        else:
            self.points = points - 1
            ms[i] = v
            occupants[v] += 1
        try:
            if _fast.movement_can_end(self):
                return None
            return ", ".join(b.names[x] for x in self.crowded_fields())
        finally:
            self.points = points
            if arrive:
                self.arrivals.pop()
                ms.insert(i, u)
            else:
                ms[i] = u
                occupants[v] -= 1
            occupants[u] += 1

    def flip_problem(self, f: int) -> str | None:
        """ATH-T5, ATH-P1, ATH-T10: why the mover may not flip the tile on ``f``."""
        names = self.board.names
        if self.points < FLIP_COST:
            return f"a flip costs {FLIP_COST} movement points, you have {self.points} (ATH-T5)"
        if self.tile[f] == NO_TILE:
            return f"field {names[f]} has no tile to flip"
        if self.occupants[f]:
            return f"a monk stands on {names[f]}: its tile cannot be flipped (ATH-T5)"
        if self.stone[f] >= 0:
            return f"an Athos stone protects the tile on {names[f]} (ATH-T5, ATH-T7)"
        to_rubble = self.tile[f] == OPEN
        if to_rubble and not _fast.rubble_allowed(self, f):
            return f"rubble on {names[f]} would cut a monk off from the summit (ATH-P1)"
        crowded = self.crowded_fields() if self.crowded else []
        if crowded:
            points = self.points
            self.rubble[f] = to_rubble
            self.points = points - FLIP_COST
            try:
                can_end = _fast.movement_can_end(self)
            finally:
                self.rubble[f] = not to_rubble
                self.points = points
            if not can_end:
                return (
                    f"after the flip the monks on {', '.join(names[x] for x in crowded)} could not be "
                    "separated, and no ordinary field may hold two monks when the movement ends (ATH-T3)"
                )
        return None

    def _end_move_problem(self) -> str | None:
        """ATH-T3: the movement ends with no ordinary field holding two monks."""
        if self.crowded:
            fields = ", ".join(self.board.names[x] for x in self.crowded_fields())
            return f"{fields} holds two monks; the movement cannot end so (ATH-T3)"
        return None

    # --- after the movement: ATH-T7 the Athos stone -------------------------------------------
    def _stone_time(self) -> str:
        return (
            "an Athos stone is used after the movement and before any tile is placed "
            f"(ATH-T7; {self._phase_text()})"
        )

    def _relocate_problem(self, f: int, to: int) -> str | None:
        """ATH-T7, ATH-P1, ATH-V3: a tile without monk and stone to a free field."""
        names = self.board.names
        if self.phase == RELOCATED:
            return "only one tile is relocated per Athos stone (ATH-T7)"
        if self.phase != STONE:
            return self._stone_time()
        if not self.stones_left[self.seat]:
            return "you have no Athos stone left (ATH-T7)"
        if self.tile[f] == NO_TILE:
            return f"field {names[f]} has no tile to relocate"
        if self.occupants[f]:
            return f"a monk stands on the tile on {names[f]} (ATH-T7)"
        if self.stone[f] >= 0:
            return f"an Athos stone protects the tile on {names[f]} (ATH-T7)"
        if to == f:
            return "a relocated tile goes to another field (ATH-T7)"
        if self.tile[to] != NO_TILE:
            return f"field {names[to]} already holds a tile"
        if self.occupants[to]:
            return f"a monk stands on {names[to]}"
        if self.stone[to] >= 0:
            return f"an Athos stone stands on {names[to]}: no tile may go there (ATH-V3)"
        if self.tile[f] == RUBBLE and not _fast.relocation_allowed(self, f, to):
            return f"rubble on {names[to]} would cut a monk off from the summit (ATH-P1)"
        return None

    def _stone_problem(self, f: int) -> str | None:
        """ATH-T7, ATH-V3: the stone on any tile (or a bare free field), after a relocation
        when one is possible."""
        g = self.game
        names = self.board.names
        if self.phase not in (STONE, RELOCATED):
            return self._stone_time()
        if not self.stones_left[self.seat]:
            return "you have no Athos stone left (ATH-T7)"
        if self.stone[f] >= 0 and g.original_rules:
            return f"an Athos stone already stands on {names[f]} (rulings of 2026-11-23)"
        if self.tile[f] == NO_TILE:
            if not g.bare_stone:
                return f"field {names[f]} has no tile; the stone goes on a tile (ATH-T7)"
            if self.occupants[f]:
                return f"a monk stands on the bare field {names[f]} (ATH-V3)"
        if self.phase == STONE and _fast.relocations(self, any_one=True):
            return "first relocate a tile (relocate f>g), then put the stone (ATH-T7)"
        return None

    # --- the placement: ATH-T8, ATH-V2; the end of the turn: ATH-T9 ----------------------------
    def _place_phase_problem(self, move: Move) -> str | None:
        if self.phase == MOVE:
            return "end the movement first (end-move), then place tiles (ATH-T8)"
        if self.phase == RELOCATED:
            return "after a relocation the Athos stone must be put (ATH-T7)"
        return self.place_problem(move.field, move.open_side, move.terrain)

    def place_problem(self, f: int, open_side: bool = False, terrain: int = -1) -> str | None:
        """ATH-T8, ATH-V2, ATH-V3, ATH-P1: why a tile (of ``terrain``, -1: the field's) may not
        be placed on ``f`` now."""
        b = self.board
        names = b.names
        t = b.terrain[f] if terrain < 0 else terrain
        if terrain >= 0:
            other = self._other_terrain_problem(f, open_side, terrain)
            if other is not None:
                return other
        if self.tile[f] != NO_TILE:
            return f"field {names[f]} already holds a tile"
        if self.occupants[f]:
            return f"a monk stands on {names[f]}"
        if self.stone[f] >= 0:
            return f"an Athos stone stands on {names[f]}: no tile may be placed there (ATH-V3)"
        if self.supply[t] == 0:
            return f"the {b.terrains[t]} tiles are used up (ATH-T8)"
        if self.phase != HANDICAP:
            limit = self._turn_limit_problem(open_side, t)
            if limit is not None:
                return limit
        if not open_side and not _fast.rubble_allowed(self, f):
            return f"rubble on {names[f]} would cut a monk off from the summit (ATH-P1)"
        return None

    def _other_terrain_problem(self, f: int, open_side: bool, terrain: int) -> str | None:
        """ATH-V2 (amended 2026-11-25): only a handicap tile may be of another terrain."""
        name = self.board.names[f]
        if self.phase != HANDICAP:
            return f"tiles are placed on fields of their own terrain (ATH-T8): write 'place {name}'"
        if self.game.original_rules:
            return "by the rulings of 2026-11-23 a handicap tile is of the field's terrain (ATH-V2)"
        if terrain == self.board.terrain[f]:
            side = " open" if open_side else ""
            return f"a tile of the field's own terrain is written 'place {name}{side}'"
        return None

    def _turn_limit_problem(self, open_side: bool, t: int) -> str | None:
        """ATH-T8: rubble side up, at most so many tiles per turn and per terrain."""
        g = self.game
        if open_side:
            return "tiles are placed rubble side up (ATH-T8)"
        if self.placed_total >= g.max_tiles:
            return f"only {g.max_tiles} tiles per turn (ATH-T8)"
        if self.placed[t] >= g.max_per_terrain:
            per = g.max_per_terrain
            terrain = self.board.terrains[t]
            return f"only {per} tile{'s' if per > 1 else ''} per terrain per turn ({terrain}, ATH-T8)"
        return None

    def _end_turn_problem(self) -> str | None:
        """ATH-T9: every turn ends with end-turn, after the movement and the stone."""
        phase = self.phase
        if phase in (STONE, PLACE):
            return None
        if phase == MOVE:
            return "end the movement first (end-move)"
        if phase == RELOCATED:
            return "after a relocation the Athos stone must be put (ATH-T7)"
        return "the handicap tiles are placed first (ATH-V2)"

    # --- playing an action ---------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        move = self.game.moves[action]
        kind, f, to, _, _ = move
        if kind is moves.STEP:
            self._step(f, to)
        elif kind is moves.FLIP:
            self.points -= FLIP_COST
            self._set_tile(f, OPEN if self.tile[f] == RUBBLE else RUBBLE, self.tile_terrain[f])
            self._tiles_changed()
        elif kind is moves.END_MOVE:
            self.unused[self.seat] = self.points  # ATH-E2
            self.points = 0
            self.phase = STONE
        elif kind is moves.RELOCATE:
            self._set_tile(to, self.tile[f], self.tile_terrain[f])
            self._set_tile(f, NO_TILE, -1)
            self.phase = RELOCATED
            self._tiles_changed()
        elif kind is moves.STONE:
            self._put_stone(f)
        elif kind is moves.PLACE:
            self._place(move)
        else:
            self._end_turn()

    def _step(self, u: int, v: int) -> None:
        """ATH-T1: a step; ATH-T6: an arrival with its bonus; ATH-E1: a side's last monk."""
        g = self.game
        b = self.board
        p = self.seat
        ms = self.monks[p]
        ms.remove(u)
        occupants = self.occupants
        occupants[u] -= 1
        if occupants[u] == 1 and u < b.n:
            self.crowded -= 1  # ATH-T3: u no longer holds two monks
        self.points -= 1
        if v == b.summit:  # ATH-T6
            self.points += arrival_bonus(len(self.arrivals))
            self.arrivals.append(p)
            side = g.side_of[p]
            if side not in {g.side_of[q] for q in self.finishers} and all(
                not self.monks[q] for q in g.members[side]
            ):
                self.finishers.append(p)
                self.final_round = True  # ATH-E1
        else:
            ms.append(v)
            occupants[v] += 1
            if occupants[v] == 2 and v < b.n:
                self.crowded += 1
        self._critical_fields = None  # the path analysis depends on where monks stand
        if self._relocation_parts:
            self._relocation_parts = {}

    def _put_stone(self, f: int) -> None:
        """ATH-T7: the stone (on a tile that carries one already: amended 2026-11-25)."""
        if self.stone[f] >= 0:
            self.stacked.append((f, self.seat))
        else:
            self.stone[f] = self.seat
        self.stones_left[self.seat] -= 1
        self.phase = PLACE
        self._relocation_parts = {}

    def _place(self, move: Move) -> None:
        """ATH-T8 a tile rubble side up; ATH-V2 a handicap tile (the handicap ends early when no
        free field can take a tile)."""
        f = move.field
        t = self.board.terrain[f] if move.terrain < 0 else move.terrain
        self._set_tile(f, OPEN if move.open_side else RUBBLE, t)
        self.supply[t] -= 1
        self._tiles_changed()
        if self.phase == HANDICAP:
            self.handicap_left -= 1
            if self.handicap_left == 0 or not _fast.handicap_actions(self):
                self._start_turn(0)
            return
        self.placed[t] += 1
        self.placed_total += 1
        self.phase = PLACE

    def _end_turn(self) -> None:
        """ATH-T9; ATH-E1 the final round, ATH-E3 the round limit."""
        g = self.game
        if self.seat < g.num_players - 1:
            self._start_turn(self.seat + 1)
        elif self.final_round or self.round >= g.round_limit:
            self.phase = OVER
        else:
            self.round += 1
            self._start_turn(0)

    def _start_turn(self, seat: int) -> None:
        self.seat = seat
        self.phase = MOVE
        self.points = MOVEMENT_POINTS
        self.placed = [0] * len(self.board.terrains)
        self.placed_total = 0
        self.handicap_left = 0

    def _set_tile(self, f: int, side: Side, terrain: int) -> None:
        self._tiled = None
        self.tile[f] = side
        self.tile_terrain[f] = terrain
        blocked = side == RUBBLE
        if self.rubble[f] != blocked:
            rubble = self.rubble
            rubble[f] = blocked
            adj = self.board.adj
            open_adj = self.open_adj
            for u in adj[f]:
                open_adj[u] = tuple(w for w in adj[u] if not rubble[w])

    def _tiles_changed(self) -> None:
        """Empty the caches that depend on the tiles."""
        self._cut = None
        self._critical_fields = None
        self._distances = None
        self._relocation_parts = {}

    # --- the end and the ranking: ATH-E1..E4 ---------------------------------------------------
    def side_arrived(self, side: int) -> int:
        return sum(MONKS - len(self.monks[p]) for p in self.game.members[side])

    def side_distance(self, side: int) -> int:
        """ATH-E3: the sum of the shortest rubble-free distances of the side's monks in play."""
        dist = self.distances()
        return sum(dist[v] for p in self.game.members[side] for v in self.monks[p])

    def side_ranks(self) -> list[int]:
        """Rank of each side (0 best) at the end: the winners of ATH-E2 first and the others below
        them as in ATH-E3 (ATH-E4); with nobody finished, ATH-E3 (monks arrived, distance sum)."""
        g = self.game
        sides = range(g.num_sides)
        keys = [(-self.side_arrived(s), self.side_distance(s)) for s in sides]
        if not self.finishers:
            return [sum(1 for k in keys if k < keys[s]) for s in sides]
        value = {g.side_of[p]: self.unused[p] or 0 for p in self.finishers}
        best = max(value.values())
        won = [value.get(s, -1) == best for s in sides]
        if g.original_rules:  # before ATH-E4 every other side shared the next rank
            return [0 if won[s] else 1 for s in sides]
        return [0 if won[s] else 1 + sum(1 for o in sides if not won[o] and keys[o] < keys[s]) for s in sides]

    def returns(self) -> list[float]:
        g = self.game
        if self.phase != OVER:
            return [0.0] * g.num_players
        ranks = self.side_ranks()
        return returns_from_ranks([ranks[g.side_of[p]] for p in range(g.num_players)])

    def scores(self) -> list[float]:
        g = self.game
        return [float(self.side_arrived(g.side_of[p])) for p in range(g.num_players)]

    def score_details(self) -> dict[str, Any]:
        g = self.game
        return {
            "scores": self.scores(),
            "arrived": [MONKS - len(self.monks[p]) for p in range(g.num_players)],
            "distances": [self.side_distance(g.side_of[p]) for p in range(g.num_players)],
            "arrivals": [g.player_name(p) for p in self.arrivals],
            "round": self.round,
            "final_round": self.final_round,
        }

    def result_text(self) -> str:
        if self.phase != OVER:
            return "the game is not over"
        g = self.game
        ranks = self.side_ranks()
        winners = [s for s in range(g.num_sides) if ranks[s] == 0]
        names = [" and ".join(g.player_name(p) for p in g.members[s]) for s in winners]
        how = "" if self.finishers else f" after the round limit of {g.round_limit} (ATH-E3)"
        if len(winners) == g.num_sides and not self.finishers:
            return "draw" + how
        if len(winners) == 1:
            verb = "win" if g.team_variant else "wins"
            return f"{names[0]} {verb}{how}"
        return " and ".join(names) + " share the win" + how

    # --- the AI's evaluation (heuristic.py) ----------------------------------------------------
    def flip_distances(self) -> list[int]:
        """Distance of every node to the summit counting rubble as passable at the cost of its
        flip (:func:`heuristic.flip_distances`)."""
        return heuristic.flip_distances(self)

    def evaluate(self) -> list[float]:
        """How far each side is from the summit against the opponents, in (-1, 1)
        (:func:`heuristic.evaluate`); ``returns()`` at the end."""
        if self.phase == OVER:
            return self.returns()
        return heuristic.evaluate(self)

    # --- notation (moves.py), views (display.py), documents (position.py) ---------------------
    def action_to_string(self, action: int) -> str:
        if not is_int(action) or not 0 <= action < self.game.action_space.size:
            raise NotationError(f"{action!r} is not an Athos action id")
        return format_move(self.game.moves[action], self.board)

    def string_to_action(self, text: str) -> int:
        return encode(parse_move(text, self.board), self.game.action_space, self.board)

    def render(self, labels: bool = False) -> str:
        return display.render(self, labels)

    def observation_tensor(self, player: int) -> list[float]:
        return display.observation_tensor(self, player)

    def to_position(self) -> dict[str, Any]:
        return position.position_of(self)

    def _to_dict(self) -> dict[str, Any]:
        return {"position": self.to_position()}
