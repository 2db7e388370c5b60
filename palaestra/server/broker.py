"""Change notices between server processes: "game G is now at version V".

Nothing is decided from a notice. The database row (with its version guard) is the single
arbiter of every change; a process that hears of a change it did not make takes the game as
behind and reloads it from the database on the game's next request there. A web process's notice
also carries the websocket message it made of the new version, which a process holding websockets
of the game sends them as it is (else it reloads the game at once and pushes its own). So a notice
that is lost costs only latency, never a move: a client that reconnects (to any process) gets the
current state, with every move, from the row.

- :class:`Broker`: one process known to be alone on its database (tests, tools). Every
  websocket of a game is held by the process that changes it, so there is nobody else to tell.
- :class:`PollingBroker`: ``palaestra serve`` without ``--redis-url`` when another process may
  serve the same database all the same: it reads the stored versions of the games it holds every
  second (issue 31).
- :class:`RedisBroker`: Redis pub/sub, one channel per game (``palaestra:game:ID``). A web process
  subscribes to a game's channel while it holds the game in memory (``follow``) or a websocket of
  it (``watch``), so a notice reaches only the processes that need it. While the subscription is
  confirmed and the connection unbroken, the process hears every change of the game made
  elsewhere: ``listening`` says so with a token that changes whenever that may have stopped being
  true, and ``announced`` gives the newest version heard of. The sessions use them to trust a game
  held in memory instead of reading its row's version on every request
  (palaestra/server/service/sessions.py). After a lost Redis connection it subscribes again and
  asks for every watched game to be checked, since notices sent meanwhile are gone.

Notices are sent by one task per process, several at once in one pipeline when changes come
faster than Redis answers; ``publish`` returns once its notice was sent (or refused: it is tried
again in the background).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("palaestra.server.broker")

#: ``on_notice(game_id, version, state)``: a change of the game by another process (``version``
#: None: notices may have been missed, check the game against the database); ``state``: the
#: websocket message of the new version the other process sent with it, or None
NoticeHandler = Callable[[str, int | None, str | None], None]

#: a notice is a JSON header, then (optionally) a newline and the websocket state message
SEPARATOR = "\n"
STATE_START = '{"type":"state"'


CHANNEL_PREFIX = "palaestra:game:"
#: every process subscribes to it from the start (a pub/sub connection needs one subscription)
CONTROL_CHANNEL = "palaestra:processes"
#: the lobby's changes (issue 29): seeks posted, taken and gone, public games started; every web
#: process hears them and pushes them to its lobby websockets (a lost one costs only liveness: a
#: lobby page reads ``GET /api/lobby`` again when its websocket reconnects)
LOBBY_CHANNEL = "palaestra:lobby"
#: members' unread notifications (issue 29): ``{"account", "unread"}``, pushed by every web
#: process to that member's notification websockets (a lost one: the page reads the count again
#: when its socket reconnects or the member opens another page)
MEMBERS_CHANNEL = "palaestra:members"


def _ignore(game_id: str, version: int | None, state: str | None) -> None:
    return None


class Broker:
    """Notices within one process: nothing to send, nobody to hear (the hub pushes directly)."""

    #: True when other processes may change the games of this one (check the row before trusting
    #: what is in memory)
    shared = False
    #: True when a notice should carry the websocket message of the new version (the web
    #: processes: the others push it to their websockets without reloading the game)
    forwards = False

    def __init__(self) -> None:
        self.on_notice: NoticeHandler = _ignore
        #: called with the seconds from a notice's publication to its arrival here (for /metrics)
        self.observe: Callable[[float], None] = lambda seconds: None
        #: a lobby message of another process (issue 29), as it was published
        self.on_lobby: Callable[[str], None] = lambda message: None
        #: a member's unread notifications counted by another process (issue 29), as published
        self.on_member: Callable[[str], None] = lambda message: None

    async def start(self, on_notice: NoticeHandler) -> None:
        self.on_notice = on_notice

    async def publish(self, game_id: str, version: int, state: str | None = None) -> None:
        """Tell the other processes that ``game_id`` was changed to ``version`` (stored first),
        with ``state``, the websocket message of that version (``forwards``). Never raises: a
        notice Redis refuses is tried again in the background."""

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until the notices published so far are sent (or given up)."""

    async def publish_lobby(self, message: str) -> None:
        """Tell the other processes of a change of the lobby (``message``: the JSON their lobby
        websockets get). Never raises: a lost lobby message is logged."""

    async def publish_member(self, message: str) -> None:
        """Tell the other processes a member's unread count (``message``: ``{"account",
        "unread"}``). Never raises: a lost message is logged."""

    def follow(self, game_id: str) -> None:
        """Hear of changes of ``game_id`` while it is held in memory (subscribed in the background;
        ``listening`` says when that is confirmed)."""

    def unfollow(self, game_id: str) -> None:
        """Stop following ``game_id`` (after as many calls as ``follow``)."""

    async def watch(self, game_id: str) -> None:
        """Hear of changes of ``game_id`` from now on (a websocket: called before its state is
        sent out; returns once the subscription is confirmed, or Redis is found away)."""

    async def unwatch(self, game_id: str) -> None:
        """Stop hearing of ``game_id`` (after as many calls as ``watch``)."""

    def listening(self, game_id: str) -> int | None:
        """A token, the same as long as this process has heard every notice of ``game_id`` sent
        since the token was given; None when that is not so (not subscribed, subscription not
        confirmed yet, or Redis away)."""
        return None

    def announced(self, game_id: str) -> int:
        """The newest version of ``game_id`` announced by another process since it was followed
        (0: none)."""
        return 0

    async def stop(self) -> None:
        pass


class RedisBroker(Broker):
    """Notices over Redis pub/sub (``url``: ``redis://host:port/db``, ``unix:///path``).

    ``follow=False``: a process that only announces (``palaestra worker``): it follows no game, so
    it reads a game's version on every use."""

    shared = True

    def __init__(
        self,
        url: str,
        *,
        reconnect_delays: tuple[float, ...] = (0.1, 0.5, 1.0, 2.0),
        follow: bool = True,
    ) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self.url = url
        self.origin = secrets.token_hex(6)  # this process: its own notices are not news to it
        self.redis = aioredis.Redis.from_url(url)
        self.pubsub = self.redis.pubsub()
        self.reconnect_delays = reconnect_delays
        self.follows = follow
        self.forwards = follow
        #: games heard of, with how many holders (the game in memory, each websocket)
        self.watched: dict[str, int] = {}
        self._listening: dict[str, int] = {}  # game -> token, while its subscription is confirmed
        self._announced: dict[str, int] = {}
        self._tokens = itertools.count(1)
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._listener: asyncio.Task[None] | None = None
        #: (un)subscriptions, sent in order by one task
        self._commands: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._commander: asyncio.Task[None] | None = None
        #: notices to send: game -> (version, when made, state message), sent by one task
        self._outbox: dict[str, tuple[int, float, str | None]] = {}
        self._outbox_ready = asyncio.Event()
        self._outbox_sent = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        self._waiting: list[asyncio.Future[None]] = []  # publishers waiting for the next send
        self._failures = 0  # sends refused in a row
        self._down = False  # the pub/sub connection is lost (until subscribed again)
        self.published = 0
        self.received = 0
        self.batches = 0

    @staticmethod
    def channel(game_id: str) -> str:
        return CHANNEL_PREFIX + game_id

    async def start(self, on_notice: NoticeHandler) -> None:
        self.on_notice = on_notice
        await self.pubsub.subscribe(CONTROL_CHANNEL, LOBBY_CHANNEL, MEMBERS_CHANNEL)
        # redis-py connects again by itself after some failures (and subscribes again): whatever
        # the way, a new connection may have missed notices until its subscriptions are confirmed
        self.pubsub.connection.register_connect_callback(self._connected)
        loop = asyncio.get_running_loop()
        self._listener = loop.create_task(self._listen())
        self._commander = loop.create_task(self._command())
        self._publisher = loop.create_task(self._publish())

    # --- announcing -------------------------------------------------------------------------
    async def publish(self, game_id: str, version: int, state: str | None = None) -> None:
        """Send the notice (with ``state``, the websocket message of ``version``: the processes
        that hold websockets of the game push it without reloading the game); returns once Redis
        took it or refused it (so a change is announced before it is answered). Notices of
        several requests made meanwhile go in one pipeline; a newer notice of a game replaces one
        not sent yet (it says more). A notice that Redis refuses is tried again in the background
        a few times, then given up (logged): the others then see the change on their next check
        of the row (at most ``Sessions.recheck_seconds`` later); meanwhile ``publish`` does not
        wait."""
        queued = self._outbox.get(game_id)
        if queued is None or queued[0] < version:
            self._outbox[game_id] = (version, time.time(), state)
        self._outbox_sent.clear()
        self._outbox_ready.set()
        if self._publisher is None or self._publisher.done() or self._failures:
            return
        sent = asyncio.get_running_loop().create_future()
        self._waiting.append(sent)
        await sent

    async def flush(self, timeout: float = 5.0) -> None:
        if self._outbox and self._publisher is not None and not self._publisher.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._outbox_sent.wait(), timeout)

    async def publish_lobby(self, message: str) -> None:
        # Redis away: the lobby pages catch up when they reconnect
        await self._announce(LOBBY_CHANNEL, message, "a lobby change")

    async def publish_member(self, message: str) -> None:
        # Redis away: the pages read the count when they reconnect
        await self._announce(MEMBERS_CHANNEL, message, "a member's notifications")

    async def _announce(self, channel: str, message: str, what: str) -> None:
        """Publish ``message`` on ``channel`` with this process's header, now; a failure is
        logged, not raised (the readers catch up on their own)."""
        header = json.dumps({"origin": self.origin, "at": time.time()})
        try:
            await self.redis.publish(channel, header + SEPARATOR + message)
        except Exception as err:
            log.warning("%s could not be announced (%s)", what, err)

    async def _publish(self) -> None:
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            batch, self._outbox = self._outbox, {}
            waiting, self._waiting = self._waiting, []
            try:
                if batch:
                    await self._send(batch)
                self._failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis away: try again, newer notices first
                self._failures += 1
                if self._failures > len(self.reconnect_delays):
                    log.warning("%d change notices given up (%s)", len(batch), err)
                    self._failures = 0
                else:
                    for game_id, notice in batch.items():
                        queued = self._outbox.get(game_id)
                        if queued is None or queued[0] < notice[0]:
                            self._outbox[game_id] = notice
                    self._outbox_ready.set()
            finally:
                for sent in waiting:
                    if not sent.done():
                        sent.set_result(None)
            if self._failures:
                await asyncio.sleep(self.reconnect_delays[self._failures - 1])
            elif not self._outbox:
                self._outbox_sent.set()

    async def _send(self, batch: dict[str, tuple[int, float, str | None]]) -> None:
        messages = []
        for game_id, (version, at, state) in batch.items():
            header = json.dumps({"version": version, "origin": self.origin, "at": at})
            messages.append((self.channel(game_id), header if state is None else header + SEPARATOR + state))
        if len(messages) == 1:
            await self.redis.publish(*messages[0])
        else:
            pipe: Any = self.redis.pipeline(transaction=False)
            for channel, message in messages:
                pipe.publish(channel, message)
            await pipe.execute()
            self.batches += 1
        self.published += len(messages)

    # --- hearing ----------------------------------------------------------------------------
    def follow(self, game_id: str) -> None:
        if self.follows:
            self._hold(game_id)

    def unfollow(self, game_id: str) -> None:
        if self.follows:
            self._release(game_id)

    async def watch(self, game_id: str) -> None:
        self._hold(game_id)
        if game_id in self._listening or self._down:
            return  # heard already; or Redis is away (the game is checked when it is back)
        channel = self.channel(game_id)
        confirmed = self._confirmed.get(channel)
        if confirmed is None:
            confirmed = self._confirmed[channel] = asyncio.get_running_loop().create_future()
        try:
            # the listener sees Redis confirm the subscription: from then on no notice is missed
            await asyncio.wait_for(asyncio.shield(confirmed), timeout=5.0)
        except TimeoutError:
            # Redis is away: the listener subscribes to every watched game when it is back
            log.warning("cannot listen to game %s now; will when Redis is back", game_id)

    async def unwatch(self, game_id: str) -> None:
        self._release(game_id)

    def _hold(self, game_id: str) -> None:
        count = self.watched.get(game_id, 0)
        self.watched[game_id] = count + 1
        if count == 0:
            self._commands.put_nowait(("subscribe", game_id))

    def _release(self, game_id: str) -> None:
        count = self.watched.get(game_id, 0)
        if count > 1:
            self.watched[game_id] = count - 1
            return
        self.watched.pop(game_id, None)
        self._listening.pop(game_id, None)  # from now on notices may be missed
        self._announced.pop(game_id, None)
        if count == 1:
            self._commands.put_nowait(("unsubscribe", game_id))

    def listening(self, game_id: str) -> int | None:
        return self._listening.get(game_id)

    def _connected(self, connection: object) -> None:
        self._listening.clear()

    def announced(self, game_id: str) -> int:
        return self._announced.get(game_id, 0)

    async def _command(self) -> None:
        import redis

        while True:
            kind, game_id = await self._commands.get()
            if (kind == "subscribe") != (game_id in self.watched):
                continue  # let go (or taken up) again meanwhile
            try:
                if kind == "subscribe":
                    await self.pubsub.subscribe(self.channel(game_id))
                else:
                    await self.pubsub.unsubscribe(self.channel(game_id))
            except (redis.RedisError, OSError) as err:
                # Redis is away: the listener subscribes to every watched game when it is back
                self._listening.clear()  # the connection may be lost: notices may be missed
                log.warning("cannot %s game %s now (%s); will when Redis is back", kind, game_id, err)
                confirmed = self._confirmed.pop(self.channel(game_id), None)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)  # a websocket waiting for it goes on unconfirmed

    async def _listen(self) -> None:
        import redis

        failures = 0
        while True:
            try:
                if failures:
                    # back: listen to every watched game again (redis-py does so for the channels
                    # it had; a game watched while Redis was away is not among them)
                    channels = [self.channel(g) for g in self.watched]
                    await self.pubsub.subscribe(CONTROL_CHANNEL, LOBBY_CHANNEL, MEMBERS_CHANNEL, *channels)
                    failures = 0
                    self._down = False
                    self._resync()
                message = await self.pubsub.get_message(ignore_subscribe_messages=False, timeout=None)
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as err:
                self._listening.clear()  # notices may be missed from now until confirmed again
                self._down = True
                delay = self.reconnect_delays[min(failures, len(self.reconnect_delays) - 1)]
                failures += 1
                log.warning("Redis pub/sub connection lost (%s); again in %.1f s", err, delay)
                await asyncio.sleep(delay)
                continue
            if message is not None:
                self._dispatch(message)

    def _resync(self) -> None:
        log.info("Redis pub/sub back: checking the %d watched games", len(self.watched))
        for game_id in list(self.watched):
            self.on_notice(game_id, None, None)

    def _dispatch(self, message: dict[str, object]) -> None:
        channel = _text(message.get("channel"))
        kind = message.get("type")
        if channel in (LOBBY_CHANNEL, MEMBERS_CHANNEL):
            if kind == "message":
                self._lobby(_text(message.get("data")), channel)
            return
        if not channel.startswith(CHANNEL_PREFIX):
            return
        game_id = channel[len(CHANNEL_PREFIX) :]
        if kind == "subscribe":
            if game_id in self.watched:
                self._listening[game_id] = next(self._tokens)  # a new token: new checks needed
            confirmed = self._confirmed.pop(channel, None)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
            return
        if kind == "unsubscribe":
            self._listening.pop(game_id, None)
            return
        if kind != "message":
            return
        header, _, state = _text(message.get("data")).partition(SEPARATOR)
        try:
            doc = json.loads(header)
            version = int(doc["version"])
            origin = str(doc.get("origin", ""))
            sent = float(doc.get("at", 0.0))
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("a notice on %s that is not ours: %r", channel, message.get("data"))
            return
        if origin == self.origin:
            return
        self.received += 1
        if sent > 0:
            self.observe(max(0.0, time.time() - sent))
        if game_id in self.watched and version > self._announced.get(game_id, 0):
            self._announced[game_id] = version
        self.on_notice(game_id, version, state if state.startswith(STATE_START) else None)

    def _lobby(self, data: str, channel: str = LOBBY_CHANNEL) -> None:
        header, _, body = data.partition(SEPARATOR)
        try:
            origin = str(json.loads(header).get("origin", ""))
        except (ValueError, AttributeError):
            log.warning("a lobby message that is not ours: %r", data[:200])
            return
        if origin != self.origin and body:
            (self.on_lobby if channel == LOBBY_CHANNEL else self.on_member)(body)

    async def stop(self) -> None:
        await self.flush(timeout=2.0)
        for task in (self._listener, self._commander, self._publisher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for sent in self._waiting:
            if not sent.done():
                sent.set_result(None)
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


class PollingBroker(Broker):
    """Without Redis: another process may serve the same database all the same (a second
    ``palaestra serve`` in another terminal, a restart that overlaps), and nothing would tell this
    one of its changes (issue 31, finding 1). So every ``every`` seconds this process reads the
    stored versions of the games it holds (``versions``: one indexed query per 500 games), and a
    version newer than its copy is a notice: the game is reloaded and pushed to its websockets here,
    or, unwatched, reloaded by its next request.

    The sessions use ``listening`` and ``announced`` as with Redis, so a copy is trusted without a
    read of its row's version only while the polls go well; a game not polled yet, or after a poll
    failed, is checked against its row on each request. A change made by another process is thus
    seen here at most ``every`` seconds (plus a query) later, and at once by a request that names a
    newer ``version`` or another ``ply``; refusals are judged again on the row's current version and
    every change is guarded by the row's version, so nothing is refused or lost meanwhile."""

    shared = True

    def __init__(self, versions: Callable[[list[str]], dict[str, int]], every: float = 1.0) -> None:
        super().__init__()
        self.versions = versions
        self.every = every
        #: games held, with how many holders (the game in memory, each websocket)
        self.watched: dict[str, int] = {}
        self._listening: dict[str, int] = {}  # game -> token, from its first good poll on
        self._announced: dict[str, int] = {}
        self._tokens = itertools.count(1)
        self._poller: asyncio.Task[None] | None = None
        self.polls = 0

    async def start(self, on_notice: NoticeHandler) -> None:
        self.on_notice = on_notice
        if self.every > 0:
            self._poller = asyncio.get_running_loop().create_task(self._poll_forever())

    def follow(self, game_id: str) -> None:
        self.watched[game_id] = self.watched.get(game_id, 0) + 1

    def unfollow(self, game_id: str) -> None:
        count = self.watched.get(game_id, 0)
        if count > 1:
            self.watched[game_id] = count - 1
            return
        self.watched.pop(game_id, None)
        self._listening.pop(game_id, None)
        self._announced.pop(game_id, None)

    async def watch(self, game_id: str) -> None:
        self.follow(game_id)

    async def unwatch(self, game_id: str) -> None:
        self.unfollow(game_id)

    def listening(self, game_id: str) -> int | None:
        return self._listening.get(game_id)

    def announced(self, game_id: str) -> int:
        return self._announced.get(game_id, 0)

    async def poll(self) -> None:
        """Read the stored versions of the games held; announce those that moved on."""
        ids = list(self.watched)
        if not ids:
            return
        try:
            stored = await asyncio.to_thread(self.versions, ids)
        except Exception as err:  # the database is away: each request checks its game meanwhile
            self._listening.clear()
            log.warning("cannot read the versions of %d games now (%s)", len(ids), err)
            return
        self.polls += 1
        for game_id in ids:
            version = stored.get(game_id)
            if version is None or game_id not in self.watched:
                continue  # gone meanwhile
            if game_id not in self._listening:
                self._listening[game_id] = next(self._tokens)
            if version > self._announced.get(game_id, 0):
                self._announced[game_id] = version
                self.on_notice(game_id, version, None)

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.poll()

    async def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poller


def make_broker(
    redis_url: str | None, versions: Callable[[list[str]], dict[str, int]] | None = None, every: float = 1.0
) -> Broker:
    """The broker for a server: Redis pub/sub with a URL; else, given ``versions`` (the store's),
    one that polls the database for other processes' changes; else the in-process one."""
    if redis_url:
        return RedisBroker(redis_url)
    return Broker() if versions is None else PollingBroker(versions, every)
