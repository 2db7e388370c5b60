"""The games in memory: load on demand, evict when idle, write through, push to watchers.

Every change of a game goes the same way (``apply``, ``write``, ``write_seats``):

1. under the game's lock the caller has checked the change (token, turn, ply, legality) and built
   a *copy* of the state and the record;
2. the copy is written to the database, guarded by the row's version (one transaction) — only then
3. it replaces the session's state in memory; the caller then ``broadcast``s it to every
   websocket and answers.

A write that loses the version race (another process moved the game on) is a 409 ``conflict``
and the cached session is dropped, so the next request loads the row, the single arbiter.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from palaestra.core.game import State
from palaestra.core.record import Record
from palaestra.server.db import Store, VersionConflict
from palaestra.server.service.errors import ApiError
from palaestra.server.service.persistence import iso, load_server_game, session_from_stored
from palaestra.server.service.session import UNDO_DEPTH, Seat, Session, showable

log = logging.getLogger("palaestra.server")

#: what a game id looks like (anything else is not a game: 404 without asking the database)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class Sessions:
    """The sessions of one server process, backed by a :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.loaded: dict[str, Session] = {}
        self._load_lock = asyncio.Lock()
        #: games untouched this long (seconds) and not watched are dropped from memory
        self.idle_seconds = 300.0
        #: called after every applied action (the app counts them for /metrics)
        self.on_action: Callable[[], None] = lambda: None

    # --- loading ----------------------------------------------------------------------------
    async def get(self, game_id: str) -> Session:
        """The game ``game_id`` (from memory, else loaded from its row); 404 ``game_not_found``."""
        session = self.loaded.get(game_id)
        if session is not None:
            session.touched = time.monotonic()
            return session
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, "game_not_found", "there is no game with this id")
        async with self._load_lock:
            session = self.loaded.get(game_id)
            if session is not None:
                return session
            stored = await asyncio.to_thread(self.store.get, game_id)
            if stored is None:
                raise ApiError(404, "game_not_found", f"there is no game {game_id!r}")
            session = await asyncio.to_thread(session_from_stored, stored)
            self.loaded[game_id] = session
            return session

    def add(self, session: Session) -> None:
        self.loaded[session.id] = session

    # --- eviction ---------------------------------------------------------------------------
    def _idle(self, session: Session, now: float) -> bool:
        return (
            not session.subscribers
            and not session.lock.locked()
            and (session.runner is None or session.runner.done())
            and now - session.touched >= self.idle_seconds
        )

    def evict(self, session: Session) -> None:
        if self.loaded.get(session.id) is session:
            del self.loaded[session.id]

    def evict_idle(self) -> int:
        """Drop the games nobody watched or changed for ``idle_seconds`` (memory stays bounded:
        they are loaded again from the database on the next request). Returns how many."""
        now = time.monotonic()
        idle = [s for s in self.loaded.values() if self._idle(s, now)]
        for session in idle:
            self.evict(session)
        return len(idle)

    # --- writing (the game's lock held) -----------------------------------------------------
    async def apply(self, session: Session, action: int) -> None:
        """Apply a legal action to copies, commit them, then make them current."""
        before = session.state
        state = before.clone()
        record = copy.deepcopy(session.record)
        record.apply(state, action)  # ends the record when the game is over or its result settled
        status = "finished" if record.over else "active"
        await self.write(session, state, record, status)
        self.on_action()
        session.undo_stack.append((before, action))
        del session.undo_stack[:-UNDO_DEPTH]

    def lost_race(self, session: Session) -> ApiError:
        """The row moved on without this process (another process, or a write we thought failed):
        forget the cached session, so the next request loads the row, the single arbiter."""
        self.evict(session)
        return ApiError(409, "conflict", "the game was changed by another request; reload it and try again")

    async def write(self, session: Session, state: State, record: Record, status: str) -> None:
        """Store first (version-guarded), then change memory. A database failure raises
        StorageError (a clean 503 at the edge), a lost race a 409 ``conflict``."""
        try:
            await asyncio.to_thread(
                self.store.update,
                session.id,
                expect_version=session.version,
                version=session.version + 1,
                ply=len(record.moves),
                status=status,
                record=record.to_json(),
                snapshot=state.to_json(),
            )
        except VersionConflict:
            raise self.lost_race(session) from None
        session.state = state
        session.record = record
        session.status = status
        session.updated_at = datetime.now(UTC)
        session.version += 1

    async def write_seats(self, session: Session, seats: list[Seat]) -> None:
        try:
            await asyncio.to_thread(
                self.store.update_seats,
                session.id,
                [s.to_json() for s in seats],
                expect_version=session.version,
                version=session.version + 1,
            )
        except VersionConflict:
            raise self.lost_race(session) from None
        session.seats = seats
        session.updated_at = datetime.now(UTC)
        session.version += 1

    # --- pushing ----------------------------------------------------------------------------
    def subscribe(self, session: Session) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        session.subscribers.add(queue)
        return queue

    def unsubscribe(self, session: Session, queue: asyncio.Queue[dict[str, Any]]) -> None:
        session.subscribers.discard(queue)

    async def broadcast(self, session: Session) -> None:
        if not session.subscribers:
            return
        message = {"type": "state", "game": session.view()}
        for queue in list(session.subscribers):
            queue.put_nowait(message)

    def close_watchers(self) -> None:
        """Tell every websocket that the server is going away (they close with 1001)."""
        for session in self.loaded.values():
            for queue in list(session.subscribers):
                queue.put_nowait({"type": "closing"})

    # --- listing ----------------------------------------------------------------------------
    async def list_games(self, limit: int = 50) -> list[dict[str, Any]]:
        """The lobby: public games, newest first; a row that cannot be shown is logged and left
        out (never an error for the whole list)."""
        rows = await asyncio.to_thread(self.store.summaries, limit)
        out = []
        for row in rows:
            try:
                item = self._summary(row)
            except Exception:
                log.exception("game %r cannot be listed; left out of the lobby", row.get("id"))
                continue
            if not showable(item):
                log.error("game %r holds text that cannot be shown; left out of the lobby", row.get("id"))
                continue
            out.append(item)
        return out

    def _summary(self, row: Mapping[str, Any]) -> dict[str, Any]:
        session = self.loaded.get(row["id"])
        if session is not None:
            return session.summary()
        game = load_server_game(row["game"], row["options"])
        seats = [Seat.from_json(s) for s in row["seats"]]
        return {
            "id": row["id"],
            "game": game.name,
            "title": game.title,
            "options": row["options"],
            "seats": [s.public(i, game) for i, s in enumerate(seats)],
            "ply": row["ply"],
            "status": row["status"],
            "to_move": None,
            "result": None,
            "updated": iso(row["updated_at"]),
        }
