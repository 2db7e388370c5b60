"""Challenges across processes (issue 29, part 4): two real ``palaestra serve --redis-url``
processes on one PostgreSQL and one Redis. A challenge made through A appears on the lobby
websocket of the challenged member connected to B, who accepts it there; the challenger's socket
on A hears that it was accepted, with the game. Of two accepts at once, one through each process,
exactly one makes a game."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from palaestra.server.api.auth import COOKIE, CSRF_HEADER
from tests.server.accounts_helpers import PASSWORD
from tests.server.server_process import ServerProcess
from tests.server.test_lobby_cluster import next_message


class Browser:
    """A member signed up through one process: their cookie and CSRF token."""

    def __init__(self, server: ServerProcess, username: str) -> None:
        self.server = server
        self.client = httpx.Client(base_url=server.url, timeout=10)
        r = self.client.post("/api/account", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf_token"]
        self.cookie = r.cookies[COOKIE]

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.client.post(url, headers={CSRF_HEADER: self.csrf}, **kwargs)

    def socket(self) -> ClientConnection:
        return connect(
            f"ws://127.0.0.1:{self.server.port}/api/lobby/ws",
            additional_headers={"Cookie": f"{COOKIE}={self.cookie}"},
            open_timeout=10,
        )


def test_a_challenge_made_on_one_process_is_seen_and_accepted_on_the_other(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_processes
    ann, bob = Browser(a, "ann"), Browser(b, "bob")
    with bob.socket() as on_b, ann.socket() as on_a:
        next_message(on_b, "lobby")
        next_message(on_a, "lobby")
        r = ann.post("/api/challenges", json={"to": "bob", "game": "nim", "options": {"stones": 9}})
        assert r.status_code == 201, r.text
        made = r.json()
        pushed = next_message(on_b, "challenge")["challenge"]
        assert (pushed["id"], pushed["from"], pushed["status"]) == (made["id"], "ann", "open")
        assert [c["id"] for c in bob.client.get("/api/challenges").json()["incoming"]] == [made["id"]]
        r = bob.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 200, r.text
        accepted = r.json()
        # the challenger's socket on A hears of it (open first: its own creation, then accepted)
        seen = next_message(on_a, "challenge")["challenge"]
        while seen["status"] != "accepted":
            seen = next_message(on_a, "challenge")["challenge"]
        assert seen["game_id"] == accepted["game"] and seen["challenger_seat"] == 1 - accepted["seat"]
    view = httpx.get(f"{a.url}/api/games/{accepted['game']}", timeout=10).json()
    assert sorted(s["member"] for s in view["seats"]) == ["ann", "bob"]
    # a second accept, through the other process, is refused
    r = ann.client.post(f"/api/challenges/{made['id']}/accept", headers={CSRF_HEADER: ann.csrf})
    assert r.status_code == 403
    bob_on_a = httpx.Client(base_url=a.url, timeout=10, cookies={COOKIE: bob.cookie})
    r = bob_on_a.post(f"/api/challenges/{made['id']}/accept", headers={CSRF_HEADER: bob.csrf})
    assert (r.status_code, r.json()["error"]) == (410, "challenge_gone")


def accept(
    client: httpx.Client,
    challenge_id: str,
    csrf: str,
    start: threading.Barrier,
    answers: list[httpx.Response],
) -> None:
    start.wait()
    answers.append(client.post(f"/api/challenges/{challenge_id}/accept", headers={CSRF_HEADER: csrf}))


def test_of_two_accepts_on_two_processes_exactly_one_makes_a_game(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_processes
    cara, dan = Browser(a, "cara"), Browser(b, "dan")
    through = {
        server: httpx.Client(base_url=server.url, timeout=10, cookies={COOKIE: dan.cookie})
        for server in two_processes
    }
    for _ in range(3):
        r = cara.post("/api/challenges", json={"to": "dan", "game": "nim", "options": {"stones": 9}})
        assert r.status_code == 201, r.text
        challenge_id = r.json()["id"]
        answers: list[httpx.Response] = []
        start = threading.Barrier(2)

        threads = [
            threading.Thread(target=accept, args=(client, challenge_id, dan.csrf, start, answers))
            for client in through.values()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(r.status_code for r in answers) == [200, 410], [r.text for r in answers]
        (won,) = [r.json() for r in answers if r.status_code == 200]
        games = httpx.get(f"{a.url}/api/users/dan/games", timeout=10).json()["games"]
        assert won["game"] in [g["id"] for g in games]
    assert httpx.get(f"{a.url}/api/users/dan/games", timeout=10).json()["total"] == 3
