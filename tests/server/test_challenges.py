"""Challenges to a named member (issue 29, part 4): made, listed, accepted, declined with a reason,
cancelled, expired; every refusal; members' choice of who may challenge them; two accepts at once.

Every test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.server.api.auth import COOKIE
from palaestra.server.service.challenges import DECLINE_REASONS, PREFIX, ChallengeService
from palaestra.server.service.errors import DomainError
from tests.server.accounts_helpers import BLITZ, Member, play_out, sign_up

NIM = {"game": "nim", "options": {"stones": 9}}
CORRESPONDENCE = {"type": "correspondence", "days": 3}


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def challenge(by: Member, to: str, **body: Any) -> dict[str, Any]:
    r = by.post("/api/challenges", json={"to": to, **NIM, **body})
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]


def lists(member: Member) -> dict[str, list[str]]:
    r = member.get("/api/challenges")
    assert r.status_code == 200, r.text
    return {k: [c["id"] for c in v] for k, v in r.json().items()}


def test_a_member_challenges_another_who_accepts_and_both_play_by_account(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = challenge(ann, "bob", time_control=BLITZ)
    assert (made["from"], made["to"], made["status"], made["rated"]) == ("ann", "bob", "open", False)
    assert made["game_id"] is None and made["public"] is True
    assert lists(bob) == {"incoming": [made["id"]], "outgoing": []}
    assert lists(ann) == {"incoming": [], "outgoing": [made["id"]]}
    r = bob.post(f"/api/challenges/{made['id']}/accept")
    assert r.status_code == 200, r.text
    accepted = r.json()
    game_id, seat = accepted["game"], accepted["seat"]
    assert seat in (0, 1) and accepted["token"]
    assert accepted["challenge"]["status"] == "accepted" and accepted["challenge"]["game_id"] == game_id
    view = client.get(f"/api/games/{game_id}").json()
    assert [s["member"] for s in view["seats"]][seat] == "bob"
    assert [s["member"] for s in view["seats"]][1 - seat] == "ann"
    assert view["public"] is True and view["rated"] is False and view["clock"]["control"]["type"] == "fischer"
    # the challenger learns the game and their seat from their list
    (mine,) = ann.get("/api/challenges").json()["outgoing"]
    assert (mine["status"], mine["game_id"], mine["challenger_seat"]) == ("accepted", game_id, 1 - seat)
    assert lists(bob)["incoming"] == []
    # the challenger acts by account, the acceptor with the token (no cookie)
    ply = 0
    if view["current_player"] != seat:
        play_out(ann, bob, game_id, ["take 1"])
        ply = 1
    r = client.post(
        f"/api/games/{game_id}/actions", json={"token": accepted["token"], "ply": ply, "move": "take 1"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["ply"] == ply + 1


def test_guests_cannot_challenge_or_list_and_nothing_is_stored(client: TestClient) -> None:
    sign_up(client, "bob")
    r = client.post("/api/challenges", json={"to": "bob", **NIM})
    assert error(r) == (401, "sign_in_required")
    assert error(client.get("/api/challenges")) == (401, "sign_in_required")
    assert hub_of(client).challenges.store.of_member(1, datetime(2000, 1, 1, tzinfo=UTC)) == []


def test_nobody_challenges_themselves_a_closed_account_or_a_missing_name(client: TestClient) -> None:
    ann, carl = sign_up(client, "ann"), sign_up(client, "carl")
    r = ann.post("/api/challenges", json={"to": "ann", **NIM})
    assert error(r) == (400, "bad_challenge") and "yourself" in r.json()["message"]
    r = ann.post("/api/challenges", json={"to": "nobody-here", **NIM})
    assert error(r) == (404, "user_not_found") and "nobody-here" in r.json()["message"]
    hub = hub_of(client)
    account = hub.accounts.store.by_name("carl")
    hub.accounts.store.set_closed(account.id, True)
    r = ann.post("/api/challenges", json={"to": "carl", **NIM})
    assert error(r) == (404, "user_not_found") and "closed" in r.json()["message"]
    assert lists(ann) == {"incoming": [], "outgoing": []}
    del carl


def test_a_challenge_with_bad_options_or_a_rated_one_without_a_clock_is_refused(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    sign_up(client, "bob")
    assert error(ann.post("/api/challenges", json={"to": "bob", "game": "no-such-game"}))[0] == 400
    r = ann.post("/api/challenges", json={"to": "bob", **NIM, "rated": True})
    assert error(r) == (400, "bad_rated")
    r = ann.post("/api/challenges", json={"to": "bob", **NIM, "time_control": {"type": "fischer"}})
    assert error(r) == (422, "invalid_request")
    r = ann.post("/api/challenges", json={"to": "bob", **NIM}, csrf=False)
    assert error(r) == (403, "csrf")
    assert lists(ann)["outgoing"] == []


def test_a_rated_challenge_makes_a_rated_public_game_between_the_members(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = challenge(ann, "bob", rated=True, public=False, time_control=BLITZ)
    assert made["rated"] is True and made["public"] is True
    accepted = bob.post(f"/api/challenges/{made['id']}/accept").json()
    view = client.get(f"/api/games/{accepted['game']}").json()
    assert view["rated"] is True and view["public"] is True
    assert sorted(s["member"] for s in view["seats"]) == ["ann", "bob"]


def test_a_casual_challenge_may_make_a_private_game(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = challenge(ann, "bob", public=False)
    accepted = bob.post(f"/api/challenges/{made['id']}/accept").json()
    assert client.get(f"/api/games/{accepted['game']}").json()["public"] is False
    assert accepted["game"] not in [g["id"] for g in client.get("/api/lobby").json()["games"]]


def test_only_the_challenged_answers_and_only_the_challenger_cancels(client: TestClient) -> None:
    ann, bob, eve = sign_up(client, "ann"), sign_up(client, "bob"), sign_up(client, "eve")
    made = challenge(ann, "bob")
    cid = made["id"]
    assert error(ann.post(f"/api/challenges/{cid}/accept")) == (403, "not_challenged")
    assert error(ann.post(f"/api/challenges/{cid}/decline")) == (403, "not_challenged")
    assert error(bob.delete(f"/api/challenges/{cid}")) == (403, "not_challenger")
    # a third member learns nothing of it
    for r in (eve.post(f"/api/challenges/{cid}/accept"), eve.get(f"/api/challenges/{cid}")):
        assert error(r) == (404, "challenge_not_found")
    assert error(bob.post("/api/challenges/nosuch/accept")) == (404, "challenge_not_found")
    assert error(bob.post(f"/api/challenges/{cid}/accept", csrf=False)) == (403, "csrf")
    assert bob.get(f"/api/challenges/{cid}").json()["status"] == "open"
    assert lists(bob)["incoming"] == [cid]


def test_accepting_twice_or_after_a_decline_or_a_cancel_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    first = challenge(ann, "bob")
    game = bob.post(f"/api/challenges/{first['id']}/accept").json()["game"]
    for r in (
        bob.post(f"/api/challenges/{first['id']}/accept"),
        bob.post(f"/api/challenges/{first['id']}/decline"),
        ann.delete(f"/api/challenges/{first['id']}"),
    ):
        assert error(r) == (410, "challenge_gone") and "accepted" in r.json()["message"]
    assert bob.get(f"/api/challenges/{first['id']}").json()["game_id"] == game

    second = challenge(ann, "bob")
    r = bob.post(f"/api/challenges/{second['id']}/decline", json={"reason": "too_fast"})
    assert r.status_code == 200, r.text
    declined = r.json()
    assert (declined["status"], declined["decline_reason"]) == ("declined", "too_fast")
    assert declined["decline_text"] == DECLINE_REASONS["too_fast"]
    assert error(bob.post(f"/api/challenges/{second['id']}/accept")) == (410, "challenge_gone")
    assert ann.get(f"/api/challenges/{second['id']}").json()["status"] == "declined"

    third = challenge(ann, "bob")
    assert ann.delete(f"/api/challenges/{third['id']}").json()["status"] == "cancelled"
    assert error(bob.post(f"/api/challenges/{third['id']}/accept")) == (410, "challenge_gone")
    assert error(ann.delete(f"/api/challenges/{third['id']}")) == (410, "challenge_gone")
    # the challenger sees every answer in their list; the challenged has nothing open
    assert lists(bob)["incoming"] == []
    assert set(lists(ann)["outgoing"]) == {first["id"], second["id"], third["id"]}


def test_a_decline_takes_a_reason_from_the_list_in_meta(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    meta = client.get("/api/meta").json()["challenges"]
    assert [r["id"] for r in meta["decline_reasons"]] == list(DECLINE_REASONS)
    assert meta["challenges_from"] == ["everyone", "played", "nobody"]
    made = challenge(ann, "bob")
    r = bob.post(f"/api/challenges/{made['id']}/decline", json={"reason": "because"})
    assert error(r) == (422, "invalid_request")
    assert bob.get(f"/api/challenges/{made['id']}").json()["status"] == "open"
    r = bob.post(f"/api/challenges/{made['id']}/decline")  # no body: the generic reason
    assert r.json()["decline_reason"] == "generic"


def test_a_challenge_expires_a_real_time_one_sooner_than_a_slow_one(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    service = hub_of(client).challenges
    start = datetime.now(UTC)
    now = [start]
    service.now = lambda: now[0]
    fast = challenge(ann, "bob", time_control=BLITZ)
    slow = challenge(ann, "bob", time_control=CORRESPONDENCE)
    casual = challenge(ann, "bob")
    assert datetime.fromisoformat(fast["expires"]) == start + timedelta(minutes=20)
    assert datetime.fromisoformat(slow["expires"]) == start + timedelta(hours=24)
    assert datetime.fromisoformat(casual["expires"]) == start + timedelta(hours=24)
    now[0] = start + timedelta(minutes=21)
    # past its time, before any sweep: gone, and listed as such
    assert sorted(lists(bob)["incoming"]) == sorted([casual["id"], slow["id"]])
    r = bob.post(f"/api/challenges/{fast['id']}/accept")
    assert error(r) == (410, "challenge_gone") and "expired" in r.json()["message"]
    assert bob.get(f"/api/challenges/{fast['id']}").json()["status"] == "expired"
    now[0] = start + timedelta(hours=25)
    assert client.portal.call(service.sweep) == 2  # type: ignore[union-attr]
    assert client.portal.call(service.sweep) == 0  # type: ignore[union-attr]
    for made in (slow, casual):
        assert ann.get(f"/api/challenges/{made['id']}").json()["status"] == "expired"
        assert error(ann.delete(f"/api/challenges/{made['id']}")) == (410, "challenge_gone")
    assert lists(bob)["incoming"] == []
    # an hour after they ended, the challenger's list forgets them
    now[0] = start + timedelta(hours=27)
    assert lists(ann)["outgoing"] == []


def test_members_choose_who_may_challenge_them(client: TestClient) -> None:
    ann, bob, eve = sign_up(client, "ann"), sign_up(client, "bob"), sign_up(client, "eve")
    assert bob.get("/api/account/preferences").json() == {"challenges": "everyone"}
    assert error(client.get("/api/account/preferences")) == (401, "sign_in_required")
    r = bob.request("PUT", "/api/account/preferences", json={"challenges": "nobody"})
    assert r.json() == {"challenges": "nobody"}
    r = ann.post("/api/challenges", json={"to": "bob", **NIM})
    assert error(r) == (403, "challenge_refused") and r.json()["message"] == "bob does not accept challenges"
    # a bad choice, or one without the CSRF token, changes nothing
    assert error(bob.request("PUT", "/api/account/preferences", json={"challenges": "friends"}))[0] == 422
    r = bob.request("PUT", "/api/account/preferences", json={"challenges": "everyone"}, csrf=False)
    assert error(r) == (403, "csrf")
    assert bob.get("/api/account/preferences").json() == {"challenges": "nobody"}
    # only from people they have played: ann played bob (a game of a challenge), eve did not
    bob.request("PUT", "/api/account/preferences", json={"challenges": "everyone"})
    made = challenge(ann, "bob")
    assert bob.post(f"/api/challenges/{made['id']}/accept").status_code == 200
    bob.request("PUT", "/api/account/preferences", json={"challenges": "played"})
    challenge(ann, "bob")
    r = eve.post("/api/challenges", json={"to": "bob", **NIM})
    assert error(r) == (403, "challenge_refused")
    assert r.json()["message"] == "bob accepts challenges only from people they have played"
    # the choice is bob's alone: he may still challenge eve
    challenge(bob, "eve")


def test_of_two_accepts_at_once_exactly_one_makes_a_game(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    hub = hub_of(client)
    account = hub.accounts.store.by_name("bob")
    before = len(hub.store.ids("active"))
    for _ in range(3):
        made = challenge(ann, "bob")

        async def race(challenge_id: str) -> list[Any]:
            tries = [hub.challenges.accept(challenge_id, account) for _ in range(2)]
            return list(await asyncio.gather(*tries, return_exceptions=True))

        outcomes = client.portal.call(race, made["id"])  # type: ignore[union-attr]
        won = [o for o in outcomes if isinstance(o, dict)]
        lost = [o for o in outcomes if isinstance(o, DomainError)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert lost[0].code == "challenge_gone"
        assert bob.get(f"/api/challenges/{made['id']}").json()["game_id"] == won[0]["game"]
    assert len(hub.store.ids("active")) == before + 3


def test_the_challenged_member_sees_a_challenge_live_on_the_lobby_socket(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    client.cookies.set(COOKIE, bob.cookie)
    try:
        with client.websocket_connect("/api/lobby/ws") as ws:
            client.cookies.clear()
            assert ws.receive_json()["type"] == "lobby"
            made = challenge(ann, "bob")
            pushed = ws.receive_json()
            assert pushed["type"] == "challenge" and pushed["challenge"]["id"] == made["id"]
            assert pushed["challenge"]["status"] == "open" and "for" not in pushed
            ann.delete(f"/api/challenges/{made['id']}")
            assert ws.receive_json()["challenge"]["status"] == "cancelled"
    finally:
        client.cookies.clear()
    # a guest's lobby socket hears of nobody's challenges
    with client.websocket_connect("/api/lobby/ws") as ws:
        assert ws.receive_json()["type"] == "lobby"
        challenge(ann, "bob")
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_an_accepted_challenge_whose_process_died_is_settled_by_the_sweep(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    hub = hub_of(client)
    service = hub.challenges
    made = challenge(ann, "bob")
    stored = service.store.get(made["id"])
    # accepted, but the game was never made (the process died before)
    service.store.change(stored, status="starting", game_id="feedbeef0001", answered_at=service.now())
    service.starting_grace = 0.0
    assert client.portal.call(service.sweep) == 1  # type: ignore[union-attr]
    assert ann.get(f"/api/challenges/{made['id']}").json()["status"] == "failed"
    del bob


def test_a_deleted_account_takes_its_challenges_with_it(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = challenge(ann, "bob")
    r = ann.request("DELETE", "/api/account", json={"password": "correct horse battery"})
    assert r.status_code == 200, r.text
    assert lists(bob) == {"incoming": [], "outgoing": []}
    assert hub_of(client).challenges.store.get(made["id"]) is None


# --- the lobby channel's challenge messages (from other processes) ----------------------------------
@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_message_on_the_lobby_channel_is_routed_without_raising(message: str) -> None:
    """A message that is not a challenge's is the lobby's (False); a malformed challenge message
    is logged and dropped; nothing raises, nobody else's socket gets it."""
    service = ChallengeService.__new__(ChallengeService)
    service.subscribers = {}
    queue: asyncio.Queue[str] = asyncio.Queue()
    service.subscribers[7] = {queue}
    for text in (message, PREFIX + message):
        assert service.on_message(text) is text.startswith(PREFIX)
    while not queue.empty():  # only a well-formed challenge message for account 7 arrives
        doc = json.loads(queue.get_nowait())
        assert doc["type"] == "challenge" and "for" not in doc


def test_a_challenge_message_reaches_only_its_two_members_without_their_ids() -> None:
    service = ChallengeService.__new__(ChallengeService)
    queues = {a: asyncio.Queue[str]() for a in (1, 2, 3)}
    service.subscribers = {a: {q} for a, q in queues.items()}
    doc = {"type": "challenge", "challenge": {"id": "c1"}, "for": [1, 2]}
    assert service.on_message(json.dumps(doc))
    for account in (1, 2):
        assert json.loads(queues[account].get_nowait()) == {"type": "challenge", "challenge": {"id": "c1"}}
    assert queues[3].empty()
    assert service.on_message(json.dumps({"type": "seek", "seek": {}})) is False


def test_a_challenge_of_a_member_who_closed_their_account_cannot_be_accepted(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = challenge(ann, "bob")
    store = hub_of(client).accounts.store
    store.set_closed(store.by_name("ann").id, True)
    r = bob.post(f"/api/challenges/{made['id']}/accept")
    assert error(r) == (410, "challenge_gone") and "closed" in r.json()["message"]
    assert bob.get(f"/api/challenges/{made['id']}").json()["status"] == "failed"
    assert lists(bob)["incoming"] == []


def test_the_account_export_holds_the_challenges_and_the_choice(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    made = challenge(ann, "bob")
    bob.request("PUT", "/api/account/preferences", json={"challenges": "played"})
    doc = bob.get("/api/account/export").json()
    assert doc["challenges_from"] == "played"
    assert [(c["id"], c["from"], c["to"]) for c in doc["challenges"]] == [(made["id"], "ann", "bob")]
    assert ann.get("/api/account/export").json()["challenges_from"] == "everyone"
