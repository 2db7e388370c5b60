"""The channels of notifications (issue 29, part 9): e-mail through a real SMTP server (aiosmtpd)
and Web Push to a local push service, whose payload is decrypted with the browser's keys; the
strict parser of subscriptions (with Hypothesis)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.server.app import create_app
from palaestra.server.service.delivery import parse_smtp_url
from palaestra.server.service.push import BadSubscription, parse_subscription
from palaestra.server.settings import Settings
from tests.server.accounts_helpers import BLITZ, Member, sign_up
from tests.server.notify_helpers import (
    Browser,
    Mailbox,
    PushService,
    SmtpServer,
    b64,
    correspondence_game,
    wait_until,
)
from tests.server.notify_helpers import settings as put_settings
from tests.server.test_api import assert_error
from tests.server.test_notifications import hub_of, rows


@contextmanager
def app(db_url: str, **overrides: Any) -> Iterator[TestClient]:
    config = Settings.from_env(**{"notify_poll_seconds": 0.2, "notify_retry_seconds": 0.3, **overrides})
    with TestClient(create_app(db_url, ai_delay=0.0, settings=config)) as client:
        yield client


def ended(alice: Member, bob: Member) -> str:
    gid = correspondence_game(alice, bob, time_control=BLITZ)
    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    return gid


# --- e-mail ---------------------------------------------------------------------------------------
def test_one_email_per_event_in_the_members_language(db_url: str) -> None:
    mailbox = Mailbox()
    with SmtpServer(mailbox) as smtp, app(db_url, smtp_url=smtp.url, origin="https://play.example") as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        assert alice.get("/api/account/notifications").json()["available"]["email"] is True
        put_settings(
            alice, language="de", email="alice@example.org", channels={"game_ended": {"email": True}}
        )
        put_settings(bob, language="fr", email="bob@example.org", channels={"game_ended": {"email": True}})
        gid = ended(alice, bob)
        wait_until(lambda: len(mailbox.messages) == 2, what="two e-mails")
        by_to = {m["To"]: m for m in mailbox.messages}
        german, french = by_to["alice@example.org"], by_to["bob@example.org"]
        assert german["Subject"] == "Partie beendet: Nim" and german["Content-Language"] == "de"
        assert french["Subject"] == "Partie terminée : Nim"
        body = german.get_content()  # type: ignore[attr-defined]
        assert "Deine Partie Nim gegen bobby ist beendet." in body
        assert f"https://play.example/#/game/{gid}" in body
        assert german["Message-ID"] != french["Message-ID"]
        assert german["Message-ID"].startswith("<notification.") and german["Message-ID"].endswith(
            "@localhost>"
        )
        wait_until(lambda: all(r["status"] == "sent" for r in rows(client)), what="rows sent")
        time.sleep(1.0)  # several sweeps later: nothing sent again
        assert len(mailbox.messages) == 2 and mailbox.attempts == 2


def test_an_email_off_or_without_address_is_not_sent(db_url: str) -> None:
    mailbox = Mailbox()
    with SmtpServer(mailbox) as smtp, app(db_url, smtp_url=smtp.url) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        put_settings(alice, email="alice@example.org")  # e-mail stays off (the default)
        put_settings(bob, channels={"game_ended": {"email": True}})  # on, but no address
        ended(alice, bob)
        wait_until(lambda: all(r["status"] == "sent" for r in rows(client)), what="page rows sent")
        time.sleep(0.6)
        assert mailbox.messages == [] and {r["channel"] for r in rows(client)} == {"page"}


def test_a_failed_send_is_tried_again_later_and_sent_once(db_url: str) -> None:
    mailbox = Mailbox()
    smtp = SmtpServer(mailbox)  # not started yet: the first tries fail
    with app(db_url, smtp_url=smtp.url) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        put_settings(alice, email="alice@example.org", channels={"game_ended": {"email": True}})
        ended(alice, bob)

        def email_row() -> dict[str, Any]:
            return next(r for r in rows(client) if r["channel"] == "email")

        wait_until(lambda: email_row()["tries"] >= 1 and email_row()["status"] == "pending", what="a retry")
        assert email_row()["next_at"] > time.time() - 1
        with smtp:
            wait_until(lambda: email_row()["status"] == "sent", what="sent after the retry")
            time.sleep(0.8)
            assert len(mailbox.messages) == 1


def test_a_send_that_keeps_failing_stops_after_the_last_try(db_url: str) -> None:
    smtp = SmtpServer(Mailbox())  # never started
    with app(db_url, smtp_url=smtp.url, notify_max_tries=2, notify_retry_seconds=0.1) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        put_settings(alice, email="alice@example.org", channels={"game_ended": {"email": True}})
        ended(alice, bob)
        wait_until(
            lambda: any(r["channel"] == "email" and r["status"] == "failed" for r in rows(client)),
            what="failed for good",
        )
        assert next(r for r in rows(client) if r["channel"] == "email")["tries"] == 2


@pytest.mark.parametrize(
    ("url", "host", "port", "user", "password", "tls"),
    [
        ("smtp://mail.example.org", "mail.example.org", 25, None, None, False),
        ("smtp://u:p%40ss@mail.example.org:587", "mail.example.org", 587, "u", "p@ss", False),
        ("smtps://me@mail.example.org", "mail.example.org", 465, "me", None, True),
    ],
)
def test_smtp_urls(url: str, host: str, port: int, user: str | None, password: str | None, tls: bool) -> None:
    target = parse_smtp_url(url)
    assert (target.host, target.port, target.user, target.password, target.implicit_tls) == (
        host,
        port,
        user,
        password,
        tls,
    )


@given(st.text(max_size=80))
@settings(max_examples=300, deadline=None)
def test_any_smtp_url_parses_or_is_a_clear_value_error(url: str) -> None:
    try:
        target = parse_smtp_url(url)
    except ValueError as err:
        assert "password" not in str(err) or "SMTP" in str(err)
        return
    assert url.strip().startswith(("smtp://", "smtps://")) and target.host and 0 < target.port < 65536


# --- Web Push -------------------------------------------------------------------------------------
def test_a_push_goes_to_each_browser_encrypted_in_the_members_language(db_url: str) -> None:
    with PushService() as service, app(db_url, push_allow_http=True) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        put_settings(alice, language="fr", channels={"game_ended": {"push": True}})
        phone, laptop = Browser(), Browser()
        for browser, name in ((phone, "phone"), (laptop, "laptop")):
            r = alice.post("/api/account/push", json=browser.subscription(service.endpoint(name)))
            assert r.status_code == 201, r.text
        info = alice.get("/api/account/push").json()
        assert info["subscriptions"] == 2 and len(info["public_key"]) == 87
        gid = ended(alice, bob)
        wait_until(lambda: len(service.posts) == 2, what="two pushes")
        for path, headers, body in service.posts:
            browser = phone if path.endswith("phone") else laptop
            shown = browser.decrypt(body)
            assert shown["title"] == "Partie terminée : Nim"
            assert shown["body"] == "Votre partie de Nim contre bobby est terminée."
            assert shown["url"] == f"/#/game/{gid}" and shown["kind"] == "game_ended"
            assert headers["content-encoding"] == "aes128gcm"
            assert f"k={info['public_key']}" in headers["authorization"]
        wait_until(lambda: all(r["status"] == "sent" for r in rows(client)), what="rows sent")
        time.sleep(0.6)
        assert len(service.posts) == 2


def test_a_subscription_the_push_service_calls_gone_is_removed(db_url: str) -> None:
    with PushService() as service, app(db_url, push_allow_http=True) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        put_settings(alice, channels={"game_ended": {"push": True}})
        alice.post("/api/account/push", json=Browser().subscription(service.endpoint("old")))
        service.status = 410
        ended(alice, bob)
        wait_until(lambda: alice.get("/api/account/push").json()["subscriptions"] == 0, what="removal")
        wait_until(lambda: {r["channel"]: r["status"] for r in rows(client)}.get("push") == "dropped")
        assert len(service.posts) == 1


def test_a_push_that_fails_is_retried_without_pushing_twice_to_a_browser_it_reached(db_url: str) -> None:
    with PushService() as service, app(db_url, push_allow_http=True) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
        put_settings(alice, channels={"game_ended": {"push": True}})
        good, bad = Browser(), Browser()
        alice.post("/api/account/push", json=good.subscription(service.endpoint("good")))
        with PushService() as broken:
            broken.status = 500
            alice.post("/api/account/push", json=bad.subscription(broken.endpoint("bad")))
            ended(alice, bob)
            wait_until(lambda: len(broken.posts) >= 2, what="two tries of the broken one")
            broken.status = 201
            wait_until(lambda: {r["channel"]: r["status"] for r in rows(client)}.get("push") == "sent")
        assert len(service.posts) == 1  # the browser reached at the first try got it once


def test_subscriptions_are_stored_replaced_and_removed(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
    browser = Browser()
    doc = browser.subscription("https://push.example.net/send/abc")
    assert alice.post("/api/account/push", json=doc).status_code == 201
    assert alice.post("/api/account/push", json=doc).status_code == 201  # the same browser again
    assert alice.get("/api/account/push").json()["subscriptions"] == 1
    assert bob.post("/api/account/push", json=doc).status_code == 201  # now bob's browser
    assert alice.get("/api/account/push").json()["subscriptions"] == 0
    r = bob.request("DELETE", "/api/account/push", json={"endpoint": doc["endpoint"]})
    assert r.json() == {"removed": 1} and bob.get("/api/account/push").json()["subscriptions"] == 0
    assert_error(alice.post("/api/account/push", json=doc, csrf=False), 403, "csrf")
    assert_error(client.post("/api/account/push", json=doc), 401, "sign_in_required")


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "http://push.example.net/x"},
        {"endpoint": "http://127.0.0.1:9/x"},  # the tests' setting is off here
        {"endpoint": "https://127.0.0.1/x"},
        {"endpoint": "https://localhost/x"},
        {"endpoint": "https://user:pw@push.example.net/x"},
        {"endpoint": "ftp://push.example.net/x"},
        {"keys": {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": b64(b"a" * 16)}},  # not on the curve
        {"keys": {"p256dh": b64(b"\x04" + b"\x01" * 63), "auth": b64(b"a" * 16)}},
        {"keys": {"p256dh": "!!!", "auth": b64(b"a" * 16)}},
    ],
)
def test_a_bad_subscription_is_400_and_stores_nothing(client: TestClient, change: dict[str, Any]) -> None:
    alice = sign_up(client, "alice")
    doc = {**Browser().subscription("https://push.example.net/send/abc"), **change}
    assert_error(alice.post("/api/account/push", json=doc), 400, "bad_subscription")
    assert alice.get("/api/account/push").json()["subscriptions"] == 0
    assert hub_of(client).notifications.store.subscriptions(1) == []


def test_a_subscription_with_unknown_fields_or_auth_of_the_wrong_length_is_refused(
    client: TestClient,
) -> None:
    alice = sign_up(client, "alice")
    doc = Browser().subscription("https://push.example.net/send/abc")
    assert_error(alice.post("/api/account/push", json={**doc, "extra": 1}), 422, "invalid_request")
    short = {**doc, "keys": {**doc["keys"], "auth": b64(b"a" * 15)}}
    assert_error(alice.post("/api/account/push", json=short), 400, "bad_subscription")


# --- the parser, with Hypothesis ----------------------------------------------------------------------
KEY = Browser()


@given(
    host=st.from_regex(r"[a-z][a-z0-9-]{0,20}\.[a-z]{2,6}", fullmatch=True),
    path=st.from_regex(r"[A-Za-z0-9/_-]{0,200}", fullmatch=True),
    auth=st.binary(min_size=16, max_size=16),
    padded=st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_every_well_formed_subscription_parses_and_keeps_its_keys(
    host: str, path: str, auth: bytes, padded: bool
) -> None:
    import base64

    encoded = base64.urlsafe_b64encode(auth).decode()
    doc = KEY.subscription(f"https://{host}/{path}")
    doc["keys"]["auth"] = encoded if padded else encoded.rstrip("=")
    found = parse_subscription(doc)
    assert found.endpoint == doc["endpoint"] and found.p256dh == KEY.p256dh and found.auth == b64(auth)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@given(doc=JSON, allow_http=st.booleans())
@settings(max_examples=300, deadline=None)
def test_anything_else_is_refused_with_a_reason(doc: Any, allow_http: bool) -> None:
    try:
        parse_subscription(doc, allow_http=allow_http)
    except BadSubscription as err:
        assert str(err)
    else:  # pragma: no cover - random JSON is never a subscription with a key on the curve
        raise AssertionError(doc)


@given(
    endpoint=st.text(max_size=300),
    p256dh=st.text(max_size=100),
    auth=st.text(max_size=30),
)
@settings(max_examples=300, deadline=None)
def test_a_subscription_of_random_fields_parses_only_if_each_is_valid(
    endpoint: str, p256dh: str, auth: str
) -> None:
    doc = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    try:
        found = parse_subscription(doc)
    except BadSubscription:
        return
    assert found.endpoint.startswith("https://") and len(found.auth) == 22 and len(found.p256dh) == 87


def test_of_senders_racing_for_one_row_exactly_one_sends_it(db_url: str) -> None:
    """Two senders (two workers) given the same row at once: the claim lets exactly one send."""
    import asyncio

    from palaestra.server.db import Store
    from palaestra.server.notify_store import Event, NotifyStore
    from palaestra.server.service.delivery import Deliverer

    mailbox = Mailbox()
    store = Store(db_url)
    store.migrate()
    try:
        with SmtpServer(mailbox) as smtp:
            with app(db_url) as client:  # an account, with an address and e-mail on
                alice = sign_up(client, "alice")
                put_settings(alice, email="alice@example.org", channels={"challenge": {"email": True}})
            notes = NotifyStore(store)
            event = Event("challenge:x1", 1, "challenge", {"from": "bobby", "title": "Nim", "url": "/"})
            assert len(notes.queue([event], email=True, now=time.time())) == 2  # page and e-mail
            row = next(r["id"] for r in notes.rows() if r["channel"] == "email")

            async def noop(account: int, unread: int) -> None:
                return None

            def sender() -> Deliverer:
                return Deliverer(notes, announce=noop, vapid=dict, smtp_url=smtp.url)

            async def race() -> list[str]:
                return list(await asyncio.gather(*(sender().deliver(row) for _ in range(4))))

            outcomes = asyncio.run(race())
            assert outcomes.count("sent") == 1 and len(mailbox.messages) == 1
            assert notes.queue([event], email=True, now=time.time()) == []  # the event queued once
    finally:
        store.close()
