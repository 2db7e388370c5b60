"""Agamemnon positions (docs/agamemnon.md, "Positions"): the Pydantic model that reads one
(:class:`AgamemnonPosition`, through :func:`read_position`) into a :class:`Setting`, from which
``rules.py`` builds the state, and :func:`position_of`, which writes one. Saved states
(``to_json``) are read in ``saved.py``.

Position format::

    {"game": "agamemnon", "board": "front" | "loom",
     "options": {"oracle": true, "setup": "I,II,III", ...},        (optional)
     "connections": [[a, b, "strength"|"force"|"leadership"|"empty"], ...],   (optional)
     "tiles": [{"space": 12, "player": 0, "tile": "W2"}, ...],
     "to_move": 0,                                                   (optional)
     "hand": ["W2", "A"],                                            (optional: drawn tiles)
     "warp": 12}                                                     (optional: Warp awaiting its swap)

The model states the shape (strict types, no unknown fields); its validators check the document
against the game it is played by (the reader's options with the document's on top) and the
rulings (AGA-B1, AGA-B2, AGA-C1, AGA-T1, AGA-T4), each refusal a :class:`PositionError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self, get_args

from pydantic import (
    Field,
    JsonValue,
    NonNegativeInt,
    PrivateAttr,
    Strict,
    ValidationInfo,
    model_validator,
)

from palaestra.core.documents import Document, validate
from palaestra.core.errors import OptionError, PalaestraError, PositionError
from palaestra.games.agamemnon.board import EMPTY, KIND_NAMES, STRING_KINDS, Board
from palaestra.games.agamemnon.tiles import (
    CODE_INDEX,
    CODES,
    NUM_PLAYERS,
    NUM_TURNS,
    PLAYER_NAMES,
    SETUP_NAMES,
    SETUPS,
    SUPPLY,
    TOTAL_TILES,
    WARP,
    Phase,
    mover_of_turn,
    tiles_through_turn,
    turn_of_tile,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame
    from palaestra.games.agamemnon.rules import AgamemnonState

#: a tile's code (tiles.CODES) and a connection's kind (board.KIND_NAMES), checked at import
TileCode = Literal["A", "B", "C", "D", "E", "W1", "W2", "W3", "WARP", "WEFT"]
KindName = Literal["strength", "force", "leadership", "empty"]
assert get_args(TileCode) == CODES and get_args(KindName) == KIND_NAMES
#: 0 (orange) or 1 (black); a whole number, so never ``true``
PlayerNumber = Annotated[int, Field(ge=0, le=NUM_PLAYERS - 1)]


#: a connection and its string tile: ``[a, b, kind]``
#: (a JSON array is read as the tuple: ``Strict(False)`` for the array only, its items stay strict)
Connection = Annotated[tuple[NonNegativeInt, NonNegativeInt, KindName], Strict(False)]

#: a tile on the board: (space, player, code)
Tile = tuple[int, int, int]


@dataclass
class Setting:
    """A state as a position or a saved state describes it, read and checked: what
    ``AgamemnonState(game, setting=...)`` is built from."""

    setup: int
    kinds: tuple[int, ...]
    out: int
    tiles: list[Tile]
    #: tiles each player has not drawn (with Defying the gods: not placed), per code
    pools: list[list[int]]
    turn: int
    to_place: int
    mover: int
    #: ``None``: the drawing part of the turn begins (the state works out its phase, AGA-T2)
    phase: Phase | None
    warp: int = -1
    hand: list[int] = field(default_factory=list)
    aside: list[int] = field(default_factory=list)
    named: list[int] = field(default_factory=list)


def _pools_without(tiles: list[Tile]) -> list[list[int]]:
    """Each player's set less the tiles on the board."""
    pools = [list(SUPPLY) for _ in range(NUM_PLAYERS)]
    for _, player, code in tiles:
        pools[player][code] -= 1
    return pools


# --- positions -----------------------------------------------------------------------------------------
_WRITE_TILE = 'tile {i}: write it as {{"space": 12, "player": 0, "tile": "W2"}}'
#: the messages of a document of the wrong shape (palaestra/core/documents.py)
HINTS = {
    "": "a position is a JSON object",
    "game": "this position is of {value!r:.40}, not 'agamemnon'",
    "!extra": "unknown field {name!r} in the position (fields: {fields})",
    "board": "'board' is 'front' or 'loom', not {value!r:.40}",
    "options": "'options' is a JSON object",
    "connections!list_type": "'connections' is a list of [a, b, kind]",
    "connections!literal_error": f"connection {{i}}: kind is one of {', '.join(KIND_NAMES)}, "
    "not {value!r:.40}",
    "connections": 'connection {i}: write it as [a, b, kind], e.g. [3, 7, "strength"]',
    "tiles!list_type": '\'tiles\' is a list of {{"space": 12, "player": 0, "tile": "W2"}}',
    "tiles!missing": _WRITE_TILE,
    "tiles!extra_forbidden": _WRITE_TILE,
    "tiles!model_type": _WRITE_TILE,
    "tiles.space": "tile {i}: there is no space {value!r:.40} on the board",
    "tiles.player": "tile {i}: player is 0 (orange) or 1 (black), not {value!r:.40}",
    "tiles.tile": f"tile {{i}}: unknown tile {{value!r:.40}} (tiles: {' '.join(CODES)})",
    "to_move": "'to_move' is 0 (orange) or 1 (black), not {value!r:.40}",
    "hand": f"'hand' is a list of tile codes ({' '.join(CODES)})",
    "warp": "'warp' names the space of the Warp awaiting its swap, not {value!r:.40}",
}


class AgamemnonTile(Document):
    """A tile on the board."""

    space: NonNegativeInt = Field(description="the space number (AGA-B1, AGA-B2)")
    player: PlayerNumber
    tile: TileCode


# Read by a game (``context={"game": game}``) into the game it is played by (``_game``) and its
# :class:`Setting` (``_setting``; ``None``: the start of an empty loom game, before the set-up is drawn).
class AgamemnonPosition(Document):
    """An Agamemnon position (docs/agamemnon.md, *Positions*): a state without its history."""

    game: Literal["agamemnon"] = "agamemnon"
    board: Literal["front", "loom"] | None = Field(None, description="default: from the option 'loom'")
    options: dict[str, JsonValue] = Field(default_factory=dict, description="the game's options")
    connections: list[Connection] | None = Field(
        None,
        description="every connection of the board with its kind (default: the printed board or the set-up)",
    )
    tiles: list[AgamemnonTile] = Field(default_factory=list)
    to_move: PlayerNumber | None = Field(
        None, description="the player to move (default: from option 'first')"
    )
    hand: list[TileCode] = Field(default_factory=list, description="the tiles the mover has drawn")
    warp: NonNegativeInt | None = Field(None, description="the space of the Warp awaiting its swap (AGA-T4)")

    _options: dict[str, Any] = PrivateAttr(default_factory=dict)
    _probe: Any = PrivateAttr(None)
    _placed: list[Tile] = PrivateAttr(default_factory=list)
    _board: tuple[int, tuple[int, ...], int] | None = PrivateAttr(None)
    _game: Any = PrivateAttr(None)
    _setting: Setting | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _read_options(self, info: ValidationInfo) -> Self:
        """The options of the position (the reader's, with the position's own on top) and its
        board: the loom if ``board`` or the option ``loom`` says so; a set-up only on the loom."""
        game: AgamemnonGame = (info.context or {})["game"]
        options: dict[str, Any] = {k: v for k, v in game.options.items() if v is not None}
        options.update(self.options)
        if self.board is None:
            self.board = "loom" if options.get("loom") in (True, "true", "1", "on", "yes") else "front"
        _check_side(self.board, self.options)
        options["loom"] = self.board == "loom"
        if self.board == "front":
            options.pop("setup", None)
        try:
            self._probe = type(game)(**{k: v for k, v in options.items() if k not in ("first", "setup")})
        except OptionError as err:
            raise PositionError(f"bad options: {err}") from None
        self._options = options
        return self

    @model_validator(mode="after")
    def _tiles_on_board(self) -> Self:
        """Each tile on a space of the board, one per space; no more of a kind than a player's
        set holds (AGA-C1), no more than a game places."""
        n = self._probe.board.num_spaces
        taken: dict[int, int] = {}
        placed: list[Tile] = []
        for i, t in enumerate(self.tiles, start=1):
            if t.space >= n:
                raise PositionError(
                    f"tile {i}: there is no space {t.space} on the {self.board} board (spaces 0-{n - 1})"
                )
            if t.space in taken:
                raise PositionError(f"tile {i}: space {t.space} already holds tile {taken[t.space]}")
            taken[t.space] = i
            placed.append((t.space, t.player, CODE_INDEX[t.tile]))
        self._placed = placed
        for (p, c), k in sorted(Counter((p, c) for _, p, c in placed).items()):
            if k > SUPPLY[c]:
                raise PositionError(f"{PLAYER_NAMES[p]} has {SUPPLY[c]} {CODES[c]} tile(s), not {k} (AGA-C1)")
        if len(placed) > TOTAL_TILES:
            raise PositionError(f"{len(placed)} tiles: a game places only {TOTAL_TILES}")
        return self

    @model_validator(mode="after")
    def _string_tiles(self) -> Self:
        """The string tiles: the printed front, the loom's set-up, or ``connections`` (AGA-B1,
        AGA-B2); none on the connections of the out-of-play space (AGA-B2)."""
        probe: AgamemnonGame = self._probe
        setup = _read_setup(self._options)
        loom = self.board == "loom"
        if self.connections is None and loom and setup < 0:
            if self.tiles or self.hand or self.warp is not None:
                raise PositionError(
                    "a loom position with tiles needs its 'connections' or the set-up (option 'setup')"
                )
            return self
        kinds, out, setup = _board_kinds(probe, self.connections, setup, loom)
        _check_out_of_play(probe, kinds, out, self._placed)
        self._options["setup"] = SETUP_NAMES[setup] if setup >= 0 else None
        self._board = setup, kinds, out
        return self

    @model_validator(mode="after")
    def _turn(self, info: ValidationInfo) -> Self:
        """The turn from the number of tiles (AGA-T1), the game it is played by, and the setting."""
        game: AgamemnonGame = (info.context or {})["game"]
        options, board, placed = self._options, self._board, self._placed
        if board is None:  # an empty loom: the set-up is drawn first
            options["first"] = _first_from(self.to_move, options, 0)
            self._game = _make_game(game, options)
            return self
        setup, kinds, out = board
        turn, options["first"] = _read_turn(self.to_move, self.warp, options, placed)
        played_by = self._game = _make_game(game, options)
        setting = Setting(setup, kinds, out, placed, _pools_without(placed), turn, 0, 0, None)
        self._setting = _turn_setting(self.warp, self.hand, played_by, setting)
        return self


def read_position(game: AgamemnonGame, doc: object) -> tuple[AgamemnonGame, Setting | None]:
    """The game a position is played by (its options) and its setting (``None``: the start of an
    empty loom game, before the set-up is drawn); :class:`PositionError` for what is wrong."""
    fields = ", ".join(sorted(AgamemnonPosition.model_fields))
    position = validate(AgamemnonPosition, doc, HINTS, {"game": game, "fields": fields})
    return position._game, position._setting


def _check_side(side: str, given: dict[str, JsonValue]) -> None:
    """The position's own options agree with its board; a set-up only on the loom (AGA-B2)."""
    if "loom" in given and bool(given["loom"]) != (side == "loom"):
        raise PositionError(f"the position is on the {side} board but its options say loom={given['loom']}")
    if side == "front" and given.get("setup") is not None:
        raise PositionError("a loom set-up ('setup') makes no sense on the front board")


def _read_setup(options: dict[str, Any]) -> int:
    name = options.get("setup")
    if name is None:
        return -1
    if name not in SETUP_NAMES:
        raise PositionError(f"unknown loom set-up {name!r} (e.g. 'I,II,III')")
    return SETUP_NAMES.index(name)


def _board_kinds(
    probe: AgamemnonGame, connections: Sequence[tuple[int, int, str]] | None, setup: int, loom: bool
) -> tuple[tuple[int, ...], int, int]:
    """The kinds of the connections, the out-of-play space and the set-up: the printed front
    or the loom's set-up, or those of ``connections`` (AGA-B1, AGA-B2)."""
    if connections is None:
        kinds, out = (probe.board.labels, -1) if not loom else probe.setup_kinds(setup)
        return kinds, out, setup
    kinds = _read_connections(connections, probe.board.connections, loom)
    return _check_kinds(probe, kinds, setup) if loom else (_check_front(probe.board, kinds), -1, -1)


def _read_connections(
    raw: Sequence[tuple[int, int, str]], printed: tuple[tuple[int, int], ...], loom: bool
) -> tuple[int, ...]:
    """The kind of each connection of the board, each given once; an empty one only on the loom."""
    side = "loom" if loom else "front"
    index = {ab: c for c, ab in enumerate(printed)}
    kinds = [-1] * len(printed)
    names = KIND_NAMES if loom else KIND_NAMES[:EMPTY]
    for i, (a, b, kind) in enumerate(raw, start=1):
        c = index.get((min(a, b), max(a, b)))
        if c is None:
            raise PositionError(f"connection {i}: there is no connection {a}-{b} on the {side} board")
        if kind not in names:
            raise PositionError(f"connection {i} ({a}-{b}): kind is one of {', '.join(names)}, not {kind!r}")
        if kinds[c] >= 0:
            raise PositionError(f"connection {i}: {a}-{b} is given twice")
        kinds[c] = names.index(kind)
    _check_all_given(kinds, printed, side)
    return tuple(kinds)


def _check_all_given(kinds: list[int], printed: tuple[tuple[int, int], ...], side: str) -> None:
    """``connections`` lists every connection of the board."""
    missing = [printed[c] for c, k in enumerate(kinds) if k < 0]
    if missing:
        a, b = missing[0]
        raise PositionError(
            f"'connections' must list all {len(printed)} connections of the {side} board; {a}-{b} is missing"
        )


def _check_front(board: Board, kinds: tuple[int, ...]) -> tuple[int, ...]:
    """A Warp swaps string tiles, so the front keeps its 17/16/16 of each kind (AGA-B1, AGA-T4)."""
    have = Counter(kinds)
    if have != Counter(board.labels):
        raise PositionError(
            "the front board has 17 strength, 16 force and 16 leadership string tiles; "
            f"the connections give {have[0]}, {have[1]} and {have[2]}"
        )
    return kinds


def _check_kinds(
    probe: AgamemnonGame, kinds: tuple[int, ...], setup: int
) -> tuple[tuple[int, ...], int, int]:
    """The loom's string tiles fill three classes' worth (AGA-B2); the set-up they fit, and the
    out-of-play space: from the set-up, or the one space with only empty connections."""
    board = probe.board
    have = Counter(kinds)
    if sorted(have[k] for k in (*STRING_KINDS, EMPTY)) != sorted(Counter(board.labels).values()):
        raise PositionError(
            "the loom's string tiles fill three of the four classes (19, 15, 17, 15 connections); "
            f"the connections give {have[0]} strength, {have[1]} force, {have[2]} leadership, "
            f"{have[3]} empty"
        )
    if setup >= 0:
        start, out = probe.setup_kinds(setup)
        if Counter(start) != have:
            raise PositionError(
                f"the connections do not fit set-up {SETUP_NAMES[setup]} (kinds per class differ)"
            )
        return kinds, out, setup
    return _infer_setup(probe, kinds)


def _infer_setup(probe: AgamemnonGame, kinds: tuple[int, ...]) -> tuple[tuple[int, ...], int, int]:
    """The set-up the kinds are (``-1`` if a Warp has moved string tiles), and the out-of-play
    space: the set-up's, or the one space with only empty connections (AGA-B2)."""
    board = probe.board
    for i in range(len(SETUPS)):
        start, out = probe.setup_kinds(i)
        if start == kinds:
            return kinds, out, i
    lonely = [s for s in range(board.num_spaces) if all(kinds[c] == EMPTY for c in board.incident[s])]
    if len(lonely) != 1:
        raise PositionError("cannot tell which loom space is out of play: give the set-up (option 'setup')")
    return kinds, lonely[0], -1


def _check_out_of_play(probe: AgamemnonGame, kinds: tuple[int, ...], out: int, tiles: list[Tile]) -> None:
    """AGA-B2 (amended 2026-11-25): the out-of-play space holds no tile and its connections no
    string tile."""
    if out < 0:
        return
    if any(s == out for s, _, _ in tiles):
        raise PositionError(f"space {out} is out of play (AGA-B2) but holds a tile")
    if probe.any_warp_target:
        return
    for c in probe.board.incident[out]:
        if kinds[c] != EMPTY:
            a, b = probe.board.connections[c]
            raise PositionError(
                f"connection {a}-{b} touches the out-of-play space {out}: it carries no string tile "
                "(AGA-B2, AGA-T4)"
            )


def _read_turn(
    to_move: int | None, warp: int | None, options: dict[str, Any], tiles: list[Tile]
) -> tuple[int, int]:
    """The turn (AGA-T1: from the number of tiles; a Warp awaiting its swap belongs to the turn of
    the last tile) and the starting player, checked against the tiles each player has placed."""
    placed = len(tiles)
    if warp is not None and all(s != warp for s, _, _ in tiles):
        raise PositionError(f"'warp' names the space of the Warp awaiting its swap, not {warp!r}")
    if warp is not None:
        turn = turn_of_tile(placed - 1)
    else:
        turn = turn_of_tile(placed) if placed < TOTAL_TILES else NUM_TURNS
    first = _first_from(to_move, options, turn) if turn < NUM_TURNS else _first_from(None, options, 0)
    _check_alternation(tiles, first)
    return turn, first


def _check_alternation(tiles: list[Tile], first: int) -> None:
    """AGA-T1: the players alternate, each turn placing its number of tiles (``TURN_TILES``)."""
    placed = len(tiles)
    by_player = [sum(1 for _, p, _ in tiles if p == q) for q in range(NUM_PLAYERS)]
    want_first = sum(1 for i in range(placed) if turn_of_tile(i) % 2 == 0)
    if by_player[first] != want_first or by_player[1 - first] != placed - want_first:
        raise PositionError(
            f"with {placed} tiles placed and {PLAYER_NAMES[first]} starting, "
            f"{PLAYER_NAMES[first]} has placed {want_first} and "
            f"{PLAYER_NAMES[1 - first]} {placed - want_first} (AGA-T1), not "
            f"{by_player[first]} and {by_player[1 - first]}"
        )


def _turn_setting(warp: int | None, hand: Sequence[str], game: AgamemnonGame, setting: Setting) -> Setting:
    """The mover, the tiles left to place, the Warp awaiting its swap (AGA-T4) and the drawn
    tiles (none with Defying the gods, AGA-V3)."""
    turn = setting.turn
    terminal = turn >= NUM_TURNS
    setting.mover = mover = mover_of_turn(turn, game.first)
    setting.to_place = 0 if terminal else tiles_through_turn(turn) - len(setting.tiles)
    if warp is not None:
        if (warp, mover, WARP) not in setting.tiles:
            raise PositionError(
                f"'warp': space {warp} does not hold a Warp of {PLAYER_NAMES[mover]}, the player to move"
            )
        setting.warp = warp
    _read_hand(hand, game, setting)
    setting.phase = Phase.END if terminal else Phase.SWAP if warp is not None else None
    return setting


def _read_hand(hand: Sequence[str], game: AgamemnonGame, setting: Setting) -> None:
    """The tiles the mover has drawn and not yet placed: from its pool, at most what is left to
    place this turn; none with Defying the gods (AGA-V3)."""
    mover = setting.mover
    if hand and game.defying:
        raise PositionError("with Defying the gods nothing is drawn: a position has no 'hand'")
    if len(hand) > setting.to_place:
        raise PositionError(
            f"{PLAYER_NAMES[mover]} has {setting.to_place} tile(s) left to place this turn, not {len(hand)}"
        )
    pool = setting.pools[mover]
    for h in hand:
        if pool[CODE_INDEX[h]] <= 0:
            raise PositionError(f"{PLAYER_NAMES[mover]} has no {h} left to hold in hand")
        pool[CODE_INDEX[h]] -= 1
        setting.hand.append(CODE_INDEX[h])


def _first_from(to_move: int | None, options: dict[str, Any], turn: int) -> int:
    """The starting player: option ``first``, or the one whose turn ``turn`` makes ``to_move``
    the mover (AGA-T1: the players alternate)."""
    if to_move is None:
        first = options.get("first", 0)
        if first not in (0, 1) or isinstance(first, bool) or not isinstance(first, int):
            raise PositionError(f"option 'first' is 0 or 1, not {first!r}")
        return first
    return mover_of_turn(turn, to_move)


def _make_game(game: AgamemnonGame, options: dict[str, Any]) -> AgamemnonGame:
    try:
        made = type(game)(**options)
    except PalaestraError as err:
        raise PositionError(f"bad options: {err}") from None
    return game if made == game else made


def position_of(state: AgamemnonState) -> dict[str, Any]:
    """The position document of a state (``State.to_position``)."""
    game = state.game
    options = {k: v for k, v in game.options.items() if v is not None}
    options.pop("loom", None)
    if state.setup_name is not None:
        options["setup"] = state.setup_name
    doc: dict[str, Any] = {"game": "agamemnon", "board": game.board.side, "options": options}
    if state.phase != "setup":
        doc["connections"] = [list(abk) for abk in state.connection_kinds()]
    doc["tiles"] = [{"space": s, "player": p, "tile": code} for s, p, code in state.tiles()]
    doc["to_move"] = None if state.is_terminal() else state.mover
    if state.hand:
        doc["hand"] = state.hand
    if state.phase == "warp":
        doc["warp"] = state.warp_space
    return doc
