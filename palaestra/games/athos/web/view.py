"""The web view of Athos (``WebAssets.view`` in info.py): the map for board.js.

``web_data`` hands the renderer the board file in use (fields with their doubled hex coordinates
and terrain, the fields each start field and the summit touch), the seats' start fields and the
tile limits per turn (ATH-T8): the protocol's position names fields but carries no geometry, and
a game may be played on any board file (ATH-B2). (The undo policy is ``takeback.py``.)
"""

from __future__ import annotations

from typing import Any

from palaestra.core.game import Game
from palaestra.games.athos.game import (
    FLIP_COST,
    LIMITS,
    MOVEMENT_POINTS,
    TILES_PER_TERRAIN,
    AthosGame,
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
        "teams": game.team_variant,
        "max_tiles": max_tiles,
        "max_per_terrain": per_terrain,
        "tiles_per_terrain": TILES_PER_TERRAIN,
        "flip_cost": FLIP_COST,
        "movement_points": MOVEMENT_POINTS,
    }
