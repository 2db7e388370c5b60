"""Issue 30, finding 5: what an invitation offers, read without using it up (the join page's
``GET /api/games/ID/invitation`` with the code in the ``X-Invitation-Code`` header)."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient

from tests.server.test_api import assert_error, create

INVITED = [{"kind": "human", "joined": True, "name": "Ann"}, {"kind": "human"}]


def code_of(created: dict[str, object]) -> str:
    seats = created["seats"]
    assert isinstance(seats, list)
    return str(seats[1]["invite"]).rsplit("/", 1)[1]


def info(client: TestClient, game_id: str, code: str | None) -> httpx.Response:
    headers = {} if code is None else {"X-Invitation-Code": code}
    response: httpx.Response = client.get(f"/api/games/{game_id}/invitation", headers=headers)
    return response


def test_an_open_invitation_tells_the_game_the_seat_and_the_inviter(client: TestClient) -> None:
    created = create(
        client,
        seats=INVITED,
        seed=None,
        time_control={"type": "per_move", "seconds": 60},
    )
    game_id, code = str(created["id"]), code_of(created)
    for _ in range(2):  # reading it does not use it up
        r = info(client, game_id, code)
        assert r.status_code == 200, r.text
        body = r.json()
        assert (body["seat"], body["player_name"], body["status"]) == (1, "player 1", "open")
        assert (body["inviter"], body["inviter_seat"]) == ("Ann", 0)
        assert body["game"]["game"] == "nim" and body["game"]["clock"]["control"]["seconds"] == 60
        assert code not in r.text
    joined = client.post(f"/api/games/{game_id}/join", json={"code": code, "name": "Bea"})
    assert joined.status_code == 200, joined.text
    body = info(client, game_id, code).json()
    assert body["status"] == "used" and body["game"]["seats"][1]["name"] == "Bea"


def test_a_withdrawn_invitation_says_so(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    game_id, code = str(created["id"]), code_of(created)
    r = client.delete(
        f"/api/games/{game_id}/seats/1/invitation", headers={"X-Creator-Token": str(created["creator_token"])}
    )
    assert r.status_code == 200, r.text
    assert info(client, game_id, code).json()["status"] == "revoked"


def test_unknown_codes_and_games(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    game_id = str(created["id"])
    assert_error(info(client, game_id, "not-a-code"), 403, "wrong_token")
    assert_error(info(client, game_id, None), 403, "wrong_token")
    assert_error(info(client, "nosuchgame00", code_of(created)), 404, "game_not_found")


def test_games_by_ids_are_listed_public_or_not_with_their_player_to_move(client: TestClient) -> None:
    """Issue 30, finding 13: "My games" asks for this browser's games by id (private ones too)."""
    private = create(client, seats=INVITED, seed=None, public=False)
    public = create(client)
    ids = f"{private['id']},nosuchgame00,{public['id']},{private['id']}"
    r = client.get("/api/games", params={"ids": ids})
    assert r.status_code == 200, r.text
    rows = r.json()
    assert [row["id"] for row in rows] == [private["id"], public["id"]]
    assert rows[0]["to_move"] == "player 0" and rows[0]["status"] == "active" and rows[0]["updated"]
    assert rows[0]["seats"][1]["invitation"] == "open"
    lobby = [row["id"] for row in client.get("/api/games").json()]
    assert private["id"] not in lobby and public["id"] in lobby
    assert_error(client.get("/api/games", params={"ids": "x" * 2000}), 422, "invalid_request")
