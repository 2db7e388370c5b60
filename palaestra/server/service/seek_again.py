"""An aborted game's seek goes back to the lobby (issue 29, part 7), as on Lichess.

When a game made from a seek (palaestra/server/service/seeks.py) is aborted before every seat
moved, the seek is posted again for the places that did not abort: one seek, with the same game,
options, players, clock, rated flag and rating range, the remaining places seated in their order
(the first of them is its poster), and room for the places that left. Its id is the game's id
followed by ``a`` (:func:`again_id`), so that a page that saw its game aborted knows where to look.

No new secret has to reach anybody: each remaining place's secret is the seat token it held in the
aborted game (the database has its hash already), so the same token polls, holds and withdraws the
seek (``X-Seek-Token``), and is the place's seat token in the game the seek makes next.

"Still connected": a place whose game websockets have all closed on this process (the process that
took the abort) is left out; the others are seated. A seek nobody holds (no lobby websocket said
``hold``, no poll with its token) ends as ``left`` ``grace`` seconds after it was posted again, not
the usual ``leave_seconds``: the game page of a player still there holds it at once; a player who
has gone (on another process, where this one cannot see it) loses it within ``grace`` seconds plus
a sweep.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from palaestra.server.seek_store import OPEN, STARTED, StoredSeek
from palaestra.server.service.seeks import SeekService

log = logging.getLogger("palaestra.server.lobby")

#: seconds a seek posted again stays without anybody holding it
GRACE = 15.0


def again_id(game_id: str) -> str:
    """The id of the seek posted again when the game ``game_id`` is aborted."""
    return f"{game_id}a"


async def seek_again(
    lobby: SeekService, game_id: str, aborter: int, gone: Callable[[int], bool], grace: float = GRACE
) -> StoredSeek | None:
    """Post the seek of the aborted game ``game_id`` again for the places other than ``aborter``'s
    whose holders are not known to be ``gone``; the seek posted, or None (the game was not made
    from a seek, nobody remains, or it was posted already)."""
    made = await asyncio.to_thread(lobby.store.made, game_id)
    if made is None or made.status != STARTED:
        return None
    places = [
        {**p, "hash": p["seat_hash"], "same_token": True}
        for p in made.places
        if int(p["seat"]) != aborter and not gone(int(p["seat"]))
    ]
    if not places or await asyncio.to_thread(lobby.store.get, again_id(game_id)) is not None:
        return None
    for place in places:
        place.pop("seat", None)
    now = datetime.now(UTC)
    poster = places[0]
    seek = StoredSeek(
        again_id(game_id),
        made.game,
        made.options,
        made.players,
        made.pool,
        made.time_control,
        made.rated,
        made.rating_min,
        made.rating_max,
        poster["account"],
        poster["key"],
        poster["hash"],
        now,
        now + timedelta(seconds=lobby.seek_seconds),
        now - timedelta(seconds=max(0.0, lobby.leave_seconds - grace)),
        OPEN,
        0,
        places,
    )
    await asyncio.to_thread(lobby.store.insert, seek)
    await lobby.feed.announce({"type": "seek", "seek": await lobby.feed.shown(seek)})
    return seek
