"""Helpers of the notification tests: correspondence games between members, played by account,
a local SMTP server (aiosmtpd) that counts the messages it accepted, and a local push service."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time
from collections.abc import Callable
from email import message_from_bytes, policy
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fastapi.testclient import TestClient

from tests.server.accounts_helpers import Member, invite_code
from tests.server.server_process import free_port

CORRESPONDENCE = {"type": "correspondence", "days": 3}


def correspondence_game(first: Member, second: Member, *, stones: int = 9, **body: Any) -> str:
    """A casual correspondence game of nim between two members, both seated by account; returns
    its id once the coin toss was played (a member is to move)."""
    doc = {
        "game": "nim",
        "options": {"stones": stones},
        "seats": [{"kind": "human", "joined": True}, {"kind": "human"}],
        "time_control": CORRESPONDENCE,
    }
    doc.update(body)
    r = first.post("/api/games", json=doc)
    assert r.status_code == 201, r.text
    made = r.json()
    gid: str = made["id"]
    r = second.post(f"/api/games/{gid}/join", json={"code": invite_code(made, 1)})
    assert r.status_code == 200, r.text
    view_of(first.client, gid, lambda v: v["current_player"] >= 0)
    return gid


def view_of(
    client: TestClient, gid: str, check: Callable[[dict[str, Any]], bool], timeout: float = 20
) -> Any:
    end = time.monotonic() + timeout
    while True:
        view = client.get(f"/api/games/{gid}").json()
        if check(view):
            return view
        assert time.monotonic() < end, view
        time.sleep(0.02)


def to_move(members: list[Member], gid: str) -> Member:
    """The member whose seat is to move (seat i is ``members[i]``)."""
    view = view_of(members[0].client, gid, lambda v: v["current_player"] >= 0 or v["status"] != "active")
    return members[view["current_player"]]


def move(members: list[Member], gid: str) -> Member:
    """The member to move takes one stone; returns who moved."""
    who = to_move(members, gid)
    ply = members[0].client.get(f"/api/games/{gid}").json()["ply"]
    r = who.post(f"/api/games/{gid}/actions", json={"ply": ply, "move": "take 1"})
    assert r.status_code == 200, r.text
    return who


def inbox(member: Member) -> dict[str, Any]:
    r = member.get("/api/notifications")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def kinds(member: Member) -> list[str]:
    return [item["kind"] for item in inbox(member)["items"]]


def settings(member: Member, **body: Any) -> dict[str, Any]:
    r = member.request("PUT", "/api/account/notifications", json=body)
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def wait_until(check: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
    end = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < end, f"gave up waiting {what}"
        time.sleep(0.05)


# --- a real SMTP server ---------------------------------------------------------------------------
class Mailbox:
    """aiosmtpd's handler: keeps each message it accepted. A message counts as accepted only if the
    client is still there to hear the server's 250 (a client gone meanwhile never learnt that the
    server took it: the message is dropped, as RFC 5321 servers do before they reply). With
    ``stall_first``, the first DATA waits until ``release`` is set."""

    def __init__(self, stall_first: bool = False) -> None:
        self.messages: list[Message] = []
        self.attempts = 0
        self.stall_first = stall_first
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.attempts += 1
            first = self.attempts == 1
        if first and self.stall_first:
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
            transport = getattr(server, "transport", None)  # the SMTP protocol's connection
            await asyncio.sleep(0.2)  # let the server notice a closed connection
            if transport is None or transport.is_closing():
                return "451 the client went away"
        with self.lock:
            self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


class SmtpServer:
    def __init__(self, handler: Mailbox) -> None:
        from aiosmtpd.controller import Controller

        self.port = free_port()
        self.controller = Controller(handler, hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


# --- a local push service ---------------------------------------------------------------------------
class PushService:
    """An HTTP server that takes Web Push posts (``http://127.0.0.1``: allowed by the test setting
    ``push_allow_http`` only) and answers ``status`` (201 by default)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                service.posts.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{name}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's push keys: the subscription it would send, and the decryption of a push."""

    def __init__(self) -> None:
        import os

        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.key = ec.generate_private_key(ec.SECP256R1())
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.auth = os.urandom(16)
        self.p256dh = b64(point)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {
            "endpoint": endpoint,
            "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)},
            "expirationTime": None,
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        found: dict[str, Any] = json.loads(plain)
        return found


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
