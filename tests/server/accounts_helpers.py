"""Helpers of the accounts tests: members signing up on one test client, each with its own
cookie (a "browser"), and their requests carrying their CSRF token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

from palaestra.server.api.auth import COOKIE, CSRF_HEADER

PASSWORD = "correct horse battery"


@dataclass
class Member:
    """One member's browser: their session cookie and CSRF token, on a shared test client."""

    client: TestClient
    username: str
    cookie: str
    csrf: str

    def request(self, method: str, url: str, *, csrf: bool = True, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}) or {})
        if csrf:
            headers[CSRF_HEADER] = self.csrf
        self.client.cookies.clear()
        self.client.cookies.set(COOKIE, self.cookie)
        try:
            return self.client.request(method, url, headers=headers, **kwargs)
        finally:
            self.client.cookies.clear()

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.request("POST", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> Any:
        return self.request("DELETE", url, **kwargs)


def opened(client: TestClient, response: Any, username: str) -> Member:
    assert response.status_code in (200, 201), response.text
    cookie = response.cookies.get(COOKIE)
    assert cookie, response.headers
    client.cookies.clear()
    return Member(client, username, cookie, response.json()["csrf_token"])


def sign_up(client: TestClient, username: str, password: str = PASSWORD) -> Member:
    r = client.post("/api/account", json={"username": username, "password": password})
    return opened(client, r, username)


def sign_in(client: TestClient, username: str, password: str = PASSWORD) -> Member:
    r = client.post("/api/session", json={"username": username, "password": password})
    return opened(client, r, username)


BLITZ = {"type": "fischer", "seconds": 600, "increment": 0}


def rated_nim(creator: Member, **body: Any) -> dict[str, Any]:
    """A rated game of nim (tests/core/nim.py) created by ``creator``, the second seat invited."""
    doc = {
        "game": "nim",
        "options": {"stones": 9},
        "seats": [{"kind": "human", "joined": True}, {"kind": "human"}],
        "rated": True,
        "time_control": BLITZ,
    }
    doc.update(body)
    r = creator.post("/api/games", json=doc)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def invite_code(created: dict[str, Any], seat: int) -> str:
    link: str = created["seats"][seat]["invite"]
    return link.rsplit("/", 1)[1]


def play_out(first: Member, second: Member, game_id: str, moves: list[str]) -> dict[str, Any]:
    """Play ``moves`` alternately by account (no tokens: the signed-in members' seats)."""
    view: dict[str, Any] = {}
    for ply, move in enumerate(moves):
        who = first if ply % 2 == 0 else second
        r = who.post(f"/api/games/{game_id}/actions", json={"ply": ply, "move": move})
        assert r.status_code == 200, r.text
        view = r.json()
    return view
