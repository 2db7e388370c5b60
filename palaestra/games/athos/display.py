"""Athos for people and for learning programs: the text board of ``palaestra play`` and the
observation tensor (docs/athos.md, *Playing in the terminal*; docs/research.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.games.athos.board import START_LETTERS
from palaestra.games.athos.constants import (
    MAX_HANDICAP,
    MAX_PLAYERS,
    MAX_POINTS,
    MONKS,
    MOST_PER_TERRAIN,
    MOST_TILES,
    OPEN,
    PHASE_NAMES,
    RUBBLE,
    STONES,
    TILES_PER_TERRAIN,
    Phase,
)

if TYPE_CHECKING:  # the rules import this module; the types only for the checker
    from palaestra.games.athos.game import AthosGame
    from palaestra.games.athos.rules import AthosState


# --- the text board ---------------------------------------------------------------------------
def _cell(state: AthosState, f: int) -> str:
    """A field in three characters: terrain letter, then tile (``#`` rubble, ``.`` open), monks
    by player number, ``*`` for an Athos stone."""
    b = state.board
    letter = b.terrains[b.terrain[f]][0]
    side = state.tile[f]
    mark = "#" if side == RUBBLE else ("." if side == OPEN else " ")
    monks = _monks_on(state, f)
    if state.stone[f] >= 0:
        inner = (monks[:1] or mark) + "*"
    elif monks:
        inner = monks[:2] if len(monks) > 1 else monks + mark
    else:
        inner = mark * 2
    return letter + inner


def _monks_on(state: AthosState, node: int) -> str:
    return "".join(str(p + 1) for p, ms in enumerate(state.monks) for v in ms if v == node)


def _board_lines(state: AthosState, labels: bool) -> list[str]:
    """The summit line, the rows of fields from the top, the start fields."""
    b = state.board
    width = 2 * (b.max_col + 2)
    pad = " " * (4 if labels else 0)
    arrivals = " ".join(str(p + 1) for p in state.arrivals) if state.arrivals else "no arrivals yet"
    lines = [pad + f"summit: {arrivals}".center(width)]
    if labels:
        header = [" "] * width
        for c in range(b.min_col, b.max_col + 1):
            header[2 * c] = chr(ord("a") + c)
        lines.append(pad + "".join(header).rstrip())
    for r in range(b.max_row, b.min_row - 1, -1):
        row = [" "] * (width + 2)
        for c in range(b.min_col, b.max_col + 1):
            f = b.by_coord.get((c, r))
            if f is not None:
                for k, ch in enumerate(_cell(state, f)):
                    row[2 * c + k] = ch
        prefix = f"{r:>3} " if labels else ""
        lines.append(prefix + "".join(row).rstrip())
    starts = [
        f"[{s}:{_monks_on(state, sid) or '-'}]" for s, sid in zip(START_LETTERS, b.start_ids, strict=True)
    ]
    lines.append(pad + " ".join(starts).center(width).rstrip())
    return lines


def _player_lines(state: AthosState) -> list[str]:
    """The legend, each player's arrivals and stones, the teams, the supply."""
    g = state.game
    b = state.board
    legend = ", ".join(f"{t[0]} {t}" for t in b.terrains)
    lines = ["", f"terrain: {legend}; ## rubble, .. open tile, * Athos stone, digits: monks"]
    for p in range(g.num_players):
        arrived = MONKS - len(state.monks[p])
        team = f", team {g.team_name(g.side_of[p])}" if g.team_variant else ""
        lines.append(f"{p + 1} = {g.player_name(p)}{team}: {arrived} arrived, {state.stones_left[p]} stones")
    if g.team_variant:
        lines.append(
            "; ".join(
                f"team {g.team_name(t)}: {state.side_arrived(t)} of {MONKS * len(g.members[t])} arrived"
                for t in range(g.num_sides)
            )
        )
    supply = ", ".join(f"{t} {state.supply[i]}" for i, t in enumerate(b.terrains))
    lines.append(f"supply: {supply}")
    return lines


def _turn_lines(state: AthosState) -> list[str]:
    """Whose turn, the phase, the points left or the tiles placed (or the result)."""
    g = state.game
    if state.phase == Phase.OVER:
        return [f"game over after round {state.round}: {state.result_text()}"]
    who = g.player_name(state.seat)
    if state.phase == Phase.HANDICAP:
        return [f"handicap (ATH-V2): {who} places {state.handicap_left} more tile(s)"]
    final = " (final round)" if state.final_round else ""
    lines = [f"round {state.round}{final}, {who} to play, {PHASE_NAMES[state.phase]} phase"]
    if state.phase == Phase.MOVE:
        lines.append(f"movement points left: {state.points}")
    else:
        placed = ", ".join(f"{t} {state.placed[i]}" for i, t in enumerate(state.board.terrains))
        lines.append(
            f"tiles placed this turn: {state.placed_total} of {g.max_tiles} "
            f"(at most {g.max_per_terrain} per terrain): {placed}"
        )
    return lines


def render(state: AthosState, labels: bool = False) -> str:
    """The board, the players and the turn as text (docs/athos.md, *Playing in the terminal*)."""
    return "\n".join(_board_lines(state, labels) + _player_lines(state) + _turn_lines(state))


# --- the observation (docs/research.md) ---------------------------------------------------------
def _planes(terrains: int) -> int:
    """Planes over the board's nodes: one per terrain, start fields, summit, rubble, open tiles,
    stones, then the monks of each player seen from the observer."""
    return terrains + 5 + MAX_PLAYERS


def _extras(terrains: int) -> int:
    """Single values: the seat to move, the phase, the points, the tiles placed per terrain and
    in all, the supply, stones left and monks arrived per player, then seven facts of the game."""
    return MAX_PLAYERS + len(Phase) + 1 + terrains + 1 + terrains + 2 * MAX_PLAYERS + 7


def observation_shape(game: AthosGame) -> tuple[int, ...]:
    terrains = len(game.board.terrains)
    return (_planes(terrains) * game.board.size + _extras(terrains),)


def _seen_from(player: int, players: int, values: list[float]) -> list[float]:
    """Per-player values from ``player``'s seat on (the next in turn order second...), padded to
    MAX_PLAYERS."""
    ordered = [values[(player + k) % players] for k in range(players)]
    return ordered + [0.0] * (MAX_PLAYERS - players)


def observation_tensor(state: AthosState, player: int) -> list[float]:
    """Node planes (see :func:`_planes`), then the values of :func:`_extras`, all in [0, 1]."""
    g = state.game
    b = state.board
    size = b.size
    n = g.num_players
    terrains = len(b.terrains)
    planes = [0.0] * (_planes(terrains) * size)
    start_plane, summit_plane = terrains, terrains + 1
    rubble_plane, open_plane, stone_plane, monk_plane = range(terrains + 2, terrains + 6)
    for f in range(b.n):
        planes[b.terrain[f] * size + f] = 1.0
        if state.tile[f] == RUBBLE:
            planes[rubble_plane * size + f] = 1.0
        elif state.tile[f] == OPEN:
            planes[open_plane * size + f] = 1.0
        if state.stone[f] >= 0:
            planes[stone_plane * size + f] = 1.0
    for s in b.start_ids:
        planes[start_plane * size + s] = 1.0
    planes[summit_plane * size + b.summit] = 1.0
    for k in range(n):
        for v in state.monks[(player + k) % n]:
            planes[(monk_plane + k) * size + v] += 1.0 / MONKS
    to_move = [0.0] * MAX_PLAYERS
    if state.phase != Phase.OVER:
        to_move[(state.seat - player) % n] = 1.0
    phase = [1.0 if state.phase == p else 0.0 for p in Phase]
    extra = [
        *to_move,
        *phase,
        state.points / MAX_POINTS,
        *(state.placed[t] / MOST_PER_TERRAIN for t in range(terrains)),
        state.placed_total / MOST_TILES,
        *(state.supply[t] / TILES_PER_TERRAIN for t in range(terrains)),
        *_seen_from(player, n, [state.stones_left[p] / STONES for p in range(n)]),
        *_seen_from(player, n, [(MONKS - len(state.monks[p])) / MONKS for p in range(n)]),
        len(state.arrivals) / (MONKS * MAX_PLAYERS),
        state.round / g.round_limit,
        1.0 if state.final_round else 0.0,
        state.handicap_left / MAX_HANDICAP,
        1.0 if state.crowded else 0.0,
        1.0 if g.team_variant else 0.0,
        1.0 if g.bare_stone else 0.0,
    ]
    return planes + extra
