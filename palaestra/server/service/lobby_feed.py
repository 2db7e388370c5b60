"""The lobby's live feed (issue 29): what the lobby shows, and its changes pushed to every lobby
websocket.

This module owns the lobby's websockets of one process (their queues), the encoding of each change
once for all of them, the change's way to the other processes (the broker's lobby channel, Redis
pub/sub) and what the lobby lists: the open seeks as everybody sees them (no secret; each seated
member with their rating in the seek's pool) and the public games being played (their players'
ratings and their clocks). The seeks themselves, how they are posted, held, accepted, matched and
ended, are palaestra/server/service/seeks.py's; it tells the feed of every change.

The changes: ``{"type": "seek", "seek": SEEK}`` (new, or a place taken), ``{"type": "seek_gone",
"id": ID, "status": ..., "game": ID|None}`` and ``{"type": "game", "game": SUMMARY}`` (a public
game started, from a seek or an accepted challenge). A challenge's changes travel on the same
channel to its two members' lobby sockets (service/challenges.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from palaestra.core.registry import game_info
from palaestra.server.broker import Broker
from palaestra.server.seek_store import STARTED, SeekStore, StoredSeek
from palaestra.server.service.errors import DomainError
from palaestra.server.service.ratings import NEWCOMER, Rating, pool_of
from palaestra.server.service.session import Session
from palaestra.server.service.sessions import Sessions
from palaestra.server.service.view import clock_view

log = logging.getLogger("palaestra.server.lobby")

#: what a lobby websocket's queue gets when the server goes away
CLOSING = '{"type":"closing"}'


class LobbyFeed:
    """The lobby's listing and its live changes, for the lobby websockets of one process."""

    def __init__(self, store: SeekStore, sessions: Sessions, broker: Broker) -> None:
        self.store = store
        self.sessions = sessions
        self.broker = broker
        #: the lobby's websockets of this process (each socket's queue of messages to send)
        self.subscribers: set[asyncio.Queue[str]] = set()

    # --- the websockets ---------------------------------------------------------------------
    def subscribe(self, queue: asyncio.Queue[str]) -> None:
        """A lobby websocket's queue (palaestra/server/api/lobby.py) gets every change from now."""
        self.subscribers.add(queue)

    def unsubscribe(self, queue: asyncio.Queue[str]) -> None:
        self.subscribers.discard(queue)

    def on_message(self, message: str) -> None:
        """A change made by another process (through the broker): pushed to our websockets."""
        for queue in list(self.subscribers):
            queue.put_nowait(message)

    async def announce(self, doc: Mapping[str, Any]) -> None:
        """Push a change to every lobby websocket: the other processes' first (through the broker),
        then ours. Encoded once for all. In that order the other processes start their sends while
        this one makes its own; queued first here, this process's sends ran while the publish
        waited on Redis, and the others heard of the change only after them (docs/benchmarks.md,
        "Lobby under load")."""
        message = json.dumps(doc)
        await self.broker.publish_lobby(message)
        self.on_message(message)

    async def announce_game(self, session: Session) -> None:
        """Tell the lobby's websockets that a public game started (a private one is nobody's
        business)."""
        if session.public:
            await self.announce({"type": "game", "game": await self.game_doc(session)})

    def close_watchers(self) -> None:
        """Tell every lobby websocket that the server goes away (they close with 1001)."""
        for queue in list(self.subscribers):
            queue.put_nowait(CLOSING)

    # --- what the lobby shows ---------------------------------------------------------------
    def seek_doc(self, seek: StoredSeek, ratings: Mapping[int, float] | None = None) -> dict[str, Any]:
        """A seek as everybody sees it (no secret)."""
        info = game_info(seek.game)
        return {
            "id": seek.id,
            "game": seek.game,
            "title": info.title,
            "options": seek.options,
            "players": seek.players,
            "pool": seek.pool,
            "time_control": seek.time_control,
            "rated": seek.rated,
            "rating_range": None
            if seek.rating_min is None and seek.rating_max is None
            else {"min": seek.rating_min, "max": seek.rating_max},
            "seated": [
                {
                    "name": p["name"],
                    "member": p["account"] is not None,
                    "rating": None if ratings is None or p["account"] is None else ratings.get(p["account"]),
                }
                for p in seek.places
            ],
            "status": seek.status,
            "game_id": seek.game_id if seek.status == STARTED else None,
            "created": seek.created_at.isoformat(),
            "expires": seek.expires_at.isoformat(),
        }

    async def shown(self, seek: StoredSeek) -> dict[str, Any]:
        """A seek as everybody sees it, with its seated members' ratings."""
        accounts = [p["account"] for p in seek.places if p["account"] is not None]
        ratings = await self.ratings(seek.pool, accounts) if accounts else {}
        return self.seek_doc(seek, {k: round(v) for k, v in ratings.items()})

    async def ratings(self, pool: str, accounts: list[int]) -> dict[int, float]:
        """Shown ratings of these accounts in ``pool`` (a newcomer's 1500 for those without)."""
        found = await asyncio.to_thread(self.store.ratings, pool, accounts)
        return {a: Rating(*found[a]).rating if a in found else NEWCOMER for a in accounts}

    async def listing(self) -> list[dict[str, Any]]:
        """The open seeks, oldest first, as everybody sees them."""
        seeks = await asyncio.to_thread(self.store.open_seeks, datetime.now(UTC))
        accounts = sorted({p["account"] for s in seeks for p in s.places if p["account"] is not None})
        out = []
        by_pool: dict[str, dict[int, float]] = {}
        for seek in seeks:
            if accounts and seek.pool not in by_pool:
                by_pool[seek.pool] = await self.ratings(seek.pool, accounts)
            ratings = {k: round(v) for k, v in by_pool.get(seek.pool, {}).items()}
            out.append(self.seek_doc(seek, ratings))
        return out

    async def games(self, limit: int = 30) -> list[dict[str, Any]]:
        """The public games being played, newest first, each with its players' ratings and its
        clock (:meth:`game_doc`); a game that cannot be loaded is left out (logged)."""
        out = []
        for row in await self.sessions.list_games(limit, status="active"):
            try:
                session = await self.sessions.get(row.id)
            except DomainError as err:
                log.warning("lobby game %s left out: %s", row.id, err.message)
                continue
            out.append(await self.game_doc(session))
        return out

    async def game_doc(self, session: Session) -> dict[str, Any]:
        """A game of the lobby: its summary, whether it is rated, each seat's rating in the game's
        pool (null for guests and the AI) and its clock (null without one)."""
        accounts = [s.account for s in session.seats if s.account is not None]
        ratings = await self.ratings(pool_of(session.game).id, accounts) if accounts else {}
        return {
            **session.summary().model_dump(mode="json"),
            "rated": session.rated,
            "ratings": [None if s.account is None else round(ratings[s.account]) for s in session.seats],
            "clock": None
            if session.clock is None
            else clock_view(session.clock, session.now()).model_dump(mode="json"),
        }

    async def state(self) -> dict[str, Any]:
        """The lobby as a page opens it: the open seeks and the public games being played."""
        return {"seeks": await self.listing(), "games": await self.games()}
