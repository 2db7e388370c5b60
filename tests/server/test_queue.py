"""A web process with --redis-url never searches (issue 18): the server's moves wait in the Redis
queue for a worker, and a hint with no worker to answer is a 503, not a search here."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.settings import Settings
from palaestra.server.worker import QUEUE_NAME, job_id
from tests.server.redis_server import RedisServer


def test_the_ai_move_is_a_job_in_redis_and_no_search_here(db_url: str, redis_server: RedisServer) -> None:
    import redis

    settings = Settings.from_env(search_timeout=0.5)
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
    with TestClient(
        create_app(db_url, ai_delay=0.0, settings=settings, redis_url=redis_server.url)
    ) as client:
        created = client.post("/api/games", json={"game": "nim", "seats": seats}).json()
        gid, token = created["id"], created["seats"][0]["token"]
        r = client.post(f"/api/games/{gid}/actions", json={"token": token, "ply": 0, "move": "take 1"})
        assert r.status_code == 200 and r.json()["ply"] == 1
        queue = redis.Redis(unix_socket_path=str(redis_server.socket))
        try:
            end = time.monotonic() + 5
            while queue.zscore(QUEUE_NAME, job_id(gid, 1)) is None:
                assert time.monotonic() < end, queue.zrange(QUEUE_NAME, 0, -1)
                time.sleep(0.02)
            time.sleep(0.3)
            assert client.get(f"/api/games/{gid}").json()["ply"] == 1  # nobody here played it
            assert queue.zcard(QUEUE_NAME) == 1  # asked once
        finally:
            queue.close()
        # hints are searched by workers too: with none, a clean 503 after search_timeout
        started = time.monotonic()
        r = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": token})
        assert r.status_code == 503 and r.json()["error"] == "ai_unavailable"
        assert time.monotonic() - started < 5
