"""Issue 17, "memory bounded": games nobody changed for ``abandon_after_seconds`` become
``abandoned`` — kept and shown (view, lobby), every change refused with 409 ``game_abandoned``.
The database decides (a version-guarded update per game), so the sweep is safe across restarts and
with several processes on one database. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.db import GameRow, Store
from palaestra.server.settings import Settings
from tests.server.test_api import INVITED, assert_error, code_of, create, play

DAY = 24 * 3600.0


def age(db_url: str, game_id: str, days: float) -> None:
    """Make the game look untouched for ``days`` (as if nobody had moved since)."""
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(
            sa.update(GameRow)
            .where(GameRow.id == game_id)
            .values(updated_at=datetime.now(UTC) - timedelta(days=days))
        )
    store.close()


def sweep(client: TestClient, after: float = DAY) -> int:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.abandon_after = after
    marked: int = client.portal.call(hub.abandon_idle)  # type: ignore[union-attr]
    return marked


def test_an_inactive_game_becomes_abandoned_shown_and_read_only(client: TestClient, db_url: str) -> None:
    created = create(client, seats=INVITED, seed=None, hints=True)
    gid, token = created["id"], created["seats"][0]["token"]
    fresh = create(client)["id"]
    # the friend joins before anybody moves (issue 30, finding 14); the used link is tried again below
    assert client.post(f"/api/games/{gid}/join", json={"code": code_of(created, 1)}).status_code == 200
    assert play(client, gid, token, 0, move="take 1").status_code == 200
    before = client.get(f"/api/games/{gid}").json()
    age(db_url, gid, days=2)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["game"]["status"] == "active"
        assert sweep(client) == 1
        pushed = ws.receive_json()["game"]
    assert pushed["status"] == "abandoned" and pushed["version"] == before["version"] + 1
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "abandoned" and view["legal"] == [] and view["ply"] == 1
    assert view["moves"] == before["moves"]  # kept, not deleted: the record is unchanged
    lobby = {g["id"]: g["status"] for g in client.get("/api/games").json()}
    assert lobby == {gid: "abandoned", fresh: "active"}  # the recent game stays active
    # every change is refused with the documented code, and changes nothing
    seat1 = client.post(f"/api/games/{gid}/join", json={"code": code_of(created, 1)})
    assert_error(seat1, 409, "game_abandoned")
    assert_error(play(client, gid, token, 1, move="take 1"), 409, "game_abandoned")
    assert_error(client.post(f"/api/games/{gid}/resign", json={"token": token}), 409, "game_abandoned")
    assert_error(
        client.post(f"/api/games/{gid}/undo", json={"token": token, "ply": 1}), 409, "game_abandoned"
    )
    hint = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": token})
    assert_error(hint, 409, "game_abandoned")
    boss = {"X-Creator-Token": created["creator_token"]}
    assert_error(client.post(f"/api/games/{gid}/seats/1/invitation", headers=boss), 409, "game_abandoned")
    assert client.get(f"/api/games/{gid}").json()["version"] == view["version"]
    assert client.get(f"/api/games/{gid}/record").status_code == 200
    assert sweep(client) == 0  # marked once


def test_finished_games_and_a_zero_setting_are_left_alone(client: TestClient, db_url: str) -> None:
    created = create(client)
    gid, token = created["id"], created["seats"][0]["token"]
    assert client.post(f"/api/games/{gid}/resign", json={"token": token}).status_code == 200
    idle = create(client)["id"]
    for game_id in (gid, idle):
        age(db_url, game_id, days=400)
    assert sweep(client, after=0) == 0  # 0: never
    assert client.get(f"/api/games/{idle}").json()["status"] == "active"
    assert sweep(client, after=DAY) == 1
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    assert client.get(f"/api/games/{idle}").json()["status"] == "abandoned"


def test_the_sweep_runs_at_start_so_a_restart_marks_what_went_idle_meanwhile(db_url: str) -> None:
    settings = Settings(abandon_after_seconds=DAY)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:
        old, recent = create(client)["id"], create(client)["id"]
    age(db_url, old, days=3)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:
        assert client.get(f"/api/games/{old}").json()["status"] == "abandoned"
        assert client.get(f"/api/games/{recent}").json()["status"] == "active"
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as client:  # and stays so
        assert client.get(f"/api/games/{old}").json()["status"] == "abandoned"


@pytest.mark.slow
def test_several_processes_sweeping_at_once_mark_each_game_once(client: TestClient, db_url: str) -> None:
    games = [create(client)["id"] for _ in range(6)]
    for game_id in games:
        age(db_url, game_id, days=2)
    cutoff = datetime.now(UTC) - timedelta(days=1)
    stores = [Store(db_url) for _ in range(4)]  # four processes' stores on one database
    results: list[list[tuple[str, int]]] = [[] for _ in stores]
    start = threading.Barrier(len(stores))

    def run(k: int) -> None:
        start.wait()
        results[k] = stores[k].abandon_idle(cutoff)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for store in stores:
        store.close()
    marked = [game_id for result in results for game_id, _ in result]
    assert sorted(marked) == sorted(games)  # every game once, by exactly one of them


def test_a_move_stored_during_the_sweep_wins_and_the_game_stays_active(
    client: TestClient, db_url: str
) -> None:
    """The version read by the sweep is the arbiter: a move stored between the sweep's read and
    its update keeps the game active."""
    created = create(client)
    gid = created["id"]
    age(db_url, gid, days=2)
    sweeper, player = Store(db_url), Store(db_url)
    stored = player.get(gid)
    assert stored is not None
    moved: list[bool] = []

    def move_first(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE GAMES") and not moved:
            moved.append(True)  # another process stores a move now, before the sweep's update
            player.update(
                gid,
                expect_version=stored.version,
                version=stored.version + 1,
                ply=stored.ply,
                status="active",
                record=stored.record,
                snapshot=stored.snapshot,
            )

    sa.event.listen(sweeper.engine, "before_cursor_execute", move_first)
    assert sweeper.abandon_idle(datetime.now(UTC) - timedelta(days=1)) == []
    assert moved
    row = player.get(gid)
    assert row is not None and row.status == "active" and row.version == stored.version + 1
    sweeper.close()
    player.close()


def test_the_setting_comes_from_the_environment(monkeypatch: Any) -> None:
    monkeypatch.setenv("PALAESTRA_ABANDON_AFTER_SECONDS", "86400")
    assert Settings.from_env().abandon_after_seconds == 86400.0
    assert Settings().abandon_after_seconds == 30 * DAY


def test_a_game_marked_by_one_process_is_pushed_by_the_other(db_url: str, redis_server: Any) -> None:
    """Two server processes on one database and one Redis (``--redis-url``): the one whose sweep
    marks the game announces it, the other pushes it to its websocket and refuses moves too."""
    url = redis_server.url
    with (
        TestClient(create_app(db_url, ai_delay=0.0, redis_url=url)) as a,
        TestClient(create_app(db_url, ai_delay=0.0, redis_url=url)) as b,
    ):
        created = create(a)
        gid, token = created["id"], created["seats"][0]["token"]
        age(db_url, gid, days=2)
        with b.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json()["game"]["status"] == "active"
            assert sweep(a) == 1
            assert ws.receive_json()["game"]["status"] == "abandoned"
        assert sweep(b) == 0  # marked once, by the process that won
        assert_error(play(b, gid, token, 0, move="take 1"), 409, "game_abandoned")


def test_the_lobby_and_the_sweep_read_games_through_an_index(client: TestClient, db_url: str) -> None:
    """The lobby (public games, newest first; migration 0003) and this sweep (active games unchanged
    since a moment; migration 0005) each have an index on both databases; SQLite's planner uses
    them."""
    store = Store(db_url)
    try:
        indexes = {ix["name"]: ix["column_names"] for ix in sa.inspect(store.engine).get_indexes("games")}
        assert indexes["ix_games_public_updated"] == ["public", "updated_at"]
        assert indexes["ix_games_status_updated"] == ["status", "updated_at"]
        if not db_url.startswith("sqlite"):
            return  # PostgreSQL's planner prefers a scan of a small table: its plan is not asserted
        queries = {
            "ix_games_public_updated": (
                "SELECT id FROM games WHERE public = 1 ORDER BY updated_at DESC LIMIT 50"
            ),
            "ix_games_status_updated": (
                "SELECT id FROM games WHERE status = 'active' AND updated_at < '2026-01-01' "
                "ORDER BY updated_at LIMIT 500"
            ),
        }
        with store.engine.connect() as conn:
            for index, query in queries.items():
                plan = " ".join(str(row[-1]) for row in conn.execute(sa.text("EXPLAIN QUERY PLAN " + query)))
                assert index in plan, plan
    finally:
        store.close()
