"""Web hooks of Athos (see palaestra/server/webhooks.py): the map for board.js, and undo.

``web_data`` hands the renderer the board file in use (fields with their doubled hex coordinates
and terrain, the fields each start field and the summit touch), the seats' start fields and the
tile limits per turn (ATH-T8): the protocol's position names fields but carries no geometry, and
a game may be played on any board file (ATH-B2).

``can_undo``: Athos has no chance and no hidden information, and nobody else acts during a turn,
so a player may take back any of their own actions of the current turn (steps, flips, end-move,
an Athos stone, placements) until the turn ends with ``end-turn`` (ATH-T9), which is final. The
handicap placements (ATH-V2) are a phase of their own: they can be taken back while it lasts, not
once the first turn has begun.
"""

from __future__ import annotations

from typing import Any

from palaestra.core.game import Game, State
from palaestra.games.athos.game import (
    FLIP_COST,
    LIMITS,
    MOVEMENT_POINTS,
    TILES_PER_TERRAIN,
    AthosGame,
    AthosState,
)


def web_data(game: Game) -> dict[str, Any]:
    if not isinstance(game, AthosGame):
        raise TypeError("not an Athos game")
    b = game.board
    starts = {
        letter: sorted(b.names[f] for f in b.adj[b.start_ids[k]] if f < b.n)
        for k, letter in enumerate("ABCDE")
    }
    max_tiles, per_terrain = LIMITS[game.num_players]
    return {
        "board": b.title,
        "terrains": list(b.terrains),
        "fields": [[b.names[f], b.cols[f], b.rows[f], b.terrain[f]] for f in range(b.n)],
        "starts": starts,
        "summit": sorted(b.names[f] for f in b.adj[b.summit] if f < b.n),
        "seats": list(game.seats),
        "sides": list(game.side_of),
        "teams": game.teams,
        "max_tiles": max_tiles,
        "max_per_terrain": per_terrain,
        "tiles_per_terrain": TILES_PER_TERRAIN,
        "flip_cost": FLIP_COST,
        "movement_points": MOVEMENT_POINTS,
    }


def can_undo(before: State, action: int, after: State) -> bool:
    if not isinstance(before, AthosState) or not isinstance(after, AthosState):
        return False
    if after.is_terminal() or before.current_player != after.current_player:
        return False
    if before.action_to_string(action) == "end-turn":
        return False
    b, a = before.to_position(), after.to_position()
    if b["round"] != a["round"]:
        return False
    return bool((b["phase"] == "handicap") == (a["phase"] == "handicap"))
