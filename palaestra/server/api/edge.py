"""ASGI middleware at the edge of the app: a bound on request bodies, the security headers and
the latency histogram of /metrics.

All are plain ASGI (no ``BaseHTTPMiddleware``), so websockets and streaming pass untouched, a body
is never read past its bound, and no request pays for an extra task and memory streams (Starlette's
``BaseHTTPMiddleware`` cost about a tenth of the server's CPU per action: docs/benchmarks.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the Content-Security-Policy of every answer: no inline script, no framing, no other origin
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
SECURITY_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)


class BodyLimit:
    """Refuse a request body over ``max_bytes`` with 413 ``body_too_large``: at once when its
    Content-Length says so, else as soon as the bytes received pass the bound (chunked bodies)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _reject(send, self.max_bytes)
            return
        received = 0
        over = False

        async def limited() -> Message:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    over = True  # stop reading; whatever the app answers becomes the 413
                    raise HTTPException(413, f"the request body is larger than {self.max_bytes} bytes")
            return message

        replaced = False

        async def answer(message: Message) -> None:
            nonlocal replaced
            if over:
                if not replaced:
                    replaced = True
                    await _reject(send, self.max_bytes)
                return
            await send(message)

        await self.app(scope, limited, answer)


async def _reject(send: Send, max_bytes: int) -> None:
    body = json.dumps(
        {"error": "body_too_large", "message": f"the request body is larger than {max_bytes} bytes"}
    ).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP answer (pages, API, static files, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if any(name.lower() in SECURITY_NAMES for name, _ in headers):  # the app set one
                    names = {name.lower() for name, _ in headers}
                    headers += [(n, v) for n, v in SECURITY_HEADERS if n not in names]
                else:
                    headers += SECURITY_HEADERS
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


class Timing:
    """Observe every HTTP request's latency in ``observe(method, route template, status, seconds)``
    (the route template, such as ``/api/games/{game_id}``, keeps the labels few)."""

    def __init__(self, app: ASGIApp, observe: Callable[[str, str, str, float], None]) -> None:
        self.app = app
        self.observe = observe

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = "500"

        async def noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = str(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, noting_status)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", "other") if route is not None else "other"
            self.observe(scope["method"], template, status, time.perf_counter() - start)
