"""The lobby (issue 29): public games to watch, seeks, quick pairing.

Every test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.accounts_helpers import BLITZ, rated_nim, sign_up

INVITED = [{"kind": "human", "joined": True}, {"kind": "human"}]


def listed(client: TestClient) -> set[str]:
    r = client.get("/api/games")
    assert r.status_code == 200, r.text
    return {g["id"] for g in r.json()}


def casual(client: TestClient, **body: Any) -> str:
    doc = {"game": "nim", "options": {"stones": 9}, "seats": INVITED, **body}
    r = client.post("/api/games", json=doc)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_casual_game_is_listed_only_when_its_creator_makes_it_public(client: TestClient) -> None:
    private = casual(client)
    public = casual(client, public=True)
    assert client.get(f"/api/games/{private}").json()["public"] is False
    assert client.get(f"/api/games/{public}").json()["public"] is True
    found = listed(client)
    assert public in found and private not in found


def test_a_rated_game_is_always_public(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    created = rated_nim(ann, public=False, time_control=BLITZ)
    assert created["game"]["public"] is True
    assert client.get(f"/api/games/{created['id']}").json()["public"] is True
    assert created["id"] in listed(client)
