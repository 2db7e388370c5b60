"""Issue 31: reliability, round three. One regression test (or more) per numbered finding, on
SQLite and on a real PostgreSQL where storage is involved (the ``client`` and ``db_url`` fixtures)."""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from palaestra.cli import app as cli
from palaestra.server.app import create_app
from palaestra.server.settings import Settings
from tests.server.postgres import PostgresServer
from tests.server.redis_server import RedisServer
from tests.server.server_process import ServerProcess, WorkerProcess
from tests.server.test_api import HUMANS, assert_error, create, play, wait_for


def finished_record(client: TestClient, coin: bool) -> dict[str, Any]:
    """The record of a hot-seat nim game played to its end (a coin toss draws who starts)."""
    created = create(client, options={"coin": coin, "stones": 3}, seed=None)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    view = client.get(f"/api/games/{gid}").json()
    while view["status"] == "active":
        if view["legal"]:  # else the draw is on its way
            play(client, gid, tokens[view["current_player"]], view["ply"], action=view["legal"][0]["action"])
        view = client.get(f"/api/games/{gid}").json()
    record: dict[str, Any] = client.get(f"/api/games/{gid}/record").json()
    assert record["result"] is not None
    return record


def replay(tmp_path: Path, record: dict[str, Any]) -> Any:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return CliRunner().invoke(cli, ["replay", str(path)])


# --- finding 5: `palaestra replay` is silent when it cannot verify -----------------------------------
def test_finding5_a_finished_record_without_its_chance_cannot_be_verified(
    client: TestClient, tmp_path: Path
) -> None:
    record = finished_record(client, coin=True)
    assert replay(tmp_path, record).exit_code == 0
    del record["chance"]
    r = replay(tmp_path, record)
    assert r.exit_code == 1, r.output
    assert "cannot verify: the record has 1 draw but neither the chance secret" in r.output


def test_finding5_a_finished_record_with_a_null_secret_cannot_be_verified(
    client: TestClient, tmp_path: Path
) -> None:
    record = finished_record(client, coin=True)
    record["chance"]["secret"] = None
    r = replay(tmp_path, record)
    assert r.exit_code == 1, r.output
    assert "cannot verify: the game is over but the record does not reveal the chance secret" in r.output
    assert "the game goes on" not in r.output
    record["chance"]["secret"] = 12345  # not a secret at all
    assert "cannot verify" in replay(tmp_path, record).output


def test_finding5_an_unfinished_record_says_the_secret_is_not_revealed_yet(
    client: TestClient, tmp_path: Path
) -> None:
    created = create(client, options={"coin": True, "stones": 5}, seed=None)
    gid = created["id"]
    view = wait_for(client, gid, lambda v: v["current_player"] >= 0)
    play(client, gid, created["seats"][view["current_player"]]["token"], view["ply"], action=1)
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["chance"]["secret"] is None and record["result"] is None
    r = replay(tmp_path, record)
    assert r.exit_code == 0, r.output
    assert "draws: committed, not revealed yet (the game goes on)" in r.output


def test_finding5_a_game_without_chance_says_it_is_not_verifiable(client: TestClient, tmp_path: Path) -> None:
    record = finished_record(client, coin=False)
    assert not any(m["player"] == -1 for m in record["moves"])
    for doc in (record, {k: v for k, v in record.items() if k != "chance"}):
        r = replay(tmp_path, doc)
        assert r.exit_code == 0, r.output
        assert "draws: not verifiable (no chance)" in r.output and "cannot verify" not in r.output


# --- finding 1: two processes on one database without Redis never catch up ---------------------------
@pytest.fixture
def two(db_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one database without Redis, as two `palaestra serve` processes would be (each
    has its own games in memory and its own event loop)."""
    settings = Settings(version_poll_seconds=0.2)
    with (
        TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as a,
        TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as b,
    ):
        yield a, b


def test_finding1_a_second_process_without_redis_on_the_database_is_warned_of(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="palaestra.server"):
        with TestClient(create_app(db_url, ai_delay=0.0)):
            assert "--redis-url" not in caplog.text  # alone: nothing to say
            with TestClient(create_app(db_url, ai_delay=0.0)):
                pass
        warned = [r.getMessage() for r in caplog.records if "another `palaestra serve`" in r.getMessage()]
        assert len(warned) == 1 and "--redis-url" in warned[0], caplog.text
        caplog.clear()
        with TestClient(create_app(db_url, ai_delay=0.0)):  # the first is gone: its lock with it
            pass
        assert "another `palaestra serve`" not in caplog.text


def test_finding1_a_move_through_one_process_is_seen_through_the_other(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    created = create(a, seed=None)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    assert b.get(f"/api/games/{gid}").json()["version"] == 0  # B holds the game now
    assert play(a, gid, tokens[0], 0, move="take 1").status_code == 200
    # a client that saw version 1 (through A) asks B for it: B reads the row at once
    assert b.get(f"/api/games/{gid}", params={"version": 1}).json()["version"] == 1
    # the seat to move is not refused through B with not_your_turn
    r = play(b, gid, tokens[1], 1, move="take 1")
    assert r.status_code == 200, r.text
    assert r.json()["ply"] == 2
    # and a plain read through A catches up within the poll (0.2 s here)
    view = wait_for(a, gid, lambda v: v["ply"] == 2, timeout=3.0)
    assert view["current_player"] == 0


def test_finding1_a_websocket_on_the_other_process_gets_the_move(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    created = create(a, seats=HUMANS, seed=None)  # (an invitation game waits for its guest: issue 30)
    gid, token = created["id"], created["seats"][0]["token"]
    with ThreadPoolExecutor(1) as pool, b.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["game"]["ply"] == 0
        started = time.monotonic()
        assert play(a, gid, token, 0, move="take 2").status_code == 200
        pushed = pool.submit(ws.receive_json).result(timeout=5.0)
        assert pushed["type"] == "state" and pushed["game"]["ply"] == 1
        assert time.monotonic() - started < 2.0
        # B refuses a stale move from the current row: the ply is 1 now
        assert_error(play(b, gid, token, 0, move="take 1"), 409, "stale_action")


def test_finding1_alone_a_game_known_current_by_the_poll_is_used_without_reading_its_version(
    db_url: str,
) -> None:
    """The polls cost one query a second for all games held, not a read per request."""
    with TestClient(create_app(db_url, ai_delay=0.0, settings=Settings(version_poll_seconds=0.1))) as c:
        sessions = c.app.state.hub.sessions  # type: ignore[attr-defined]
        gid = create(c)["id"]
        end = time.monotonic() + 5
        while sessions.broker.listening(gid) is None:
            assert time.monotonic() < end, "the game was never polled"
            time.sleep(0.02)
        c.get(f"/api/games/{gid}")  # checked once against the poll's token
        checks = sessions.checks
        for _ in range(20):
            assert c.get(f"/api/games/{gid}").status_code == 200
        assert sessions.checks == checks


# --- finding 3: websocket input without rate or size limit -------------------------------------------
def limited(tmp_path: Path, **limits: Any) -> TestClient:
    url = f"sqlite:///{tmp_path / 'ws.sqlite3'}"
    return TestClient(create_app(url, ai_delay=0.0, settings=Settings(**limits)))


def closed_with(ws: Any, timeout: float = 5.0) -> tuple[int, str]:
    """Read until the server closes the socket (within ``timeout`` s); its code and reason."""
    from starlette.websockets import WebSocketDisconnect

    def drain() -> None:
        while True:
            ws.receive_json()

    pool = ThreadPoolExecutor(1)  # not waited for: a socket left open ends the read on exit
    try:
        with pytest.raises(WebSocketDisconnect) as closed:
            pool.submit(drain).result(timeout=timeout)
    finally:
        pool.shutdown(wait=False)
    return closed.value.code, closed.value.reason


def counted(c: TestClient, limit: str) -> float:
    for line in c.get("/metrics").text.splitlines():
        if line.startswith(f'palaestra_websockets_closed_total{{limit="{limit}"}}'):
            return float(line.split()[-1])
    return 0.0


def test_finding3_a_socket_sending_too_many_messages_is_closed_with_1008(tmp_path: Path) -> None:
    with limited(tmp_path, ws_messages_per_second=2.0) as c:
        gid = create(c)["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(4):  # the burst: twice the rate
                ws.send_text('{"type": "ping"}')
                assert ws.receive_json() == {"type": "pong"}
            for _ in range(50):
                ws.send_text('{"type": "ping"}')
            code, why = closed_with(ws)
        assert code == 1008 and "too many messages" in why
        assert counted(c, "rate") == 1.0
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:  # another socket is not hurt
            assert ws.receive_json()["type"] == "state"
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json() == {"type": "pong"}


def test_finding3_a_message_too_big_closes_the_socket_with_1008(tmp_path: Path) -> None:
    with limited(tmp_path, ws_max_message_bytes=1000) as c:
        gid = create(c)["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * 900}))  # under: answered
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text(json.dumps({"type": "ping", "pad": "é" * 600}))  # 1,200 bytes, 600 characters
            code, why = closed_with(ws)
        assert code == 1008 and "at most 1000 bytes" in why
        assert counted(c, "size") == 1.0 and counted(c, "rate") == 0.0


def test_finding3_unread_messages_past_the_pending_limit_close_the_socket(tmp_path: Path) -> None:
    with limited(tmp_path, ws_max_pending_bytes=200) as c:
        created = create(c, options={"stones": 9})
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            state = ws.receive_text()
            assert len(state) > 200  # a state is more than the limit: it never gets in
            assert play(c, gid, tokens[0], 0, move="take 1").status_code == 200
            code, why = closed_with(ws)
        assert code == 1008 and "unread" in why
        assert counted(c, "pending") == 1.0
        assert c.app.state.hub.loaded[gid].subscribers == set()  # type: ignore[attr-defined]


def test_finding3_sent_messages_leave_the_pending_count(tmp_path: Path) -> None:
    """A socket that reads stays open however long the game: only unread bytes count."""
    with limited(tmp_path, ws_max_pending_bytes=5000) as c:
        created = create(c, options={"stones": 30})
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            size = len(ws.receive_text())
            for ply in range(12):
                assert play(c, gid, tokens[ply % 2], ply, move="take 1").status_code == 200
                assert ws.receive_json()["game"]["ply"] == ply + 1
            assert 12 * size > 5000
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json() == {"type": "pong"}
        assert counted(c, "pending") == 0.0


# --- finding 6: a killed worker's in-flight job stalls its game for the job timeout -------------------
def test_finding6_the_job_of_a_killed_worker_is_run_again_within_10_s(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Worker A thinks 30 s over the AI's move (its AI delay; job timeout 60 s) and is killed
    meanwhile: worker B, already running, plays the move within 10 s of the kill (the lease of A's
    job runs out), not after the job timeout plus 10 s (70 s), and once."""
    import httpx
    import redis

    db_url = postgres.new_database()
    web = ServerProcess(db_url, redis_url=redis_server.url).start()
    slow = WorkerProcess(db_url, redis_server.url, tmp_path / "a.log", ai_delay=30.0, job_timeout=60.0)
    quick = WorkerProcess(db_url, redis_server.url, tmp_path / "b.log", ai_delay=0.0, job_timeout=60.0)
    marks = redis.Redis(unix_socket_path=str(redis_server.socket))
    try:
        slow.start()
        seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
        body = {"game": "nim", "options": {"stones": 7}, "seats": seats}
        created = httpx.post(web.url + "/api/games", json=body, timeout=10).json()
        gid, token = created["id"], created["seats"][0]["token"]
        action = {"token": token, "ply": 0, "move": "take 1"}
        assert httpx.post(f"{web.url}/api/games/{gid}/actions", json=action, timeout=10).status_code == 200
        end = time.monotonic() + 10
        while not marks.exists(f"arq:in-progress:move:{gid}:1"):  # A took the job
            assert time.monotonic() < end, "worker A never took the job"
            time.sleep(0.05)
        quick.start()  # B polls the queue, but the job is A's while A's lease lasts
        time.sleep(1.0)
        assert httpx.get(f"{web.url}/api/games/{gid}", timeout=10).json()["ply"] == 1
        slow.kill()
        killed = time.monotonic()
        while (view := httpx.get(f"{web.url}/api/games/{gid}", timeout=10).json())["ply"] < 2:
            assert time.monotonic() - killed < 10.0, "the killed worker's job was not run again in 10 s"
            time.sleep(0.1)
        assert view["version"] == 2 and view["moves"][1]["player"] == 1
    finally:
        marks.close()
        for process in (slow, quick, web):
            process.stop()


# --- finding 4: memory of played games ------------------------------------------------------------------
def test_finding4_only_the_games_used_last_keep_their_cached_view(db_url: str) -> None:
    """A played game held its latest view and the view's JSON (some 25 KB of an Archimedes game's
    54 KB) for as long as it stayed in memory; now only the ``view_cache_games`` used last do."""
    settings = Settings(view_cache_games=3)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        ids = []
        for _ in range(8):
            created = create(c, options={"stones": 9})
            gid, tokens = created["id"], [s["token"] for s in created["seats"]]
            assert play(c, gid, tokens[0], 0, move="take 1").status_code == 200
            assert play(c, gid, tokens[1], 1, move="take 2").status_code == 200
            ids.append(gid)
        cached = [g for g in ids if hub.loaded[g].views.kept]
        assert cached == ids[-3:]
        # a game whose caches were dropped shows the same view, made again
        first = c.get(f"/api/games/{ids[0]}").json()
        assert first["ply"] == 2 and [m["move"] for m in first["moves"]] == ["take 1", "take 2"]
        assert hub.loaded[ids[0]].views.kept and not hub.loaded[ids[-3]].views.kept
        # the game read last keeps its caches: a second read reuses them
        kept = hub.loaded[ids[0]].views.made
        assert c.get(f"/api/games/{ids[0]}").json() == first and hub.loaded[ids[0]].views.made is kept


@pytest.mark.slow
def test_finding3_a_flooding_client_that_reads_nothing_is_dropped_at_once(tmp_path: Path) -> None:
    """A real server (uvicorn, as `palaestra serve` runs it) and a client that sends 20 kB pings
    on a bare socket and reads nothing, so it never sees the 1008 close: it is dropped at its next
    message instead of being read (and its frames parsed) for 10 s more."""
    import socket

    import httpx
    from websockets.client import ClientProtocol
    from websockets.sync.client import connect
    from websockets.uri import parse_uri

    server = ServerProcess(f"sqlite:///{tmp_path / 'flood.sqlite3'}").start()
    try:
        body = {"game": "nim", "options": {"stones": 9}, "seats": [{"kind": "human", "joined": True}] * 2}
        gid = httpx.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
        url = f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws"
        protocol = ClientProtocol(parse_uri(url))
        protocol.send_request(protocol.connect())
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as flooder:
            flooder.sendall(b"".join(protocol.data_to_send()))
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += flooder.recv(4096)
            assert answer.startswith(b"HTTP/1.1 101")
            protocol.receive_data(answer)  # the handshake is done: frames may be sent
            protocol.send_text(json.dumps({"type": "ping", "pad": "x" * 20_000}).encode())
            frame = b"".join(protocol.data_to_send())
            flooder.settimeout(0.5)
            started, dropped = time.monotonic(), False
            while not dropped and time.monotonic() - started < 8.0:
                try:
                    flooder.sendall(frame)
                except TimeoutError:
                    continue  # the server reads no more of it for now
                except OSError:  # reset, broken pipe: the server let go of the connection
                    dropped = True
            assert dropped and time.monotonic() - started < 3.0
        metrics = httpx.get(server.url + "/metrics", timeout=10).text
        assert 'palaestra_websockets_closed_total{limit="size"} 1.0' in metrics
        with connect(url, open_timeout=10) as other:  # another client is served as before
            assert json.loads(other.recv(timeout=5))["type"] == "state"
            other.send('{"type": "ping"}')
            assert json.loads(other.recv(timeout=5)) == {"type": "pong"}
    finally:
        server.stop()


def test_finding4_memory_freed_after_a_burst_goes_back_to_the_system() -> None:
    """glibc keeps freed blocks of its heap for reuse (the RSS of a burst stayed: the flood of
    finding 3, the games of finding 4); the sweep's ``release_free_memory`` hands them back."""
    from palaestra.server.memory import release_free_memory

    def rss_mb() -> float:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    blocks = []
    for _ in range(4000):  # 80 MB of 20 kB blocks (the C heap's, not pymalloc's), each followed
        blocks += [bytes(20_000), bytes(600)]  # by a small one kept: the heap cannot shrink
    burst, kept = blocks[0::2], blocks[1::2]
    del blocks
    full = rss_mb()
    del burst
    freed = rss_mb()
    assert full - freed < 20  # free, but still the process's
    assert release_free_memory()
    assert freed - rss_mb() > 40, f"{freed:.0f} MB before, {rss_mb():.0f} after"
    assert len(kept) == 4000
