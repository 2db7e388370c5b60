"""Issue 29, parts 6 and 7: aborting a game before every seat moved (no winner, never rated, the
record still replays), rematches and claims of an absent player's game."""

from __future__ import annotations

import dataclasses
import time

import pytest
from fastapi.testclient import TestClient

from palaestra.core.record import Record, RecordError
from palaestra.server.service.absence import Absence
from tests.server.accounts_helpers import invite_code, play_out, rated_nim, sign_up
from tests.server.test_accounts import db_rows
from tests.server.test_api import INVITED, assert_error, create, play


# --- abort -------------------------------------------------------------------------------------------
def test_a_seat_aborts_before_every_seat_moved_no_winner_and_the_record_replays(client: TestClient) -> None:
    created = create(client)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    assert play(client, gid, t0, 0, move="take 1").status_code == 200  # seat 1 has not moved
    assert_error(client.post(f"/api/games/{gid}/abort", json={"token": "nope"}), 403, "wrong_token")
    r = client.post(f"/api/games/{gid}/abort", json={"token": t1})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["status"] == "finished"
    assert view["result"]["termination"] == "abort" and view["result"]["returns"] == [0.0, 0.0]
    assert_error(play(client, gid, t1, 1, move="take 1"), 409, "game_over")
    assert_error(client.post(f"/api/games/{gid}/abort", json={"token": t0}), 409, "game_over")
    record = Record.from_json(client.get(f"/api/games/{gid}/record").json())
    record.check_result(record.replay())  # replayable, as palaestra replay reads it


def test_once_every_seat_moved_the_game_cannot_be_aborted_and_nothing_changes(client: TestClient) -> None:
    created = create(client)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    play(client, gid, t0, 0, move="take 1")
    play(client, gid, t1, 1, move="take 1")
    before = client.get(f"/api/games/{gid}").json()
    assert_error(client.post(f"/api/games/{gid}/abort", json={"token": t0}), 409, "cannot_abort")
    after = client.get(f"/api/games/{gid}").json()
    assert after["status"] == "active" and after["version"] == before["version"]


def test_a_record_claiming_an_abort_after_every_seat_moved_does_not_check(client: TestClient) -> None:
    created = create(client)
    gid, t0 = created["id"], created["seats"][0]["token"]
    play(client, gid, t0, 0, move="take 1")
    client.post(f"/api/games/{gid}/abort", json={"token": t0})
    doc = client.get(f"/api/games/{gid}/record").json()
    record = Record.from_json(doc)
    assert record.outcome is not None
    record.outcome = dataclasses.replace(record.outcome, returns=(1.0, -1.0))
    with pytest.raises(RecordError, match="abort gives"):
        record.check_result(record.replay())
    record = Record.from_json(doc)
    record.moves.append(record.moves[0].__class__(1, "take 1", record.moves[0].at))
    with pytest.raises(RecordError, match="every seat has moved"):
        record.check_result(record.replay())


@pytest.mark.slow
def test_an_aborted_rated_game_is_never_rated(client: TestClient, db_url: str) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    made = rated_nim(alice)
    gid = made["id"]
    assert bob.post(f"/api/games/{gid}/join", json={"code": invite_code(made, 1)}).status_code == 200
    play_out(alice, bob, gid, ["take 1"])
    r = alice.post(f"/api/games/{gid}/abort", json={})  # a member's seat by the session cookie
    assert r.status_code == 200, r.text
    assert r.json()["result"]["termination"] == "abort"
    assert db_rows(db_url, "SELECT * FROM rating_events") == []


# --- rematch -----------------------------------------------------------------------------------------
def test_a_rematch_offered_then_accepted_rotates_the_seats_and_gives_each_their_token(
    client: TestClient,
) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid, t0 = created["id"], created["seats"][0]["token"]
    joined = client.post(f"/api/games/{gid}/join", json={"code": invite_code(created, 1), "name": "Bea"})
    t1 = joined.json()["token"]
    assert_error(client.post(f"/api/games/{gid}/rematch", json={"token": t0}), 409, "cannot_rematch")
    assert client.post(f"/api/games/{gid}/resign", json={"token": t0}).status_code == 200
    assert_error(client.post(f"/api/games/{gid}/rematch", json={"token": "nope"}), 403, "wrong_token")
    offer = client.post(f"/api/games/{gid}/rematch", json={"token": t0})
    assert offer.status_code == 200, offer.text
    assert offer.json() == {
        "game": None,
        "seat": None,
        "token": None,
        "rematch": {"offered_by": 0, "game": None},
    }
    assert client.get(f"/api/games/{gid}").json()["rematch"] == {"offered_by": 0, "game": None}
    again = client.post(f"/api/games/{gid}/rematch", json={"token": t0}).json()  # still an offer
    assert again["game"] is None
    accepted = client.post(f"/api/games/{gid}/rematch", json={"token": t1}).json()
    new = accepted["game"]
    assert new and new != gid and accepted["seat"] == 0 and accepted["token"]
    assert client.get(f"/api/games/{gid}").json()["rematch"] == {"offered_by": 0, "game": new}
    mine = client.post(f"/api/games/{gid}/rematch", json={"token": t0}).json()  # the offerer polls
    assert mine["game"] == new and mine["seat"] == 1 and mine["token"] not in (None, accepted["token"])
    view = client.get(f"/api/games/{new}").json()
    assert view["status"] == "active" and view["options"] == created["game"]["options"]
    assert view["seats"][0]["name"] == "Bea"
    # each plays their new seat with their new token; the old ones do not work there
    assert_error(play(client, new, t1, 0, move="take 1"), 403, "wrong_token")
    assert play(client, new, accepted["token"], 0, move="take 1").status_code == 200
    assert play(client, new, mine["token"], 1, move="take 1").status_code == 200


def test_a_rematch_against_the_ai_is_made_at_once(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}])
    gid, t0 = created["id"], created["seats"][0]["token"]
    client.post(f"/api/games/{gid}/resign", json={"token": t0})
    made = client.post(f"/api/games/{gid}/rematch", json={"token": t0}).json()
    assert made["game"] and made["seat"] == 1
    seats = client.get(f"/api/games/{made['game']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["ai", "human"]


def test_a_rated_rematch_between_members_is_rated_and_held_by_account(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    made = rated_nim(alice)
    gid = made["id"]
    assert bob.post(f"/api/games/{gid}/join", json={"code": invite_code(made, 1)}).status_code == 200
    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    assert bob.post(f"/api/games/{gid}/rematch", json={}).json()["game"] is None
    new = alice.post(f"/api/games/{gid}/rematch", json={}).json()
    assert new["seat"] == 1 and new["token"] is None
    view = client.get(f"/api/games/{new['game']}").json()
    assert view["rated"] is True and view["clock"] is not None
    assert [s["member"] for s in view["seats"]] == ["bob", "alice"]


# --- claiming the win from a player who is gone ------------------------------------------------------
BLITZ_CLOCK = {"type": "per_move", "seconds": 30}


def test_the_win_is_claimed_once_the_seat_to_move_has_had_no_websocket_for_the_setting(
    client: TestClient,
) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    now = [1000.0]
    hub.absence.clock = lambda: now[0]
    created = create(client, seats=INVITED, seed=None, time_control=BLITZ_CLOCK)
    gid, t0 = created["id"], created["seats"][0]["token"]
    t1 = client.post(f"/api/games/{gid}/join", json={"code": invite_code(created, 1)}).json()["token"]
    # seat 0 is to move and never had a websocket: nothing to claim
    assert_error(client.post(f"/api/games/{gid}/claim", json={"token": t1}), 409, "cannot_claim")
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "seat", "token": t0})
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
        assert hub.absence.gone_for(gid, 0) is None  # connected
        assert_error(client.post(f"/api/games/{gid}/claim", json={"token": t1}), 409, "cannot_claim")
    deadline = time.monotonic() + 5
    while hub.absence.gone_for(gid, 0) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    now[0] += 59
    assert_error(client.post(f"/api/games/{gid}/claim", json={"token": t1}), 409, "cannot_claim")
    assert_error(client.post(f"/api/games/{gid}/claim", json={"token": t0}), 409, "cannot_claim")  # own
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"
    now[0] += 2
    r = client.post(f"/api/games/{gid}/claim", json={"token": t1})
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert r.json()["status"] == "finished" and result["returns"] == [-1.0, 1.0]
    assert result["termination"] == "abandonment" and result["seat"] == 0 and result["claimed_by"] == 1
    record = Record.from_json(client.get(f"/api/games/{gid}/record").json())
    record.check_result(record.replay())


def test_a_game_without_a_clock_cannot_be_claimed(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid = created["id"]
    t1 = client.post(f"/api/games/{gid}/join", json={"code": invite_code(created, 1)}).json()["token"]
    assert_error(client.post(f"/api/games/{gid}/claim", json={"token": t1}), 409, "cannot_claim")


def test_a_correspondence_game_cannot_be_claimed_however_long_the_seat_is_away(client: TestClient) -> None:
    """Days a move: nobody is expected to stay connected (issue 29: claims are for real-time games)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    now = [1000.0]
    hub.absence.clock = lambda: now[0]
    created = create(client, seats=INVITED, seed=None, time_control={"type": "correspondence", "days": 3})
    gid, t0 = created["id"], created["seats"][0]["token"]
    t1 = client.post(f"/api/games/{gid}/join", json={"code": invite_code(created, 1)}).json()["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "seat", "token": t0})
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
    deadline = time.monotonic() + 5
    while hub.absence.gone_for(gid, 0) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    now[0] += 3600
    assert_error(client.post(f"/api/games/{gid}/claim", json={"token": t1}), 409, "cannot_claim")
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"


def test_a_seat_is_gone_only_once_its_last_websocket_closed() -> None:
    now = [0.0]
    absence = Absence(lambda: now[0])
    assert absence.gone_for("g", 0) is None  # never seen: not gone
    absence.arrive("g", 0)
    absence.arrive("g", 0)  # a second tab
    absence.leave("g", 0)
    now[0] = 100.0
    assert absence.gone_for("g", 0) is None  # the other tab is still there
    absence.leave("g", 0)
    now[0] = 130.0
    assert absence.gone_for("g", 0) == 30.0
    absence.arrive("g", 0)  # back again
    assert absence.gone_for("g", 0) is None
    absence.forget("g")
    assert absence.sockets == {} and absence.left == {}
