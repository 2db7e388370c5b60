"""Notifications (issue 29, part 9; docs/web.md, "Notifications"): what is queued, for whom, by
which channel, on SQLite and PostgreSQL; the page's unread count and list; the settings API.
E-mail and Web Push are in test_notification_channels.py, the worker killed mid-send in
test_notification_worker.py."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.notify_store import CHANNELS, KINDS
from palaestra.server.service.hub import Hub
from palaestra.server.settings import Settings
from tests.server.accounts_helpers import BLITZ, Member, sign_up
from tests.server.notify_helpers import (
    Mailbox,
    SmtpServer,
    correspondence_game,
    inbox,
    kinds,
    move,
    settings,
    to_move,
    wait_until,
)
from tests.server.test_api import assert_error


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def rows(client: TestClient, member: Member | None = None) -> list[dict[str, Any]]:
    hub = hub_of(client)
    account = None if member is None else hub.accounts.store.by_name(member.username)
    return hub.notifications.store.rows(None if account is None else account.id)


def test_the_defaults_are_the_page_on_push_and_email_off(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    found = alice.get("/api/account/notifications").json()
    assert found["language"] == "en" and found["email"] is None
    assert found["kinds"] == list(KINDS)
    assert found["channels"] == {k: {"page": True, "push": False, "email": False} for k in KINDS}
    assert found["available"] == {"page": True, "push": True, "email": False}  # no SMTP URL here
    assert_error(client.get("/api/account/notifications"), 401, "sign_in_required")


def test_each_member_turns_channels_on_and_off_per_kind_and_sets_language_and_address(
    client: TestClient,
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    changed = settings(
        alice,
        language="de",
        email="alice@example.org",
        channels={"your_turn": {"email": True, "page": False}, "challenge": {"push": True}},
    )
    assert changed["language"] == "de" and changed["email"] == "alice@example.org"
    assert changed["channels"]["your_turn"] == {"page": False, "push": False, "email": True}
    assert changed["channels"]["challenge"] == {"page": True, "push": True, "email": False}
    # a later change keeps what it does not name
    again = settings(alice, channels={"your_turn": {"page": True}})
    assert again["channels"]["your_turn"] == {"page": True, "push": False, "email": True}
    assert again["language"] == "de" and again["email"] == "alice@example.org"
    assert settings(alice, email="")["email"] is None
    # another member's settings are their own
    assert bob.get("/api/account/notifications").json()["channels"]["your_turn"]["email"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"language": "es"},
        {"email": "not an address"},
        {"email": "a@b"},
        {"email": "x" * 250 + "@example.org"},
        {"channels": {"your_move": {"page": True}}},
        {"channels": {"your_turn": {"sms": True}}},
        {"channels": {"your_turn": {"page": "maybe"}}},
        {"channels": ["page"]},
    ],
)
def test_bad_settings_are_422_and_change_nothing(client: TestClient, body: dict[str, Any]) -> None:
    alice = sign_up(client, "alice")
    before = alice.get("/api/account/notifications").json()
    assert_error(alice.request("PUT", "/api/account/notifications", json=body), 422, "invalid_request")
    assert alice.get("/api/account/notifications").json() == before


def test_a_change_of_settings_needs_the_csrf_token(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    r = alice.request("PUT", "/api/account/notifications", json={"language": "fr"}, csrf=False)
    assert_error(r, 403, "csrf")
    assert alice.get("/api/account/notifications").json()["language"] == "en"


def test_your_turn_in_a_correspondence_game_goes_to_the_member_to_move_once_a_turn(
    client: TestClient,
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    members = [alice, bob]
    gid = correspondence_game(alice, bob)
    first = to_move(members, gid)
    other = bob if first is alice else alice
    assert kinds(first) == ["your_turn"] and kinds(other) == []
    item = inbox(first)["items"][0]
    assert item["url"] == f"/#/game/{gid}" and item["title"] == "Your turn: Nim"
    assert other.username in item["text"]
    move(members, gid)  # first moved: the other's turn
    assert kinds(other) == ["your_turn"] and kinds(first) == ["your_turn"]
    move(members, gid)
    assert kinds(first) == ["your_turn", "your_turn"]
    # one row per event, member and channel: each turn its own event
    events = [r["event"] for r in rows(client)]
    assert len(events) == len(set(events)) == 3


def test_no_your_turn_in_a_real_time_game(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    move([alice, bob], gid)
    move([alice, bob], gid)
    assert rows(client) == []


def test_the_end_of_a_game_goes_to_every_member_in_it_once(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    assert kinds(alice) == ["game_ended"] and kinds(bob) == ["game_ended"]
    assert inbox(bob)["items"][0]["text"] == "Your game of Nim against alice has ended."
    # a second ending request changes nothing and queues nothing
    assert bob.post(f"/api/games/{gid}/resign", json={}).status_code == 409
    assert len(rows(client)) == 2


def test_a_game_played_to_its_end_tells_both(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    gid = correspondence_game(alice, bob, stones=2)
    move([alice, bob], gid)
    move([alice, bob], gid)  # the last stone
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    assert kinds(alice).count("game_ended") == 1 and kinds(bob).count("game_ended") == 1


def test_a_rematch_offer_goes_to_the_other_member_once(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    alice.post(f"/api/games/{gid}/resign", json={})
    assert bob.post(f"/api/games/{gid}/rematch", json={}).json()["game"] is None
    assert bob.post(f"/api/games/{gid}/rematch", json={}).json()["game"] is None  # again: no new offer
    assert kinds(alice) == ["rematch_offered", "game_ended"] and kinds(bob) == ["game_ended"]
    assert inbox(alice)["items"][0]["text"] == "bobby offers you a rematch of Nim."
    assert alice.post(f"/api/games/{gid}/rematch", json={}).json()["game"] is not None
    assert kinds(bob) == ["game_ended"]  # an accepted offer tells nobody more


def test_a_channel_turned_off_queues_nothing(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    for member in (alice, bob):
        settings(member, channels={"game_ended": {"page": False}})
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    alice.post(f"/api/games/{gid}/resign", json={})
    assert rows(client) == []
    assert inbox(alice) == {"unread": 0, "items": []}


def test_email_is_never_queued_without_an_smtp_server_or_an_address(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    settings(alice, email="alice@example.org", channels={"game_ended": {"email": True, "push": True}})
    settings(bob, channels={"game_ended": {"email": True}})
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    alice.post(f"/api/games/{gid}/resign", json={})
    assert sorted(r["channel"] for r in rows(client, alice)) == ["page", "push"]
    assert [r["channel"] for r in rows(client, bob)] == ["page"]
    # push with no subscription: nothing to send to, dropped (not retried)
    wait_until(lambda: all(r["status"] not in ("pending", "sending") for r in rows(client, alice)))
    assert {r["channel"]: r["status"] for r in rows(client, alice)} == {"page": "sent", "push": "dropped"}


def test_the_unread_count_and_marking_read(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    members = [alice, bob]
    gid = correspondence_game(alice, bob, stones=9)
    for _ in range(4):
        move(members, gid)
    first = inbox(alice)
    assert first["unread"] == len(first["items"]) >= 2
    newest = first["items"][0]["id"]
    r = alice.post("/api/notifications/read", json={"ids": [newest]})
    assert r.status_code == 200 and r.json() == {"unread": first["unread"] - 1}
    after = inbox(alice)
    assert after["unread"] == first["unread"] - 1 and after["items"][0]["read"] is True
    # the other member's ids are not theirs to mark
    theirs = inbox(bob)["items"][0]["id"]
    assert alice.post("/api/notifications/read", json={"ids": [theirs]}).json()["unread"] == after["unread"]
    assert inbox(bob)["items"][0]["read"] is False
    assert alice.post("/api/notifications/read", json={}).json() == {"unread": 0}
    assert all(item["read"] for item in inbox(alice)["items"])
    assert_error(alice.post("/api/notifications/read", json={}, csrf=False), 403, "csrf")
    assert_error(client.get("/api/notifications"), 401, "sign_in_required")


def test_the_page_websocket_hears_the_count_at_once_and_at_every_change(client: TestClient) -> None:
    from palaestra.server.api.auth import COOKIE

    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    client.cookies.set(COOKIE, bob.cookie)
    with client.websocket_connect("/api/notifications/ws") as socket:
        client.cookies.clear()
        assert socket.receive_json() == {"type": "notifications", "unread": 0}
        gid = correspondence_game(alice, bob, time_control=BLITZ)
        alice.post(f"/api/games/{gid}/resign", json={})
        assert socket.receive_json() == {"type": "notifications", "unread": 1}
        bob.post("/api/notifications/read", json={})
        assert socket.receive_json() == {"type": "notifications", "unread": 0}
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}


def test_the_page_websocket_is_for_members_only(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        client.websocket_connect("/api/notifications/ws") as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_json()
    assert closed.value.code == 1008


def test_a_challenge_is_queued_once_for_its_member(db_url: str) -> None:
    """``Notifications.challenge`` (the call the challenges of issue 29, part 4 make)."""
    settings_ = Settings.from_env(notify_poll_seconds=0.2)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings_)) as client:
        alice = sign_up(client, "alice")
        settings(alice, language="fr")
        hub = hub_of(client)
        account = hub.accounts.store.by_name("alice")
        assert account is not None
        portal = client.portal  # type: ignore[attr-defined]
        assert portal is not None
        first = portal.call(hub.notifications.challenge, account.id, "c1", "bobby", "Nim", "/#/")
        again = portal.call(hub.notifications.challenge, account.id, "c1", "bobby", "Nim", "/#/")
        assert len(first) == 1 and again == []
        found = inbox(alice)
        assert found["unread"] == 1
        assert found["items"][0]["kind"] == "challenge"
        assert found["items"][0]["text"] == "bobby vous défie à une partie de Nim."
        wait_until(lambda: rows(client)[0]["status"] == "sent")


def test_the_export_holds_the_settings_address_and_notifications(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    settings(alice, language="de", email="alice@example.org")
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    alice.post(f"/api/games/{gid}/resign", json={})
    doc = alice.get("/api/account/export").json()["notifications"]
    assert doc["language"] == "de" and doc["email"] == "alice@example.org"
    assert doc["push_endpoints"] == [] and [n["kind"] for n in doc["sent"]] == ["game_ended"]


def test_rows_of_a_deleted_account_go_with_it(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    alice.post(f"/api/games/{gid}/resign", json={})
    settings(bob, email="bob@example.org")
    assert len(rows(client)) == 2
    r = bob.request("DELETE", "/api/account", json={"password": "correct horse battery"})
    assert r.status_code == 200, r.text
    assert [r["kind"] for r in rows(client)] == ["game_ended"]
    assert hub_of(client).notifications.store.settings(2).email is None


def test_the_outbox_and_kinds_agree_with_the_catalogues() -> None:
    from palaestra.server.service.delivery import catalogue

    for language in ("en", "de", "fr"):
        texts = catalogue(language)
        for kind in KINDS:
            assert set(texts[kind]) == {"title", "body"}
    assert CHANNELS == ("page", "push", "email")


def test_the_page_websocket_refuses_a_page_of_another_site(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    from palaestra.server.api.auth import COOKIE

    bob = sign_up(client, "bobby")
    client.cookies.set(COOKIE, bob.cookie)
    try:
        evil = {"origin": "https://evil.example"}
        with (
            client.websocket_connect("/api/notifications/ws", headers=evil) as socket,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            socket.receive_json()
        assert closed.value.code == 1008
        ours = {"origin": "http://testserver:8000"}  # the same host, another port (a proxy's Host)
        with client.websocket_connect("/api/notifications/ws", headers=ours) as socket:
            assert socket.receive_json() == {"type": "notifications", "unread": 0}
    finally:
        client.cookies.clear()


def test_a_member_keeps_the_newest_twenty_push_subscriptions(client: TestClient) -> None:
    from tests.server.notify_helpers import Browser

    alice = sign_up(client, "alice")
    browser = Browser()
    for n in range(23):
        doc = browser.subscription(f"https://push.example.net/send/{n}")
        assert alice.post("/api/account/push", json=doc).status_code == 201
    kept = hub_of(client).notifications.store.subscriptions(1)
    assert [s.endpoint.rsplit("/", 1)[1] for s in kept] == [str(n) for n in range(3, 23)]


def test_placeholders_are_filled_once_whatever_a_name_holds() -> None:
    from palaestra.server.service.delivery import render

    title, body = render("rematch_offered", {"from": "{title}", "title": "Nim"}, "en")
    assert title == "Rematch? Nim" and body == "{title} offers you a rematch of Nim."


def test_after_the_ais_move_it_is_your_turn(client: TestClient) -> None:
    from tests.server.notify_helpers import CORRESPONDENCE, view_of

    alice = sign_up(client, "alice")
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
    body = {"game": "nim", "options": {"stones": 9}, "seats": seats, "time_control": CORRESPONDENCE}
    r = alice.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert kinds(alice) == []  # her first turn: she made the game, she knows
    r = alice.post(f"/api/games/{gid}/actions", json={"ply": 0, "move": "take 1"})
    assert r.status_code == 200, r.text
    view_of(client, gid, lambda v: v["ply"] == 2)  # the AI moved (in this process)
    assert kinds(alice) == ["your_turn"]


def test_a_correspondence_rematch_tells_the_member_who_moves_first(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    gid = correspondence_game(alice, bob)  # seat 0 (alice) to move: told when bob joined
    assert kinds(alice) == ["your_turn"]
    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    bob.post(f"/api/games/{gid}/rematch", json={})
    new = alice.post(f"/api/games/{gid}/rematch", json={}).json()["game"]
    assert new is not None
    # seats rotate: bob holds seat 0 of the new game and moves first
    turns = [i for i in inbox(bob)["items"] if i["kind"] == "your_turn"]
    assert len(turns) == 1 and turns[0]["url"] == f"/#/game/{new}"
    assert kinds(alice) == ["rematch_offered", "game_ended", "your_turn"]


def test_the_service_worker_is_served_as_javascript(client: TestClient) -> None:
    r = client.get("/static/sw.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert 'addEventListener("push"' in r.text and 'addEventListener("notificationclick"' in r.text


def test_a_challenge_made_through_the_api_tells_the_challenged_member_once(db_url: str) -> None:
    """Challenges (issue 29, part 4) queue the notification in the challenge's transaction."""
    mailbox = Mailbox()
    with SmtpServer(mailbox) as smtp:
        config = Settings.from_env(notify_poll_seconds=0.2, smtp_url=smtp.url)
        with TestClient(create_app(db_url, ai_delay=0.0, settings=config)) as client:
            ann, bob = sign_up(client, "ann"), sign_up(client, "bobby")
            settings(bob, language="de", email="bob@example.org", channels={"challenge": {"email": True}})
            r = ann.post(
                "/api/challenges",
                json={"to": "bobby", "game": "nim", "options": {"stones": 9}, "time_control": BLITZ},
            )
            assert r.status_code == 201, r.text
            found = inbox(bob)
            assert [i["kind"] for i in found["items"]] == ["challenge"] and found["unread"] == 1
            assert found["items"][0]["text"] == "ann fordert dich zu einer Partie Nim heraus."
            assert found["items"][0]["url"] == "/#/"
            assert kinds(ann) == []
            wait_until(lambda: len(mailbox.messages) == 1, what="the e-mail")
            assert mailbox.messages[0]["Subject"] == "Eine Herausforderung: Nim"
            wait_until(lambda: all(r["status"] == "sent" for r in rows(client)), what="rows sent")
            assert len(mailbox.messages) == 1
