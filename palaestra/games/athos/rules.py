"""Athos (Kramer & Kübler, 1993): the rules of play, in the order of RULINGS.md (ATH-*).

The set-up of a position (ATH-S1 the monks on their start fields, ATH-V2 the handicap first; the
options, the board and the seats are the game's, in game.py); the turn, whose order of phases
(:data:`PHASES_OF`: ATH-T1 the movement, ATH-T7 the Athos stone, ATH-T8 the placement, ATH-T9
the end of the turn) is stated here; the movement (ATH-T1..T6, ATH-T10: ``movement.py``); the
tiles, the stone and the path rule (ATH-T7, ATH-T8, ATH-P1, ATH-V2, ATH-V3: ``tiles.py``); the end
(ATH-E1, ATH-E3: :meth:`AthosState._step`, :meth:`AthosState._end_turn`) and the ranking (ATH-E2,
ATH-E4: ``scoring.py``).

Each ruling is stated once, as a predicate of ``movement.py`` or ``tiles.py`` that changes
nothing. :meth:`AthosState.candidates` names the kinds of move of the phase and applies no
ruling; :meth:`AthosState.problem` takes a typed :class:`~palaestra.games.athos.moves.Move` and
composes the predicates of its kind, for a reason that cites the ruling; ``legal_actions`` is
derived from the same predicates over each kind's candidates (the mover's monks' neighbours, the
tiles, the ordinary fields). ``_fast.py`` holds only what makes the predicates cheap (the path
rule's cut-vertex search, local test and components, the search that decides whether the
movement can still end, their memos): no batch generator and no rule of its own. The tests check
``legal_actions`` against ``problem`` over the whole action space, and ``_fast.py`` against plain
walks of the position after the action. Moves and notation: ``moves.py``; the position document:
``position.py``; the AI's evaluation: ``heuristic.py``; the text board and the observation:
``display.py``.

Node ids: ordinary fields ``0 .. N-1``, the start fields A-E, the summit (``board.py``). A state
keeps per node the tile's side (``tile``), the tile's own terrain (``tile_terrain``), whether it
is rubble (``rubble``), its rubble-free neighbours (``open_adj``), the player of its Athos stone
(``stone``) and the number of monks on it (``occupants``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from palaestra.core.cloning import SLICE, clone_by_fields
from palaestra.core.errors import NotationError
from palaestra.core.game import TERMINAL, State, is_int, returns_from_ranks
from palaestra.games.athos import _fast, display, heuristic, movement, position, scoring, tiles
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
    Phase,
    Side,
    arrival_bonus,
)
from palaestra.games.athos.moves import Kind, Move, format_move, parse_move

if TYPE_CHECKING:  # game.py imports this module; the type only for the checker
    from palaestra.games.athos.game import AthosGame

#: the order of a turn: the phases in which each kind of move is made (ATH-T1..T6 the movement;
#: ATH-T7 the relocation, then the stone; ATH-T8 the placement; ATH-T9 every turn ends with
#: end-turn, after the stone phase or the placement; ATH-V2 the handicap before the first turn)
PHASES_OF: dict[Kind, frozenset[Phase]] = {
    Kind.STEP: frozenset({MOVE}),
    Kind.FLIP: frozenset({MOVE}),
    Kind.END_MOVE: frozenset({MOVE}),
    Kind.RELOCATE: frozenset({STONE}),
    Kind.STONE: frozenset({STONE, RELOCATED}),
    Kind.PLACE: frozenset({HANDICAP, STONE, PLACE}),
    Kind.END_TURN: frozenset({STONE, PLACE}),
}
#: the kinds of move of each phase (:data:`PHASES_OF` read the other way)
KINDS_OF_PHASE: dict[Phase, tuple[Kind, ...]] = {
    phase: tuple(kind for kind in Kind if phase in PHASES_OF[kind]) for phase in Phase
}
PHASE_TEXT = {
    HANDICAP: "handicap tiles are being placed",
    MOVE: "it is the movement phase",
    STONE: "the movement has ended",
    RELOCATED: "a tile was relocated, the stone is to be put",
    PLACE: "tiles are being placed",
    OVER: "the game is over",
}


def out_of_turn(state: AthosState, kind: Kind) -> str:
    """Why a move of ``kind`` is not made in this phase (:data:`PHASES_OF`)."""
    phase = state.phase
    if kind in (Kind.STEP, Kind.FLIP, Kind.END_MOVE):
        return f"the movement phase is over ({PHASE_TEXT[phase]})"
    if phase == RELOCATED:
        if kind is Kind.RELOCATE:
            return "only one tile is relocated per Athos stone (ATH-T7)"
        return "after a relocation the Athos stone must be put (ATH-T7)"
    if kind in (Kind.RELOCATE, Kind.STONE):
        return (
            "an Athos stone is used after the movement and before any tile is placed "
            f"(ATH-T7; {PHASE_TEXT[phase]})"
        )
    if phase == MOVE:
        then = ", then place tiles (ATH-T8)" if kind is Kind.PLACE else ""
        return f"end the movement first (end-move){then}"
    return "the handicap tiles are placed first (ATH-V2)"


def _end_move(state: AthosState, out: list[int]) -> None:
    if movement.end_move_problem(state) is None:
        out.append(state.game.first_id["end_move"])


def _end_turn(state: AthosState, out: list[int]) -> None:
    out.append(state.game.first_id["end_turn"])  # ATH-T9: the phase is all it needs


#: per kind of move: its problem, the predicates of its rulings composed for one move
PROBLEMS: dict[Kind, Callable[[AthosState, Move], str | None]] = {
    Kind.STEP: lambda state, m: movement.step_problem(state, m.field, m.to),
    Kind.FLIP: lambda state, m: movement.flip_problem(state, m.field),
    Kind.END_MOVE: lambda state, m: movement.end_move_problem(state),
    Kind.RELOCATE: lambda state, m: tiles.relocate_problem(state, m.field, m.to),
    Kind.STONE: lambda state, m: tiles.stone_problem(state, m.field),
    Kind.PLACE: lambda state, m: tiles.place_problem(state, m.field, m.open_side, m.terrain),
    Kind.END_TURN: lambda state, m: None,
}
#: per kind of move: its legal ids added to a list, the same predicates over its candidates
GENERATORS: dict[Kind, Callable[[AthosState, list[int]], object]] = {
    Kind.STEP: movement.steps,
    Kind.FLIP: movement.flips,
    Kind.END_MOVE: _end_move,
    Kind.RELOCATE: tiles.relocations,
    Kind.STONE: tiles.stones,
    Kind.PLACE: tiles.placements,
    Kind.END_TURN: _end_turn,
}

#: what changed, for :meth:`AthosState._position_changed` (each level forgets more)
TURN_CHANGED, MONKS_MOVED, TILES_CHANGED = 0, 1, 2
#: the generators of each phase's kinds (:data:`KINDS_OF_PHASE`)
GENERATORS_OF_PHASE = {
    phase: tuple(GENERATORS[kind] for kind in kinds) for phase, kinds in KINDS_OF_PHASE.items()
}

# the kinds as plain module names, for the hot code (an Enum's class attribute is slow to read)
STEP_KIND, FLIP_KIND, END_MOVE_KIND, RELOCATE_KIND, STONE_KIND, PLACE_KIND, END_TURN_KIND = Kind


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
        self._position_changed()
        if game.handicap_tiles:
            self.phase = HANDICAP
            self.handicap_left = game.handicap_tiles
            self.seat = game.handicap_player

    def _position_changed(self, what: int = TILES_CHANGED) -> None:
        """Forget what was derived from the position: the one place where the state's caches are
        declared and emptied (``__init__``, every action, a position read). ``what`` changed:
        :data:`TILES_CHANGED` (every cache goes), :data:`MONKS_MOVED` (what depends on the monks
        and the turn) or :data:`TURN_CHANGED` (the legal actions only). None of the caches is
        changed in place once made, so a copy shares them (``_relocation_parts`` excepted: a
        copy starts it empty). ``_legal``: the legal actions; ``_relocatable``: whether a tile can
        be relocated now (``tiles.relocatable``); ``_cut``: the cut-vertex search of
        the tile layout (``_fast.cut_search``); ``_distances``: the distances to the summit;
        ``_tiled``: the fields with a tile; ``_critical_fields``: where rubble would cut a monk
        off; ``_relocation_parts``: the components per relocation target."""
        self._legal: tuple[int, ...] | None = None
        self._relocatable: bool | None = None
        if what >= TILES_CHANGED:
            self._cut: _fast.CutSearch | None = None
            self._distances: list[int] | None = None
            self._tiled: list[int] | None = None
        if what >= MONKS_MOVED:
            self._critical_fields: frozenset[int] | None = None
            self._relocation_parts: dict[int, tuple[list[int], frozenset[int]]] = {}

    def clone(self) -> AthosState:
        """An independent copy: every field of this state, with new lists for the ones an action
        changes in place (:data:`COPIES`) and an empty ``_relocation_parts``; the other caches are
        shared (never changed in place: :meth:`_position_changed`). The copying function is
        written from the state's own fields at the first clone (``core.cloning``)."""
        return clone_by_fields(self, COPIES)

    # --- facts of the position -----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    def free(self, f: int) -> bool:
        """The ordinary field ``f`` may take a tile (:func:`tiles.free_fields`)."""
        return bool(tiles.free_fields(self, (f,)))

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
        """ATH-P1 by its meaning: every monk in play has a rubble-free path to the summit."""
        dist = self.distances()
        return all(dist[v] >= 0 for ms in self.monks for v in ms)

    # --- legality: candidates, problem() composed of the rulings, legal_actions() from both ---
    def candidates(self) -> tuple[Kind, ...]:
        """The kinds of move the phase admits (the order of a turn: ATH-T1..T9, ATH-V2), none
        once the game is over; the candidates of each kind (the mover's monks' neighbours, the
        tiles, the ordinary fields) are taken by its generator, before any other ruling."""
        return KINDS_OF_PHASE[self.phase]

    def problem(self, move: Move) -> str | None:
        """None when ``move`` is legal here; else why not, citing the ruling: the predicates of
        movement.py and tiles.py composed for the move's kind."""
        try:
            self.game.encode(move)  # a move of this board: every coordinate in range
        except ValueError as exc:
            return str(exc)
        return self.rules_problem(move)

    def rules_problem(self, move: Move) -> str | None:
        """The rulings' problem of a move of this board (the phase, then its kind's predicates)."""
        phase = self.phase
        if phase == OVER:
            return "the game is over"
        kind = move.kind
        if phase not in PHASES_OF[kind]:
            return out_of_turn(self, kind)
        return PROBLEMS[kind](self, move)

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted: each kind of move of :meth:`candidates` generated by the
        same predicates that :meth:`problem` composes (cached until the position changes)."""
        legal = self._legal
        if legal is not None:
            return list(legal)
        out: list[int] = []
        for generate in GENERATORS_OF_PHASE[self.phase]:
            generate(self, out)
        out.sort()
        self._legal = tuple(out)
        return out

    def is_legal(self, action: int) -> bool:
        legal = self._legal
        if legal is not None:
            return action in legal
        return self.action_problem(action) is None

    def explain_illegal(self, action: object) -> str:
        why = self.action_problem(action)
        if why is None:
            return f"{self.action_to_string(action)} is legal"  # type: ignore[arg-type]
        if is_int(action) and 0 <= action < self.game.action_space.size:
            return f"{self.action_to_string(action)}: {why}"
        return why

    # --- playing an action ---------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        move = self.game.moves[action]
        kind, f, to, _, _ = move
        if kind is STEP_KIND:
            self._step(f, to)
            self._position_changed(MONKS_MOVED)
        elif kind is FLIP_KIND:
            self.points -= FLIP_COST
            self._set_tile(f, OPEN if self.tile[f] == RUBBLE else RUBBLE, self.tile_terrain[f])
        elif kind is END_MOVE_KIND:
            self.unused[self.seat] = self.points  # ATH-E2
            self.points = 0
            self.phase = STONE
            self._position_changed(TURN_CHANGED)
        elif kind is RELOCATE_KIND:
            self._set_tile(to, self.tile[f], self.tile_terrain[f])
            self._set_tile(f, NO_TILE, -1)
            self.phase = RELOCATED
        elif kind is STONE_KIND:
            self._put_stone(f)
        elif kind is PLACE_KIND:
            self._place(move)
        else:
            self._end_turn()
            self._position_changed(TURN_CHANGED)

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

    def _put_stone(self, f: int) -> None:
        """ATH-T7: the stone (on a tile that carries one already: amended 2026-11-25)."""
        if self.stone[f] >= 0:
            self.stacked.append((f, self.seat))
        else:
            self.stone[f] = self.seat
        self.stones_left[self.seat] -= 1
        self.phase = PLACE
        self._position_changed(TURN_CHANGED)

    def _place(self, move: Move) -> None:
        """ATH-T8 a tile rubble side up; ATH-V2 a handicap tile (the handicap ends early when no
        free field can take a tile)."""
        f = move.field
        t = self.board.terrain[f] if move.terrain < 0 else move.terrain
        self._set_tile(f, OPEN if move.open_side else RUBBLE, t)
        self.supply[t] -= 1
        if self.phase == HANDICAP:
            self.handicap_left -= 1
            if self.handicap_left == 0 or not self.legal_actions():
                self._start_turn(0)
                self._position_changed(TURN_CHANGED)
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
        """Put a tile of ``terrain`` with ``side`` up on ``f`` (NO_TILE: take it away), keeping
        ``rubble`` and ``open_adj`` up to date; the derived data goes (:meth:`_position_changed`)."""
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
        self._position_changed()

    # --- the end and the ranking: ATH-E1..E4 (scoring.py) -------------------------------------
    def side_arrived(self, side: int) -> int:
        return scoring.side_arrived(self, side)

    def side_distance(self, side: int) -> int:
        return scoring.side_distance(self, side)

    def side_ranks(self) -> list[int]:
        return scoring.side_ranks(self)

    def returns(self) -> list[float]:
        g = self.game
        if self.phase != OVER:
            return [0.0] * g.num_players
        ranks = scoring.side_ranks(self)
        return returns_from_ranks([ranks[g.side_of[p]] for p in range(g.num_players)])

    def scores(self) -> list[float]:
        g = self.game
        return [float(scoring.side_arrived(self, g.side_of[p])) for p in range(g.num_players)]

    def score_details(self) -> dict[str, Any]:
        return scoring.score_details(self)

    def result_text(self) -> str:
        if self.phase != OVER:
            return "the game is not over"
        return scoring.result_text(self)

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
        return self.game.encode(parse_move(text, self.board))

    def render(self, labels: bool = False) -> str:
        return display.render(self, labels)

    def observation_tensor(self, player: int) -> list[float]:
        return display.observation_tensor(self, player)

    def to_position(self) -> dict[str, Any]:
        return position.position_of(self)

    def _to_dict(self) -> dict[str, Any]:
        return {"position": self.to_position()}


#: how :meth:`AthosState.clone` copies the fields an action changes in place (``monks``: a list of
#: lists, each copied; ``_relocation_parts``: a cache the copy starts empty); the others are shared
COPIES = {
    **dict.fromkeys(
        (
            "history",
            "tile",
            "tile_terrain",
            "rubble",
            "open_adj",
            "stone",
            "stacked",
            "occupants",
            "arrivals",
            "stones_left",
            "supply",
            "placed",
            "unused",
            "finishers",
        ),
        SLICE,
    ),
    "monks": "[m[:] for m in {v}]",
    "_relocation_parts": "{{}}",
}
