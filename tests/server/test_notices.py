"""Issue 18: a web process trusts the change notices instead of reading a game's version per request.

Two "processes" here are two hubs in one event loop, each with its own Redis broker, on one
database; a third hub with the in-process broker announces nothing: it is a process whose notice
never comes (killed between storing a change and announcing it). ``Sessions.checks`` counts the
reads of a row's version. Each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from palaestra.server.broker import Broker, RedisBroker
from palaestra.server.db import Store
from palaestra.server.service.errors import DomainError
from palaestra.server.service.hub import Hub
from tests.server.redis_server import RedisServer

HOT_SEAT = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]
INVITED = [{"kind": "human", "joined": True}, {"kind": "human"}]


async def until(what: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def run(db_url: str, redis: RedisServer, scenario: Callable[..., Awaitable[None]]) -> None:
    """``scenario(a, b, silent)``: hubs A and B hear each other; ``silent`` announces nothing."""

    async def main() -> None:
        delays = (0.05, 0.1)
        hubs = [
            Hub(Store(db_url), ai_delay=0.0, broker=RedisBroker(redis.url, reconnect_delays=delays)),
            Hub(Store(db_url), ai_delay=0.0, broker=RedisBroker(redis.url, reconnect_delays=delays)),
            Hub(Store(db_url), ai_delay=0.0, broker=Broker()),
        ]
        for hub in hubs:
            await asyncio.to_thread(hub.store.migrate)
            await hub.start()
        try:
            await scenario(*hubs)
        finally:
            for hub in hubs:
                await hub.stop()
                hub.store.close()

    asyncio.run(main())


async def create(hub: Hub, seats: list[dict[str, Any]] = HOT_SEAT) -> tuple[str, list[str | None], Any]:
    session, created = await hub.seats.create("nim", {"stones": 30}, seats)
    return session.id, created.tokens, created


async def current_on(hub: Hub, game_id: str) -> None:
    """Load the game on ``hub`` and wait until its notices are heard and its row checked once."""
    await hub.get(game_id)
    await until(lambda: hub.sessions.broker.listening(game_id) is not None)
    await hub.get(game_id)
    assert hub.sessions.current(hub.loaded[game_id])


def afresh(silent: Hub, game_id: str) -> Hub:
    """The silent hub hears nothing: it forgets its copy so that its next request loads the row."""
    if game_id in silent.loaded:
        silent.sessions.evict(silent.loaded[game_id])
    return silent


def moves_in_row(hub: Hub, game_id: str) -> list[str]:
    stored = hub.store.get(game_id)
    assert stored is not None
    return [m["move"] for m in stored.record["moves"]]


def test_a_game_known_current_by_its_notices_is_used_without_reading_its_version(
    db_url: str, redis_server: RedisServer
) -> None:
    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, _ = await create(a)
        await current_on(b, gid)
        checks = b.sessions.checks
        for _ in range(20):  # reads
            assert (await b.get(gid)).ply == 0
        for ply in range(6):  # actions through B, by both seats in turn
            session = await b.play.act(gid, str(tokens[ply % 2]), ply, None, "take 1")
            assert session.ply == ply + 1
        assert b.sessions.checks == checks  # not one read of the version
        # a move through A: B hears it and reloads the game on its next request, once
        moved = await a.play.act(gid, str(tokens[0]), 6, None, "take 2")
        await until(lambda: b.sessions.broker.announced(gid) == moved.version)
        assert not b.sessions.current(b.loaded[gid])
        seen = await b.get(gid)
        assert seen.ply == 7 and seen.version == moved.version and seen.record.moves[-1].move == "take 2"
        for _ in range(5):
            await b.get(gid)
        assert b.sessions.checks == checks  # the notice said B was behind: the row read at once
        # a worker's broker follows nothing: it reads the version on every use
        worker = RedisBroker(redis_server.url, follow=False)
        await worker.start(lambda game_id, version, state: None)
        try:
            worker.follow(gid)
            await asyncio.sleep(0.1)
            assert worker.listening(gid) is None and worker.watched == {}
        finally:
            await worker.stop()

    run(db_url, redis_server, scenario)


def test_while_the_notices_are_down_every_request_reads_the_version(
    db_url: str, redis_server: RedisServer
) -> None:
    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, _ = await create(a)
        await current_on(b, gid)
        redis_server.halt()
        await until(lambda: b.sessions.broker.listening(gid) is None)
        checks = b.sessions.checks
        # a move stored while Redis is away: its notice cannot be sent, yet B answers with it
        await a.play.act(gid, str(tokens[0]), 0, None, "take 1")
        for _ in range(3):
            assert (await b.get(gid)).ply == 1
        assert b.sessions.checks == checks + 3
        redis_server.start()  # on the same socket
        await until(lambda: b.sessions.broker.listening(gid) is not None)
        # notices missed in the gap: nothing held before is trusted until checked again
        await b.get(gid)
        assert b.sessions.checks == checks + 4
        await a.play.act(gid, str(tokens[1]), 1, None, "take 2")
        await until(lambda: b.sessions.broker.announced(gid) == a.loaded[gid].version)
        assert (await b.get(gid)).ply == 2
        for _ in range(3):
            await b.get(gid)
        assert b.sessions.checks == checks + 4  # the notice said B was behind: no version read

    run(db_url, redis_server, scenario)


def test_a_stale_copy_never_accepts_a_move(db_url: str, redis_server: RedisServer) -> None:
    """The silent process's move is never announced: B's copy stays trusted and a move behind,
    but the row's version guard refuses B's write; B reloads and judges the action again."""

    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, _ = await create(a)
        await current_on(b, gid)
        await afresh(silent, gid).play.act(gid, str(tokens[0]), 0, None, "take 1")
        assert (await b.get(gid)).ply == 0  # trusted, behind (until a check of the row)
        with pytest.raises(DomainError) as refused:
            await b.play.act(gid, str(tokens[0]), 0, None, "take 2")  # legal on B's stale copy
        assert refused.value.code == "stale_action"
        assert await asyncio.to_thread(moves_in_row, b, gid) == ["take 1"]
        assert b.loaded[gid].ply == 1  # reloaded from the row

    run(db_url, redis_server, scenario)


def test_a_request_naming_a_newer_ply_or_version_reloads_at_once(
    db_url: str, redis_server: RedisServer
) -> None:
    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, _ = await create(a)
        await current_on(b, gid)
        # the other player saw the silent process's answer (ply 1) and moves through B
        await afresh(silent, gid).play.act(gid, str(tokens[0]), 0, None, "take 1")
        session = await b.play.act(gid, str(tokens[1]), 1, None, "take 2")
        assert session.ply == 2
        assert await asyncio.to_thread(moves_in_row, b, gid) == ["take 1", "take 2"]
        # a reader that names the version it saw gets at least that
        moved = await afresh(silent, gid).play.act(gid, str(tokens[0]), 2, None, "take 1")
        assert (await b.get(gid)).ply == 2  # trusted, behind
        assert (await b.sessions.get(gid, version=moved.version)).ply == 3

    run(db_url, redis_server, scenario)


def test_a_refusal_is_given_from_the_current_row_only(db_url: str, redis_server: RedisServer) -> None:
    """A seat joined through another process: B's trusted copy does not know its token yet; the
    refusal (wrong token) is checked against the row, and the action is accepted. (The friend
    joins before the host moves: nobody moves before, issue 30 finding 14.)"""

    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, created = await create(a, INVITED)
        await current_on(b, gid)
        seat, token = await afresh(silent, gid).seats.join(gid, str(created.invites[1]), "Bea")
        assert seat == 1
        await afresh(silent, gid).play.act(gid, str(tokens[0]), 0, None, "take 1")
        checks = b.sessions.checks
        session = await b.play.act(gid, token, 1, None, "take 1")
        assert b.sessions.checks == checks + 1  # the refusal's check found the seat taken
        assert session.ply == 2 and session.seats[1].name == "Bea"
        with pytest.raises(DomainError) as refused:  # a token that is wrong stays wrong
            await b.play.act(gid, "not-a-token", 2, None, "take 1")
        assert refused.value.code == "wrong_token"

    run(db_url, redis_server, scenario)


def test_a_change_judged_on_a_copy_a_notice_behind_is_judged_again_on_the_row(
    db_url: str, redis_server: RedisServer
) -> None:
    """B's copy is behind (the silent process changed the game): a join or a resignation through
    B loses the race to the row, and is judged again on the reloaded game (not answered 409
    ``conflict``). (Before the friend joins nobody moves, issue 30 finding 14: the change before
    the join is the creator's new invitation.)"""

    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, created = await create(a, INVITED)
        await current_on(b, gid)
        code = await afresh(silent, gid).seats.reinvite(gid, created.creator_token, 1, new=True)
        seat, token = await b.seats.join(gid, str(code), "Bea")
        assert seat == 1 and b.loaded[gid].seats[1].joined
        await afresh(silent, gid).play.act(gid, str(tokens[0]), 0, None, "take 1")
        await afresh(silent, gid).play.act(gid, token, 1, None, "take 1")
        resigned = await b.play.resign(gid, str(tokens[0]))
        assert resigned.status == "finished" and resigned.ply == 2
        assert await asyncio.to_thread(moves_in_row, b, gid) == ["take 1", "take 1"]

    run(db_url, redis_server, scenario)


def test_a_notice_that_never_came_delays_a_read_by_recheck_seconds_at_most(
    db_url: str, redis_server: RedisServer
) -> None:
    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, _ = await create(a)
        await current_on(b, gid)
        b.sessions.recheck_seconds = 0.3
        await afresh(silent, gid).play.act(gid, str(tokens[0]), 0, None, "take 1")
        await asyncio.sleep(0.35)
        assert (await b.get(gid)).ply == 1

    run(db_url, redis_server, scenario)


def test_a_websocket_on_another_process_is_sent_the_movers_message_without_a_reload(
    db_url: str, redis_server: RedisServer
) -> None:
    """The notice carries the websocket message A made of the new version: B pushes it as it is
    (no read of the row, no view made), once; B's copy is reloaded by its next request."""

    async def scenario(a: Hub, b: Hub, silent: Hub) -> None:
        gid, tokens, _ = await create(a)
        queue = await b.sessions.watch(await b.get(gid))
        await current_on(b, gid)
        reads: list[str] = []
        real_get = b.store.get

        def counted(game_id: str) -> Any:
            reads.append(game_id)
            return real_get(game_id)

        b.store.get = counted  # type: ignore[method-assign]
        moved = await a.play.act(gid, str(tokens[0]), 0, None, "take 2")
        message = await asyncio.wait_for(queue.get(), 5)
        assert isinstance(message, str) and message == moved.state_message()
        assert json.loads(message)["game"]["version"] == moved.version
        await asyncio.sleep(0.1)
        assert reads == [] and queue.empty()
        assert b.loaded[gid].version == moved.version - 1  # behind, and known to be
        assert (await b.get(gid)).version == moved.version and reads == [gid]
        assert queue.empty()  # that version was pushed already: not twice
        # a change B makes itself is pushed as always
        await b.play.act(gid, str(tokens[1]), 1, None, "take 1")
        assert json.loads(await asyncio.wait_for(queue.get(), 5))["game"]["ply"] == 2

    run(db_url, redis_server, scenario)
