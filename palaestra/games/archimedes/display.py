"""Archimedes for eyes and networks: the text board and the observation tensor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.core.game import set_bits

if TYPE_CHECKING:
    from palaestra.games.archimedes.game import ArchimedesGame
    from palaestra.games.archimedes.rules import ArchimedesState

#: the largest distance (ARC-M1): all the cubes of three players in the rows through a cell
MAX_DISTANCE = 12
#: characters per cell in the text board
_WIDTH = 4


def observation_shape(game: ArchimedesGame) -> tuple[int, ...]:
    """``(3 * players + 1, cells)``: see :func:`observation_tensor`."""
    return (3 * game.num_players + 1, game.size)


def observation_tensor(state: ArchimedesState, player: int) -> list[float]:
    """Planes of the board's cells, players seen from ``player`` (k = 0 is ``player``, then the
    next in turn order): cubes of player k (n planes), goal cells of player k (n planes), each
    cube's distance / MAX_DISTANCE (1 plane), player k to move (n planes, all ones or zeros)."""
    g = state.game
    n = g.num_players
    size = g.size
    planes = [[0.0] * size for _ in range(3 * n + 1)]
    distance_plane = planes[2 * n]
    for k in range(n):
        q = (player + k) % n
        for c in state.cube_cells(q):
            planes[k][c] = 1.0
            distance_plane[c] = state.distance(c) / MAX_DISTANCE
        for c in set_bits(g.goal_mask[q]):
            planes[n + k][c] = 1.0
        if state.current_player == q:
            planes[2 * n + 1 + k] = [1.0] * size
    return [v for plane in planes for v in plane]


def _cell_text(state: ArchimedesState, cell: int | None, owner: dict[int, int], labels: bool) -> str:
    g = state.game
    b = g.board
    if cell is None:
        return ""
    if cell in owner:
        p = owner[cell]
        mark = "*" if g.goal_mask[p] >> cell & 1 else str(state.distance(cell))
        return f"{p + 1}:{mark}"
    if labels:
        return b.names[cell]
    up = sum(b.coords[cell]) == -1
    return "/\\" if up else "\\/"


def render(state: ArchimedesState, labels: bool = False) -> str:
    """The hexagon as text (``ArchimedesState.render``)."""
    g = state.game
    b = g.board
    owner = {c: p for p in range(g.num_players) for c in state.cube_cells(p)}
    us = [y - z for _, y, z in b.coords]
    umin, umax = min(us), max(us)
    by_row: dict[int, dict[int, int]] = {}
    for i, (x, y, z) in enumerate(b.coords):
        by_row.setdefault(x, {})[y - z] = i
    half = ((umax - umin + 1) * _WIDTH - _WIDTH) // 2

    def sides(left: str, middle: str, right: str) -> str:
        text = f"    {left}".ljust(half + 1) + middle.center(_WIDTH) + f"{right}   ".rjust(half)
        return text.rstrip()

    lines = [sides("NW", "N", "NE")]
    for x in sorted(by_row, reverse=True):
        row = by_row[x]
        slots = [_cell_text(state, row.get(u), owner, labels).center(_WIDTH) for u in range(umin, umax + 1)]
        lines.append(" " + "".join(slots).rstrip())
    lines.append(sides("SW", "S", "SE"))
    lines.append("")
    for p in range(g.num_players):
        cubes = []
        for c in state.cube_cells(p):
            mark = "home" if g.goal_mask[p] >> c & 1 else f"distance {state.distance(c)}"
            cubes.append(f"{b.names[c]} ({mark})")
        lines.append(f"{p + 1}: {g.player_name(p)}, to side {g.goal_sides[p]}: " + ", ".join(cubes))
    if state.end_reason is None:
        lines.append(f"to move: {g.player_name(state.to_move)}")
    else:
        lines.append(state.result_text())
    return "\n".join(lines)
