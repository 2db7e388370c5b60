"""Agamemnon positions (docs/agamemnon.md, "Positions") and saved states (``to_json``), read and
checked into a :class:`Setting` from which ``rules.py`` builds the state.

Position format::

    {"game": "agamemnon", "board": "front" | "loom",
     "options": {"oracle": true, "setup": "I,II,III", ...},        (optional)
     "connections": [[a, b, "strength"|"force"|"leadership"|"empty"], ...],   (optional)
     "tiles": [{"space": 12, "player": 0, "tile": "W2"}, ...],
     "to_move": 0,                                                   (optional)
     "hand": ["W2", "A"],                                            (optional: drawn tiles)
     "warp": 12}                                                     (optional: Warp awaiting its swap)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from palaestra.core.errors import OptionError, PalaestraError, PositionError, RecordError
from palaestra.core.game import is_int
from palaestra.games.agamemnon.board import EMPTY, KIND_NAMES, STRING_KINDS, Board
from palaestra.games.agamemnon.tiles import (
    CODE_INDEX,
    CODES,
    NUM_CODES,
    NUM_PLAYERS,
    NUM_TURNS,
    PHASE_NAMES,
    PLAYER_NAMES,
    SETUP_NAMES,
    SETUPS,
    STACK_NAMES,
    SUPPLY,
    TOTAL_TILES,
    TURN_TILES,
    WARP,
    WEAVERS,
    Phase,
    Stack,
    mover_of_turn,
    tiles_through_turn,
    turn_of_tile,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame
    from palaestra.games.agamemnon.rules import AgamemnonState

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
_FIELDS = {"game", "board", "options", "connections", "tiles", "to_move", "hand", "warp"}


def read_position(game: AgamemnonGame, doc: Mapping[str, Any]) -> tuple[AgamemnonGame, Setting | None]:
    """The game a position is played by (its options) and its setting (``None``: the start of an
    empty loom game, before the set-up is drawn); :class:`PositionError` for what is wrong."""
    _check_fields(doc)
    options, side = _read_options(game, doc)
    try:
        probe = type(game)(**{k: v for k, v in options.items() if k not in ("first", "setup")})
    except OptionError as err:
        raise PositionError(f"bad options: {err}") from None
    tiles = _read_tiles(doc, probe.board, side)
    setup = _read_setup(options)
    raw_conns = doc.get("connections")
    if raw_conns is None and side == "loom" and setup < 0:
        if tiles or doc.get("hand") or doc.get("warp") is not None:
            raise PositionError(
                "a loom position with tiles needs its 'connections' or the set-up (option 'setup')"
            )
        options["first"] = _first_from(doc, options, 0)
        return _make_game(game, options), None
    if raw_conns is None:
        kinds, out = (probe.board.labels, -1) if side == "front" else probe.setup_kinds(setup)
    else:
        kinds = _read_connections(raw_conns, probe.board.connections, side)
        kinds, out, setup = (
            _check_kinds(probe, kinds, setup)
            if side == "loom"
            else (_check_front(probe.board, kinds), -1, -1)
        )
    _check_out_of_play(probe, kinds, out, tiles)
    options["setup"] = SETUP_NAMES[setup] if setup >= 0 else None
    turn, first = _read_turn(doc, options, tiles)
    options["first"] = first
    played_by = _make_game(game, options)
    setting = _turn_setting(
        doc, played_by, Setting(setup, kinds, out, tiles, _pools_without(tiles), turn, 0, 0, None)
    )
    return played_by, setting


def _check_fields(doc: Mapping[str, Any]) -> None:
    if not isinstance(doc, Mapping):
        raise PositionError("a position is a JSON object")
    if doc.get("game", "agamemnon") != "agamemnon":
        raise PositionError(f"this position is of {doc.get('game')!r}, not 'agamemnon'")
    unknown = sorted(set(doc) - _FIELDS)
    if unknown:
        raise PositionError(
            f"unknown field {unknown[0]!r} in the position (fields: {', '.join(sorted(_FIELDS))})"
        )


def _read_options(game: AgamemnonGame, doc: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The options of the position (the game's, with the position's own on top) and its side."""
    given = doc.get("options", {})
    if not isinstance(given, Mapping):
        raise PositionError("'options' is a JSON object")
    options: dict[str, Any] = {k: v for k, v in game.options.items() if v is not None}
    options.update(given)
    side = doc.get("board")
    if side is None:
        side = "loom" if options.get("loom") in (True, "true", "1", "on", "yes") else "front"
    if side not in ("front", "loom"):
        raise PositionError(f"'board' is 'front' or 'loom', not {side!r}")
    if "loom" in given and bool(given["loom"]) != (side == "loom"):
        raise PositionError(f"the position is on the {side} board but its options say loom={given['loom']}")
    options["loom"] = side == "loom"
    if side == "front":
        if given.get("setup") is not None:
            raise PositionError("a loom set-up ('setup') makes no sense on the front board")
        options.pop("setup", None)
    return options, str(side)


def _read_tiles(doc: Mapping[str, Any], board: Board, side: str) -> list[Tile]:
    raw = doc.get("tiles", [])
    if not isinstance(raw, list):
        raise PositionError('\'tiles\' is a list of {"space": 12, "player": 0, "tile": "W2"}')
    n = board.num_spaces
    tiles: list[Tile] = []
    taken: dict[int, int] = {}
    for i, t in enumerate(raw, start=1):
        if not isinstance(t, Mapping) or set(t) != {"space", "player", "tile"}:
            raise PositionError(f'tile {i}: write it as {{"space": 12, "player": 0, "tile": "W2"}}')
        s, p, code = t["space"], t["player"], t["tile"]
        if not is_int(s) or not 0 <= s < n:
            raise PositionError(f"tile {i}: there is no space {s!r} on the {side} board (spaces 0-{n - 1})")
        if p not in (0, 1) or not is_int(p):
            raise PositionError(f"tile {i}: player is 0 (orange) or 1 (black), not {p!r}")
        if code not in CODE_INDEX:
            raise PositionError(f"tile {i}: unknown tile {code!r} (tiles: {' '.join(CODES)})")
        if s in taken:
            raise PositionError(f"tile {i}: space {s} already holds tile {taken[s]}")
        taken[s] = i
        tiles.append((s, p, CODE_INDEX[code]))
    for (p, c), k in sorted(Counter((p, c) for _, p, c in tiles).items()):
        if k > SUPPLY[c]:
            raise PositionError(f"{PLAYER_NAMES[p]} has {SUPPLY[c]} {CODES[c]} tile(s), not {k} (AGA-C1)")
    if len(tiles) > TOTAL_TILES:
        raise PositionError(f"{len(tiles)} tiles: a game places only {TOTAL_TILES}")
    return tiles


def _read_setup(options: Mapping[str, Any]) -> int:
    name = options.get("setup")
    if name is None:
        return -1
    if name not in SETUP_NAMES:
        raise PositionError(f"unknown loom set-up {name!r} (e.g. 'I,II,III')")
    return SETUP_NAMES.index(name)


def _read_connections(raw: object, printed: tuple[tuple[int, int], ...], side: str) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise PositionError("'connections' is a list of [a, b, kind]")
    index = {ab: c for c, ab in enumerate(printed)}
    kinds = [-1] * len(printed)
    names = KIND_NAMES if side == "loom" else KIND_NAMES[:EMPTY]
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, list) or len(item) != 3 or not is_int(item[0]) or not is_int(item[1]):
            raise PositionError(f'connection {i}: write it as [a, b, kind], e.g. [3, 7, "strength"]')
        a, b, kind = item
        c = index.get((min(a, b), max(a, b)))
        if c is None:
            raise PositionError(f"connection {i}: there is no connection {a}-{b} on the {side} board")
        if kind not in names:
            raise PositionError(f"connection {i} ({a}-{b}): kind is one of {', '.join(names)}, not {kind!r}")
        if kinds[c] >= 0:
            raise PositionError(f"connection {i}: {a}-{b} is given twice")
        kinds[c] = names.index(kind)
    missing = [printed[c] for c, k in enumerate(kinds) if k < 0]
    if missing:
        a, b = missing[0]
        raise PositionError(
            f"'connections' must list all {len(printed)} connections of the {side} board; {a}-{b} is missing"
        )
    return tuple(kinds)


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


def _read_turn(doc: Mapping[str, Any], options: Mapping[str, Any], tiles: list[Tile]) -> tuple[int, int]:
    """The turn (AGA-T1: from the number of tiles; a Warp awaiting its swap belongs to the turn of
    the last tile) and the starting player, checked against the tiles each player has placed."""
    placed = len(tiles)
    warp = doc.get("warp")
    if warp is not None and (not is_int(warp) or all(s != warp for s, _, _ in tiles)):
        raise PositionError(f"'warp' names the space of the Warp awaiting its swap, not {warp!r}")
    if warp is not None:
        turn = turn_of_tile(placed - 1)
    else:
        turn = turn_of_tile(placed) if placed < TOTAL_TILES else NUM_TURNS
    first = _first_from(doc, options, turn) if turn < NUM_TURNS else _first_from({}, options, 0)
    by_player = [sum(1 for _, p, _ in tiles if p == q) for q in range(NUM_PLAYERS)]
    want_first = sum(1 for i in range(placed) if turn_of_tile(i) % 2 == 0)
    if by_player[first] != want_first or by_player[1 - first] != placed - want_first:
        raise PositionError(
            f"with {placed} tiles placed and {PLAYER_NAMES[first]} starting, "
            f"{PLAYER_NAMES[first]} has placed {want_first} and "
            f"{PLAYER_NAMES[1 - first]} {placed - want_first} (AGA-T1), not "
            f"{by_player[first]} and {by_player[1 - first]}"
        )
    return turn, first


def _turn_setting(doc: Mapping[str, Any], game: AgamemnonGame, setting: Setting) -> Setting:
    """The mover, the tiles left to place, the Warp awaiting its swap and the drawn tiles."""
    turn = setting.turn
    terminal = turn >= NUM_TURNS
    setting.mover = mover = mover_of_turn(turn, game.first)
    setting.to_place = 0 if terminal else tiles_through_turn(turn) - len(setting.tiles)
    warp = doc.get("warp")
    if warp is not None:
        if (warp, mover, WARP) not in setting.tiles:
            raise PositionError(
                f"'warp': space {warp} does not hold a Warp of {PLAYER_NAMES[mover]}, the player to move"
            )
        setting.warp = warp
    hand = doc.get("hand", [])
    if not isinstance(hand, list) or not all(h in CODE_INDEX for h in hand):
        raise PositionError(f"'hand' is a list of tile codes ({' '.join(CODES)})")
    if hand:
        if game.defying:
            raise PositionError("with Defying the gods nothing is drawn: a position has no 'hand'")
        if len(hand) > setting.to_place:
            raise PositionError(
                f"{PLAYER_NAMES[mover]} has {setting.to_place} tile(s) left to place this turn, "
                f"not {len(hand)}"
            )
        pool = setting.pools[mover]
        for h in hand:
            if pool[CODE_INDEX[h]] <= 0:
                raise PositionError(f"{PLAYER_NAMES[mover]} has no {h} left to hold in hand")
            pool[CODE_INDEX[h]] -= 1
            setting.hand.append(CODE_INDEX[h])
    setting.phase = Phase.END if terminal else Phase.SWAP if warp is not None else None
    return setting


def _first_from(doc: Mapping[str, Any], options: Mapping[str, Any], turn: int) -> int:
    to_move = doc.get("to_move")
    if to_move is None:
        first = options.get("first", 0)
        if first not in (0, 1) or not is_int(first):
            raise PositionError(f"option 'first' is 0 or 1, not {first!r}")
        return int(first)
    if to_move not in (0, 1) or not is_int(to_move):
        raise PositionError(f"'to_move' is 0 (orange) or 1 (black), not {to_move!r}")
    return mover_of_turn(turn, int(to_move))


def _make_game(game: AgamemnonGame, options: Mapping[str, Any]) -> AgamemnonGame:
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


# --- saved states (to_json) ------------------------------------------------------------------------------
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


def read_saved(game: AgamemnonGame, doc: Mapping[str, Any]) -> tuple[int | None, list[int], Setting | None]:
    """The seed, the history and the setting of a saved state (``None``: the loom set-up is still
    to be drawn); :class:`RecordError` for what is wrong."""
    try:
        return _read_saved(game, doc)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise RecordError(f"this saved Agamemnon state is malformed ({type(err).__name__}: {err})") from None


def _read_saved(game: AgamemnonGame, doc: Mapping[str, Any]) -> tuple[int | None, list[int], Setting | None]:
    raw = doc["state"]
    if not isinstance(raw, Mapping):
        raise RecordError("'state' of a saved Agamemnon state is a JSON object")
    phase = Phase(PHASE_NAMES.index(raw["phase"]))
    history = doc.get("history", [])
    if not isinstance(history, list) or not all(is_int(a) for a in history):
        raise RecordError("'history' is a list of action ids")
    seed = doc.get("seed")
    if seed is not None and not is_int(seed):
        raise RecordError("'seed' is a whole number or null")
    setup = -1 if raw["setup"] is None else SETUP_NAMES.index(raw["setup"])
    if setup >= 0 and not game.loom:
        raise RecordError("a loom set-up in a saved front-board state")
    if phase == Phase.SETUP:
        if game.start_kinds is not None:
            raise RecordError("a saved state in the loom set-up phase, but the set-up is fixed")
        return seed, list(history), None
    kinds, out = _saved_board(game, raw)
    tiles = _saved_tiles(game.board, raw, out)
    setting = Setting(setup, kinds, out, tiles, _saved_pools(raw), 0, 0, 0, phase)
    _saved_turn(game, raw, setting)
    _check_saved(game, setting)
    return seed, list(history), setting


def _saved_board(game: AgamemnonGame, raw: Mapping[str, Any]) -> tuple[tuple[int, ...], int]:
    board = game.board
    kinds = tuple(KIND_NAMES.index(k) for k in raw["kinds"])
    if len(kinds) != board.num_connections or (not game.loom and EMPTY in kinds):
        raise RecordError("'kinds' does not fit the board")
    out = raw["out_of_play"]
    if game.loom:
        if not is_int(out) or not 0 <= out < board.num_spaces:
            raise RecordError("a loom state names its out-of-play space")
    elif out is not None:
        raise RecordError("the front board has no out-of-play space")
    return kinds, -1 if out is None else out


def _saved_tiles(board: Board, raw: Mapping[str, Any], out: int) -> list[Tile]:
    tiles = []
    seen = set()
    for s, p, code in raw["tiles"]:
        if not is_int(s) or not 0 <= s < board.num_spaces or s == out or s in seen or p not in (0, 1):
            raise RecordError(f"bad tile {[s, p, code]!r} in a saved state")
        seen.add(s)
        tiles.append((s, p, CODE_INDEX[code]))
    return tiles


def _saved_pools(raw: Mapping[str, Any]) -> list[list[int]]:
    pools = [[0] * NUM_CODES for _ in range(NUM_PLAYERS)]
    for p in range(NUM_PLAYERS):
        for code in raw["pools"][p]:
            pools[p][CODE_INDEX[code]] += 1
    return pools


def _saved_turn(game: AgamemnonGame, raw: Mapping[str, Any], setting: Setting) -> None:
    setting.hand = [CODE_INDEX[c] for c in raw["hand"]]
    setting.aside = [CODE_INDEX[c] for c in raw["aside"]]
    setting.named = [STACK_NAMES.index(x) for x in raw["stacks"]]
    turn, to_place, warp = raw["turn"], raw["todo"], raw["warp"]
    if not (is_int(turn) and 0 <= turn <= NUM_TURNS) or not (
        is_int(to_place) and 0 <= to_place <= max(TURN_TILES)
    ):
        raise RecordError("bad 'turn' or 'todo' in a saved state")
    setting.turn, setting.to_place = turn, to_place
    setting.mover = mover_of_turn(turn, game.first)
    if warp is not None:
        owner = [-1] * game.board.num_spaces
        code = [-1] * game.board.num_spaces
        for s, p, c in setting.tiles:
            owner[s], code[s] = p, c
        if not is_int(warp) or owner[warp] != setting.mover or code[warp] != WARP:
            raise RecordError("'warp' of a saved state does not name a Warp of the player to move")
        setting.warp = warp


def _check_saved(game: AgamemnonGame, setting: Setting) -> None:
    """Every tile is somewhere (on the board, in a pool, in hand or set aside); the phase fits."""
    for p in range(NUM_PLAYERS):
        where = Counter(c for _, q, c in setting.tiles if q == p)
        for c in range(NUM_CODES):
            where[c] += setting.pools[p][c]
        if p == setting.mover:
            where.update(setting.hand)
            where.update(setting.aside)
        if [where[c] for c in range(NUM_CODES)] != list(SUPPLY):
            raise RecordError(f"the tiles of {PLAYER_NAMES[p]} in a saved state do not add up to the set")
    phase = setting.phase
    if (phase == Phase.END) != (len(setting.tiles) == TOTAL_TILES and setting.warp < 0):
        raise RecordError("a saved state is over exactly when 30 tiles are placed")
    if (phase == Phase.STACK and not game.oracle) or (phase in (Phase.DRAW, Phase.STACK) and game.defying):
        raise RecordError(f"phase {PHASE_NAMES[phase]!r} does not fit the options of a saved state")
    if any(st not in tuple(Stack) for st in setting.named) or any(c not in WEAVERS for c in setting.aside):
        raise RecordError("bad Oracle stacks or set-aside tiles in a saved state")
