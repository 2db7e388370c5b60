"""The lobby (issue 29): public games to watch, seeks, quick pairing.

Every test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.seek_store import SeekConflict
from palaestra.server.service.errors import DomainError
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


# --- seeks -----------------------------------------------------------------------------------------
NIM = {"game": "nim", "options": {"stones": 9}, "players": 2}


def guest(n: int) -> dict[str, str]:
    """The headers of guest ``n``'s browser (its own secret)."""
    return {"X-Guest-Token": f"guest-secret-{n}"}


def post(client: TestClient, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    r = client.post("/api/seeks", json={**NIM, **body}, headers=headers or guest(1))
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def open_ids(client: TestClient) -> list[str]:
    r = client.get("/api/lobby")
    assert r.status_code == 200, r.text
    return [s["id"] for s in r.json()["seeks"]]


def test_a_guest_posts_a_casual_seek_another_accepts_and_both_play(client: TestClient) -> None:
    seek = post(client, name="Ann")
    assert seek["status"] == "open" and seek["seated"] == [{"name": "Ann", "member": False, "rating": None}]
    assert open_ids(client) == [seek["id"]]
    # the poster's poll before anyone accepts: no seat yet
    poll = client.get(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": seek["seek_token"]}).json()
    assert poll["status"] == "open" and poll["token"] is None
    r = client.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"}, headers=guest(2))
    assert r.status_code == 200, r.text
    accepted = r.json()
    game_id, seat = accepted["game"], accepted["seat"]
    assert game_id and seat in (0, 1) and accepted["token"]
    poll = client.get(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": seek["seek_token"]}).json()
    assert poll["status"] == "started" and poll["game_id"] == game_id and poll["seat"] == 1 - seat
    view = client.get(f"/api/games/{game_id}").json()
    assert view["public"] is True
    assert {s["name"] for s in view["seats"]} == {"Ann", "Bob"}
    assert open_ids(client) == []
    (listed,) = client.get("/api/lobby").json()["games"]
    assert listed["id"] == game_id and listed["ratings"] == [None, None] and listed["clock"] is None
    # each plays with the token they learnt (nim: a coin may decide who begins; play whoever moves)
    tokens = {seat: accepted["token"], 1 - seat: poll["token"]}
    view = client.get(f"/api/games/{game_id}").json()
    mover = view["current_player"]
    r = client.post(
        f"/api/games/{game_id}/actions", json={"token": tokens[mover], "ply": view["ply"], "move": "take 1"}
    )
    assert r.status_code == 200, r.text
    # a second accept: the seek is gone
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(3))
    assert (r.status_code, r.json()["error"]) == (410, "seek_gone")


def test_nobody_accepts_their_own_seek_and_only_the_poster_withdraws_it(client: TestClient) -> None:
    seek = post(client)
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(1))
    assert (r.status_code, r.json()["error"]) == (409, "own_seek")
    r = client.delete(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": "not-the-token"})
    assert (r.status_code, r.json()["error"]) == (403, "not_poster")
    assert open_ids(client) == [seek["id"]]
    r = client.delete(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": seek["seek_token"]})
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert open_ids(client) == []
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(2))
    assert (r.status_code, r.json()["error"]) == (410, "seek_gone")
    assert client.get("/api/seeks/nosuchseek").json()["error"] == "seek_not_found"


def test_a_member_withdraws_a_seek_by_session_and_cannot_accept_it(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    r = ann.post("/api/seeks", json=NIM)
    assert r.status_code == 201, r.text
    seek = r.json()
    assert seek["seated"][0] == {"name": "ann", "member": True, "rating": 1500}
    r = ann.post(f"/api/seeks/{seek['id']}/accept")
    assert (r.status_code, r.json()["error"]) == (409, "own_seek")
    r = ann.delete(f"/api/seeks/{seek['id']}", csrf=False)
    assert r.json()["error"] == "csrf"
    assert ann.delete(f"/api/seeks/{seek['id']}").status_code == 200
    assert open_ids(client) == []


@pytest.mark.slow
def test_guests_post_and_accept_casual_seeks_only(client: TestClient) -> None:
    r = client.post("/api/seeks", json={**NIM, "rated": True, "time_control": BLITZ}, headers=guest(1))
    assert (r.status_code, r.json()["error"]) == (401, "sign_in_required")
    ann = sign_up(client, "ann")
    r = ann.post("/api/seeks", json={**NIM, "rated": True})
    assert (r.status_code, r.json()["error"]) == (400, "bad_rated")  # no clock
    r = ann.post("/api/seeks", json={**NIM, "rated": True, "time_control": BLITZ})
    assert r.status_code == 201, r.text
    seek = r.json()
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(2))
    assert (r.status_code, r.json()["error"]) == (401, "sign_in_required")
    bob = sign_up(client, "bob")
    r = bob.post(f"/api/seeks/{seek['id']}/accept")
    assert r.status_code == 200, r.text
    view = client.get(f"/api/games/{r.json()['game']}").json()
    assert view["rated"] is True and view["public"] is True
    assert sorted(s["member"] for s in view["seats"]) == ["ann", "bob"]
    # the lobby lists it to watch, with the players' ratings in its pool and its clock
    (listed,) = client.get("/api/lobby").json()["games"]
    assert listed["id"] == view["id"] and listed["rated"] is True
    assert listed["ratings"] == [1500, 1500]
    assert listed["clock"]["control"]["seconds"] == 600


def test_bad_seeks_are_refused_and_change_nothing(client: TestClient) -> None:
    cases = [
        ({"game": "nosuchgame"}, 400, "bad_options"),
        ({"players": 3}, 400, "bad_options"),
        ({"rating_range": {"min": 1400}}, 400, "bad_seek"),
        ({"players": 0}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        r = client.post("/api/seeks", json={**NIM, **body}, headers=guest(1))
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
    assert open_ids(client) == []


def test_a_rated_seek_checks_the_rating_range_both_ways(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    r = ann.post(
        "/api/seeks", json={**NIM, "rated": True, "time_control": BLITZ, "rating_range": {"min": 1600}}
    )
    seek = r.json()
    r = bob.post(f"/api/seeks/{seek['id']}/accept")  # bob is a newcomer: 1500
    assert (r.status_code, r.json()["error"]) == (409, "out_of_range")
    ann.delete(f"/api/seeks/{seek['id']}")
    r = ann.post(
        "/api/seeks", json={**NIM, "rated": True, "time_control": BLITZ, "rating_range": {"max": 1600}}
    )
    seek = r.json()
    r = bob.post(f"/api/seeks/{seek['id']}/accept", json={"rating_range": {"min": 1550}})  # ann: 1500
    assert (r.status_code, r.json()["error"]) == (409, "out_of_range")
    assert open_ids(client) == [seek["id"]]
    r = bob.post(f"/api/seeks/{seek['id']}/accept", json={"rating_range": {"min": 1400, "max": 1600}})
    assert r.status_code == 200, r.text


def test_a_table_of_three_fills_place_by_place_and_starts_when_full(client: TestClient) -> None:
    body = {"game": "archimedes", "options": {}, "players": 3}
    r = client.post("/api/seeks", json=body, headers=guest(1))
    assert r.status_code == 201, r.text
    seek = r.json()
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(2))
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["game"] is None and second["seek_token"] and len(second["seek"]["seated"]) == 2
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(2))
    assert (r.status_code, r.json()["error"]) == (409, "already_seated")
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(3))
    assert r.status_code == 200, r.text
    third = r.json()
    game_id = third["game"]
    seats = {third["seat"]}
    for secret in (seek["seek_token"], second["seek_token"]):
        poll = client.get(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": secret}).json()
        assert poll["game_id"] == game_id and poll["token"]
        seats.add(poll["seat"])
    assert seats == {0, 1, 2}
    view = client.get(f"/api/games/{game_id}").json()
    assert len(view["seats"]) == 3 and all(s["joined"] for s in view["seats"])


def test_a_seek_expires_after_its_time(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.lobby.seek_seconds = 0.0
    seek = post(client)
    assert open_ids(client) == []
    r = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(2))
    assert (r.status_code, r.json()["error"]) == (410, "seek_gone")
    assert client.get(f"/api/seeks/{seek['id']}").json()["status"] == "expired"


def test_a_seek_ends_when_its_poster_is_gone_and_stays_while_their_socket_holds_it(
    client: TestClient,
) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    held, left = post(client), post(client)
    with client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "hold", "id": held["id"], "seek_token": left["seek_token"]})
        assert ws.receive_json() == {"type": "held", "id": held["id"], "ok": False}
        ws.send_json({"type": "hold", "id": held["id"], "seek_token": held["seek_token"]})
        assert ws.receive_json() == {"type": "held", "id": held["id"], "ok": True}
        hub.lobby.leave_seconds = 0.0  # from now on, a poster not seen is gone
        client.portal.call(hub.lobby.sweep)  # type: ignore[union-attr]
        gone = ws.receive_json()
        assert gone == {"type": "seek_gone", "id": left["id"], "status": "left", "game": None}
        assert open_ids(client) == [held["id"]]
    client.portal.call(hub.lobby.sweep)  # type: ignore[union-attr]
    assert open_ids(client) == []


def test_of_two_acceptors_racing_for_the_last_place_exactly_one_wins(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for _ in range(3):
        seek = post(client)

        async def race(seek_id: str) -> list[Any]:
            tries = [hub.lobby.accept(seek_id, None, f"racer-{n}") for n in range(2)]
            return list(await asyncio.gather(*tries, return_exceptions=True))

        outcomes = client.portal.call(race, seek["id"])  # type: ignore[union-attr]
        won = [o for o in outcomes if isinstance(o, dict)]
        lost = [o for o in outcomes if isinstance(o, DomainError)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert lost[0].code == "seek_gone"
        assert client.get(f"/api/seeks/{seek['id']}").json()["game_id"] == won[0]["game"]


def test_a_stale_copy_of_a_seek_cannot_change_it(client: TestClient) -> None:
    """The guard itself: two requests that read the seek at one version; the second write loses."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seek = post(client)
    first = hub.lobby.store.get(seek["id"])
    second = hub.lobby.store.get(seek["id"])
    hub.lobby.store.change(first, status="cancelled")
    with pytest.raises(SeekConflict):
        hub.lobby.store.change(second, status="starting")
    assert hub.lobby.store.get(seek["id"]).status == "cancelled"


def test_the_sweep_renews_every_seek_held_here_in_one_write_and_no_other(client: TestClient) -> None:
    """The sweep's renewal (one statement for all the seeks held by this process's sockets): the
    held open seeks are seen now, a seek not held and a seek no longer open keep their time."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    held = [post(client)["id"] for _ in range(3)]
    loose, withdrawn = post(client), post(client)
    client.delete(f"/api/seeks/{withdrawn['id']}", headers={"X-Seek-Token": withdrawn["seek_token"]})
    before = {i: hub.lobby.store.get(i).seen_at for i in [*held, loose["id"], withdrawn["id"]]}
    hub.lobby.held = dict.fromkeys([*held, withdrawn["id"]], 1)
    time.sleep(0.01)
    client.portal.call(hub.lobby.sweep)  # type: ignore[union-attr]
    after = {i: hub.lobby.store.get(i).seen_at for i in before}
    assert all(after[i] > before[i] for i in held)
    assert after[loose["id"]] == before[loose["id"]] and after[withdrawn["id"]] == before[withdrawn["id"]]
    hub.lobby.store.seen_all([], datetime.now(UTC))  # nothing to renew: nothing written


@pytest.mark.slow
def test_play_now_pairs_two_people_and_the_lobby_socket_sees_the_seek_come_and_go(client: TestClient) -> None:
    quick = {**NIM, "time_control": BLITZ}
    with client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json() == {"type": "lobby", "seeks": [], "games": []}
        r = client.post("/api/lobby/play-now", json=quick, headers=guest(1))
        assert r.status_code == 201, r.text
        first = r.json()
        assert first["game"] is None and first["seek_token"]
        seek_id = first["seek"]["id"]
        pushed = ws.receive_json()
        assert pushed["type"] == "seek" and pushed["seek"]["id"] == seek_id
        assert pushed["seek"]["status"] == "open" and pushed["seek"]["time_control"]["seconds"] == 600
        # another game's options are not compatible: a seek of its own
        r = client.post("/api/lobby/play-now", json={**quick, "options": {"stones": 5}}, headers=guest(3))
        assert r.status_code == 201
        assert ws.receive_json()["seek"]["id"] == r.json()["seek"]["id"]
        # the same person again: not paired with their own seek (a second one)
        r = client.post("/api/lobby/play-now", json=quick, headers=guest(1))
        assert r.status_code == 201
        other = r.json()["seek"]["id"]
        assert ws.receive_json()["seek"]["id"] == other
        r = client.post("/api/lobby/play-now", json=quick, headers=guest(2))
        assert r.status_code == 200, r.text
        paired = r.json()
        assert paired["game"] and paired["token"]
        gone = ws.receive_json()
        assert gone == {"type": "seek_gone", "id": seek_id, "status": "started", "game": paired["game"]}
        started = ws.receive_json()
        assert started["type"] == "game" and started["game"]["id"] == paired["game"]
    poll = client.get(f"/api/seeks/{seek_id}", headers={"X-Seek-Token": first["seek_token"]}).json()
    assert {poll["seat"], paired["seat"]} == {0, 1}
    assert other in open_ids(client) and seek_id not in open_ids(client)


def test_the_lobby_lists_only_public_games_being_played(client: TestClient) -> None:
    """A finished public game is not in the lobby (it stays in GET /api/games)."""
    r = client.post(
        "/api/games",
        json={
            "game": "nim",
            "options": {"stones": 1},
            "seats": [{"kind": "human", "joined": True}] * 2,
            "public": True,
        },
    )
    created = r.json()
    token = created["seats"][0]["token"]
    assert client.post(f"/api/games/{created['id']}/resign", json={"token": token}).status_code == 200
    playing = casual(client, public=True)
    assert [g["id"] for g in client.get("/api/lobby").json()["games"]] == [playing]
    assert created["id"] in listed(client)


def test_the_lobby_socket_answers_pings_and_refuses_other_messages(client: TestClient) -> None:
    with client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("not json")
        assert ws.receive_json()["error"] == "bad_message"


@pytest.mark.slow
def test_a_full_table_whose_process_died_is_started_or_cancelled_by_the_sweep(client: TestClient) -> None:
    """The process that filled a table died: after the game was stored (the sweep says it started,
    and the poster learns their seat), or before (the sweep cancels the seek)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    lobby = hub.lobby

    async def died(seek: Any) -> None:
        return None  # the game is stored, but its start is never told

    lobby._started = died  # this instance only
    seek = post(client)
    accepted = client.post(f"/api/seeks/{seek['id']}/accept", headers=guest(2)).json()
    assert client.get(f"/api/seeks/{seek['id']}").json()["status"] == "starting"
    del lobby._started  # the class's own again
    lobby.starting_grace = 0.0
    client.portal.call(lobby.sweep)  # type: ignore[union-attr]
    poll = client.get(f"/api/seeks/{seek['id']}", headers={"X-Seek-Token": seek["seek_token"]}).json()
    assert poll["status"] == "started" and poll["game_id"] == accepted["game"]
    assert {poll["seat"], accepted["seat"]} == {0, 1}

    # before the game was stored: no game, the seek is cancelled
    other = post(client)
    stored = lobby.store.get(other["id"])
    places = [*stored.places, {**stored.places[0], "key": "g:x", "hash": "x", "seat": 1}]
    places[0] = {**places[0], "seat": 0}
    lobby.store.change(stored, places=places, status="starting", game_id="nosuchgame1")
    client.portal.call(lobby.sweep)  # type: ignore[union-attr]
    assert client.get(f"/api/seeks/{other['id']}").json()["status"] == "cancelled"


@pytest.mark.slow
def test_play_now_pairs_two_members_in_a_rated_game_with_the_same_clock(client: TestClient) -> None:
    rated = {**NIM, "rated": True, "time_control": BLITZ}
    r = client.post("/api/lobby/play-now", json=rated, headers=guest(1))
    assert (r.status_code, r.json()["error"]) == (401, "sign_in_required")
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    assert ann.post("/api/lobby/play-now", json=rated).status_code == 201
    # another clock, or casual: not the same offer
    assert (
        bob.post("/api/lobby/play-now", json={**rated, "time_control": {**BLITZ, "seconds": 300}}).status_code
        == 201
    )
    r = bob.post("/api/lobby/play-now", json={**NIM, "time_control": BLITZ})
    assert r.status_code == 201
    r = bob.post("/api/lobby/play-now", json=rated)
    assert r.status_code == 200, r.text
    view = client.get(f"/api/games/{r.json()['game']}").json()
    assert view["rated"] is True and sorted(s["member"] for s in view["seats"]) == ["ann", "bob"]
    assert view["clock"]["control"]["seconds"] == 600


def test_the_lobby_socket_closes_a_flooding_client_with_1008(db_url: str) -> None:
    """The game socket's limits hold for the lobby's too (issue 31, finding 3)."""
    from starlette.websockets import WebSocketDisconnect

    from palaestra.server.app import create_app
    from palaestra.server.settings import Settings

    app = create_app(db_url, ai_delay=0.0, settings=Settings.from_env(ws_messages_per_second=2))
    with TestClient(app) as client, client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json()["type"] == "lobby"
        for _ in range(10):
            ws.send_json({"type": "ping"})
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 1008
        metrics = client.get("/metrics").text
        assert 'palaestra_websockets_closed_total{limit="rate"} 1.0' in metrics
