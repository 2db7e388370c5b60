"""Agamemnon saved states (``State.to_json()``, docs/formats.md): :func:`saved_fields` writes the
game's own part, the whole state; :func:`read_saved` reads it back through :class:`SavedState`, a
Pydantic model whose validators check that the state fits the game reading it, into the
:class:`~palaestra.games.agamemnon.position.Setting` the state is built from. What is wrong is a
:class:`RecordError` (a saved state is kept by the web app and the adapters, never written by hand).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import ConfigDict, Field, NonNegativeInt, Strict, ValidationInfo, model_validator

from palaestra.core.documents import Document, validate
from palaestra.core.errors import RecordError
from palaestra.games.agamemnon.board import KIND_NAMES
from palaestra.games.agamemnon.position import KindName, PlayerNumber, Setting, Tile, TileCode
from palaestra.games.agamemnon.tiles import (
    CODE_INDEX,
    CODES,
    NUM_CODES,
    NUM_PLAYERS,
    NUM_TURNS,
    PHASE_NAMES,
    PLAYER_NAMES,
    SETUP_NAMES,
    STACK_NAMES,
    SUPPLY,
    TOTAL_TILES,
    TURN_TILES,
    WARP,
    WEAVERS,
    Phase,
    mover_of_turn,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame
    from palaestra.games.agamemnon.rules import AgamemnonState

HINTS = {
    "": "a saved Agamemnon state is a JSON object",
    "history": "'history' is a list of action ids",
    "seed": "'seed' is a whole number or null",
    "state": "this saved Agamemnon state is malformed ({path}: {value!r:.60})",
    "state!missing": "this saved Agamemnon state is malformed ({path} is missing)",
}

#: ``[space, player, code]``
SavedTile = Annotated[tuple[NonNegativeInt, PlayerNumber, TileCode], Strict(False)]


class SavedState(Document):
    """The ``state`` object of a saved Agamemnon state: the whole state, tiles by code."""

    phase: Literal["setup", "stack", "draw", "place", "warp", "end"]
    setup: str | None = Field(description="the loom set-up, e.g. 'I,II,III'")
    kinds: list[KindName] = Field(description="the kind of each connection, by id")
    out_of_play: NonNegativeInt | None
    tiles: list[SavedTile] = Field(description="[space, player, code] of each tile on the board")
    pools: list[list[TileCode]] = Field(min_length=NUM_PLAYERS, max_length=NUM_PLAYERS)
    hand: list[TileCode]
    aside: list[TileCode]
    stacks: list[Literal["leaders", "weavers", "warriors"]]
    turn: int = Field(ge=0, le=NUM_TURNS)
    todo: int = Field(ge=0, le=max(TURN_TILES))
    warp: NonNegativeInt | None

    _setting: Setting | None = None

    @model_validator(mode="after")
    def _set_up(self, info: ValidationInfo) -> Self:
        """A set-up only on the loom (AGA-B2); its drawing phase only when it is not fixed."""
        game: AgamemnonGame = (info.context or {})["game"]
        if self.setup is not None and self.setup not in SETUP_NAMES:
            raise RecordError(f"unknown loom set-up {self.setup!r} in a saved state")
        if self.setup is not None and not game.loom:
            raise RecordError("a loom set-up in a saved front-board state")
        if self.phase == "setup" and game.start_kinds is not None:
            raise RecordError("a saved state in the loom set-up phase, but the set-up is fixed")
        return self

    @model_validator(mode="after")
    def _fits_the_board(self, info: ValidationInfo) -> Self:
        """The kinds fit the board (AGA-B1, AGA-B2: no empty connection on the front), once the loom's
        set-up is drawn."""
        game: AgamemnonGame = (info.context or {})["game"]
        if self.phase == "setup":
            return self
        board = game.board
        if len(self.kinds) != board.num_connections or (not game.loom and "empty" in self.kinds):
            raise RecordError("'kinds' does not fit the board")
        return self

    @model_validator(mode="after")
    def _out_of_play(self, info: ValidationInfo) -> Self:
        """AGA-B2: a loom state names its out-of-play space, a front-board state none."""
        game: AgamemnonGame = (info.context or {})["game"]
        out = self.out_of_play
        if not game.loom and out is not None:
            raise RecordError("the front board has no out-of-play space")
        if game.loom and self.phase != "setup" and not (out is not None and out < game.board.num_spaces):
            raise RecordError("a loom state names its out-of-play space")
        return self

    @model_validator(mode="after")
    def _read_setting(self, info: ValidationInfo) -> Self:
        """The setting the state is built from (none while the loom's set-up is drawn)."""
        game: AgamemnonGame = (info.context or {})["game"]
        if self.phase == "setup":
            return self
        setup = -1 if self.setup is None else SETUP_NAMES.index(self.setup)
        out = -1 if self.out_of_play is None else self.out_of_play
        kinds = tuple(KIND_NAMES.index(k) for k in self.kinds)
        pools = [[Counter[str](pool)[code] for code in CODES] for pool in self.pools]
        phase = Phase(PHASE_NAMES.index(self.phase))
        self._setting = Setting(setup, kinds, out, self._tiles(game, out), pools, 0, 0, 0, phase)
        return self

    def _tiles(self, game: AgamemnonGame, out: int) -> list[Tile]:
        """The tiles on the board: one per space in play."""
        tiles: list[Tile] = []
        seen = set()
        for s, p, code in self.tiles:
            if s >= game.board.num_spaces or s == out or s in seen:
                raise RecordError(f"bad tile {[s, p, code]!r} in a saved state")
            seen.add(s)
            tiles.append((s, p, CODE_INDEX[code]))
        return tiles

    @model_validator(mode="after")
    def _turn(self, info: ValidationInfo) -> Self:
        """The turn, the tiles left to place, the Warp awaiting its swap, the drawn tiles and
        those set aside (only weavers are)."""
        setting = self._setting
        if setting is None:
            return self
        game: AgamemnonGame = (info.context or {})["game"]
        setting.hand = [CODE_INDEX[c] for c in self.hand]
        setting.aside = [CODE_INDEX[c] for c in self.aside]
        if any(c not in WEAVERS for c in setting.aside):
            raise RecordError("bad set-aside tiles in a saved state")
        setting.named = [STACK_NAMES.index(x) for x in self.stacks]
        setting.turn, setting.to_place = self.turn, self.todo
        setting.mover = mover_of_turn(self.turn, game.first)
        if self.warp is not None:
            if (self.warp, setting.mover, WARP) not in setting.tiles:
                raise RecordError("'warp' of a saved state does not name a Warp of the player to move")
            setting.warp = self.warp
        return self

    @model_validator(mode="after")
    def _complete(self) -> Self:
        """Every tile is somewhere: on the board, in a pool, in hand or set aside (AGA-C1)."""
        setting = self._setting
        if setting is None:
            return self
        for p in range(NUM_PLAYERS):
            where = Counter(c for _, q, c in setting.tiles if q == p)
            where.update({c: k for c, k in enumerate(setting.pools[p])})
            if p == setting.mover:
                where.update(setting.hand + setting.aside)
            if [where[c] for c in range(NUM_CODES)] != list(SUPPLY):
                raise RecordError(f"the tiles of {PLAYER_NAMES[p]} in a saved state do not add up to the set")
        return self

    @model_validator(mode="after")
    def _phase_fits(self, info: ValidationInfo) -> Self:
        """The game is over exactly when the last tile is placed (AGA-T1); the phase fits the
        options (AGA-V2: the Oracle's stacks; AGA-V3: nothing is drawn in Defying the gods)."""
        setting = self._setting
        if setting is None:
            return self
        game: AgamemnonGame = (info.context or {})["game"]
        phase = setting.phase
        if (phase == Phase.END) != (len(setting.tiles) == TOTAL_TILES and setting.warp < 0):
            raise RecordError("a saved state is over exactly when 30 tiles are placed")
        if (phase == Phase.STACK and not game.oracle) or (
            phase in (Phase.DRAW, Phase.STACK) and game.defying
        ):
            raise RecordError(f"phase {PHASE_NAMES[phase]!r} does not fit the options of a saved state")
        return self


class SavedDocument(Document):
    """A saved Agamemnon state: the core's fields (``Game.state_from_json`` checked the game and
    the options) and ours."""

    model_config = ConfigDict(extra="ignore")

    seed: int | None = None
    history: list[int] = Field(default_factory=list)
    state: SavedState


def read_saved(game: AgamemnonGame, doc: object) -> tuple[int | None, list[int], Setting | None]:
    """The seed, the history and the setting of a saved state (``None``: the loom set-up is still
    to be drawn); :class:`RecordError` for what is wrong."""
    saved = validate(SavedDocument, doc, HINTS, {"game": game}, error=RecordError)
    return saved.seed, list(saved.history), saved.state._setting


def saved_fields(state: AgamemnonState) -> dict[str, Any]:
    """The game's own fields of ``to_json``: the whole state."""
    return {
        "state": {
            "phase": state.phase,
            "setup": state.setup_name,
            "kinds": [k for _, _, k in state.connection_kinds()],
            "out_of_play": state.out_of_play,
            "tiles": [[s, p, code] for s, p, code in state.tiles()],
            "pools": [state.pool(p) for p in range(NUM_PLAYERS)],
            "hand": state.hand,
            "aside": state.aside,
            "stacks": state.named_stacks,
            "turn": state.turn,
            "todo": state.to_place,
            "warp": state.warp_space,
        }
    }
