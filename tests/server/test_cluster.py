"""Many processes on one PostgreSQL and one Redis (issue 18, docs/deploy.md): two real
``palaestra serve --redis-url`` processes and a real ``palaestra worker``, all started here.

Pushes cross processes, a process that lost a race answers from the current row, the worker (not
a web process) plays the AI, and kill -9 of a web process or of the worker mid-search loses nothing.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.sync.client import ClientConnection, connect

from tests.server.postgres import PostgresServer
from tests.server.redis_server import RedisServer
from tests.server.server_process import ServerProcess, WorkerProcess

HUMANS = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]


@dataclass
class Cluster:
    db_url: str
    redis: RedisServer
    a: ServerProcess
    b: ServerProcess
    worker: WorkerProcess
    folder: Path

    def server(self, db_url: str) -> ServerProcess:
        return ServerProcess(db_url, redis_url=self.redis.url).start()


@pytest.fixture(scope="module")
def cluster(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("cluster")
    db_url = postgres.new_database()
    broker = RedisServer().start()
    a = ServerProcess(db_url, redis_url=broker.url).start()  # migrates the database first
    b = ServerProcess(db_url, redis_url=broker.url).start()
    worker = WorkerProcess(db_url, broker.url, folder / "worker.log").start()
    found = Cluster(db_url, broker, a, b, worker, folder)
    try:
        yield found
    finally:
        for process in (found.a, found.b, found.worker):
            process.stop()
        broker.stop()


def create(server: ServerProcess, seats: list[dict[str, Any]], stones: int = 7) -> tuple[str, list[str]]:
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "nim", "options": {"stones": stones}, "seats": seats},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    doc = r.json()
    return doc["id"], [s["token"] for s in doc["seats"]]


def play(
    server: ServerProcess, gid: str, token: str | None, ply: int, move: str = "take 1"
) -> httpx.Response:
    body = {"token": token, "ply": ply, "move": move}
    return httpx.post(f"{server.url}/api/games/{gid}/actions", json=body, timeout=10)


def view(server: ServerProcess, gid: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/games/{gid}", timeout=10)
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def socket(server: ServerProcess, gid: str) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws", open_timeout=10)


def receive_until(
    ws: ClientConnection, check: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        if message.get("type") == "state" and check(message["game"]):
            return message["game"]


def wait_for(what: Callable[[], dict[str, Any] | None], timeout: float = 30) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        found = what()
        if found is not None:
            return found
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_a_move_made_through_one_process_is_pushed_by_the_other(cluster: Cluster) -> None:
    gid, tokens = create(cluster.a, HUMANS)
    with socket(cluster.b, gid) as on_b:
        assert receive_until(on_b, lambda g: True)["ply"] == 0
        sent = time.monotonic()
        assert play(cluster.a, gid, tokens[0], 0).status_code == 200
        pushed = receive_until(on_b, lambda g: g["ply"] == 1)
        assert time.monotonic() - sent < 5
        assert pushed["moves"][-1]["move"] == "take 1" and pushed["state"]["pile"] == 6
        # B changes it, a socket on A hears of it
        with socket(cluster.a, gid) as on_a:
            assert receive_until(on_a, lambda g: True)["ply"] == 1
            assert play(cluster.b, gid, tokens[1], 1, "take 2").status_code == 200
            assert receive_until(on_a, lambda g: g["ply"] == 2)["state"]["pile"] == 4
        assert receive_until(on_b, lambda g: g["ply"] == 2)["version"] == 2
    # each process counts the notices it heard, and how late they came (its /metrics)
    for server in (cluster.a, cluster.b):
        metrics = httpx.get(server.url + "/metrics", timeout=10).text
        heard = next(
            line for line in metrics.splitlines() if line.startswith("palaestra_notice_delay_seconds_count")
        )
        assert float(heard.split()[-1]) >= 1
        assert "palaestra_jobs_queued " in metrics
        assert "palaestra_version_checks_total " in metrics


def test_a_socket_that_reconnects_gets_what_it_missed(cluster: Cluster) -> None:
    """Reconnect catch-up (issue 18): a spectator on B sees version 1 and drops; three moves are
    made through A while nobody on B listens (B still holds the game at version 1 in memory).
    Reconnecting to B, the first message is the current state, version 4, with the three moves it
    missed; reconnecting to A gives the same."""
    gid, tokens = create(cluster.a, HUMANS, stones=20)
    assert play(cluster.a, gid, tokens[0], 0).status_code == 200
    with socket(cluster.b, gid) as on_b:
        last = receive_until(on_b, lambda g: True)
    assert last["version"] == 1 and len(last["moves"]) == 1
    missed = ["take 2", "take 1", "take 2"]
    for ply, move in enumerate(missed, start=1):
        assert play(cluster.a, gid, tokens[ply % 2], ply, move).status_code == 200
    for server in (cluster.b, cluster.a):
        with socket(server, gid) as again:
            first = json.loads(again.recv(timeout=10))
        assert first["type"] == "state" and first["game"]["version"] == 4
        assert [m["move"] for m in first["game"]["moves"]] == ["take 1", *missed]
        assert first["game"]["moves"][: len(last["moves"])] == last["moves"]  # what it had, then the rest
        assert first["game"]["state"]["pile"] == 20 - 1 - 5


def test_any_process_serves_any_request_at_once(cluster: Cluster) -> None:
    """Nothing sticky: B had the game in memory, A moved it on; B accepts the next move at once
    (no 409 from a stale copy: the action names the ply its player saw), answers a read that
    names the version its client saw from the current row at once, and a plain read as soon as
    it heard A's change notice (B trusts the notices instead of reading the version per request)."""
    gid, tokens = create(cluster.a, HUMANS)
    assert view(cluster.b, gid)["ply"] == 0  # B holds version 0 now
    for ply in range(4):
        server = cluster.a if ply % 2 == 0 else cluster.b
        r = play(server, gid, tokens[ply % 2], ply)
        assert r.status_code == 200, r.text
        other = cluster.b if server is cluster.a else cluster.a
        # read your own write through the other process
        seen = httpx.get(f"{other.url}/api/games/{gid}", params={"version": r.json()["version"]}, timeout=10)
        assert seen.status_code == 200 and seen.json()["ply"] == ply + 1
        end = time.monotonic() + 5
        while view(other, gid)["ply"] != ply + 1:  # a plain read: once the notice arrived
            assert time.monotonic() < end, "the change notice never reached the other process"
            time.sleep(0.01)
    bad = httpx.get(f"{cluster.b.url}/api/games/{gid}", params={"version": -1}, timeout=10)
    assert bad.status_code == 422


def test_simultaneous_moves_through_two_processes_are_accepted_once(cluster: Cluster) -> None:
    gid, tokens = create(cluster.a, HUMANS, stones=50)
    assert view(cluster.b, gid)["ply"] == 0
    for ply in range(6):
        token = tokens[ply % 2]
        results: list[httpx.Response] = []

        def send(
            server: ServerProcess,
            move: str,
            token: str = token,
            ply: int = ply,
            results: list[httpx.Response] = results,
        ) -> None:
            results.append(play(server, gid, token, ply, move))

        threads = [
            threading.Thread(target=send, args=(cluster.a, "take 1")),
            threading.Thread(target=send, args=(cluster.b, "take 2")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(r.status_code for r in results)
        assert codes == [200, 409], [r.text for r in results]
        loser = next(r for r in results if r.status_code == 409)
        assert loser.json()["error"] in ("stale_action", "conflict")
    final = view(cluster.a, gid)
    assert final["ply"] == 6 and view(cluster.b, gid)["moves"] == final["moves"]
    assert final["state"]["pile"] == 50 - sum(int(m["move"].split()[1]) for m in final["moves"])


def test_the_ai_seat_is_played_by_the_worker(cluster: Cluster) -> None:
    gid, tokens = create(cluster.a, [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}])
    with socket(cluster.b, gid) as on_b:
        receive_until(on_b, lambda g: True)
        assert play(cluster.a, gid, tokens[0], 0).status_code == 200
        answered = receive_until(on_b, lambda g: g["ply"] == 2)
        assert answered["moves"][1]["player"] == 1 and answered["current_player"] == 0
    log = cluster.worker.log.read_text(errors="replace")
    assert f"move:{gid}:1:server_move" in log  # the job of the AI's move, run by the worker


def test_kill_9_of_a_web_process_mid_game_loses_no_acknowledged_action(cluster: Cluster) -> None:
    gid, tokens = create(cluster.a, HUMANS, stones=50)
    acknowledged: dict[int, str] = {}
    servers = [cluster.a, cluster.b]
    pushed: list[int] = []
    problems: list[str] = []

    def player() -> None:
        """Plays as fast as it can through A; when A is gone, reconnects to B and goes on."""
        server = servers[0]
        ply = 0
        while ply < 40:
            move = "take 1"
            try:
                r = play(server, gid, tokens[ply % 2], ply, move)
            except httpx.HTTPError:
                server = servers[1]  # A died: reconnect to B, learn where the game is
                ply = view(server, gid)["ply"]
                continue
            if r.status_code == 200:
                acknowledged[ply] = move
                ply += 1
            elif r.status_code == 409:
                ply = view(server, gid)["ply"]  # an action A stored but could not acknowledge
            else:
                problems.append(r.text)
                return

    def watcher() -> None:
        """A spectator on A's websocket; when it drops, it reconnects to B and gets the rest."""
        try:
            with socket(cluster.a, gid) as ws:
                while True:
                    pushed.append(receive_until(ws, lambda g: True)["ply"])
        except Exception:
            pass
        with socket(cluster.b, gid) as ws:
            state = receive_until(ws, lambda g: g["ply"] >= 40, timeout=60)
            pushed.append(state["ply"])

    threads = [threading.Thread(target=player), threading.Thread(target=watcher)]
    for t in threads:
        t.start()
    try:
        wait_for(lambda: {} if len(acknowledged) >= 8 else None)
        cluster.a.kill()
        for t in threads:
            t.join(timeout=90)
    finally:
        cluster.a = cluster.server(cluster.db_url)  # a new process in A's place, for the other tests
    assert not problems
    final = view(cluster.b, gid)
    assert final["ply"] == 40 and pushed[-1] == 40
    for ply, move in acknowledged.items():  # every acknowledged action is in the record
        assert final["moves"][ply]["move"] == move
    # the one action A may have stored as it died, unanswered, is the only one not acknowledged
    assert len(acknowledged) >= 39
    assert len(pushed) > 1 and pushed[0] < 40  # the watcher saw the game on A, then the end on B


def test_kill_9_of_the_worker_mid_search_loses_no_move(cluster: Cluster) -> None:
    """The worker thinks 2 s (its AI delay) and is killed meanwhile: once the job's "in progress"
    mark expires (job timeout 3 s + 10 s), a restarted worker plays the move, exactly once."""
    cluster.worker.stop()
    slow = WorkerProcess(
        cluster.db_url, cluster.redis.url, cluster.folder / "slow.log", ai_delay=2.0, job_timeout=3.0
    ).start()
    gid, tokens = create(cluster.a, [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}])
    assert play(cluster.a, gid, tokens[0], 0).status_code == 200
    marks = redis.Redis(unix_socket_path=str(cluster.redis.socket))
    try:
        wait_for(lambda: {} if marks.exists(f"arq:in-progress:move:{gid}:1") else None, timeout=10)
        slow.kill()
        time.sleep(2.5)  # the killed worker would have moved by now
        assert view(cluster.b, gid)["ply"] == 1
        assert marks.zscore("palaestra:moves", f"move:{gid}:1") is not None  # still queued
    finally:
        marks.close()
        slow.kill()
        # a worker in the killed one's place, also for the other tests should this one fail
        log = cluster.folder / "worker2.log"
        cluster.worker = WorkerProcess(cluster.db_url, cluster.redis.url, log).start()
    done = wait_for(lambda: v if (v := view(cluster.b, gid))["ply"] >= 2 else None, timeout=40)
    assert done["ply"] == 2 and done["version"] == 2 and done["moves"][1]["player"] == 1
    time.sleep(0.5)
    assert view(cluster.a, gid)["version"] == 2  # played once, not twice


def test_hints_and_analysis_are_searched_by_the_worker(cluster: Cluster) -> None:
    gid, tokens = create(cluster.a, [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}], 3)
    r = httpx.get(f"{cluster.b.url}/api/games/{gid}/hint", headers={"X-Seat-Token": tokens[0]}, timeout=40)
    assert r.status_code == 200, r.text
    hints = r.json()
    assert {h["move"] for h in hints} <= {"take 1", "take 2"} and hints
    log = cluster.worker.log.read_text(errors="replace")
    assert "search('hint'" in log and gid in log
    # play it out (3 stones: the AI takes the last or we do), then ask for the AI's view
    ply = 0
    while (state := view(cluster.a, gid))["status"] == "active":
        if state["current_player"] == 0 and state["ply"] == ply:
            assert play(cluster.a, gid, tokens[0], ply).status_code == 200
        time.sleep(0.05)
        ply = view(cluster.a, gid)["ply"]
    r = httpx.get(f"{cluster.a.url}/api/games/{gid}/analysis", params={"ply": 0}, timeout=40)
    assert r.status_code == 200, r.text
    assert r.json()["played"]["move"] == "take 1" and r.json()["ply"] == 0
    assert "search('analysis'" in cluster.worker.log.read_text(errors="replace")
    # a hint in a finished game is refused as in one process
    r = httpx.get(f"{cluster.b.url}/api/games/{gid}/hint", headers={"X-Seat-Token": tokens[0]}, timeout=40)
    assert r.status_code == 409 and r.json()["error"] == "no_hint"


def test_a_flag_fall_is_acted_on_once_by_the_processes_and_the_ai_turn_by_the_worker(
    cluster: Cluster,
) -> None:
    """Issue 21, clocks: both web processes sweep for flags that fell; one writes each fall (the
    version guard), both push it, and a turn out of time is played by the worker's AI. Real time:
    5 s a move, the shortest control."""
    games = {}
    for mode in ("lose", "ai"):
        control = {"type": "per_move", "seconds": 5, "on_timeout": mode, "ai_level": "random"}
        r = httpx.post(
            cluster.a.url + "/api/games",
            json={"game": "nim", "options": {"stones": 7}, "seats": HUMANS, "time_control": control},
            timeout=10,
        )
        assert r.status_code == 201, r.text
        games[mode] = r.json()["id"]
    with socket(cluster.a, games["lose"]) as on_a, socket(cluster.b, games["lose"]) as on_b:
        for ws in (on_a, on_b):
            over = receive_until(ws, lambda g: g["status"] == "finished", timeout=20)
            assert over["result"]["seat"] == 0 and over["clock"]["flagged"] == 0
            assert over["version"] == 1  # one write: the fall, by one of the two processes
    with socket(cluster.b, games["ai"]) as on_b:
        played = receive_until(on_b, lambda g: g["ply"] >= 1, timeout=20)
    assert played["status"] == "active" and played["moves"][0]["player"] == 0
    # every turn so far was a fall then the worker's move, each written once (if the test is slow,
    # seat 1's time may have run out too: the same holds)
    pending = 0 if played["clock"]["autoplay"] is None else 1
    assert played["version"] == 2 * played["ply"] + pending
    assert sum(s["timeouts"] for s in played["clock"]["seats"]) == played["ply"] + pending
    assert played["clock"]["seats"][0]["timeouts"] == 1


# --- rated games finished by two processes at once (issue 28) ------------------------------------
def member_on(server: ServerProcess, username: str, *, new: bool) -> httpx.Client:
    """A member's browser talking to ``server``: signed up (``new``) or in, with the CSRF header."""
    client = httpx.Client(base_url=server.url, timeout=10)
    body = {"username": username, "password": "correct horse battery"}
    r = client.post("/api/account" if new else "/api/session", json=body)
    assert r.status_code in (200, 201), r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf_token"]
    return client


def rated_pair(cluster: Cluster, tag: str, control: dict[str, Any]) -> tuple[str, httpx.Client, httpx.Client]:
    alice = member_on(cluster.a, f"alice{tag}", new=True)
    bob = member_on(cluster.b, f"bob{tag}", new=True)
    seats = [{"kind": "human", "joined": True}, {"kind": "human"}]
    doc = {"game": "nim", "options": {"stones": 9}, "seats": seats, "rated": True, "time_control": control}
    made = alice.post("/api/games", json=doc).json()
    code = made["seats"][1]["invite"].rsplit("/", 1)[1]
    assert bob.post(f"/api/games/{made['id']}/join", json={"code": code}).status_code == 200
    return made["id"], alice, bob


def rating_rows(cluster: Cluster, game_id: str) -> list[Any]:
    from tests.server.test_accounts import db_rows

    return db_rows(cluster.db_url, "SELECT account_id FROM rating_events WHERE game_id = :g", g=game_id)


def test_a_rated_game_ended_by_two_processes_at_once_is_rated_once(cluster: Cluster) -> None:
    """The last move sent through both processes at the same moment: one stores the result and
    the ratings in one transaction, the other is refused; each member is rated once."""
    gid, alice, bob = rated_pair(cluster, "1", {"type": "fischer", "seconds": 600, "increment": 0})
    for ply in range(8):
        who = alice if ply % 2 == 0 else bob
        assert who.post(f"/api/games/{gid}/actions", json={"ply": ply, "move": "take 1"}).status_code == 200
    alice_on_b = member_on(cluster.b, "alice1", new=False)
    results: list[httpx.Response] = []

    def last(client: httpx.Client) -> None:
        results.append(client.post(f"/api/games/{gid}/actions", json={"ply": 8, "move": "take 1"}))

    threads = [threading.Thread(target=last, args=(c,)) for c in (alice, alice_on_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in results) == [200, 409], [r.text for r in results]
    assert len(rating_rows(cluster, gid)) == 2
    for name in ("alice1", "bob1"):
        rating = httpx.get(f"{cluster.b.url}/api/users/{name}", timeout=10).json()["ratings"]["nim"]
        assert rating["games"] == 1


def test_a_rated_flag_fall_seen_by_both_processes_is_rated_once(cluster: Cluster) -> None:
    """Both web processes sweep for fallen flags; one writes the loss on time with the ratings."""
    gid, alice, bob = rated_pair(cluster, "2", {"type": "per_move", "seconds": 5})
    for ply in range(4):
        who = alice if ply % 2 == 0 else bob
        assert who.post(f"/api/games/{gid}/actions", json={"ply": ply, "move": "take 1"}).status_code == 200
    over = wait_for(lambda: v if (v := view(cluster.a, gid))["status"] == "finished" else None)
    assert over["result"]["seat"] == 0 and over["version"] == 1 + 4 + 1  # join, 4 moves, one fall
    assert len(rating_rows(cluster, gid)) == 2
    alice_rating = httpx.get(f"{cluster.a.url}/api/users/alice2", timeout=10).json()["ratings"]["nim"]
    bob_rating = httpx.get(f"{cluster.b.url}/api/users/bob2", timeout=10).json()["ratings"]["nim"]
    assert alice_rating["games"] == bob_rating["games"] == 1
    assert bob_rating["rating"] > alice_rating["rating"]
