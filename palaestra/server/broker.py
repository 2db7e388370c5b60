"""Change notices between server processes: "game G is now at version V".

A notice carries no state. The database row (with its version guard) is the single arbiter of
every change; a process that hears of a change it did not make reloads the game from the database
and pushes the new state to the websockets it holds. So a notice that is lost costs only latency,
never a move: a client that reconnects (to any process) gets the current state, with every move,
from the row.

- :class:`Broker`: one process (the default, ``palaestra serve`` without ``--redis-url``). Every
  websocket of a game is held by the process that changes it, so there is nobody else to tell.
- :class:`RedisBroker`: Redis pub/sub, one channel per game (``palaestra:game:ID``). A process
  subscribes to a game's channel while it holds a websocket of that game, so a notice reaches only
  the processes that need it. After a lost Redis connection it subscribes again (redis-py does) and
  asks for every watched game to be checked, since notices sent meanwhile are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable

log = logging.getLogger("palaestra.server.broker")

#: ``on_notice(game_id, version)``: a change of the game by another process (``version`` None:
#: notices may have been missed, check the game against the database)
NoticeHandler = Callable[[str, int | None], None]

CHANNEL_PREFIX = "palaestra:game:"
#: every process subscribes to it from the start (a pub/sub connection needs one subscription)
CONTROL_CHANNEL = "palaestra:processes"


def _ignore(game_id: str, version: int | None) -> None:
    return None


class Broker:
    """Notices within one process: nothing to send, nobody to hear (the hub pushes directly)."""

    #: True when other processes may change the games of this one (check the row before trusting
    #: what is in memory)
    shared = False

    def __init__(self) -> None:
        self.on_notice: NoticeHandler = _ignore

    async def start(self, on_notice: NoticeHandler) -> None:
        self.on_notice = on_notice

    async def publish(self, game_id: str, version: int) -> None:
        """Tell the other processes that ``game_id`` was changed to ``version`` (stored first)."""

    async def watch(self, game_id: str) -> None:
        """Hear of changes of ``game_id`` from now on (called before its state is sent out)."""

    async def unwatch(self, game_id: str) -> None:
        """Stop hearing of ``game_id`` (after as many calls as ``watch``)."""

    async def stop(self) -> None:
        pass


class RedisBroker(Broker):
    """Notices over Redis pub/sub (``url``: ``redis://host:port/db``, ``unix:///path``)."""

    shared = True

    def __init__(self, url: str, *, reconnect_delays: tuple[float, ...] = (0.1, 0.5, 1.0, 2.0)) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self.url = url
        self.origin = secrets.token_hex(6)  # this process: its own notices are not news to it
        self.redis = aioredis.Redis.from_url(url)
        self.pubsub = self.redis.pubsub()
        self.reconnect_delays = reconnect_delays
        self.watched: dict[str, int] = {}
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._listener: asyncio.Task[None] | None = None
        self.published = 0
        self.received = 0

    @staticmethod
    def channel(game_id: str) -> str:
        return CHANNEL_PREFIX + game_id

    async def start(self, on_notice: NoticeHandler) -> None:
        self.on_notice = on_notice
        await self.pubsub.subscribe(CONTROL_CHANNEL)
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def publish(self, game_id: str, version: int) -> None:
        message = json.dumps({"version": version, "origin": self.origin})
        await self.redis.publish(self.channel(game_id), message)
        self.published += 1

    async def watch(self, game_id: str) -> None:
        count = self.watched.get(game_id, 0)
        self.watched[game_id] = count + 1
        if count:
            return
        channel = self.channel(game_id)
        confirmed = asyncio.get_running_loop().create_future()
        self._confirmed[channel] = confirmed
        await self.pubsub.subscribe(channel)
        # the listener sees Redis confirm the subscription: from then on no notice is missed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(confirmed), timeout=5.0)
        self._confirmed.pop(channel, None)

    async def unwatch(self, game_id: str) -> None:
        count = self.watched.get(game_id, 0)
        if count > 1:
            self.watched[game_id] = count - 1
            return
        self.watched.pop(game_id, None)
        if count == 1:
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(self.channel(game_id))

    async def _listen(self) -> None:
        import redis

        failures = 0
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=False, timeout=None)
                if failures:
                    failures = 0
                    self._resync()
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as err:
                delay = self.reconnect_delays[min(failures, len(self.reconnect_delays) - 1)]
                failures += 1
                log.warning("Redis pub/sub connection lost (%s); again in %.1f s", err, delay)
                await asyncio.sleep(delay)
                with contextlib.suppress(redis.RedisError, OSError):
                    # reconnects, and redis-py subscribes again to every channel it had
                    await self.pubsub.ping()
                continue
            if message is not None:
                self._dispatch(message)

    def _resync(self) -> None:
        log.info("Redis pub/sub back: checking the %d watched games", len(self.watched))
        for game_id in list(self.watched):
            self.on_notice(game_id, None)

    def _dispatch(self, message: dict[str, object]) -> None:
        channel = _text(message.get("channel"))
        kind = message.get("type")
        if kind == "subscribe":
            confirmed = self._confirmed.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
            return
        if kind != "message" or not channel.startswith(CHANNEL_PREFIX):
            return
        try:
            doc = json.loads(_text(message.get("data")))
            version = int(doc["version"])
            origin = str(doc.get("origin", ""))
        except (ValueError, TypeError, KeyError):
            log.warning("a notice on %s that is not ours: %r", channel, message.get("data"))
            return
        if origin == self.origin:
            return
        self.received += 1
        self.on_notice(channel[len(CHANNEL_PREFIX) :], version)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def make_broker(redis_url: str | None) -> Broker:
    """The broker for a server: Redis pub/sub with a URL, else the in-process one."""
    return RedisBroker(redis_url) if redis_url else Broker()
