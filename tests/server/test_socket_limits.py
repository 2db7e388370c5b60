"""The lobby's and the notifications' websockets have the game socket's limits (issue 31, finding
3; api/realtime.py): on what a client leaves unread (``ws_max_pending_bytes``: a socket that does
not read is closed with 1008 and counted, one that reads stays open however many messages it
gets), and the receive loop all three share (rate, size, binary frames). The game socket's own
tests are in test_reliability.py (``test_finding3_*``) and test_hardening.py (finding 10)."""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.api.auth import COOKIE
from palaestra.server.service.hub import Hub
from tests.server.accounts_helpers import sign_up
from tests.server.test_lobby import guest, post
from tests.server.test_reliability import closed_with, counted, limited


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def test_a_lobby_socket_that_does_not_read_is_closed_past_the_pending_limit(tmp_path: Path) -> None:
    with limited(tmp_path, ws_max_pending_bytes=200) as c:
        with c.websocket_connect("/api/lobby/ws") as ws:
            assert ws.receive_json()["type"] == "lobby"
            ws.send_json({"type": "ping"})  # a pong is under the limit
            assert ws.receive_json() == {"type": "pong"}
            seek = post(c)
            assert len(str(seek)) > 200  # a seek's message is more than the limit: it never gets in
            code, why = closed_with(ws)
        assert code == 1008 and "unread" in why
        assert counted(c, "pending") == 1.0
        assert hub_of(c).feed.subscribers == set()
        with c.websocket_connect("/api/lobby/ws") as ws:  # another socket is not hurt
            assert [s["id"] for s in ws.receive_json()["seeks"]] == [seek["id"]]


def test_a_lobby_socket_that_reads_stays_open_past_the_pending_limit_in_all(tmp_path: Path) -> None:
    with limited(tmp_path, ws_max_pending_bytes=2000) as c:
        with c.websocket_connect("/api/lobby/ws") as ws:
            assert ws.receive_json()["type"] == "lobby"
            sizes = []
            for n in range(8):
                seek = post(c, headers=guest(n))
                text = ws.receive_text()
                assert seek["id"] in text
                sizes.append(len(text))
            assert sum(sizes) > 2000
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        assert counted(c, "pending") == 0.0


def alice_signed_in(c: TestClient) -> tuple[Hub, Any]:
    """Alice signed up, her cookie set for the next websocket: the hub and her account."""
    alice = sign_up(c, "alice")
    hub = hub_of(c)
    account = hub.accounts.store.by_name("alice")
    assert account is not None
    c.cookies.set(COOKIE, alice.cookie)
    return hub, account


def test_a_notification_socket_that_does_not_read_is_closed_past_the_pending_limit(tmp_path: Path) -> None:
    with limited(tmp_path, ws_max_pending_bytes=30) as c:
        hub, account = alice_signed_in(c)
        with c.websocket_connect("/api/notifications/ws") as ws:
            c.cookies.clear()
            assert ws.receive_json() == {"type": "notifications", "unread": 0}
            ws.send_json({"type": "ping"})  # 15 bytes: under the limit
            assert ws.receive_json() == {"type": "pong"}
            c.portal.call(hub.notifications.announce, account.id, 3)  # type: ignore[union-attr]
            code, why = closed_with(ws)  # the count's 37 bytes never got in
        assert code == 1008 and "unread" in why
        assert counted(c, "pending") == 1.0
        assert hub.notifications.listeners == {}


def test_a_notification_socket_that_reads_stays_open(tmp_path: Path) -> None:
    with limited(tmp_path, ws_max_pending_bytes=100) as c:
        hub, account = alice_signed_in(c)
        with c.websocket_connect("/api/notifications/ws") as ws:
            c.cookies.clear()
            assert ws.receive_json()["unread"] == 0
            for unread in range(1, 6):  # 5 counts of 37 bytes: more than the limit in all
                c.portal.call(hub.notifications.announce, account.id, unread)  # type: ignore[union-attr]
                assert ws.receive_json() == {"type": "notifications", "unread": unread}
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        assert counted(c, "pending") == 0.0


# --- the receive loop the game, lobby and notification sockets share (api/realtime.py) --------------
MEMBERS = itertools.count()


@contextlib.contextmanager
def open_socket(c: TestClient, path: str) -> Iterator[Any]:
    """A lobby or notification socket (of a new member), its first message read."""
    if path == "/api/notifications/ws":
        member = sign_up(c, f"member{next(MEMBERS)}")
        c.cookies.set(COOKIE, member.cookie)
    with c.websocket_connect(path) as ws:
        c.cookies.clear()
        assert ws.receive_json()["type"] in ("lobby", "notifications")
        yield ws


@pytest.mark.parametrize("path", ["/api/lobby/ws", "/api/notifications/ws"])
def test_the_lobby_and_notification_sockets_have_the_game_sockets_receive_limits(
    tmp_path: Path, path: str
) -> None:
    """A binary frame: 1003; a message over ``ws_max_message_bytes`` or past the rate: 1008,
    counted; messages within the limits are answered."""
    with limited(tmp_path, ws_max_message_bytes=1000, ws_messages_per_second=2.0) as c:
        with open_socket(c, path) as ws:
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * 900}))  # under: answered
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text(json.dumps({"type": "ping", "pad": "é" * 600}))  # 1,200 bytes, 600 characters
            code, why = closed_with(ws)
        assert code == 1008 and "at most 1000 bytes" in why
        assert counted(c, "size") == 1.0

        with open_socket(c, path) as ws:
            for _ in range(50):
                ws.send_text('{"type": "ping"}')
            code, why = closed_with(ws)
        assert code == 1008 and "too many messages" in why
        assert counted(c, "rate") == 1.0

        with open_socket(c, path) as ws:
            ws.send_bytes(b"\x00\x01")
            assert closed_with(ws)[0] == 1003
        assert counted(c, "size") == 1.0 and counted(c, "pending") == 0.0
