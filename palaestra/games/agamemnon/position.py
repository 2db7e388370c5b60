"""Agamemnon positions (issue 2 format) and saved states (``to_json``), read and checked.

Position format (docs/agamemnon.md)::

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
from typing import Any

from palaestra.core.errors import OptionError, PalaestraError, PositionError, RecordError
from palaestra.games.agamemnon.game import (
    CODE_INDEX,
    CODES,
    DRAW,
    EMPTY,
    END,
    KIND_NAMES,
    NUM_CODES,
    PHASE_NAMES,
    PLACE,
    PLAYER_NAMES,
    SETUP,
    SETUP_NAMES,
    SETUPS,
    STACK,
    STACK_CODES,
    STACK_NAMES,
    SUPPLY,
    SWAP,
    TOTAL_TILES,
    TURN_TILES,
    WARP,
    AgamemnonGame,
    AgamemnonState,
)


def turn_of_tile(i: int) -> int:
    """The turn (0..15) in which the ``i``-th tile (0-based) of the game is placed (AGA-T1)."""
    return 0 if i == 0 else (i - 1) // 2 + 1


def tiles_through_turn(t: int) -> int:
    """Tiles placed once turn ``t`` (0..15) is over."""
    return sum(TURN_TILES[: t + 1])


def _build(
    game: AgamemnonGame,
    kinds: tuple[int, ...],
    out: int,
    setup: int,
    tiles: list[tuple[int, int, int]],
    seed: int | None = None,
) -> AgamemnonState:
    """A state on ``game`` with the given board and tiles; turn fields are set by the caller."""
    state = AgamemnonState(game, seed)
    state._setup = setup
    state._owner = [-1] * state._n
    state._code = [-1] * state._n
    for s, p, c in tiles:
        state._owner[s] = p
        state._code[s] = c
    state._placed = len(tiles)
    if kinds:
        state._kinds = kinds
        state._maps = game.kind_maps(kinds)
    state._out = out
    state._rebuild_masks()
    state._pools = list(SUPPLY) * 2
    for _, p, c in tiles:
        state._pools[10 * p + c] -= 1
    state._hand, state._aside, state._pending = [], [], []
    state._warp = -1
    state._inc = None
    return state


# --- positions -----------------------------------------------------------------------------------
def state_from_position(game: AgamemnonGame, doc: Mapping[str, Any]) -> AgamemnonState:
    if not isinstance(doc, Mapping):
        raise PositionError("a position is a JSON object")
    if doc.get("game", "agamemnon") != "agamemnon":
        raise PositionError(f"this position is of {doc.get('game')!r}, not 'agamemnon'")
    known = {"game", "board", "options", "connections", "tiles", "to_move", "hand", "warp"}
    unknown = sorted(set(doc) - known)
    if unknown:
        raise PositionError(
            f"unknown field {unknown[0]!r} in the position (fields: {', '.join(sorted(known))})"
        )
    given_options = doc.get("options", {})
    if not isinstance(given_options, Mapping):
        raise PositionError("'options' is a JSON object")
    options: dict[str, Any] = {k: v for k, v in game.options.items() if v is not None}
    options.update(given_options)
    side = doc.get("board")
    if side is None:
        side = "loom" if options.get("loom") in (True, "true", "1", "on", "yes") else "front"
    if side not in ("front", "loom"):
        raise PositionError(f"'board' is 'front' or 'loom', not {side!r}")
    if "loom" in given_options and bool(given_options["loom"]) != (side == "loom"):
        raise PositionError(
            f"the position is on the {side} board but its options say loom={given_options['loom']}"
        )
    options["loom"] = side == "loom"
    if side == "front":
        if given_options.get("setup") is not None:
            raise PositionError("a loom set-up ('setup') makes no sense on the front board")
        options.pop("setup", None)
    try:
        probe = AgamemnonGame(**{k: v for k, v in options.items() if k not in ("first", "setup")})
    except OptionError as err:
        raise PositionError(f"bad options: {err}") from None
    board = probe.board
    n = board.num_spaces

    # --- tiles ---------------------------------------------------------------------------------
    raw_tiles = doc.get("tiles", [])
    if not isinstance(raw_tiles, list):
        raise PositionError('\'tiles\' is a list of {"space": 12, "player": 0, "tile": "W2"}')
    tiles: list[tuple[int, int, int]] = []
    taken: dict[int, int] = {}
    for i, t in enumerate(raw_tiles, start=1):
        if not isinstance(t, Mapping) or set(t) != {"space", "player", "tile"}:
            raise PositionError(f'tile {i}: write it as {{"space": 12, "player": 0, "tile": "W2"}}')
        s, p, code = t["space"], t["player"], t["tile"]
        if not _is_int(s) or not 0 <= s < n:
            raise PositionError(f"tile {i}: there is no space {s!r} on the {side} board (spaces 0-{n - 1})")
        if p not in (0, 1) or not _is_int(p):
            raise PositionError(f"tile {i}: player is 0 (orange) or 1 (black), not {p!r}")
        if code not in CODE_INDEX:
            raise PositionError(f"tile {i}: unknown tile {code!r} (tiles: {' '.join(CODES)})")
        if s in taken:
            raise PositionError(f"tile {i}: space {s} already holds tile {taken[s]}")
        taken[s] = i
        tiles.append((s, p, CODE_INDEX[code]))
    counts = Counter((p, c) for _, p, c in tiles)
    for (p, c), k in sorted(counts.items()):
        if k > SUPPLY[c]:
            raise PositionError(f"{PLAYER_NAMES[p]} has {SUPPLY[c]} {CODES[c]} tile(s), not {k} (AGA-C1)")
    placed = len(tiles)
    if placed > TOTAL_TILES:
        raise PositionError(f"{placed} tiles: a game places only {TOTAL_TILES}")

    # --- connections and the out-of-play space --------------------------------------------------
    setup_name = options.get("setup")
    setup = -1
    if setup_name is not None:
        if setup_name not in SETUP_NAMES:
            raise PositionError(f"unknown loom set-up {setup_name!r} (e.g. 'I,II,III')")
        setup = SETUP_NAMES.index(setup_name)
    raw_conns = doc.get("connections")
    kinds: tuple[int, ...]
    out = -1
    if raw_conns is None:
        if side == "front":
            kinds = board.labels
        elif setup >= 0:
            kinds, out = probe.setup_kinds(setup)
        else:
            if tiles or doc.get("hand") or doc.get("warp") is not None:
                raise PositionError(
                    "a loom position with tiles needs its 'connections' or the set-up (option 'setup')"
                )
            first = _first_from(doc, options, 0)
            options["first"] = first
            return _make_game(options).new_initial_state()
    else:
        kinds = _read_connections(raw_conns, board.connections, side)
        if side == "front":
            have = Counter(kinds)
            want = Counter(board.labels)
            if have != want:
                raise PositionError(
                    "the front board has 17 strength, 16 force and 16 leadership string tiles; "
                    f"the connections give {have[0]}, {have[1]} and {have[2]}"
                )
        else:
            sizes = sorted(Counter(board.labels).values())
            have = Counter(kinds)
            if sorted(have[k] for k in range(4)) != sizes:
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
            else:
                for i in range(len(SETUPS)):
                    if probe.setup_kinds(i)[0] == kinds:
                        setup = i
                        out = probe.setup_kinds(i)[1]
                        break
                else:
                    lonely = [s for s in range(n) if all(kinds[c] == 3 for c in board.incident[s])]
                    if len(lonely) != 1:
                        raise PositionError(
                            "cannot tell which loom space is out of play: give the set-up (option 'setup')"
                        )
                    out = lonely[0]
    if out >= 0 and out in taken:
        raise PositionError(f"space {out} is out of play (AGA-B2) but holds a tile")
    if out >= 0 and not probe.any_warp_target:
        for c in board.incident[out]:
            if kinds[c] != EMPTY:
                a, b = board.connections[c]
                raise PositionError(
                    f"connection {a}-{b} touches the out-of-play space {out}: it carries no string tile "
                    "(AGA-B2, AGA-T4)"
                )
    options["setup"] = SETUP_NAMES[setup] if setup >= 0 else None

    # --- the turn (AGA-T1) ------------------------------------------------------------------------
    warp = doc.get("warp")
    if warp is not None and (not _is_int(warp) or warp not in taken):
        raise PositionError(f"'warp' names the space of the Warp awaiting its swap, not {warp!r}")
    if warp is not None:
        t = turn_of_tile(placed - 1)
    else:
        t = turn_of_tile(placed) if placed < TOTAL_TILES else len(TURN_TILES)
    terminal = t >= len(TURN_TILES)
    first = _first_from(doc, options, t) if not terminal else _first_from({}, options, 0)
    options["first"] = first
    mover = first if t % 2 == 0 else 1 - first
    by_player = [sum(1 for _, p, _ in tiles if p == q) for q in (0, 1)]
    want_first = sum(1 for i in range(placed) if turn_of_tile(i) % 2 == 0)
    if by_player[first] != want_first or by_player[1 - first] != placed - want_first:
        raise PositionError(
            f"with {placed} tiles placed and {PLAYER_NAMES[first]} starting, "
            f"{PLAYER_NAMES[first]} has placed {want_first} and "
            f"{PLAYER_NAMES[1 - first]} {placed - want_first} (AGA-T1), not "
            f"{by_player[first]} and {by_player[1 - first]}"
        )
    new_game = _make_game(options)
    if new_game == game:
        new_game = game
    state = _build(new_game, kinds, out, setup, tiles)
    todo = 0 if terminal else tiles_through_turn(t) - placed
    state._turn = t
    state._todo = todo
    state._mover = mover
    if warp is not None:
        s = warp
        if state._owner[s] != mover or state._code[s] != WARP:
            raise PositionError(
                f"'warp': space {s} does not hold a Warp of {PLAYER_NAMES[mover]}, the player to move"
            )
        state._warp = s
    hand = doc.get("hand", [])
    if not isinstance(hand, list) or not all(h in CODE_INDEX for h in hand):
        raise PositionError(f"'hand' is a list of tile codes ({' '.join(CODES)})")
    if hand:
        if new_game.defying:
            raise PositionError("with Defying the gods nothing is drawn: a position has no 'hand'")
        if len(hand) > todo:
            raise PositionError(
                f"{PLAYER_NAMES[mover]} has {todo} tile(s) left to place this turn, not {len(hand)}"
            )
        for h in hand:
            c = CODE_INDEX[h]
            if state._pools[10 * mover + c] <= 0:
                raise PositionError(f"{PLAYER_NAMES[mover]} has no {h} left to hold in hand")
            state._pools[10 * mover + c] -= 1
            state._hand.append(c)
    if terminal:
        state._phase = END
    elif warp is not None:
        state._phase = SWAP
    else:
        state._phase = PLACE if new_game.defying else DRAW
        state._next_draw()
    return state


def _first_from(doc: Mapping[str, Any], options: Mapping[str, Any], t: int) -> int:
    to_move = doc.get("to_move")
    if to_move is None:
        first = options.get("first", 0)
        if first not in (0, 1) or not _is_int(first):
            raise PositionError(f"option 'first' is 0 or 1, not {first!r}")
        return int(first)
    if to_move not in (0, 1) or not _is_int(to_move):
        raise PositionError(f"'to_move' is 0 (orange) or 1 (black), not {to_move!r}")
    return int(to_move) if t % 2 == 0 else 1 - int(to_move)


def _make_game(options: Mapping[str, Any]) -> AgamemnonGame:
    try:
        return AgamemnonGame(**options)
    except PalaestraError as err:
        raise PositionError(f"bad options: {err}") from None


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _read_connections(raw: object, printed: tuple[tuple[int, int], ...], side: str) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise PositionError("'connections' is a list of [a, b, kind]")
    index = {ab: c for c, ab in enumerate(printed)}
    kinds = [-1] * len(printed)
    names = KIND_NAMES if side == "loom" else KIND_NAMES[:3]
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, list) or len(item) != 3 or not _is_int(item[0]) or not _is_int(item[1]):
            raise PositionError(f'connection {i}: write it as [a, b, kind], e.g. [3, 7, "strength"]')
        a, b, kind = item
        key = (min(a, b), max(a, b))
        if key not in index:
            raise PositionError(f"connection {i}: there is no connection {a}-{b} on the {side} board")
        if kind not in names:
            raise PositionError(f"connection {i} ({a}-{b}): kind is one of {', '.join(names)}, not {kind!r}")
        c = index[key]
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


def state_to_position(state: AgamemnonState) -> dict[str, Any]:
    game = state.game
    options = {k: v for k, v in game.options.items() if v is not None}
    options.pop("loom", None)
    if state._setup >= 0:
        options["setup"] = SETUP_NAMES[state._setup]
    doc: dict[str, Any] = {
        "game": "agamemnon",
        "board": game.board.side,
        "options": options,
    }
    if state._phase != SETUP:
        doc["connections"] = [
            [a, b, KIND_NAMES[k]] for (a, b), k in zip(game.board.connections, state._kinds, strict=True)
        ]
    doc["tiles"] = [
        {"space": s, "player": state._owner[s], "tile": CODES[state._code[s]]}
        for s in range(state._n)
        if state._owner[s] >= 0
    ]
    doc["to_move"] = None if state._phase == END else state._mover
    if state._hand:
        doc["hand"] = [CODES[c] for c in state._hand]
    if state._phase == SWAP:
        doc["warp"] = state._warp
    return doc


# --- saved states (to_json) --------------------------------------------------------------------------
def state_from_saved(game: AgamemnonGame, doc: Mapping[str, Any]) -> AgamemnonState:
    try:
        return _state_from_saved(game, doc)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise RecordError(f"this saved Agamemnon state is malformed ({type(err).__name__}: {err})") from None


def _state_from_saved(game: AgamemnonGame, doc: Mapping[str, Any]) -> AgamemnonState:
    raw = doc["state"]
    if not isinstance(raw, Mapping):
        raise RecordError("'state' of a saved Agamemnon state is a JSON object")
    phase = PHASE_NAMES.index(raw["phase"])
    history = doc.get("history", [])
    if not isinstance(history, list) or not all(_is_int(a) for a in history):
        raise RecordError("'history' is a list of action ids")
    seed = doc.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError("'seed' is a whole number or null")
    board = game.board
    setup = -1 if raw["setup"] is None else SETUP_NAMES.index(raw["setup"])
    if setup >= 0 and not game.loom:
        raise RecordError("a loom set-up in a saved front-board state")
    if phase == SETUP:
        state = AgamemnonState(game, seed)
        if state._phase != SETUP:
            raise RecordError("a saved state in the loom set-up phase, but the set-up is fixed")
        state.history = list(history)
        return state
    kinds = tuple(KIND_NAMES.index(k) for k in raw["kinds"])
    if len(kinds) != board.num_connections or (not game.loom and 3 in kinds):
        raise RecordError("'kinds' does not fit the board")
    out = raw["out_of_play"]
    if game.loom:
        if not _is_int(out) or not 0 <= out < board.num_spaces:
            raise RecordError("a loom state names its out-of-play space")
    elif out is not None:
        raise RecordError("the front board has no out-of-play space")
    out = -1 if out is None else out
    tiles = []
    seen = set()
    for s, p, code in raw["tiles"]:
        if not _is_int(s) or not 0 <= s < board.num_spaces or s == out or s in seen or p not in (0, 1):
            raise RecordError(f"bad tile {[s, p, code]!r} in a saved state")
        seen.add(s)
        tiles.append((s, p, CODE_INDEX[code]))
    state = _build(game, kinds, out, setup, tiles, seed)
    state.history = list(history)
    pools = [0] * 20
    for p in (0, 1):
        for code in raw["pools"][p]:
            pools[10 * p + CODE_INDEX[code]] += 1
    state._pools = pools
    state._hand = [CODE_INDEX[c] for c in raw["hand"]]
    state._aside = [CODE_INDEX[c] for c in raw["aside"]]
    state._pending = [STACK_NAMES.index(x) for x in raw["stacks"]]
    turn, todo, warp = raw["turn"], raw["todo"], raw["warp"]
    if not (_is_int(turn) and 0 <= turn <= len(TURN_TILES)) or not (_is_int(todo) and 0 <= todo <= 2):
        raise RecordError("bad 'turn' or 'todo' in a saved state")
    state._turn, state._todo = turn, todo
    state._mover = game.first if turn % 2 == 0 else 1 - game.first
    if warp is not None:
        if not _is_int(warp) or state._owner[warp] != state._mover or state._code[warp] != WARP:
            raise RecordError("'warp' of a saved state does not name a Warp of the player to move")
        state._warp = warp
    state._phase = phase
    # every tile is somewhere: on the board, in a pool, in hand or set aside
    for p in (0, 1):
        where = Counter(c for _, q, c in tiles if q == p)
        for c in range(NUM_CODES):
            where[c] += pools[10 * p + c]
        if p == state._mover:
            where.update(state._hand)
            where.update(state._aside)
        if [where[c] for c in range(NUM_CODES)] != list(SUPPLY):
            raise RecordError(f"the tiles of {PLAYER_NAMES[p]} in a saved state do not add up to the set")
    if (phase == END) != (len(tiles) == TOTAL_TILES and warp is None):
        raise RecordError("a saved state is over exactly when 30 tiles are placed")
    if (phase == STACK and not game.oracle) or (phase in (DRAW, STACK) and game.defying):
        raise RecordError(f"phase {PHASE_NAMES[phase]!r} does not fit the options of a saved state")
    if any(st not in (0, 1, 2) for st in state._pending) or any(
        c not in STACK_CODES[1] for c in state._aside
    ):
        raise RecordError("bad Oracle stacks or set-aside tiles in a saved state")
    return state
