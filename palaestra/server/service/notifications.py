"""Notifications (issue 29, part 9; docs/web.md, "Notifications"; docs/deploy.md).

Four kinds: ``your_turn`` (correspondence games only), ``challenge``, ``game_ended`` and
``rematch_offered``; three channels: ``page`` (a badge and the tab title, live over the member's
websocket), ``push`` (Web Push) and ``email`` (when ``PALAESTRA_SMTP_URL`` is set). Each member
chooses per kind and channel (palaestra/server/notify_store.py: the page on, the rest off).

Every notification is a row of the outbox written in the transaction of the change that causes
it (:meth:`Notifications.on_write` is ``Sessions.on_write``, like the ratings of rated.py), under
a unique (event, member, channel) key: a change stored once queues its notifications once, a
change not stored queues none. Sending is a job (palaestra/server/service/delivery.py): with
``--redis-url`` an arq job ``notify(row)`` on ``palaestra worker`` (``enqueue``), whose sweep also
enqueues every row due and not sent (a lost job, a retry); without, a task of this process that
sends the new rows at once and the due ones every ``poll`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.engine import Connection

from palaestra.server.broker import Broker
from palaestra.server.db import StorageError, Store, Then
from palaestra.server.notify_store import Event, NotifyStore, queue_events
from palaestra.server.service.clock import CORRESPONDENCE, Clock
from palaestra.server.service.delivery import Deliverer, link_of, render
from palaestra.server.service.persistence import utc_iso
from palaestra.server.service.push import make_vapid_keys
from palaestra.server.service.session import Seat, Session
from palaestra.server.settings import Settings

log = logging.getLogger("palaestra.server.notifications")

#: a page's websocket of notifications gets the member's unread count as this message
UNREAD = "notifications"
#: what a page's websocket queue gets when the server goes away (the socket closes with 1001)
CLOSING = ""


def seat_name(seat: Seat) -> str:
    return seat.member or seat.name


def _others(session: Session, seats: list[Seat], me: int) -> str:
    return ", ".join(seat_name(s) for i, s in enumerate(seats) if i != me) or "-"


def game_url(game_id: str) -> str:
    return f"/#/game/{game_id}"


class Notifications:
    """Queues notifications with the changes that cause them and has them sent."""

    def __init__(self, store: Store, broker: Broker) -> None:
        self.store = NotifyStore(store)
        self.broker = broker
        broker.on_member = self.on_member_message
        #: ids of rows written by this process's transactions, to send once committed (``kick``)
        self.fresh: list[int] = []
        #: with --redis-url: hand a row to the workers (an arq job); None: sent by this process
        self.enqueue: Callable[[int], Awaitable[None]] | None = None
        #: how often (seconds) this process looks for rows due (retries, rows of a lost job)
        self.poll = 5.0
        self.email = False
        self.listeners: dict[int, set[asyncio.Queue[str]]] = {}
        self._vapid: dict[str, str] | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self.deliverer = Deliverer(self.store, announce=self.announce, vapid=self.vapid)

    def configure(self, settings: Settings) -> None:
        """Take the settings of e-mail, push, retries and claims (``PALAESTRA_*``)."""
        self.email = bool(settings.smtp_url)
        self.poll = settings.notify_poll_seconds
        self.deliverer = Deliverer(
            self.store,
            announce=self.announce,
            vapid=self.vapid,
            smtp_url=settings.smtp_url,
            smtp_from=settings.smtp_from,
            origin=settings.origin,
            push_contact=settings.push_contact,
            push_allow_http=settings.push_allow_http,
            claim=settings.notify_claim_seconds,
            retry=settings.notify_retry_seconds,
            max_tries=settings.notify_max_tries,
        )

    # --- start and stop ---------------------------------------------------------------------
    async def start(self, *, send: bool = True) -> None:
        """Load (or make, once for all processes) the VAPID keys; with ``send``, send rows here."""
        self._vapid = await asyncio.to_thread(self.store.secret, "vapid", make_vapid_keys)
        if send and self.enqueue is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._background) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        await self.deliverer.drain(self.deliverer.claim / 2)  # sends under way end and are recorded
        for queues in self.listeners.values():
            for queue in queues:
                queue.put_nowait(CLOSING)

    def vapid(self) -> dict[str, str]:
        if self._vapid is None:
            self._vapid = self.store.secret("vapid", make_vapid_keys)
        return self._vapid

    # --- queueing, in the transaction of the change -----------------------------------------
    def writer(self, events: list[Event]) -> Then | None:
        """The ``then`` that queues ``events`` in a change's transaction (None: no events)."""
        if not events:
            return None

        def write(conn: Connection) -> None:
            self.fresh.extend(queue_events(conn, events, email=self.email, now=time.time()))

        return write

    def on_write(
        self, session: Session, state: Any, status: str, seats: list[Seat], clock: Clock | None
    ) -> Then | None:
        """``Sessions.on_write``: what a write of ``session`` (still as it was) to ``state``,
        ``status``, ``seats`` and ``clock`` tells its members: the game ended, or (correspondence)
        it is now their turn."""
        version = session.version + 1
        events: list[Event] = []
        title = session.game.title
        if status == "finished" and session.status == "active":
            for i, seat in enumerate(seats):
                if seat.kind == "human" and seat.account is not None:
                    data = {"game": session.id, "title": title, "opponents": _others(session, seats, i)}
                    data["url"] = game_url(session.id)
                    events.append(Event(f"ended:{session.id}", seat.account, "game_ended", data))
        elif status == "active" and len(state.history) >= len(session.state.history):  # no undo
            before = None if session.clock is None else session.clock.running
            mover = None if before is None or not 0 <= before < len(seats) else seats[before].account
            if clock is not None and clock.running != before:
                events += self._turn(session, seats, clock, version, mover)
        return self.writer(events)

    def on_start(self, session: Session, creator: int | None) -> Then | None:
        """``SeatService.create``'s: a new correspondence game whose first turn is a member's
        (a rematch, an accepted seek or challenge) tells them, unless they made it."""
        if session.clock is None:
            return None
        return self.writer(self._turn(session, session.seats, session.clock, session.version, creator))

    def _turn(
        self, session: Session, seats: list[Seat], clock: Clock, version: int, mover: int | None
    ) -> list[Event]:
        """``your_turn`` for the member whose clock runs in a correspondence game (none for the
        member who just moved, or made the game: they know)."""
        now = clock.running
        if clock.control.kind != CORRESPONDENCE or now is None or not 0 <= now < len(seats):
            return []
        seat = seats[now]
        if seat.kind != "human" or seat.account is None or seat.account == mover:
            return []
        data = {"game": session.id, "title": session.game.title, "opponents": _others(session, seats, now)}
        data["url"] = game_url(session.id)
        return [Event(f"turn:{session.id}:{version}", seat.account, "your_turn", data)]

    def rematch_writer(self, session: Session, rematch: dict[str, Any]) -> Then | None:
        """The members of a finished game who have still to agree to the rematch ``rematch``
        offers (once per game and member, however many seats agree in turn)."""
        if rematch.get("game") is not None:
            return None
        agreed = {int(k) for k in (rematch.get("hashes") or {})}
        offered_by = int(rematch.get("offered_by", 0))
        offerer = session.seats[offered_by] if 0 <= offered_by < len(session.seats) else None
        events = [
            Event(
                f"rematch:{session.id}",
                seat.account,
                "rematch_offered",
                {
                    "game": session.id,
                    "title": session.game.title,
                    "from": "-" if offerer is None else seat_name(offerer),
                    "url": game_url(session.id),
                },
            )
            for i, seat in enumerate(session.seats)
            if seat.kind == "human" and seat.account is not None and i not in agreed
        ]
        return self.writer(events)

    def challenge_writer(
        self, to_member: int, challenge_id: str, from_name: str, title: str, url: str = "/"
    ) -> Then | None:
        """The ``then`` that tells ``to_member`` of challenge ``challenge_id`` from ``from_name`` to
        a game of ``title`` (``url``: the page that shows it), to write in the transaction that
        stores the challenge; call :meth:`kick` once it is committed."""
        data = {"challenge": challenge_id, "from": from_name, "title": title, "url": url}
        return self.writer([Event(f"challenge:{challenge_id}", to_member, "challenge", data)])

    async def challenge(
        self, to_member: int, challenge_id: str, from_name: str, title: str, url: str = "/"
    ) -> list[int]:
        """Queue the notification of a challenge in a transaction of its own, and send it."""
        data = {"challenge": challenge_id, "from": from_name, "title": title, "url": url}
        event = Event(f"challenge:{challenge_id}", to_member, "challenge", data)
        ids = await asyncio.to_thread(self.store.queue, [event], email=self.email, now=time.time())
        self.fresh.extend(ids)
        self.kick()
        return ids

    # --- sending ----------------------------------------------------------------------------
    def kick(self) -> None:
        """Send the rows queued by the transactions this process committed (after the commit)."""
        if not self.fresh:
            return
        if self.enqueue is not None:
            ids, self.fresh = self.fresh, []
            self._in_background(self._enqueue(ids))
        elif self._wake is not None:
            self._wake.set()

    async def _enqueue(self, ids: list[int]) -> None:
        assert self.enqueue is not None
        for row_id in ids:
            try:
                await self.enqueue(row_id)
            except Exception as err:  # Redis away: the workers' sweep finds the row
                log.warning("notification %d not handed to a worker now (%r)", row_id, err)

    async def sweep(self) -> list[int]:
        """The rows due now (new, to try again, or held by a sender that stopped)."""
        return await asyncio.to_thread(self.store.due, time.time())

    async def send_due(self) -> int:
        """Send the fresh rows, then the due ones, a few at once; how many were tried."""
        fresh, self.fresh = self.fresh, []
        try:
            due = await self.sweep()
        except StorageError as err:
            log.warning("the outbox cannot be read now: %s", err)
            due = []
        ids = list(dict.fromkeys([*fresh, *due]))
        for start in range(0, len(ids), 4):
            await asyncio.gather(*(self.deliverer.deliver(i) for i in ids[start : start + 4]))
        return len(ids)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            self._wake.clear()
            try:
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sending notifications failed; again in %.0f s", self.poll)

    def _in_background(self, work: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def export(self, account: int) -> dict[str, Any]:
        """What is kept about the member's notifications (for the account's export)."""
        return await asyncio.to_thread(self._export, account)

    def _export(self, account: int) -> dict[str, Any]:
        found = self.store.settings(account)
        browsers = self.store.subscriptions(account)
        rows = self.store.rows(account)
        return {
            "language": found.language,
            "email": found.email,
            "channels": found.channels,
            "push_endpoints": [b.endpoint for b in browsers],
            "sent": [
                {"kind": r["kind"], "channel": r["channel"], "status": r["status"], "data": r["data"]}
                for r in rows
            ],
        }

    async def inbox(self, account: int) -> dict[str, Any]:
        """The member's notifications in the page, newest first, in their language, and how many
        are unread (read in one trip to the database's thread)."""
        return await asyncio.to_thread(self._inbox, account)

    def _inbox(self, account: int) -> dict[str, Any]:
        store = self.store
        rows = store.page_items(account)
        unread = store.unread(account)
        language = store.settings(account).language
        items = []
        for row in rows:
            data = dict(row["data"])
            title, text = render(row["kind"], data, language)
            items.append(
                {
                    "id": row["id"],
                    "kind": row["kind"],
                    "title": title,
                    "text": text,
                    "url": link_of(data, ""),
                    "at": utc_iso(row["created_at"]),
                    "read": row["read_at"] is not None,
                }
            )
        return {"unread": unread, "items": items}

    # --- the page's live count --------------------------------------------------------------
    def listen(self, account: int, queue: asyncio.Queue[str]) -> None:
        """A page websocket's queue (api/notifications.py) gets the member's unread count from now."""
        self.listeners.setdefault(account, set()).add(queue)

    def unlisten(self, account: int, queue: asyncio.Queue[str]) -> None:
        queues = self.listeners.get(account)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[account]

    def _tell(self, account: int, unread: int) -> None:
        message = json.dumps({"type": UNREAD, "unread": unread})
        for queue in list(self.listeners.get(account, ())):
            queue.put_nowait(message)

    async def announce(self, account: int, unread: int) -> None:
        """Tell the member's pages here and (Redis) in every other process their unread count."""
        self._tell(account, unread)
        await self.broker.publish_member(json.dumps({"account": account, "unread": unread}))

    def on_member_message(self, text: str) -> None:
        try:
            doc = json.loads(text)
            account, unread = int(doc["account"]), int(doc["unread"])
        except (ValueError, TypeError, KeyError):
            log.warning("a member message that is not ours: %r", text[:200])
            return
        self._tell(account, unread)
