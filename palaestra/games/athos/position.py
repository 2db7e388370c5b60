"""The Athos position document (docs/athos.md, *Position format*): the Pydantic model that reads
it (:class:`AthosPosition`, through :func:`read_position`) and :func:`position_of`, which writes one.

``{"game": "athos", "options": {"players": 2}, "round": 3, "to_move": 1, "phase": "move",
"points": 6, "tiles": [{"field": "c6", "side": "open", "terrain": "vine"}],
"stones": [{"field": "c6", "player": 0}], "stones_left": [1, 2], "monks": [["B", "k2"], ["D", "D", "D"]],
"arrivals": [0], "placed": {}, "unused": [null, null], "finishers": [], "final_round": false,
"handicap_left": 0}``; every field may be left out: an empty document is the start of the game.

The model states the document's shape (strict types, no unknown fields, the bounds every game
shares). Its validators read the document section by section into a new state (given as
``context={"state": state}``) and check each against the game and the rulings as they go; the
last ones check the position as a whole against what the rules can reach, so that every position
read has ``legal_actions()`` and ``apply_action()`` agreeing and is never stuck. Each refusal
raises :class:`PositionError` naming the problem and the ruling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Self, get_args

from pydantic import Field, JsonValue, NonNegativeInt, ValidationInfo, model_validator

from palaestra.core.documents import Document, validate
from palaestra.core.errors import PositionError
from palaestra.games.athos.constants import (
    MAX_HANDICAP,
    MAX_POINTS,
    MONKS,
    MOVEMENT_POINTS,
    PHASE_NAMES,
    STONES,
    TILES_PER_TERRAIN,
    Phase,
    Side,
)
from palaestra.games.athos.reachable import (
    check_crowding,
    check_final_round,
    check_handicap,
    check_placed_on_board,
    check_points,
    check_shared_fields,
    check_stone_phase,
    completed_sides,
)

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

SIDE_NAMES = {"rubble": Side.RUBBLE, "open": Side.OPEN}
#: the phases' names (constants.PHASE_NAMES, checked at import)
PhaseName = Literal["handicap", "move", "stone", "relocated", "place", "over"]
assert get_args(PhaseName) == PHASE_NAMES

#: the messages of a document of the wrong shape (palaestra/core/documents.py)
HINTS = {
    "": "a position is a JSON object",
    "!extra": "unknown field {name!r} in an athos position (fields: {fields})",
    "game": "this position is of {value!r:.40}, not 'athos'",
    "options": "'options' is a JSON object",
    "round": "'round' is a whole number from 1 to {round_limit}, not {value!r:.40}",
    "to_move": "'to_move' is a whole number from 0 to {last}, not {value!r:.40}",
    "phase": f"'phase' is one of {', '.join(PHASE_NAMES)}, not {{value!r:.40}}",
    "points": f"'points' is a whole number from 0 to {MAX_POINTS}, not {{value!r:.40}}",
    "tiles": "'tiles' is a list of {{field, side, terrain}}",
    "tiles!missing": "tile {i} has no 'field' (a tile is {{field, side, terrain}})",
    "tiles!extra_forbidden": "tile {i}: unknown field {name!r} (a tile is {{field, side, terrain}})",
    "tiles.field": "tile {i}: {value!r:.40} is not a field of this board",
    "tiles.side": "tile {i} has side 'rubble' or 'open', not {value!r:.40}",
    "tiles.terrain": "tile {i} has unknown terrain {value!r:.40}",
    "stones": "'stones' is a list of {{field, player}}",
    "stones!missing": "stone {i} has no {name!r} (a stone is {{field, player}})",
    "stones!extra_forbidden": "stone {i}: unknown field {name!r} (a stone is {{field, player}})",
    "stones.field": "stone {i}: {value!r:.40} is not a field of this board",
    "stones.player": "stone {i} names player {value!r:.40}; players are 0 to {last}",
    "stones_left": "'stones_left' is a list of {n} whole numbers (0 or more)",
    "monks": "'monks' lists the fields of each of the {n} players' monks in play",
    "arrivals": "'arrivals' lists the player (0 to {last}) of each arrival in order",
    "placed": "'placed' maps terrain names to the tiles placed this turn, 0 to {max_per_terrain} of each "
    "(ATH-T8), not {value!r:.40}",
    "unused": "'unused' lists {n} whole numbers or nulls",
    "finishers": "'finishers' lists the players who brought in their side's last monk",
    "final_round": "'final_round' is true or false",
    "handicap_left": f"'handicap_left' is a whole number from 0 to {MAX_HANDICAP}, not {{value!r:.40}}",
}


class AthosTile(Document):
    """A tile on an ordinary field (ATH-B3)."""

    field: str = Field(description="the field, e.g. 'c6'")
    side: Literal["rubble", "open"] = "rubble"
    terrain: str | None = Field(None, description="the tile's terrain (default: the field's own)")


class AthosStone(Document):
    """An Athos stone on a tile (ATH-T7; on a bare field with ATH-V3)."""

    field: str = Field(description="the field, e.g. 'c6'")
    player: NonNegativeInt = Field(description="its player (seat)")


# Validating it with ``context={"state": state}`` fills the new state ``state`` of the game it is
# played by, or raises PositionError. A field left out takes its default from the rest of the
# position (``model_fields_set``); ``null`` is no value of these fields, as before.
class AthosPosition(Document):
    """An Athos position (docs/athos.md, *Position format*): a state without its history; every
    field may be left out (an empty document is the start of the game)."""

    game: Literal["athos"] = "athos"
    options: dict[str, JsonValue] | None = Field(None, description="the game's options")
    tiles: list[AthosTile] = Field(default_factory=list)
    stones: list[AthosStone] = Field(default_factory=list, description="a field may be named twice (ATH-T7)")
    stones_left: list[NonNegativeInt] = Field(
        default_factory=list, description="per player (default: 2 less those on the board)"
    )
    arrivals: list[NonNegativeInt] = Field(
        default_factory=list, description="the player of each arrival, in order"
    )
    monks: list[list[str]] | None = Field(None, description="per player, the fields of its monks in play")
    phase: PhaseName = "move"
    to_move: NonNegativeInt = 0
    round: int = Field(1, ge=1)
    points: int = Field(
        MOVEMENT_POINTS,
        ge=0,
        le=MAX_POINTS,
        description="movement points left (default: 6 when moving, else 0)",
    )
    placed: dict[str, NonNegativeInt] = Field(
        default_factory=dict, description="tiles placed this turn, per terrain"
    )
    unused: list[NonNegativeInt | None] = Field(
        default_factory=list, description="per player, the points kept at the end (default: none yet)"
    )
    finishers: list[NonNegativeInt] = Field(
        default_factory=list,
        description="the players who completed a side (ATH-E1; default: from the arrivals)",
    )
    final_round: bool = Field(False, description="default: whether there is a finisher")
    handicap_left: int = Field(0, ge=0, le=MAX_HANDICAP, description="handicap tiles still to place (ATH-V2)")

    # --- the board: tiles (ATH-B3), stones (ATH-T7, ATH-V3), monks (ATH-B3, ATH-P1) ----------------
    @model_validator(mode="after")
    def _tiles(self, info: ValidationInfo) -> Self:
        """ATH-B3: at most one tile per ordinary field, and no more of a terrain than the game has."""
        state = _state(info)
        b = state.board
        counts = [0] * len(b.terrains)
        for tile in self.tiles:
            f = _field(state, tile.field, "tile")
            if state.tile[f] != Side.NONE:
                raise PositionError(f"two tiles on {b.names[f]}")
            terrain = b.terrains[b.terrain[f]] if tile.terrain is None else tile.terrain
            if terrain not in b.terrains:
                raise PositionError(f"the tile on {b.names[f]} has unknown terrain {terrain!r}")
            t = b.terrains.index(terrain)
            counts[t] += 1
            state._set_tile(f, SIDE_NAMES[tile.side], t)
        for t, k in enumerate(counts):
            if k > TILES_PER_TERRAIN:
                raise PositionError(f"{k} {b.terrains[t]} tiles; there are only {TILES_PER_TERRAIN} (ATH-B3)")
            state.supply[t] = TILES_PER_TERRAIN - k
        return self

    @model_validator(mode="after")
    def _stones(self, info: ValidationInfo) -> Self:
        """ATH-T7, ATH-V3: stones on tiles (bare fields too with ATH-V3)."""
        state = _state(info)
        n = state.game.num_players
        for stone in self.stones:
            f = _field(state, stone.field, "stone")
            if stone.player >= n:
                raise PositionError(
                    f"the stone on {state.board.names[f]} names player {stone.player}; "
                    f"players are 0 to {n - 1}"
                )
            _put_stone(state, stone.player, f)
        return self

    @model_validator(mode="after")
    def _stones_left(self, info: ValidationInfo) -> Self:
        """ATH-B3: two stones per player, on the board or left."""
        state = _state(info)
        n = state.game.num_players
        used = [0] * n
        for stone in self.stones:
            used[stone.player] += 1
        left = self.stones_left if "stones_left" in self.model_fields_set else [STONES - u for u in used]
        if len(left) != n:
            raise PositionError(f"'stones_left' is a list of {n} whole numbers")
        for p in range(n):
            if left[p] + used[p] > STONES:
                raise PositionError(
                    f"player {p} has {used[p]} stone(s) on the board and {left[p]} left; "
                    f"a player has {STONES}"
                )
        state.stones_left = list(left)
        return self

    @model_validator(mode="after")
    def _monks(self, info: ValidationInfo) -> Self:
        """ATH-B3: three monks per player, in play or arrived; none on rubble."""
        state = _state(info)
        game = state.game
        n = game.num_players
        if any(p >= n for p in self.arrivals):
            raise PositionError(f"'arrivals' lists the player (0 to {n - 1}) of each arrival in order")
        state.arrivals = list(self.arrivals)
        monks = [[game.seats[p]] * MONKS for p in range(n)] if self.monks is None else self.monks
        if len(monks) != n:
            raise PositionError(f"'monks' lists the fields of each of the {n} players' monks in play")
        state.occupants = [0] * state.board.size
        state.monks = [[] for _ in range(n)]
        for p in range(n):
            for x in monks[p]:
                _put_monk(state, p, _field(state, x, f"a monk of player {p}", ordinary=False))
            if len(state.monks[p]) + self.arrivals.count(p) != MONKS:
                raise PositionError(
                    f"player {p} has {len(state.monks[p])} monk(s) in play and {self.arrivals.count(p)} "
                    f"arrived; a player has {MONKS}"
                )
        return self

    # --- the turn: phase, seat, round, points (ATH-T1, ATH-T3, ATH-T8) ---------------------------
    @model_validator(mode="after")
    def _turn(self, info: ValidationInfo) -> Self:
        """ATH-T1: the phase, the seat to move of the game's players, the round within the
        game's round limit (ATH-E3) and the movement points left (6 at the start of a turn);
        then the monks that share a field (ATH-T3)."""
        state = _state(info)
        game = state.game
        state.phase = Phase(PHASE_NAMES.index(self.phase))
        if self.to_move >= game.num_players:
            raise PositionError(
                f"'to_move' is a whole number from 0 to {game.num_players - 1}, not {self.to_move}"
            )
        if self.round > game.round_limit:
            raise PositionError(f"'round' is a whole number from 1 to {game.round_limit}, not {self.round}")
        state.seat, state.round = self.to_move, self.round
        if "points" in self.model_fields_set:
            state.points = self.points
        else:
            state.points = MOVEMENT_POINTS if state.phase == Phase.MOVE else 0
        check_crowding(state)
        return self

    @model_validator(mode="after")
    def _placed(self, info: ValidationInfo) -> Self:
        """ATH-T8: the tiles placed this turn, per terrain and in all, only while placing."""
        state = _state(info)
        game = state.game
        terrains = state.board.terrains
        for terrain, k in self.placed.items():
            if terrain not in terrains:
                raise PositionError(f"'placed' names unknown terrain {terrain!r}")
            if k > game.max_per_terrain:
                raise PositionError(
                    f"'placed' of {terrain} is 0 to {game.max_per_terrain} (ATH-T8), not {k!r}"
                )
            state.placed[terrains.index(terrain)] = k
        state.placed_total = sum(state.placed)
        if state.placed_total > game.max_tiles:
            raise PositionError(
                f"{state.placed_total} tiles placed this turn; at most {game.max_tiles} (ATH-T8)"
            )
        if state.placed_total and state.phase not in (Phase.PLACE, Phase.OVER):
            raise PositionError("tiles were placed this turn, so the phase is 'place'")
        return self

    # --- the end: ATH-E1, ATH-E2, ATH-V1 -----------------------------------------------------------
    @model_validator(mode="after")
    def _end(self, info: ValidationInfo) -> Self:
        """ATH-E1, ATH-V1: the finishers and the final round follow from the arrivals."""
        state = _state(info)
        n = state.game.num_players
        given = self.model_fields_set
        unused = self.unused if "unused" in given else [None] * n
        if len(unused) != n:
            raise PositionError(f"'unused' lists {n} whole numbers or nulls")
        state.unused = list(unused)
        completed = completed_sides(state, self.arrivals)
        finishers = self.finishers if "finishers" in given else completed
        if finishers != completed:
            raise PositionError(
                f"'finishers' is {finishers}, but by 'arrivals' the arrivals that completed a side were "
                f"those of players {completed} (ATH-E1, ATH-V1)"
            )
        state.finishers = list(finishers)
        if "final_round" in given and self.final_round != bool(finishers):
            raise PositionError(
                "'final_round' is true exactly when a side has brought in all its monks (ATH-E1), "
                f"and 'arrivals' say {'one has' if finishers else 'none has'}"
            )
        state.final_round = bool(finishers)
        return self

    @model_validator(mode="after")
    def _handicap_left(self, info: ValidationInfo) -> Self:
        """ATH-V2: handicap tiles are left exactly in the handicap phase."""
        state = _state(info)
        state.handicap_left = self.handicap_left
        if state.phase == Phase.HANDICAP and state.handicap_left == 0:
            raise PositionError("in the handicap phase 'handicap_left' is at least 1")
        if state.phase != Phase.HANDICAP and state.handicap_left:
            raise PositionError("'handicap_left' is 0 outside the handicap phase")
        return self

    # --- what no game can reach --------------------------------------------------------------------
    @model_validator(mode="after")
    def _reachable(self, info: ValidationInfo) -> Self:
        """Refuse a position no game can reach, where the engine's legal_actions() and
        apply_action() could disagree or leave a player stuck (issue 16)."""
        state = _state(info)
        state._position_changed()
        if not state.path_rule_holds():
            cut = [state.board.names[v] for ms in state.monks for v in ms if state.distances()[v] < 0]
            raise PositionError(f"the monk on {cut[0]} has no open path to the summit (ATH-P1)")
        check_shared_fields(state)
        check_points(state)
        check_stone_phase(state)
        check_placed_on_board(state)
        check_final_round(state)
        check_handicap(state)
        return self


def read_position(state: AthosState, doc: object) -> None:
    """Fill the new state ``state`` (of the document's game) from the position ``doc``."""
    n = state.game.num_players
    context = {
        "state": state,
        "n": n,
        "last": n - 1,
        "round_limit": state.game.round_limit,
        "max_per_terrain": state.game.max_per_terrain,
        "fields": ", ".join(AthosPosition.model_fields),
    }
    validate(AthosPosition, doc, HINTS, context)


def position_of(state: AthosState) -> dict[str, Any]:
    """The position document of ``state`` (without its history)."""
    g = state.game
    b = state.board
    names = b.names
    return {
        "game": "athos",
        "options": {k: v for k, v in g.options.items() if v is not None},
        "round": state.round,
        "to_move": state.seat,
        "phase": PHASE_NAMES[state.phase],
        "points": state.points,
        "tiles": _tiles_of(state),
        "stones": _stones_of(state),
        "stones_left": list(state.stones_left),
        "monks": [sorted((names[v] for v in ms), key=b.field) for ms in state.monks],
        "arrivals": list(state.arrivals),
        "placed": {b.terrains[t]: k for t, k in enumerate(state.placed) if k},
        "unused": list(state.unused),
        "finishers": list(state.finishers),
        "final_round": state.final_round,
        "handicap_left": state.handicap_left,
    }


def _tiles_of(state: AthosState) -> list[dict[str, str]]:
    """The tiles on the board, each with its side and its terrain, in field order."""
    b = state.board
    return [
        {
            "field": b.names[f],
            "side": "rubble" if state.tile[f] == Side.RUBBLE else "open",
            "terrain": b.terrains[state.tile_terrain[f]],
        }
        for f in range(b.n)
        if state.tile[f] != Side.NONE
    ]


def _stones_of(state: AthosState) -> list[dict[str, Any]]:
    """The stones on the board in field order, then the stacked ones (ATH-T7)."""
    names = state.board.names
    stones = [
        {"field": names[f], "player": state.stone[f]} for f in range(state.board.n) if state.stone[f] >= 0
    ]
    return stones + [{"field": names[f], "player": p} for f, p in state.stacked]


def _state(info: ValidationInfo) -> AthosState:
    """The new state the validators fill (``context={"state": state}``)."""
    state: AthosState = (info.context or {})["state"]
    return state


def _field(state: AthosState, name: str, what: str, ordinary: bool = True) -> int:
    """The node of the field ``name``; tiles and stones lie on ordinary fields (ATH-B1), monks
    may also stand on the start fields."""
    b = state.board
    f = b.field(name)
    if f < 0:
        raise PositionError(f"{what}: {name!r} is not a field of this board")
    if ordinary and f >= b.n:
        raise PositionError(f"{what}: {b.names[f]} is not an ordinary field")
    return f


def _put_stone(state: AthosState, p: int, f: int) -> None:
    """ATH-T7, ATH-V3: a stone on a tile (on a bare field only with ATH-V3); a second one on the
    same tile stacks (the rulings of 2026-11-23 allow one)."""
    names = state.board.names
    if state.tile[f] == Side.NONE and not state.game.bare_stone:
        raise PositionError(f"the stone on {names[f]} stands on no tile (only ATH-V3 allows that)")
    if state.stone[f] < 0:
        state.stone[f] = p
    elif state.game.original_rules:
        raise PositionError(f"two stones on {names[f]} (the rulings of 2026-11-23 allow one, ATH-T7)")
    else:
        state.stacked.append((f, p))


def _put_monk(state: AthosState, p: int, f: int) -> None:
    """ATH-B3: a monk in play stands on a field, never on rubble nor on the summit (arrived)."""
    if f == state.board.summit:
        raise PositionError("arrived monks are listed in 'arrivals', not on the summit")
    if state.rubble[f]:
        raise PositionError(f"a monk of player {p} stands on rubble ({state.board.names[f]})")
    state.monks[p].append(f)
    state.occupants[f] += 1
