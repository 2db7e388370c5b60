"""Abuse of accounts (issue 28, item 11; docs/accounts.md): sign-in attempts limited per account
and per client (shared by processes through Redis), sign-ups per client, a wrong password and an
unknown name answered alike after the same work, and hashing bounded so a flood of sign-ins
neither blocks the event loop nor takes unbounded memory."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from palaestra.server.api.auth import COOKIE
from palaestra.server.app import create_app
from palaestra.server.service.passwords import HASH_NICE, Hasher, HasherBusy
from palaestra.server.settings import Settings
from tests.server.accounts_helpers import PASSWORD, sign_up
from tests.server.redis_server import RedisServer
from tests.server.test_api import assert_error


def limited_app(db_url: str, redis_url: str | None = None, **limits: Any) -> TestClient:
    return TestClient(
        create_app(db_url, ai_delay=0.0, settings=Settings.from_env(**limits), redis_url=redis_url)
    )


def attempt(client: TestClient, name: str, password: str = "wrong password") -> Any:
    return client.post("/api/session", json={"username": name, "password": password})


@pytest.mark.slow
def test_sign_in_attempts_are_limited_per_account_known_or_not(db_url: str) -> None:
    with limited_app(db_url, rate_signin_account="3/minute", rate_signin_client="100/minute") as client:
        sign_up(client, "target")
        for name in ("target", "ghost"):  # an existing account and a name nobody has: alike
            for _ in range(3):
                assert_error(attempt(client, name), 401, "bad_credentials")
            limited = attempt(client, name, PASSWORD)
            assert_error(limited, 429, "rate_limited")
            assert 1 <= int(limited.headers["Retry-After"]) <= 60
        assert_error(attempt(client, "TARGET", PASSWORD), 429, "rate_limited")  # the name's case
        assert attempt(client, "someone_else").status_code == 401  # other accounts unaffected


@pytest.mark.slow
def test_sign_in_attempts_are_limited_per_client(db_url: str) -> None:
    with limited_app(db_url, rate_signin_account="100/minute", rate_signin_client="4/minute") as client:
        for i in range(4):
            assert attempt(client, f"name{i}").status_code == 401
        assert_error(attempt(client, "name9"), 429, "rate_limited")


@pytest.mark.slow
def test_sign_ups_are_limited_per_client(db_url: str) -> None:
    with limited_app(db_url, rate_signup="2/hour") as client:
        sign_up(client, "first")
        sign_up(client, "second")
        r = client.post("/api/account", json={"username": "third", "password": PASSWORD})
        assert_error(r, 429, "rate_limited")
        assert client.get("/api/users/third").status_code == 404


def test_with_redis_the_sign_in_limit_is_shared_by_the_processes(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db_url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    settings = {"rate_signin_account": "4/minute", "rate_signin_client": "100/minute"}
    with (
        limited_app(db_url, redis_server.url, **settings) as a,
        limited_app(db_url, redis_server.url, **settings) as b,
    ):
        for client in (a, b, a, b):
            assert attempt(client, "shared").status_code == 401
        assert_error(attempt(a, "shared"), 429, "rate_limited")
        assert_error(attempt(b, "shared"), 429, "rate_limited")


@pytest.mark.slow
def test_an_unknown_name_costs_one_argon2_verification_like_a_wrong_password(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client, "realone")
    hasher: Hasher = client.app.state.hub.accounts.hasher  # type: ignore[attr-defined]
    calls: list[str] = []
    real = hasher.hasher

    class Counted:
        def verify(self, stored: str, password: str) -> bool:
            calls.append(stored)
            return real.verify(stored, password)

        def hash(self, password: str) -> str:
            return real.hash(password)

        def check_needs_rehash(self, stored: str) -> bool:
            return real.check_needs_rehash(stored)

    monkeypatch.setattr(hasher, "hasher", Counted())
    attempt(client, "realone")
    attempt(client, "nobody_at_all")
    assert len(calls) == 2
    assert all(c.startswith("$argon2id$v=19$m=19456,t=2,p=1$") for c in calls)  # the same cost
    assert calls[0] != calls[1]  # the account's hash, then the decoy


def test_hashing_runs_in_threads_at_most_n_at_once_and_refuses_beyond_its_queue() -> None:
    hasher = Hasher(concurrency=2, queue=3)
    running, most = 0, 0
    lock = threading.Lock()
    real = hasher.hasher

    class Slow:
        def hash(self, password: str) -> str:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            try:
                time.sleep(0.05)
                return real.hash(password)
            finally:
                with lock:
                    running -= 1

    hasher.hasher = Slow()  # type: ignore[assignment]

    async def flood() -> tuple[list[Any], int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                ticks += 1

        beat = asyncio.create_task(ticker())
        results = await asyncio.gather(
            *(hasher.hash(f"password {i}") for i in range(8)), return_exceptions=True
        )
        beat.cancel()
        return results, ticks

    results, ticks = asyncio.run(flood())
    hashed = [r for r in results if isinstance(r, str)]
    refused = [r for r in results if isinstance(r, HasherBusy)]
    assert len(hashed) == 5 and len(refused) == 3  # 2 hashing + 3 waiting; the rest refused at once
    assert most == 2
    assert ticks >= 10  # the event loop kept running while the hashes were computed
    assert refused[0].code == "busy" and refused[0].failure


def test_the_hashing_threads_run_at_a_lower_priority_than_the_event_loop() -> None:
    """Under a CPU shortage, game actions go first: the hashing threads are niced (Linux)."""
    hasher = Hasher(concurrency=1, queue=1)

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    async def both() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        inside = await loop.run_in_executor(hasher._threads, niceness)
        return niceness(), inside

    try:
        outside, inside = asyncio.run(both())
    finally:
        hasher.close()
    assert inside == min(outside + HASH_NICE, 19)


@pytest.mark.slow
def test_members_behind_one_address_each_have_their_own_action_limit(db_url: str) -> None:
    """Issue 31, finding 7 (NAT): a signed-in member's actions count against their account, a
    guest's against the address; members and guests behind one address do not share a limit."""
    from tests.server.test_api import HUMANS

    with limited_app(db_url, rate_actions="3/minute") as client:
        ann, bea = sign_up(client, "ann"), sign_up(client, "bea")
        body = {"game": "nim", "options": {"stones": 20}, "seats": HUMANS}
        for who in (ann, bea, None):  # each may act three times a minute, all from one address
            send = client.post if who is None else who.post
            made = send("/api/games", json=body).json()
            tokens = [seat["token"] for seat in made["seats"]]
            codes = [
                send(
                    f"/api/games/{made['id']}/actions",
                    json={"token": tokens[ply % 2], "ply": ply, "move": "take 1"},
                ).status_code
                for ply in range(4)
            ]
            assert codes == [200, 200, 200, 429], (who and who.username, codes)


def test_members_behind_one_address_each_have_their_own_websockets(db_url: str) -> None:
    with limited_app(db_url, ws_per_client=1) as client:
        ann, bea = sign_up(client, "ann"), sign_up(client, "bea")
        gid = client.post(
            "/api/games", json={"game": "nim", "seats": [{"joined": True}, {"joined": True}]}
        ).json()["id"]
        path = f"/api/games/{gid}/ws"

        def opened(cookie: str | None) -> Any:
            client.cookies.clear()
            if cookie:
                client.cookies.set(COOKIE, cookie)
            return client.websocket_connect(path)

        with opened(ann.cookie) as first, opened(bea.cookie) as second, opened(None) as guest:
            for ws in (first, second, guest):
                assert ws.receive_json()["type"] == "state"
            with opened(ann.cookie) as again:  # ann's second socket: over her own cap
                with pytest.raises(WebSocketDisconnect) as closed:
                    again.receive_json()
                assert closed.value.code == 1013
