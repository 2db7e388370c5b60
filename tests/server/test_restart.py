"""A restarted server resumes every game where it was (issue 6: the restart test)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.db import Store
from tests.server.server_process import ServerProcess

pytestmark = pytest.mark.services


def test_restart_in_process_continues_from_the_same_state(db_url: str) -> None:
    seats = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        created = client.post("/api/games", json={"game": "nim", "options": {"stones": 6}, "seats": seats})
        gid, tokens = created.json()["id"], [s["token"] for s in created.json()["seats"]]
        client.post(f"/api/games/{gid}/actions", json={"token": tokens[0], "ply": 0, "move": "take 2"})
        client.post(f"/api/games/{gid}/actions", json={"token": tokens[1], "ply": 1, "move": "take 1"})
        before = client.get(f"/api/games/{gid}").json()
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        after = client.get(f"/api/games/{gid}").json()
        assert after["state"] == before["state"] and after["moves"] == before["moves"]
        assert after["ply"] == 2 and after["state"]["pile"] == 3
        # the same tokens still act for the same seats
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[1], "ply": 2, "move": "take 1"})
        assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[0], "ply": 2, "move": "take 1"})
        assert r.status_code == 200 and r.json()["state"]["pile"] == 2


def test_snapshot_unreadable_falls_back_to_the_record(db_url: str) -> None:
    seats = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        created = client.post("/api/games", json={"game": "nim", "seats": seats}).json()
        gid, t0 = created["id"], created["seats"][0]["token"]
        client.post(f"/api/games/{gid}/actions", json={"token": t0, "ply": 0, "move": "take 2"})
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE games SET snapshot = :s"), {"s": '{"game": "nim"}'})
    store.close()
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        view = client.get(f"/api/games/{gid}").json()
        assert view["ply"] == 1 and view["state"]["pile"] == 5


def _wait(url: str, check: Any) -> dict[str, Any]:
    end = time.monotonic() + 30
    while True:
        view: dict[str, Any] = httpx.get(url, timeout=5).json()
        if check(view):
            return view
        assert time.monotonic() < end, view
        time.sleep(0.05)


def test_killed_server_process_resumes_mid_game(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    server = ServerProcess(db_url).start()
    try:
        seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
        body = {"game": "nim", "options": {"stones": 20, "coin": True}, "seats": seats, "seed": 3}
        created = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
        gid, token = created["id"], created["seats"][0]["token"]
        game_url = f"{server.url}/api/games/{gid}"
        view = _wait(game_url, lambda v: v["current_player"] == 0)
        r = httpx.post(
            game_url + "/actions", json={"token": token, "ply": view["ply"], "move": "take 1"}, timeout=10
        )
        assert r.status_code == 200  # acknowledged, so it is in the database
        acknowledged = r.json()
        server.kill()
        server = ServerProcess(db_url).start()
        game_url = f"{server.url}/api/games/{gid}"
        # the AI seat's move (pending at the kill or already made) is played by the new server
        view = _wait(game_url, lambda v: v["current_player"] == 0 and v["ply"] > acknowledged["ply"])
        assert view["moves"][: acknowledged["ply"]] == acknowledged["moves"]
        assert view["state"]["pile"] < acknowledged["state"]["pile"]
        r = httpx.post(
            game_url + "/actions", json={"token": token, "ply": view["ply"], "move": "take 1"}, timeout=10
        )
        assert r.status_code == 200 and r.json()["ply"] == view["ply"] + 1
    finally:
        server.stop()


def test_a_running_clock_survives_a_killed_server_process(tmp_path: Path) -> None:
    """Issue 21: the clock is in the row; after kill -9 and a new start the seat to move has the
    same deadline (its clock kept running meanwhile: docs/web.md, "Clocks")."""
    db_url = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    server = ServerProcess(db_url).start()
    try:
        seats = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]
        control = {"type": "fischer", "seconds": 600, "increment": 5}
        body = {"game": "nim", "seats": seats, "time_control": control}
        created = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
        gid, token = created["id"], created["seats"][0]["token"]
        r = httpx.post(
            f"{server.url}/api/games/{gid}/actions",
            json={"token": token, "ply": 0, "move": "take 1"},
            timeout=10,
        )
        assert r.status_code == 200
        before = r.json()["clock"]
        assert before["seats"][1]["running"] and before["deadline"] is not None
        server.kill()
        server = ServerProcess(db_url).start()
        after = httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()["clock"]
        assert after["deadline"] == before["deadline"] and after["since"] == before["since"]
        assert after["seats"][1]["running"] and after["seats"][1]["left"] <= before["seats"][1]["left"]
        assert after["seats"][0]["left"] == before["seats"][0]["left"] <= 605
    finally:
        server.stop()
