"""Issue 31, item 2: "in-process AI starves people". The searches run in child processes of the
search pool (palaestra/server/service/pool.py, ``search_processes``), not in the server's process,
whose event loop they starved by holding the GIL. Nothing here measures time: responsiveness is
counted (requests answered while one search runs), overlaps are compared as intervals."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.service import searching
from palaestra.server.service.pool import ChildCall, SearchPool
from palaestra.server.settings import Settings
from tests.server.test_api import create, play, wait_for

pytestmark = pytest.mark.services


# --- searches of the tests: module-level, so that a child can run them -------------------------
def spin_until(started: str, flag: str) -> tuple[int, int]:
    """A pure-Python search that holds its process's GIL until ``flag`` exists (``started``
    made when it starts): its pid and the number of rounds it ran."""
    Path(started).touch()
    rounds = 0
    while not os.path.exists(flag):
        rounds += 1
        sum(range(200))
    return os.getpid(), rounds


def interval(spins: int) -> tuple[int, int, int]:
    """A short search: its pid, and when it started and ended (the system-wide monotonic clock)."""
    start = time.monotonic_ns()
    for _ in range(spins):
        sum(range(100))
    return os.getpid(), start, time.monotonic_ns()


def test_a_search_runs_in_a_child_while_the_event_loop_answers(tmp_path: Path) -> None:
    """While one search holds its GIL (it runs until the loop has answered 50 "requests"), the
    loop keeps answering: the search is in another process, so this holds however busy it is."""
    started, flag = tmp_path / "started", str(tmp_path / "stop")

    async def main() -> tuple[tuple[int, int], int]:
        pool = SearchPool(1, processes=True)
        try:
            search = asyncio.ensure_future(pool.run("g", ChildCall(spin_until, (str(started), flag))))
            while not started.exists():  # the child starts, then the search
                await asyncio.sleep(0.01)
            answered = 0
            for _ in range(50):  # 50 requests, each some pure-Python work on the loop
                await asyncio.sleep(0)
                sum(range(2000))
                answered += 1
            assert not search.done()  # all answered while the search ran
            Path(flag).touch()
            return await search, answered
        finally:
            pool.close()

    (pid, rounds), answered = asyncio.run(main())
    assert pid != os.getpid() and rounds > 0 and answered == 50


def test_a_games_searches_run_one_at_a_time_in_its_own_child() -> None:
    """Two slots, searches of three games queued at once: each game's searches run in one child
    (its affinity) and never overlap; the games are spread over both children."""

    async def main() -> dict[str, list[tuple[int, int, int]]]:
        pool = SearchPool(2, processes=True)
        games = ["game-a", "game-b", "game-c", "game-d"]
        try:
            runs = {g: [pool.run(g, ChildCall(interval, (20_000,))) for _ in range(4)] for g in games}
            return {g: list(await asyncio.gather(*jobs)) for g, jobs in runs.items()}
        finally:
            pool.close()

    results = asyncio.run(main())
    pool = SearchPool(2, processes=True)
    children = set()
    for game, runs in results.items():
        assert len({pid for pid, _, _ in runs}) == 1  # always the same child
        children.add((pool.slot(game), runs[0][0]))
        ordered = sorted((start, end) for _, start, end in runs)
        for (_, end), (start, _) in itertools.pairwise(ordered):
            assert end <= start  # the next began after the previous ended
    pool.close()
    assert len({pid for _, pid in children}) == 2 == len({slot for slot, _ in children})
    assert os.getpid() not in {pid for _, pid in children}


def test_a_child_that_died_is_replaced() -> None:
    async def main() -> None:
        pool = SearchPool(1, processes=True)
        try:
            first, _, _ = await pool.run("g", ChildCall(interval, (1,)))
            (child,) = pool.children()
            child.kill()
            child.join()
            with contextlib.suppress(BrokenProcessPool):  # the search asked as it died may fail
                await pool.run("g", ChildCall(interval, (1,)))
            again, _, _ = await pool.run("g", ChildCall(interval, (1,)))
            assert again not in (first, os.getpid())
        finally:
            pool.close()

    asyncio.run(main())


def test_a_search_past_the_limit_is_stopped(tmp_path: Path) -> None:
    """A search that would never end (a runaway budget) is stopped after ``limit`` seconds: its
    child is ended, the asker told, and the slot's next search runs in a new child."""
    started, never = tmp_path / "started", str(tmp_path / "never")

    async def main() -> None:
        pool = SearchPool(1, processes=True)
        try:
            await pool.run("g", ChildCall(interval, (1,)))  # the child is up (its start not timed)
            (first,) = pool.children()
            pool.limit = 1.0
            with pytest.raises(TimeoutError):
                await pool.run("g", ChildCall(spin_until, (str(started), never)))
            assert started.exists()
            # the executor's own thread may reap the child first: then join() returns at once and
            # is_alive() says True until that thread has stored the exit code, so ask again
            deadline = time.monotonic() + 10
            while first.is_alive() and time.monotonic() < deadline:
                first.join(timeout=0.1)
            assert not first.is_alive()
            pool.limit = 0.0
            again, _, _ = await pool.run("g", ChildCall(interval, (1,)))
            assert again != first.pid and pool.running == 0
        finally:
            pool.close()

    asyncio.run(main())


# --- the app ------------------------------------------------------------------------------------
def ai_game_moves(db_url: str, processes: bool) -> tuple[list[Any], list[int], list[Any]]:
    """An Agamemnon game between two "beginner" AIs (random choices: the agents' generators must
    go on from move to move) with a fixed seed: its moves; the pids of the children that searched
    them (none with threads), which have ended after the app stopped."""
    settings = Settings(search_processes=processes, search_workers=2)
    robots = [{"kind": "ai", "level": "beginner"}, {"kind": "ai", "level": "beginner"}]
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.pool.processes is processes
        gid = create(client, game="agamemnon", seats=robots, seed=7)["id"]
        wait_for(client, gid, lambda v: v["status"] != "active" or v["ply"] >= 40, timeout=120)
        children = hub.pool.children()
        pids = [p.pid for p in children]
        record = client.get(f"/api/games/{gid}/record").json()
    return record["moves"][:40], pids, children


def test_an_ai_game_makes_the_same_moves_in_children_as_in_threads(db_url: str) -> None:
    """The agent of an AI seat lives in a child and keeps its random state there from move to
    move: a seeded game chooses what it chooses with threads (and the arena). The children end
    with the app."""
    in_threads, none, _ = ai_game_moves(db_url, processes=False)
    in_children, pids, children = ai_game_moves(db_url, processes=True)
    assert none == [] and pids and os.getpid() not in pids
    assert not searching._agents  # no agent in the server's process
    assert [m["move"] for m in in_children] == [m["move"] for m in in_threads]
    assert len(in_children) == 40
    assert all(not child.is_alive() for child in children)  # ended when the app stopped


def test_an_ai_game_goes_on_after_its_search_child_died(db_url: str) -> None:
    """A search child killed (out of memory, by an operator) under an AI game's search: the
    game's runner searches again in a new child, and the game goes on."""
    settings = Settings(search_processes=True, search_workers=1)
    robots = [{"kind": "ai", "level": "beginner"}, {"kind": "ai", "level": "beginner"}]
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        real = hub.pool.run
        killed: list[int] = []

        async def run(key: str, work: Any, *, urgent: bool = True) -> Any:
            if not killed:  # the first search dies with its child
                await real(key, ChildCall(interval, (1,)))  # the child is up
                (child,) = hub.pool.children()
                killed.append(child.pid)
                child.kill()
                child.join()
                raise BrokenProcessPool("the child died")
            return await real(key, work, urgent=urgent)

        hub.pool.run = run
        gid = create(client, game="agamemnon", seats=robots, seed=7)["id"]
        wait_for(client, gid, lambda v: v["status"] != "active" or v["ply"] >= 10, timeout=120)
        assert killed and killed[0] not in [p.pid for p in hub.pool.children()]


def test_hints_and_analysis_in_children(db_url: str) -> None:
    """Hints and the AI's view of a finished game's moves are searched in a child too (of nim,
    a game registered at run time: the child is given the game's class)."""
    settings = Settings(search_processes=True, search_workers=1)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        created = create(client, options={"stones": 4})
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        hints = client.get(f"/api/games/{gid}/hint?top=2", headers={"X-Seat-Token": tokens[0]}).json()
        assert hints[0]["move"] == "take 1"  # leaves 3: the search finds the win
        assert hub.pool.children()
        for ply, text in enumerate(["take 2", "take 1", "take 1"]):
            assert play(client, gid, tokens[ply % 2], ply, move=text).status_code == 200
        a = client.get(f"/api/games/{gid}/analysis?ply=0&top=2").json()
        assert a["player"] == 0 and a["played"] == {"action": 2, "move": "take 2"}
        assert a["top"][0]["move"] == "take 1" and a["played_rank"] == 2
    assert not searching._agents
