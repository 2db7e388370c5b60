"""Agamemnon for people and for learners: the text board of a state and its observation tensor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.games.agamemnon.board import KIND_LETTERS, KIND_NAMES, MAX_CONNECTIONS, MAX_SPACES
from palaestra.games.agamemnon.tiles import (
    CODE_INDEX,
    CODES,
    NUM_CODES,
    NUM_TURNS,
    PHASE_NAMES,
    PLAYER_NAMES,
    SPEARS,
    STACK_NAMES,
    SUPPLY,
    TURN_TILES,
    WEAVERS,
    Stack,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.rules import AgamemnonState

# --- the text view -------------------------------------------------------------------------------
_OWNER_MARK = ("o", "b")


def render(state: AgamemnonState, labels: bool = False) -> str:
    """The board side and set-up, whose turn, the live score, the pools, one line per space with
    its connections, and the strings that hold tiles (docs/agamemnon.md, "Terminal view")."""
    lines = [_title(state), *_status(state), *_pools(state)]
    if state.phase == "setup":
        return "\n".join(lines)
    lines += ["", *_spaces(state), "", *_strings(state)]
    if labels:
        spears = ", ".join(f"{c}={n}" for c, n in zip(CODES, SPEARS, strict=True))
        lines += [
            "",
            "o: orange (Trojans), b: black (Greeks); tiles A-E leaders (A highest), W1-W3 warriors, "
            "WARP/WEFT weavers",
            f"spears: {spears}",
        ]
    return "\n".join(lines)


def _title(state: AgamemnonState) -> str:
    game = state.game
    title = f"Agamemnon — {game.board.side} board"
    if state.setup_name is not None:
        title += f" (set-up {state.setup_name})"
    variants = [name for name, on in (("oracle", game.oracle), ("defying the gods", game.defying)) if on]
    if variants:
        title += " — " + ", ".join(variants)
    return title


def _status(state: AgamemnonState) -> list[str]:
    phase = state.phase
    if phase == "end":
        status = f"Game over after {state.tiles_placed} tiles: {state.result_text()}"
    elif phase == "setup":
        status = "The loom set-up is drawn first."
    else:
        turn = state.turn
        status = f"Turn {turn + 1}/{NUM_TURNS}: {PLAYER_NAMES[state.mover]} to "
        if phase == "warp":
            status += f"choose the Warp's swap on space {state.warp_space} (or noswap)"
        elif phase == "stack":
            status += f"name the stack of the next draw, then place {state.to_place} tile(s)"
        else:
            status += f"place {state.to_place} of {TURN_TILES[turn]} tile(s)"
    p0, p1 = (int(x) for x in state.scores())
    return [status, f"Score: orange {p0} — black {p1}"]


def _pools(state: AgamemnonState) -> list[str]:
    lines = []
    what = "left to place" if state.game.defying else "to draw"
    for p, name in enumerate(PLAYER_NAMES):
        left = state.pool(p)
        line = f"{name:>6} ({_OWNER_MARK[p]}): {len(left):2d} {what}: {' '.join(left) or '-'}"
        if p == state.mover and not state.is_terminal():
            for label, tiles in (
                ("drawn", state.hand),
                ("set aside", state.aside),
                ("stacks named", state.named_stacks),
            ):
                if tiles:
                    line += f" | {label}: {' '.join(tiles)}"
        lines.append(line)
    weavers = {CODES[c] for c in WEAVERS}
    if state.phase == "place" and state.may_set_aside() and weavers & set(state.hand):
        lines.append("A drawn weaver may be set aside for a fresh draw (aside WARP / aside WEFT).")
    return lines


def _spaces(state: AgamemnonState) -> list[str]:
    board = state.game.board
    letters = {name: letter for name, letter in zip(KIND_NAMES, KIND_LETTERS, strict=True)}
    kinds = [letters[k] for _, _, k in state.connection_kinds()]
    lines = ["space tile      connections (S strength, F force, L leadership, - empty)"]
    for s in range(board.num_spaces):
        conns = []
        for c in board.incident[s]:
            a, b = board.connections[c]
            conns.append(f"{b if a == s else a}{kinds[c]}")
        lines.append(f"{s:>4}  {_tile(state, s):<9} {' '.join(conns)}")
    return lines


def _tile(state: AgamemnonState, s: int) -> str:
    if s == state.out_of_play:
        return "(out of play)"
    tile = state.tile_at(s)
    return "." if tile is None else f"{_OWNER_MARK[tile[0]]}:{tile[1]}"


def _strings(state: AgamemnonState) -> list[str]:
    lines = ["strings with tiles (kind, points, controller, connections):"]
    for string in state.strings():
        conns = string["connections"]
        if all(state.tile_at(x) is None for ab in conns for x in ab):
            continue
        ctrl = string["controller"]
        owner = PLAYER_NAMES[ctrl] if ctrl is not None else "tied"
        path = " ".join(f"{a}-{b}" for a, b in conns)
        lines.append(f"  {string['kind'][0].upper()} {len(conns):2d} {owner:<6} {path}")
    if len(lines) == 1:
        lines.append("  (none yet)")
    return lines


# --- the observation tensor (docs/research.md) -------------------------------------------------------
#: per space: the player's own tile codes, the opponent's, then "empty, in play" and "not in play"
OBS_SPACE = 2 * NUM_CODES + 2
_MINE, _THEIRS, _EMPTY, _NOT_IN_PLAY = 0, NUM_CODES, 2 * NUM_CODES, 2 * NUM_CODES + 1
OBS_SPACES = 0
#: per connection: one-hot of its kind (strength, force, leadership, empty)
OBS_CONNS = OBS_SPACES + MAX_SPACES * OBS_SPACE
#: own pool, then the opponent's (count / supply per code)
OBS_POOLS = OBS_CONNS + MAX_CONNECTIONS * len(KIND_NAMES)
#: drawn tiles, set-aside tiles (counts per code), named Oracle stacks (counts per stack)
OBS_HAND = OBS_POOLS + 2 * NUM_CODES
OBS_ASIDE = OBS_HAND + NUM_CODES
OBS_STACKS = OBS_ASIDE + NUM_CODES
#: the phase, one-hot
OBS_PHASE = OBS_STACKS + len(Stack)
#: the space of the Warp awaiting its swap, one-hot
OBS_WARP = OBS_PHASE + len(PHASE_NAMES)
#: the mover is me, turn / 15, tiles left this turn / 2, a weaver may be set aside
OBS_MISC = OBS_WARP + MAX_SPACES
#: live score of me and of the opponent / 66
OBS_SCORE = OBS_MISC + 4
OBS_SIZE = OBS_SCORE + 2


def observation_tensor(state: AgamemnonState, player: int) -> list[float]:
    """A flat vector of :data:`OBS_SIZE` floats seen from ``player`` (the offsets above)."""
    obs = [0.0] * OBS_SIZE
    n = state.game.board.num_spaces
    for s in range(MAX_SPACES):
        base = OBS_SPACES + s * OBS_SPACE
        tile = state.tile_at(s)
        if s >= n or s == state.out_of_play:
            obs[base + _NOT_IN_PLAY] = 1.0
        elif tile is None:
            obs[base + _EMPTY] = 1.0
        else:
            obs[base + (_MINE if tile[0] == player else _THEIRS) + CODE_INDEX[tile[1]]] = 1.0
    for c, (_, _, kind) in enumerate(state.connection_kinds()):
        obs[OBS_CONNS + len(KIND_NAMES) * c + KIND_NAMES.index(kind)] = 1.0
    for side, who in enumerate((player, 1 - player)):
        for c, count in enumerate(state.pool_counts(who)):
            obs[OBS_POOLS + side * NUM_CODES + c] = count / SUPPLY[c]
    for start, items in ((OBS_HAND, state.hand), (OBS_ASIDE, state.aside)):
        for code in items:
            obs[start + CODE_INDEX[code]] += 1.0
    for stack in state.named_stacks:
        obs[OBS_STACKS + STACK_NAMES.index(stack)] += 1.0
    obs[OBS_PHASE + PHASE_NAMES.index(state.phase)] = 1.0
    if state.warp_space is not None:
        obs[OBS_WARP + state.warp_space] = 1.0
    obs[OBS_MISC] = 1.0 if state.mover == player else 0.0
    obs[OBS_MISC + 1] = min(state.turn, NUM_TURNS - 1) / (NUM_TURNS - 1)
    obs[OBS_MISC + 2] = state.to_place / max(TURN_TILES)
    obs[OBS_MISC + 3] = 1.0 if state.phase == "place" and state.may_set_aside() else 0.0
    points = state.scores()
    obs[OBS_SCORE] = points[player] / MAX_CONNECTIONS
    obs[OBS_SCORE + 1] = points[1 - player] / MAX_CONNECTIONS
    return obs
