"""The Archimedes position document (docs/archimedes.md): the Pydantic model that reads it
(:class:`ArchimedesPosition`) and :func:`position_of`, which writes one.

``{"game": "archimedes", "players": 2, "revisit": false, "move_limit": 1000,
"cubes": [["a2", "a4", "a6", "a8"], ["h2", "h4", "h6", "h8"]], "to_move": 0, "passes": 0,
"ply": 0}``; only ``cubes`` is required. The model's validators check the document against the
game it is played by (ARC-S1, ARC-S2, ARC-M6); :func:`read_position` returns the state it
describes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Self

from pydantic import Field, JsonValue, PrivateAttr, ValidationInfo, model_validator

from palaestra.core.documents import Document, validate
from palaestra.core.errors import OptionError, PositionError
from palaestra.games.archimedes.moves import cell_help

if TYPE_CHECKING:
    from palaestra.games.archimedes.game import ArchimedesGame
    from palaestra.games.archimedes.rules import ArchimedesState

#: the options a position may set at its top level (the others are the game's own)
_POSITION_OPTIONS = ("players", "revisit", "move_limit")

#: the messages of a document of the wrong shape (palaestra/core/documents.py)
HINTS = {
    "": "a position is a JSON object",
    "game": "this position is of {value!r:.40}, not archimedes",
    "!extra": "unknown field {name!r} in an archimedes position (fields: {fields})",
    "options": "'options' is a JSON object",
    "cubes": "'cubes' is a list with one list of cell names per player",
    "cubes!string_type": "{value!r:.40} is not a cell of the board (a cell name, e.g. 'a2')",
    "to_move": "'to_move' is a whole number, not {value!r:.40}",
    "to_move!greater_than_equal": "'to_move' is a player number, not {value!r}",
    "passes": "'passes' (passes in a row) is a whole number, 0 or more, not {value!r:.40}",
    "ply": "'ply' is 0 or more (a whole number), not {value!r:.40}",
}


# Checked against the game it is played by: the game reading it (``context={"game": game}``) with
# the document's options on top; the state it describes is ``_state``.
class ArchimedesPosition(Document):
    """An Archimedes position (docs/archimedes.md, *Position format*): a state without its
    history."""

    game: Literal["archimedes"] = "archimedes"
    options: dict[str, JsonValue] = Field(default_factory=dict, description="the game's options")
    players: JsonValue = Field(None, description="the player count, 2 or 3 (default: one per cubes list)")
    revisit: JsonValue = Field(None, description="the revisit variant (option 'revisit')")
    move_limit: JsonValue = Field(None, description="the move limit (option 'move_limit')")
    cubes: list[list[str]] = Field(
        description="the cells of each player's four cubes, one list per player in player order"
    )
    to_move: int = Field(0, ge=0, description="the player to move (0 = player 1)")
    passes: int = Field(0, ge=0, description="the passes in a row just before (ARC-M6)")
    ply: int = Field(0, ge=0, description="the plies played so far")
    format: JsonValue = Field(None, description="ignored")

    _game: Any = PrivateAttr(None)
    _cells: list[int] = PrivateAttr(default_factory=list)
    _state: Any = PrivateAttr(None)

    @model_validator(mode="after")
    def _options(self, info: ValidationInfo) -> Self:
        """The game: the reader's revisit and move limit, the document's ``options`` object, its
        top-level fields; the player count from the cubes if unset."""
        base: ArchimedesGame = (info.context or {})["game"]
        options: dict[str, object] = {k: v for k, v in base.options.items() if k in ("revisit", "move_limit")}
        options.update(self.options)
        options.update({key: getattr(self, key) for key in _POSITION_OPTIONS if key in self.model_fields_set})
        if "players" not in options:
            options["players"] = len(self.cubes) if len(self.cubes) in (2, 3) else base.options["players"]
        try:
            self._game = base if options == base.options else type(base)(**options)
        except OptionError as err:
            raise PositionError(str(err)) from None
        return self

    @model_validator(mode="after")
    def _cubes_on_cells(self) -> Self:
        """ARC-S1, ARC-S2: four cubes per player, each on a cell of its own."""
        game: ArchimedesGame = self._game
        n = game.num_players
        if len(self.cubes) != n:
            raise PositionError(f"'cubes' has {len(self.cubes)} lists, one per player: {n} are needed")
        board = game.board
        owner: dict[int, int] = {}
        pos: list[int] = []
        for p, names in enumerate(self.cubes):
            who = game.player_name(p)
            if len(names) != game.cubes_per_player:
                raise PositionError(f"{who} has {len(names)} cubes, not {game.cubes_per_player}")
            for name in names:
                c = board.index.get(name.strip().lower())
                if c is None:
                    raise PositionError(f"{who}: {name!r} is not a cell of the board ({cell_help(board)})")
                if c in owner:
                    raise PositionError(
                        f"two cubes on {board.names[c]} ({game.player_name(owner[c])} and {who})"
                    )
                owner[c] = p
                pos.append(c)
        self._cells = pos
        return self

    @model_validator(mode="after")
    def _not_two_home(self) -> Self:
        """A game ends when a player has all four cubes home (ARC-E1): never two players."""
        game: ArchimedesGame = self._game
        n = game.num_players
        cells = self._cells
        home = [p for p in range(n) if all(game.goal_mask[p] >> c & 1 for c in game.cubes_of(cells, p))]
        if len(home) > 1:
            raise PositionError(" and ".join(game.player_name(p) for p in home) + " all have four cubes home")
        return self

    @model_validator(mode="after")
    def _turn(self) -> Self:
        """A player to move of the game; at most a round of passes in a row (ARC-M6)."""
        n = self._game.num_players
        if self.to_move >= n:
            raise PositionError(f"'to_move' is a player number from 0 to {n - 1}, not {self.to_move}")
        if self.passes > n:
            raise PositionError(f"'passes' (passes in a row) is from 0 to {n}, not {self.passes}")
        return self

    @model_validator(mode="after")
    def _passes(self) -> Self:
        """ARC-M6: the players who passed just before had no move here (the position is static
        for them); the state is made here, and :func:`read_position` returns it."""
        from palaestra.games.archimedes.rules import ArchimedesState

        game: ArchimedesGame = self._game
        state = ArchimedesState(game, self._cells, to_move=self.to_move, passes=self.passes, ply=self.ply)
        for back in range(1, state.passes + 1) if state.end_reason != "home" else ():
            p = (state.to_move - back) % game.num_players
            passed = state.moves_of(p)
            if passed:
                raise PositionError(
                    f"'passes' is {state.passes}, but {game.player_name(p)} has a legal move here "
                    f"({state.action_to_string(passed[0])}) and cannot have passed"
                )
        self._state = state
        return self


def read_position(game: ArchimedesGame, doc: object) -> ArchimedesState:
    """The state of the position ``doc`` read by ``game``; :class:`PositionError` for what is wrong."""
    fields = ", ".join(ArchimedesPosition.model_fields)
    state: ArchimedesState = validate(ArchimedesPosition, doc, HINTS, {"game": game, "fields": fields})._state
    return state


def position_of(state: ArchimedesState) -> dict[str, Any]:
    """The position document of ``state``."""
    g = state.game
    return {
        "game": g.name,
        "players": g.num_players,
        "revisit": g.revisit,
        "move_limit": g.move_limit,
        "cubes": [state.cubes(p) for p in range(g.num_players)],
        "to_move": state.to_move,
        "passes": state.passes,
        "ply": state.ply,
    }
