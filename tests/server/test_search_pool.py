"""Issue 17, "a bounded pool for AI searches with fair queueing between games"
(palaestra/server/service/pool.py): the order in which waiting searches run, and the bound on how
many run at once. Nothing here measures time: the order is recorded by the searches themselves,
and the bound by searches that wait for each other."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.service.pool import SearchPool
from palaestra.server.settings import Settings
from tests.server.test_api import create, play, wait_for


def recorder(order: list[str], name: str) -> Callable[[], str]:
    def work() -> str:
        order.append(name)
        return name

    return work


async def queue_behind_a_blocker(
    pool: SearchPool, jobs: list[tuple[str, bool]], *, blocker_urgent: bool = False
) -> list[str]:
    """Fill the pool (size 1) with a search that waits, queue ``jobs`` (game, urgent) behind it,
    then let it go: the order the queued searches run in."""
    order: list[str] = []
    gate = threading.Event()
    first = asyncio.ensure_future(pool.run("blocker", gate.wait, urgent=blocker_urgent))
    await asyncio.sleep(0)
    assert pool.running == 1
    queued = [asyncio.ensure_future(pool.run(g, recorder(order, g), urgent=u)) for g, u in jobs]
    await asyncio.sleep(0)
    assert pool.waiting == len(jobs) and pool.running == 1  # the bound: the rest wait
    gate.set()
    await asyncio.gather(first, *queued)
    pool.close()
    return order


def test_waiting_searches_take_turns_between_games() -> None:
    """Game A asks for four searches, B for one, C for two: A cannot make B and C wait behind
    all of its own; every game gets a turn before A gets its second."""
    jobs = [("A", True)] * 4 + [("B", True)] + [("C", True)] * 2
    order = asyncio.run(queue_behind_a_blocker(SearchPool(1), jobs))
    assert order == ["A", "B", "C", "A", "C", "A", "A"]


def test_a_person_goes_before_ai_against_ai_games_but_never_starves_them() -> None:
    """Three AI-vs-AI games wait (background) when a person asks five searches (urgent): the
    person's go first, but at most ``burst`` (2) in a row while a background search waits."""
    jobs = [("X", False), ("Y", False), ("Z", False)] + [("H", True)] * 5
    order = asyncio.run(queue_behind_a_blocker(SearchPool(1, burst=2), jobs))
    assert order == ["H", "H", "X", "H", "H", "Y", "H", "Z"]


def test_at_most_size_searches_run_at_once() -> None:
    size = 3
    pool = SearchPool(size)
    lock = threading.Lock()
    running = [0]
    most = [0]
    together = threading.Barrier(size, timeout=30)  # each search waits until `size` run together

    def search() -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        together.wait()
        with lock:
            running[0] -= 1

    async def main() -> None:
        searches = [pool.run(f"game{k % 4}", search, urgent=k % 2 == 0) for k in range(4 * size)]
        await asyncio.gather(*searches)
        assert pool.running == 0 and pool.waiting == 0

    asyncio.run(main())
    pool.close()
    assert most[0] == size  # `size` ran together (the barrier), never more


def test_errors_reach_the_asker_and_a_cancelled_search_never_runs() -> None:
    async def main() -> list[str]:
        pool = SearchPool(1)
        order: list[str] = []
        gate = threading.Event()
        first = asyncio.ensure_future(pool.run("a", gate.wait))
        gone = asyncio.ensure_future(pool.run("b", recorder(order, "b")))
        await asyncio.sleep(0)
        gone.cancel()  # the client went away while its search waited

        def broken() -> None:
            raise ValueError("engine bug")

        failing = asyncio.ensure_future(pool.run("c", broken))
        later = asyncio.ensure_future(pool.run("d", recorder(order, "d")))
        gate.set()
        await first
        with pytest.raises(ValueError, match="engine bug"):
            await failing
        assert await later == "d"
        assert pool.running == 0
        pool.close()
        return order

    assert asyncio.run(main()) == ["d"]


def test_the_size_must_be_positive() -> None:
    with pytest.raises(ValueError):
        SearchPool(0)


# --- the app: every search goes through the pool, with the right priority ----------------------
@pytest.mark.slow
def test_the_app_searches_through_its_pool(db_url: str) -> None:
    settings = Settings(search_workers=1)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.pool.size == 1 and hub.moves.pool is hub.pool and hub.analyst.pool is hub.pool
        asked: list[tuple[str, bool]] = []
        real = hub.pool.run

        async def run(key: str, work: Callable[[], Any], *, urgent: bool = True) -> Any:
            asked.append((key, urgent))
            return await real(key, work, urgent=urgent)

        hub.pool.run = run
        robots = [{"kind": "ai", "level": "random"}, {"kind": "ai", "level": "random"}]
        ai_game = create(client, seats=robots, seed=None, options={"stones": 6})["id"]
        wait_for(client, ai_game, lambda v: v["status"] == "finished")
        assert asked and all(key == ai_game and not urgent for key, urgent in asked)
        asked.clear()
        seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
        created = create(client, seats=seats, seed=None, options={"stones": 6})
        gid, token = created["id"], created["seats"][0]["token"]
        assert client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": token}).status_code == 200
        assert play(client, gid, token, 0, move="take 1").status_code == 200
        wait_for(client, gid, lambda v: v["ply"] >= 2 or v["status"] != "active")
        assert asked == [(gid, True), (gid, True)]  # the hint, then the AI's reply to a person
        metrics = client.get("/metrics").text
        assert "palaestra_searches_waiting 0.0" in metrics and "palaestra_searches_running 0.0" in metrics
