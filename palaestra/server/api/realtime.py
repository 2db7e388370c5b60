"""The websocket of a game: the state after every change, pushed to players and spectators.

A client receives ``{"type": "state", "game": VIEW}`` at once and after every change; it may send
``{"type": "ping"}`` (answered ``{"type": "pong"}``). Closing codes: 1001 the server shuts down,
1003 a binary frame, 1008 a limit passed (below), 1013 too many websockets (per client or in all),
4404 no such game.

Limits of one websocket (issue 31; settings ``ws_*``, docs/web.md): ``ws_messages_per_second``
messages a second (a burst of twice as many), ``ws_max_message_bytes`` bytes a message, and
``ws_max_pending_bytes`` bytes of messages waiting to go out to a client that does not read them
(:class:`SocketQueue`; the lobby's and the notifications' websockets have the same limits).
A socket over one is closed with 1008 ("policy violation", the reason names the limit) and counted
in ``/metrics`` (``palaestra_websockets_closed_total{limit="rate|size|pending"}``): one client can
neither keep the event loop parsing its messages nor make the server hold its unread states.

The lobby's and the notifications' websockets (api/lobby.py, api/notifications.py) are served by
the same loop, :func:`serve_queue`: what waits to go out (:class:`SocketQueue`), the limited
receive (:func:`limited_receive`) and the 1008 close (:func:`close_over`) are written here once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from palaestra.server.api.auth import session_cookie
from palaestra.server.api.deps import get_guards, get_hub
from palaestra.server.api.guards import Guards
from palaestra.server.service.errors import DomainError
from palaestra.server.service.hub import Hub
from palaestra.server.service.session import Message
from palaestra.server.settings import Settings

router = APIRouter()

#: the answer to a ping on the lobby's and the notifications' sockets (encoded already)
PONG = '{"type":"pong"}'
#: the size counted for a message that is not a state (a pong, an error, a control message)
SMALL_MESSAGE = 128

#: what one websocket's queue holds: a game's messages (encoded states and dicts), or the
#: lobby's and the notifications' (encoded already)
M = TypeVar("M")


class SocketQueue(asyncio.Queue[M], Generic[M]):
    """What waits to go out on one websocket, its bytes counted from ``put_nowait`` until the
    sender says it was sent (``sent``). A message that would take the count past ``limit`` is
    dropped and ``overflowed`` set: the socket is closed at once, even while a send waits for a
    client that does not read. The server's notice ``closing`` (the message the services put on
    their sockets' queues when the server goes away) always gets in."""

    def __init__(self, limit: int, closing: M) -> None:
        super().__init__()
        self.limit = limit
        self.closing = closing
        self.pending = 0
        self.overflowed = asyncio.Event()

    def put_nowait(self, item: M) -> None:
        size = message_size(item)
        if item != self.closing:
            if self.overflowed.is_set():
                return
            if self.pending + size > self.limit:
                self.overflowed.set()
                return
        self.pending += size
        super().put_nowait(item)

    def sent(self, item: M) -> None:
        self.pending -= message_size(item)


def message_size(item: object) -> int:
    return len(item) if isinstance(item, str) else SMALL_MESSAGE


async def overflow(queue: SocketQueue[Any]) -> str:
    """Wait until ``queue`` overflowed: the limit passed, ``"pending"``."""
    await queue.overflowed.wait()
    return "pending"


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


async def until_first(*tasks: asyncio.Task[Any]) -> set[asyncio.Task[Any]]:
    """A socket's tasks (sending, receiving, watching a limit) run until the first of them ends;
    then the others are cancelled, and all are awaited. The tasks that had ended are returned."""
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return done
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                await task


def too_big(text: str, limit: int) -> bool:
    """Whether ``text`` takes more than ``limit`` bytes in UTF-8 (encoded only when it may)."""
    if len(text) > limit:
        return True
    return len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit


def reason(limit: str, settings: Settings) -> str:
    if limit == "rate":
        return f"too many messages: at most {settings.ws_messages_per_second:g} a second"
    if limit == "size":
        return f"message too big: at most {settings.ws_max_message_bytes} bytes"
    return "too many messages left unread"


def json_object(text: str) -> dict[str, Any] | None:
    """A client's message as a JSON object; None for anything else."""
    try:
        incoming = json.loads(text)
    except json.JSONDecodeError:
        return None
    return incoming if isinstance(incoming, dict) else None


#: what a socket does with each text frame of its client within the limits
Answer = Callable[[str], Awaitable[None]]


async def limited_receive(websocket: WebSocket, settings: Settings, answer: Answer) -> str | None:
    """Hand the client's text frames to ``answer``, within the limits of one websocket
    (``ws_messages_per_second`` with a burst of twice as many, ``ws_max_message_bytes``). Returns
    the limit passed (``"rate"``, ``"size"``), or None once the client is gone; a binary frame is
    answered with a close frame, 1003, and ends it too."""
    rate = settings.ws_messages_per_second
    bucket = Bucket(rate, max(1.0, 2 * rate))
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:  # a binary frame: say why, and close properly
            await websocket.close(code=1003, reason="text frames only")
            return None
        if not bucket.take():
            return "rate"
        if too_big(text, settings.ws_max_message_bytes):
            return "size"
        await answer(text)


async def send_queued(websocket: WebSocket, queue: SocketQueue[Any]) -> None:
    """Send what ``queue`` gets (a text as it is, a dict as JSON) until the server's closing
    notice, which closes the socket with 1001 ("going away")."""
    while True:
        message = await queue.get()
        if message == queue.closing:
            await websocket.close(code=1001)
            return
        if isinstance(message, str):  # encoded once for all sockets
            await websocket.send_text(message)
        else:
            await websocket.send_json(message)
        queue.sent(message)


async def serve_queue(
    websocket: WebSocket, settings: Settings, queue: SocketQueue[Any], answer: Answer
) -> str | None:
    """Serve an accepted websocket: send what ``queue`` gets and hand what the client says to
    ``answer``, until the server goes away, the client goes, or a limit is passed. Returns the
    limit (``"rate"``, ``"size"``, ``"pending"``) for :func:`close_over`, called once the caller
    let go of what the socket held, or None."""
    done = await until_first(
        asyncio.create_task(send_queued(websocket, queue)),
        asyncio.create_task(limited_receive(websocket, settings, answer)),
        asyncio.create_task(overflow(queue)),
    )
    for task in done:
        if not task.cancelled() and task.exception() is None and task.result() is not None:
            limit: str = task.result()
            return limit
    return None


async def close_over(websocket: WebSocket, guards: Guards, limit: str | None) -> None:
    """Close a socket that passed ``limit`` with 1008, the reason naming it, and count it in
    ``/metrics``; nothing for None."""
    if limit is None:
        return
    guards.ws_closed.labels(limit).inc()
    with contextlib.suppress(Exception):
        await websocket.close(code=1008, reason=reason(limit, guards.settings))


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    guards = get_guards(websocket)
    if not guards.open_socket(websocket, await guards.key_of(websocket)):
        await websocket.accept()
        await websocket.close(code=1013, reason="too many websockets; try again later")
        return
    try:
        await serve_socket(websocket, get_hub(websocket), guards, game_id)
    finally:
        guards.close_socket(websocket)


async def serve_socket(websocket: WebSocket, hub: Hub, guards: Guards, game_id: str) -> None:
    settings = guards.settings
    try:
        session = await hub.get(game_id)
    except DomainError as err:
        await websocket.accept()
        await websocket.send_json({"type": "error", "error": err.code, "message": err.message})
        await websocket.close(code=4404)
        return
    await websocket.accept()
    queue = SocketQueue[Message](settings.ws_max_pending_bytes, {"type": "closing"})
    await hub.sessions.watch(session, queue)
    #: the seats this socket is of (issue 29: absence and claims): a signed-in member's by the
    #: cookie, a token's by a message {"type": "seat", "token"}
    seats: set[int] = set()

    def present(seat: int | None) -> None:
        if seat is not None and seat not in seats:
            seats.add(seat)
            hub.absence.arrive(game_id, seat)

    with contextlib.suppress(Exception):
        member = await hub.accounts.session(session_cookie(websocket))
        if member is not None:
            for index, held in enumerate(session.seats):
                if held.account == member.account.id:
                    present(index)
    await websocket.send_text(session.state_message())

    async def answer(text: str) -> None:
        incoming = json_object(text)
        kind = None if incoming is None else incoming.get("type")
        if kind == "ping":
            queue.put_nowait({"type": "pong"})
        elif incoming is not None and kind == "seat":
            token = incoming.get("token")
            present(session.seat_of(token) if isinstance(token, str) and token else None)
        else:
            queue.put_nowait(
                {
                    "type": "error",
                    "error": "bad_message",
                    "message": 'send {"type": "ping"} or {"type": "seat", "token"} only; '
                    "play through the HTTP API",
                }
            )

    limit: str | None = None
    try:
        limit = await serve_queue(websocket, settings, queue, answer)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.sessions.unwatch(session, queue)
        for seat in seats:
            hub.absence.leave(game_id, seat)
        if session.status != "active":  # nothing left to claim: its entries go
            hub.absence.forget(game_id)
    await close_over(websocket, guards, limit)
