"""The games in memory: load on demand, evict when idle, store each change, push to watchers.

:class:`Sessions` owns the set of games in memory, their storage and the fan-out; what a change
of a game *is* belongs to the game's :class:`Session` (its transitions, palaestra/server/service/
session.py). Every change goes the same way:

1. under the game's lock (``change``) the session computes the change (``session.act(...)``,
   ``session.flag_fall(now)``, ...): it checks it (turn, ply, time, legality) and builds a
   :class:`~palaestra.server.service.change.Change` from copies of the state and the record;
2. ``commit`` writes it to the database, guarded by the row's version (one transaction, with what
   else it causes: ratings, notifications) — only then
3. ``commit`` installs it in the session; the caller then ``broadcast``s it to every websocket
   and to the other processes, and answers.

A write that loses the version race (another process moved the game on) is a 409 ``conflict``;
the session takes the row as it is now (the single arbiter) and pushes it.

With a shared ``broker`` (Redis, palaestra/server/broker.py) other processes change the same games,
and ``broadcast`` also tells them. A game held in memory is used as it is only while it is known
to be current: this process listens to the game's notices (subscription confirmed, connection
unbroken), checked the row's version since that began, at most ``recheck_seconds`` ago, and no
notice announced a newer version. Otherwise ``get`` reads the row's version (one indexed read)
and reloads a game that moved on. Whatever the copy, every change is still guarded by the row's
version, and a refusal is given only from the row's current version (``judge``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from palaestra.core.game import State
from palaestra.core.record import Record
from palaestra.server.broker import Broker
from palaestra.server.db import StorageError, Store, Then, VersionConflict
from palaestra.server.service.change import Change
from palaestra.server.service.clock import Clock
from palaestra.server.service.errors import DomainError
from palaestra.server.service.persistence import (
    iso,
    load_server_game,
    session_from_stored,
    stored_from_session,
)
from palaestra.server.service.session import Message, Seat, Session, showable
from palaestra.server.service.view import GameSummary, seat_views

log = logging.getLogger("palaestra.server")

#: what a game id looks like (anything else is not a game: 404 without asking the database)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

T = TypeVar("T")


class Sessions:
    """The sessions of one server process, backed by a :class:`Store`."""

    def __init__(self, store: Store, broker: Broker | None = None) -> None:
        self.store = store
        self.broker = broker or Broker()
        self._background: set[asyncio.Task[None]] = set()
        self.loaded: dict[str, Session] = {}
        self._load_lock = asyncio.Lock()
        #: games untouched this long (seconds) and not watched are dropped from memory
        self.idle_seconds = 300.0
        #: called after every applied action (the app counts them for /metrics)
        self.on_action: Callable[[], None] = lambda: None
        #: the server's time for the clocks (seconds since the epoch); tests give their own
        self.now: Callable[[], float] = time.time
        #: with other processes: a game known current by its notices is checked against its row
        #: again after this long all the same (see ``current``)
        self.recheck_seconds = 10.0
        #: reads of a row's version (``check``), for the tests; ``on_check`` counts them for /metrics
        self.checks = 0
        self.on_check: Callable[[], None] = lambda: None
        #: what else to write in the transaction that finishes a game (its ratings, if rated:
        #: palaestra/server/service/rated.py); given the session and its new record
        self.on_finish: Callable[[Session, Record], Then | None] = lambda session, record: None
        #: what else a write tells (the notifications it causes: palaestra/server/service/
        #: notifications.py), given the session as it was, the new state, status, seats and
        #: clock; ``after_write`` is called once such a write is committed
        self.on_write: Callable[[Session, State, str, list[Seat], Clock | None], Then | None] = (
            lambda session, state, status, seats, clock: None
        )
        self.after_write: Callable[[], None] = lambda: None
        #: the same for a new game (``SeatService.create``), given it and the account creating it
        self.on_start: Callable[[Session, int | None], Then | None] = lambda session, creator: None
        #: the games whose view caches are kept, used last at the end (issue 31, finding 4: the
        #: cached view and its JSON took some 25 KB of a played game's 54 in memory)
        self.view_cache_games = 500
        self._view_cached: OrderedDict[str, None] = OrderedDict()

    # --- loading ----------------------------------------------------------------------------
    async def get(
        self, game_id: str, *, fresh: bool = False, ply: int | None = None, version: int | None = None
    ) -> Session:
        """The game ``game_id`` (from memory, else loaded from its row); 404 ``game_not_found``.

        With other processes, a game held in memory is checked against its row's version unless
        it is known to be current (``current``); always with ``fresh``, and when the request names
        another ``ply`` or a newer ``version`` than the copy has (the client saw a change made
        through another process whose notice has not arrived yet)."""
        session = self.loaded.get(game_id)
        if session is not None:
            session.touched = time.monotonic()
            if self.broker.shared and (
                fresh
                or not self.current(session)
                or (ply is not None and ply != session.ply)
                or (version is not None and version > session.version)
            ):
                await self.check(session)
            return session
        if not GAME_ID.fullmatch(game_id):
            raise DomainError("game_not_found", "there is no game with this id")
        async with self._load_lock:
            session = self.loaded.get(game_id)
            if session is not None:
                return session
            stored = await asyncio.to_thread(self.store.get, game_id)
            if stored is None:
                raise DomainError("game_not_found", f"there is no game {game_id!r}")
            session = await asyncio.to_thread(session_from_stored, stored)
            self.add(session)
            return session

    def add(self, session: Session) -> None:
        session.now = self.now
        session.on_view_cached = self._keep_view
        self.loaded[session.id] = session
        self.broker.follow(session.id)  # its notices from now on (checked once confirmed)

    def _keep_view(self, session: Session) -> None:
        """``session`` made its view anew: keep its caches, and drop those of the game used
        longest ago beyond ``view_cache_games`` (a game in play keeps its own: it is used last)."""
        cached = self._view_cached
        cached[session.id] = None
        cached.move_to_end(session.id)
        while len(cached) > self.view_cache_games:
            oldest, _ = cached.popitem(last=False)
            other = self.loaded.get(oldest)
            if other is not None and other is not session:
                other.drop_view_caches()

    def current(self, session: Session) -> bool:
        """True if ``session`` is known to be the row's current version without reading it: this
        process has heard every notice of the game since it last checked the row (the broker's
        token is the same), that was at most ``recheck_seconds`` ago, and no notice announced a
        newer version. The time limit bounds how long a notice that was never sent (a process
        killed between storing a change and announcing it) leaves the copy behind."""
        token = self.broker.listening(session.id)
        return (
            token is not None
            and session.checked == token
            and time.monotonic() - session.checked_at < self.recheck_seconds
            and self.broker.announced(session.id) <= session.version
        )

    async def check(self, session: Session) -> bool:
        """Read the row's version and reload the game if it moved on (the row at once if a notice
        said so); True if it had. The copy is then current as long as the broker's token read
        before the read stays the same."""
        token = self.broker.listening(session.id)  # every change after this is announced to us
        started = time.monotonic()
        if self.broker.announced(session.id) > session.version:
            stored_version = None  # behind for sure: the row is read at once, not its version first
        else:
            self.checks += 1
            self.on_check()
            stored_version = await asyncio.to_thread(self.store.version, session.id)
        changed = False
        if stored_version is None or stored_version != session.version:
            async with session.lock:
                changed = await self.reload(session)
        session.checked, session.checked_at = token, started
        if changed:  # a change this process had not heard of: its websockets have not either
            await self.push(session)
        return changed

    async def judge(self, session: Session, work: Callable[[Session], Awaitable[T]]) -> T:
        """``work(session)``, whose refusals (a ``DomainError`` not in ``FAILURES``) stand only if
        given from the row's current version: with other processes a copy used without reading its row may be
        a notice behind (a seat joined, a move made through another process), so the row's
        version is checked and, if it moved on, the request is judged again on the current game.
        (A change is safe without this: it is guarded by the row's version; a change that lost
        the race to the row, 409 ``conflict``, was judged on a copy now reloaded, so it is judged
        again at once.)"""
        try:
            return await work(session)
        except DomainError as err:
            if not self.broker.shared or err.failure:
                raise
            if err.code != "conflict" and not await self.check(session):
                raise
        return await work(session)

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
            self._view_cached.pop(session.id, None)
            self.broker.unfollow(session.id)

    def evict_idle(self) -> int:
        """Drop the games nobody watched or changed for ``idle_seconds`` (memory stays bounded:
        they are loaded again from the database on the next request). Returns how many."""
        now = time.monotonic()
        idle = [s for s in self.loaded.values() if self._idle(s, now)]
        for session in idle:
            self.evict(session)
        return len(idle)

    # --- writing ---------------------------------------------------------------------------
    async def change(
        self, session: Session, transition: Callable[[Session], Change | None], then: Then | None = None
    ) -> Change | None:
        """Change a game under its lock: ``transition(session)`` computes the change from the
        game as it is (a ``Session`` method; it refuses with a ``DomainError``, or gives None:
        nothing to do), then ``commit`` stores and installs it. Returns the change made."""
        async with session.lock:
            change = transition(session)
            if change is not None:
                await self.commit(session, change, then)
            return change

    async def commit(self, session: Session, change: Change, then: Then | None = None) -> None:
        """Store ``change`` (computed by ``session`` from the game as it is, the game's lock
        held), guarded by the row's version, then make it the session's game. ``then`` writes
        more in the same transaction (who holds a seat by account, the notifications of a rematch
        offer), as do ``on_finish`` and ``on_write``. A database failure raises StorageError (a
        clean 503 at the edge), a lost race a 409 ``conflict`` (``_lost_race``: the session then
        holds the row as it is)."""
        if change.row == "game":
            finishing = change.status == "finished" and session.status == "active"
            then = both(then, self.on_finish(session, change.record) if finishing else None)
        if change.row != "rematch":
            then = both(then, self.on_write(session, change.state, change.status, change.seats, change.clock))
        try:
            await asyncio.to_thread(self._write(session, change, then))
        except VersionConflict:
            raise await self._lost_race(session) from None
        install(session, change, session.version + 1, datetime.now(UTC))
        self.after_write()
        if change.action is not None:
            self.on_action()

    def _write(self, session: Session, change: Change, then: Then | None) -> Callable[[], None]:
        """The write of ``change`` to the row of ``session`` as its next version, to run in a
        thread (its documents are made here, on the event loop, which owns the session's caches)."""
        write: Callable[..., None]
        if change.row == "rematch":
            assert change.rematch is not None
            write = functools.partial(self.store.update_rematch, session.id, change.rematch)
        else:
            clock = None if change.clock is None else change.clock.to_json()
            deadline = None if change.clock is None else change.clock.deadline()
            if change.row == "seats":
                seats = [s.to_json() for s in change.seats]
                write = functools.partial(
                    self.store.update_seats, session.id, seats, clock=clock, deadline=deadline
                )
            else:
                record = change.record
                write = functools.partial(
                    self.store.update,
                    session.id,
                    ply=len(record.moves),
                    status=change.status,
                    record=record.to_json(moves=session.moves_json(record.moves)),
                    snapshot=change.state.to_json(),
                    clock=clock,
                    deadline=deadline,
                )
        return functools.partial(
            write, expect_version=session.version, version=session.version + 1, then=then
        )

    async def insert(self, session: Session, then: Then | None, creator: int | None) -> None:
        """Store a new game (made by ``creator``'s account, if any; ``then`` writes more in the
        same transaction), then hold it in memory."""
        then = both(then, self.on_start(session, creator))
        await asyncio.to_thread(self.store.insert, stored_from_session(session), then)
        self.add(session)
        self.after_write()

    async def _lost_race(self, session: Session) -> DomainError:
        """The row moved on without this process (another process, or a write we thought failed):
        take the row, the single arbiter, as it is now, and push it here. If it cannot be read,
        forget the cached session, so the next request loads the row."""
        try:
            changed = await self.reload(session)
        except (StorageError, DomainError):
            changed = False
            self.evict(session)
        if changed:
            self._in_background(self.push(session))
        return DomainError("conflict", "the game was changed by another request; reload it and try again")

    async def reload(self, session: Session) -> bool:
        """Bring a loaded game up to its row (the lock held); True if the row had moved on.
        Subscribers, lock, agents and runner stay; the analyses are made again."""
        stored = await asyncio.to_thread(self.store.get, session.id)
        if stored is None or stored.version == session.version:
            return False
        row = await asyncio.to_thread(session_from_stored, stored, session)
        install(session, Change.of(row), row.version, row.updated_at)
        session.public, session.hints, session.rated = row.public, row.hints, row.rated
        session.secret = row.secret
        session.analyses.clear()
        return True

    # --- pushing ----------------------------------------------------------------------------
    def subscribe(
        self, session: Session, queue: asyncio.Queue[Message] | None = None
    ) -> asyncio.Queue[Message]:
        queue = asyncio.Queue() if queue is None else queue
        session.subscribers.add(queue)
        return queue

    def unsubscribe(self, session: Session, queue: asyncio.Queue[Message]) -> None:
        session.subscribers.discard(queue)

    async def watch(
        self, session: Session, queue: asyncio.Queue[Message] | None = None
    ) -> asyncio.Queue[Message]:
        """Subscribe to a game's changes, other processes' included (a shared broker listens
        before this returns; the game is then checked against its row). ``queue``: where the
        messages go (a websocket's, which bounds its pending bytes); default a new one."""
        await self.broker.watch(session.id)
        queue = self.subscribe(session, queue)
        if self.broker.shared:  # a change made elsewhere before we listened: reloaded
            await self.get(session.id, fresh=True)
        return queue

    async def unwatch(self, session: Session, queue: asyncio.Queue[Message]) -> None:
        self.unsubscribe(session, queue)
        await self.broker.unwatch(session.id)

    async def broadcast(self, session: Session) -> None:
        """Push a change made here to this process's websockets, and tell the other processes
        (with the websocket message, which those holding websockets of the game push as it is)."""
        state = session.state_message() if session.subscribers or self.broker.forwards else None
        await self.push(session, state)
        await self.broker.publish(session.id, session.version, state if self.broker.forwards else None)

    async def push(self, session: Session, message: str | None = None) -> None:
        """Send the game's state to this process's websockets of the game (once a version: it may
        have been pushed as another process sent it, ``on_notice``)."""
        if not session.subscribers or session.version <= session.pushed:
            return
        session.pushed = session.version
        message = message or session.state_message()  # encoded once for every socket
        for queue in list(session.subscribers):
            queue.put_nowait(message)

    async def changed_elsewhere(self, game_id: str, version: int) -> None:
        """The row of ``game_id`` was changed outside a session (the abandon sweep): a loaded game
        takes the row and is pushed; the other processes are told."""
        session = self.loaded.get(game_id)
        if session is not None:
            await self._follow(session)
        await self.broker.publish(game_id, version)

    def on_notice(self, game_id: str, version: int | None, state: str | None = None) -> None:
        """Another process changed ``game_id`` (to ``version``; None: perhaps). A game with
        websockets here has them sent ``state``, the message the other process made of that
        version, else it is reloaded and pushed at once; the copy itself is reloaded by the next
        request of the game (the notice made it not current)."""
        session = self.loaded.get(game_id)
        if session is None or not session.subscribers:
            return
        if version is not None and version <= max(session.version, session.pushed):
            return
        if version is not None and state is not None:
            session.pushed = version
            for queue in list(session.subscribers):
                queue.put_nowait(state)
            return
        self._in_background(self._follow(session))

    async def _follow(self, session: Session) -> None:
        try:
            async with session.lock:
                changed = await self.reload(session)
        except (StorageError, DomainError) as err:
            log.warning("game %s changed elsewhere but cannot be reloaded: %s", session.id, err)
            return
        if changed:
            await self.push(session)

    def _in_background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def stop_background(self) -> None:
        for task in list(self._background):
            task.cancel()
        await self.broker.stop()

    def close_watchers(self) -> None:
        """Tell every websocket that the server is going away (they close with 1001)."""
        for session in self.loaded.values():
            for queue in list(session.subscribers):
                queue.put_nowait({"type": "closing"})

    # --- listing ----------------------------------------------------------------------------
    async def list_games(self, limit: int = 50, status: str | None = None) -> list[GameSummary]:
        """The lobby: public games (of ``status`` if given), newest first; a row that cannot be
        shown is logged and left out (never an error for the whole list)."""
        rows = await asyncio.to_thread(functools.partial(self.store.summaries, limit, status=status))
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

    async def summaries_of(self, ids: list[str]) -> list[GameSummary]:
        """The rows of these games, public or not, in this order (a browser's own games: their
        ids are the secret): loaded, so each has its player to move and result. An unknown game,
        or one that cannot be loaded or shown, is left out (logged when it fails)."""
        out = []
        for game_id in dict.fromkeys(ids):
            try:
                item = (await self.get(game_id)).summary()
            except DomainError as err:
                if err.code != "game_not_found":
                    raise
                continue
            except StorageError:
                raise
            except Exception:
                log.exception("game %r cannot be listed; left out", game_id)
                continue
            if showable(item):
                out.append(item)
        return out

    def _summary(self, row: Mapping[str, Any]) -> GameSummary:
        session = self.loaded.get(row["id"])
        if session is not None:
            return session.summary()
        game = load_server_game(row["game"], row["options"])
        return GameSummary.model_construct(
            id=row["id"],
            game=game.name,
            title=game.title,
            options=row["options"],
            seats=seat_views([Seat.from_json(s) for s in row["seats"]], game),
            ply=row["ply"],
            status=row["status"],
            to_move=None,
            result=None,
            updated=iso(row["updated_at"]),
        )


def both(first: Then | None, second: Then | None) -> Then | None:
    """One ``then`` that writes ``first``, then ``second`` (either may be None)."""
    if first is None or second is None:
        return first or second

    def write(conn: Connection) -> None:
        first(conn)
        second(conn)

    return write


def install(session: Session, change: Change, version: int, updated_at: datetime) -> None:
    """Make ``change``, stored as ``version`` at ``updated_at``, the game ``session`` holds."""
    session.state = change.state
    session.record = change.record
    session.status = change.status
    session.seats = change.seats
    session.clock = change.clock
    session.rematch = change.rematch
    session.undo_stack = change.undo_stack
    session.version = version
    session.updated_at = updated_at
