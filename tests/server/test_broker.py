"""Change notices between processes over a real Redis (palaestra/server/broker.py)."""

from __future__ import annotations

import asyncio

from palaestra.server.broker import Broker, RedisBroker, make_broker
from tests.server.redis_server import RedisServer


class Heard:
    def __init__(self) -> None:
        self.notices: list[tuple[str, int | None]] = []
        self.states: list[str | None] = []
        self.event = asyncio.Event()

    def __call__(self, game_id: str, version: int | None, state: str | None = None) -> None:
        self.states.append(state)
        self.notices.append((game_id, version))
        self.event.set()

    async def wait(self, count: int, timeout: float = 5.0) -> None:
        async def enough() -> None:
            while len(self.notices) < count:
                self.event.clear()
                await self.event.wait()

        await asyncio.wait_for(enough(), timeout)


def test_a_notice_reaches_the_processes_watching_the_game_only(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a, b, c = (RedisBroker(redis_server.url) for _ in range(3))
        heard_a, heard_b, heard_c = Heard(), Heard(), Heard()
        await a.start(heard_a)
        await b.start(heard_b)
        await c.start(heard_c)
        try:
            await b.watch("g1")
            await c.watch("g2")
            await a.watch("g1")  # the publisher watches too: its own notices are no news to it
            await a.publish("g1", 7)
            await a.publish("g2", 3)
            await heard_b.wait(1)
            await heard_c.wait(1)
            await asyncio.sleep(0.1)
            assert heard_b.notices == [("g1", 7)]
            assert heard_c.notices == [("g2", 3)]
            assert heard_a.notices == []
            # watching is counted: the game is heard until the last unwatch
            await b.watch("g1")
            await b.unwatch("g1")
            await a.publish("g1", 8)
            await heard_b.wait(2)
            await b.unwatch("g1")
            await a.publish("g1", 9)
            await a.flush()
            await c.publish("g2", 4)  # a barrier: b would have heard g1 before this reaches c
            await c.flush()
            await asyncio.sleep(0.2)
            assert heard_b.notices == [("g1", 7), ("g1", 8)]
            assert b.watched == {}
        finally:
            for broker in (a, b, c):
                await broker.stop()

    asyncio.run(scenario())


def test_after_redis_comes_back_every_watched_game_is_checked(redis_server: RedisServer) -> None:
    """Notices sent while the connection was down are gone: the broker asks for a check of every
    watched game (version None), and hears notices again (redis-py subscribes again)."""

    async def scenario() -> None:
        listener = RedisBroker(redis_server.url, reconnect_delays=(0.05, 0.1))
        heard = Heard()
        await listener.start(heard)
        try:
            await listener.watch("g1")
            await listener.watch("g2")
            redis_server.halt()
            await asyncio.sleep(0.3)
            redis_server.start()
            await heard.wait(2, timeout=10)
            assert sorted(heard.notices) == [("g1", None), ("g2", None)]
            publisher = RedisBroker(redis_server.url)
            await publisher.start(Heard())
            try:
                await publisher.publish("g1", 5)
                await heard.wait(3)
                assert heard.notices[-1] == ("g1", 5)
            finally:
                await publisher.stop()
        finally:
            await listener.stop()

    asyncio.run(scenario())


def test_a_game_watched_while_redis_is_away_is_heard_once_it_is_back(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        listener = RedisBroker(redis_server.url, reconnect_delays=(0.05, 0.1))
        heard = Heard()
        await listener.start(heard)
        try:
            redis_server.halt()
            await listener.watch("g3")  # no error: a websocket opened now still works here
            assert listener.watched == {"g3": 1}
            redis_server.start()
            await heard.wait(1, timeout=10)
            assert heard.notices == [("g3", None)]
            publisher = RedisBroker(redis_server.url)
            await publisher.start(Heard())
            try:
                await publisher.publish("g3", 4)
                await heard.wait(2)
                assert heard.notices[-1] == ("g3", 4)
            finally:
                await publisher.stop()
        finally:
            await listener.stop()

    asyncio.run(scenario())


def test_a_foreign_message_on_a_game_channel_is_ignored(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        import redis.asyncio as aioredis

        listener = RedisBroker(redis_server.url)
        heard = Heard()
        await listener.start(heard)
        client = aioredis.Redis.from_url(redis_server.url)
        try:
            await listener.watch("g1")
            for junk in (b"not json", b'{"version": "x"}', b"[]", b'{"origin": "a"}'):
                await client.publish(RedisBroker.channel("g1"), junk)
            await client.publish(RedisBroker.channel("g1"), b'{"version": 2, "origin": "other"}')
            # a state message after the header is handed on; anything else after it is not
            g1 = RedisBroker.channel("g1")
            await client.publish(g1, b'{"version": 3, "origin": "o"}\n<b>junk</b>')
            await client.publish(g1, b'{"version": 4, "origin": "o"}\n{"type":"state"}')
            await heard.wait(3)
            assert heard.notices == [("g1", 2), ("g1", 3), ("g1", 4)]
            assert heard.states == [None, None, '{"type":"state"}']
        finally:
            await client.aclose()
            await listener.stop()

    asyncio.run(scenario())


def test_without_a_redis_url_the_broker_is_the_in_process_one() -> None:
    broker = make_broker(None)
    assert type(broker) is Broker and not broker.shared
    assert make_broker("redis://127.0.0.1:1/0").shared
