"""An aborted game's seek goes back to the lobby (issue 29, part 7;
palaestra/server/service/seek_again.py): posted again for the places that did not abort and are
not known to be gone, under the game's id followed by "a", each place's secret its old seat token.

Every test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.test_lobby import guest, open_ids, post


def started(client: TestClient, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ann's seek accepted by Bob: the game, and each one's seat and token."""
    seek = post(client, name="Ann", **(body or {}))
    r = client.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"}, headers=guest(2))
    assert r.status_code == 200, r.text
    bob = r.json()
    ann = client.get(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": seek["seek_token"]}).json()
    return {
        "seek": seek,
        "game": bob["game"],
        "ann": (ann["seat"], ann["token"]),
        "bob": (bob["seat"], bob["token"]),
    }


def abort(client: TestClient, game_id: str, token: str) -> None:
    r = client.post(f"/api/games/{game_id}/abort", json={"token": token})
    assert r.status_code == 200, r.text
    assert r.json()["result"]["termination"] == "abort"


def test_bob_aborts_and_anns_seek_is_back_her_seat_token_takes_the_next_game(client: TestClient) -> None:
    made = started(client)
    game_id, (_, ann_token), (_, bob_token) = made["game"], made["ann"], made["bob"]
    assert open_ids(client) == []
    with client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json()["type"] == "lobby"
        abort(client, game_id, bob_token)
        pushed = ws.receive_json()
    again = f"{game_id}a"
    assert pushed["type"] == "seek" and pushed["seek"]["id"] == again
    assert open_ids(client) == [again]
    seek = client.get(f"/api/seeks/{again}").json()
    assert seek["seated"] == [{"name": "Ann", "member": False, "rating": None}]
    first = made["seek"]
    assert [seek[k] for k in ("game", "options", "players", "rated", "time_control")] == [
        first[k] for k in ("game", "options", "players", "rated", "time_control")
    ]
    # her old seat token is the seek's secret: she polls it (a place), Bob's token is no place of it
    poll = client.get(f"/api/seeks/{again}", headers={"X-Seek-Token": ann_token})
    assert poll.status_code == 200 and poll.json()["status"] == "open"
    r = client.get(f"/api/seeks/{again}", headers={"X-Seek-Token": bob_token})
    assert (r.status_code, r.json()["error"]) == (403, "wrong_token")
    # Carl accepts: the new game; Ann learns her seat, whose token is the one she holds
    r = client.post(f"/api/seeks/{again}/accept", json={"name": "Carl"}, headers=guest(3))
    assert r.status_code == 200, r.text
    carl = r.json()
    poll = client.get(f"/api/seeks/{again}", headers={"X-Seek-Token": ann_token}).json()
    assert poll["status"] == "started" and poll["game_id"] == carl["game"] != game_id
    assert poll["token"] == ann_token and {poll["seat"], carl["seat"]} == {0, 1}
    view = client.get(f"/api/games/{carl['game']}").json()
    assert {s["name"] for s in view["seats"]} == {"Ann", "Carl"}
    tokens = {poll["seat"]: ann_token, carl["seat"]: carl["token"]}
    mover = view["current_player"]
    r = client.post(
        f"/api/games/{carl['game']}/actions",
        json={"token": tokens[mover], "ply": view["ply"], "move": "take 1"},
    )
    assert r.status_code == 200, r.text
    # her token does not act in the old game any more than before: it is finished
    r = client.post(f"/api/games/{game_id}/abort", json={"token": ann_token})
    assert (r.status_code, r.json()["error"]) == (409, "game_over")


def test_the_poster_aborts_and_the_acceptor_gets_the_seek_and_withdraws_it(client: TestClient) -> None:
    made = started(client)
    game_id, (_, ann_token), (_, bob_token) = made["game"], made["ann"], made["bob"]
    abort(client, game_id, ann_token)
    again = f"{game_id}a"
    assert client.get(f"/api/seeks/{again}").json()["seated"][0]["name"] == "Bob"
    r = client.delete(f"/api/seeks/{again}", headers={"X-Seek-Token": ann_token})
    assert (r.status_code, r.json()["error"]) == (403, "not_poster")
    r = client.delete(f"/api/seeks/{again}", headers={"X-Seek-Token": bob_token})
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert open_ids(client) == []


def test_a_game_not_made_from_a_seek_posts_nothing_when_aborted(client: TestClient) -> None:
    seats = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]
    r = client.post("/api/games", json={"game": "nim", "options": {"stones": 9}, "seats": seats})
    created = r.json()
    abort(client, created["id"], created["seats"][0]["token"])
    assert client.get(f"/api/seeks/{created['id']}a").status_code == 404
    assert open_ids(client) == []


def test_a_player_whose_game_sockets_all_closed_gets_no_seek_back(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    made = started(client)
    game_id, (ann_seat, ann_token), (_, bob_token) = made["game"], made["ann"], made["bob"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "seat", "token": ann_token})
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
    deadline = time.monotonic() + 5
    while hub.absence.gone_for(game_id, ann_seat) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    abort(client, game_id, bob_token)
    assert client.get(f"/api/seeks/{game_id}a").status_code == 404
    assert open_ids(client) == []


def test_a_seek_posted_again_stays_while_held_and_ends_soon_when_nobody_holds_it(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    held, loose = started(client), started(client, {"options": {"stones": 7}})
    abort(client, held["game"], held["bob"][1])
    abort(client, loose["game"], loose["bob"][1])
    # posted as if its poster was last seen leave_seconds - 15 s ago: the usual sweep keeps both
    client.portal.call(hub.lobby.sweep)  # type: ignore[union-attr]
    assert sorted(open_ids(client)) == sorted([f"{held['game']}a", f"{loose['game']}a"])
    with client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "hold", "id": f"{held['game']}a", "seek_token": held["ann"][1]})
        assert ws.receive_json() == {"type": "held", "id": f"{held['game']}a", "ok": True}
        hub.lobby.leave_seconds = 30.0  # more than 15 s after the one nobody holds was last seen
        client.portal.call(hub.lobby.sweep)  # type: ignore[union-attr]
        gone = ws.receive_json()
        assert gone == {"type": "seek_gone", "id": f"{loose['game']}a", "status": "left", "game": None}
        assert open_ids(client) == [f"{held['game']}a"]


def test_a_table_of_three_goes_back_with_the_two_who_stayed(client: TestClient) -> None:
    body = {"game": "archimedes", "options": {}, "players": 3}
    seek = client.post("/api/seeks", json={**body, "name": "Ann"}, headers=guest(1)).json()
    second = client.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"}, headers=guest(2)).json()
    third = client.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Cid"}, headers=guest(3)).json()
    game_id = third["game"]
    abort(client, game_id, third["token"])  # Cid leaves
    again = client.get(f"/api/seeks/{game_id}a").json()
    assert again["status"] == "open" and again["players"] == 3
    assert [p["name"] for p in again["seated"]] == ["Ann", "Bob"]
    tokens = []
    for secret in (seek["seek_token"], second["seek_token"]):
        poll = client.get(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": secret}).json()
        tokens.append(poll["token"])
    r = client.post(f"/api/seeks/{game_id}a/accept", json={"name": "Dan"}, headers=guest(4))
    assert r.status_code == 200, r.text
    new_game = r.json()["game"]
    seats = {r.json()["seat"]}
    for token in tokens:  # Ann and Bob, each with their old seat token
        poll = client.get(f"/api/seeks/{game_id}a", headers={"X-Seek-Token": token}).json()
        assert poll["game_id"] == new_game and poll["token"] == token
        seats.add(poll["seat"])
    assert seats == {0, 1, 2}
    names = {s["name"] for s in client.get(f"/api/games/{new_game}").json()["seats"]}
    assert names == {"Ann", "Bob", "Dan"}
