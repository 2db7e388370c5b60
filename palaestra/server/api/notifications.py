"""Routes of notifications (issue 29, part 9; docs/web.md, "Notifications"): a member's choices
per kind and channel, language and e-mail address; Web Push subscriptions; the page's list and
unread count, live over ``/api/notifications/ws``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import ConfigDict, Field

from palaestra.server.api.auth import Member, session_cookie
from palaestra.server.api.deps import HubDep, get_guards, get_hub
from palaestra.server.api.errors import errors
from palaestra.server.api.models import Strict
from palaestra.server.api.realtime import PONG, SocketQueue, close_over, serve_queue
from palaestra.server.api.responses import Out
from palaestra.server.db import StorageError
from palaestra.server.notify_store import KINDS, MemberSettings
from palaestra.server.service.errors import DomainError
from palaestra.server.service.notifications import CLOSING, UNREAD
from palaestra.server.service.push import BadSubscription, parse_subscription

router = APIRouter(prefix="/api", tags=["notifications"])

Kind = Literal["your_turn", "challenge", "game_ended", "rematch_offered"]
Channel = Literal["page", "push", "email"]
Language = Literal["en", "de", "fr"]
#: an address as people write it (one @, a dot in the domain, no spaces); not verified
Email = Annotated[
    str,
    Field(max_length=254, pattern=r"^[^@\s\x00-\x1f\x7f]{1,64}@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$"),
]


class NotificationSettingsIn(Strict):
    """Any of: the language of the messages, the e-mail address ("" removes it), and channels
    per kind (those given are changed, the others kept)."""

    language: Language | None = None
    email: Email | Literal[""] | None = Field(None, description="not verified: stored as given")
    channels: dict[Kind, dict[Channel, bool]] | None = None


class NotificationSettingsOut(Out):
    language: str
    email: str | None = Field(description="the address e-mail goes to (not verified)")
    channels: dict[str, dict[str, bool]] = Field(description="per kind, each channel on or off")
    kinds: list[str]
    available: dict[str, bool] = Field(description="the channels this server can send by")


class PushKeys(Strict):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(max_length=200, description="the browser's P-256 key, base64url (65 bytes)")
    auth: str = Field(max_length=64, description="the browser's auth secret, base64url (16 bytes)")


class PushSubscriptionIn(Strict):
    """What the browser's ``PushSubscription.toJSON()`` gives."""

    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=1024, description="the push service's https URL")
    keys: PushKeys
    expirationTime: float | None = None  # the browser's name


class PushRemoval(Strict):
    endpoint: str | None = Field(None, max_length=1024, description="the subscription; none: all yours")


class PushInfo(Out):
    public_key: str = Field(description="the server's VAPID key (applicationServerKey), base64url")
    subscriptions: int


class Item(Out):
    id: int
    kind: str
    title: str
    text: str
    url: str
    at: str
    read: bool


class Inbox(Out):
    unread: int
    items: list[Item]


class ReadIn(Strict):
    ids: list[int] | None = Field(None, max_length=500, description="the notifications read; none: all")


def _settings_view(request: Request, found: MemberSettings) -> dict[str, Any]:
    hub = get_hub(request)
    return {
        "language": found.language,
        "email": found.email,
        "channels": found.channels,
        "kinds": list(KINDS),
        "available": {"page": True, "push": True, "email": hub.notifications.email},
    }


@router.get(
    "/account/notifications",
    summary="Your notifications: channels per kind, language, e-mail address",
    response_model=NotificationSettingsOut,
    responses=errors("sign_in_required"),
)
async def get_settings(request: Request, hub: HubDep, member: Member) -> dict[str, Any]:
    found = await asyncio.to_thread(hub.notifications.store.settings, member.account.id)
    return _settings_view(request, found)


@router.put(
    "/account/notifications",
    summary="Change your notifications (what is given; the page sends its language)",
    response_model=NotificationSettingsOut,
    responses=errors("sign_in_required", "csrf", body=True),
)
async def put_settings(
    request: Request, hub: HubDep, member: Member, body: NotificationSettingsIn
) -> dict[str, Any]:
    found = await asyncio.to_thread(
        lambda: hub.notifications.store.put_settings(
            member.account.id,
            language=body.language,
            email=body.email or None,
            clear_email=body.email == "",
            channels=None
            if body.channels is None
            else {str(k): {str(c): on for c, on in v.items()} for k, v in body.channels.items()},
        )
    )
    return _settings_view(request, found)


@router.get(
    "/account/push",
    summary="The server's VAPID public key, and how many browsers of yours get Web Push",
    response_model=PushInfo,
    responses=errors("sign_in_required"),
)
async def push_info(hub: HubDep, member: Member) -> dict[str, Any]:
    subscriptions = await asyncio.to_thread(hub.notifications.store.subscriptions, member.account.id)
    return {"public_key": hub.notifications.vapid()["public"], "subscriptions": len(subscriptions)}


@router.post(
    "/account/push",
    status_code=201,
    summary="Web Push to this browser: store its subscription (PushSubscription.toJSON())",
    response_model=dict[str, bool],
    responses=errors("sign_in_required", "csrf", "bad_subscription", body=True),
)
async def subscribe(
    request: Request, hub: HubDep, member: Member, body: PushSubscriptionIn
) -> dict[str, bool]:
    allow_http = get_guards(request).settings.push_allow_http
    try:
        found = parse_subscription(body.model_dump(exclude_none=True), allow_http=allow_http)
    except BadSubscription as err:
        raise DomainError("bad_subscription", str(err)) from None
    await asyncio.to_thread(
        hub.notifications.store.subscribe, member.account.id, found.endpoint, found.p256dh, found.auth
    )
    return {"subscribed": True}


@router.delete(
    "/account/push",
    summary="No more Web Push to a browser of yours (or to any)",
    response_model=dict[str, int],
    responses=errors("sign_in_required", "csrf", body=True),
)
async def unsubscribe(hub: HubDep, member: Member, body: PushRemoval) -> dict[str, int]:
    removed = await asyncio.to_thread(hub.notifications.store.unsubscribe, member.account.id, body.endpoint)
    return {"removed": removed}


@router.get(
    "/notifications",
    summary="Your notifications in the page, newest first, and how many are unread",
    response_model=Inbox,
    responses=errors("sign_in_required"),
)
async def inbox(hub: HubDep, member: Member) -> dict[str, Any]:
    return await hub.notifications.inbox(member.account.id)


@router.post(
    "/notifications/read",
    summary="Mark notifications read (all of them without ids); the unread count after",
    response_model=dict[str, int],
    responses=errors("sign_in_required", "csrf", body=True),
)
async def mark_read(hub: HubDep, member: Member, body: ReadIn) -> dict[str, int]:
    store = hub.notifications.store
    account = member.account.id
    await asyncio.to_thread(store.mark_read, account, body.ids)
    unread = await asyncio.to_thread(store.unread, account)
    await hub.notifications.announce(account, unread)  # the member's other pages too
    return {"unread": unread}


def _same_origin(websocket: WebSocket) -> bool:
    """A browser's socket opened by a page of this site (a page elsewhere may not read it): the
    ``Origin`` is the configured ``origin``, or else names the host of the request (ports aside:
    a proxy may pass the host without its port)."""
    origin = websocket.headers.get("origin")
    if origin is None:  # not a browser
        return True
    configured = get_guards(websocket).settings.origin
    if configured:
        return origin.rstrip("/") == configured.rstrip("/")
    try:
        return urlsplit(origin).hostname == urlsplit("//" + websocket.headers.get("host", "")).hostname
    except ValueError:  # a malformed header
        return False


@router.websocket("/notifications/ws")
async def notifications_socket(websocket: WebSocket) -> None:
    """The signed-in member's unread count, live: ``{"type": "notifications", "unread": N}`` at
    once and at every change; ``{"type": "ping"}`` is answered ``{"type": "pong"}``. Closed with
    1008 without a session (or from another site's page), else as the game's websocket (its limits
    too: more than ``ws_max_pending_bytes`` left unread closes it with 1008)."""
    guards = get_guards(websocket)
    hub = get_hub(websocket)
    signed_in = await hub.accounts.session(session_cookie(websocket))
    if signed_in is None or not _same_origin(websocket):
        await websocket.accept()
        await websocket.close(code=1008, reason="sign in first")
        return
    if not guards.open_socket(websocket, await guards.key_of(websocket)):
        await websocket.accept()
        await websocket.close(code=1013, reason="too many websockets; try again later")
        return
    account = signed_in.account.id
    settings = guards.settings
    queue = SocketQueue[str](settings.ws_max_pending_bytes, CLOSING)
    hub.notifications.listen(account, queue)
    limit: str | None = None
    try:
        await websocket.accept()
        unread = await asyncio.to_thread(hub.notifications.store.unread, account)
        await websocket.send_text(json.dumps({"type": UNREAD, "unread": unread}))

        async def answer(text: str) -> None:
            queue.put_nowait(PONG)  # whatever the page says (it only pings)

        limit = await serve_queue(websocket, settings, queue, answer)
    except WebSocketDisconnect:
        pass
    except StorageError:
        with contextlib.suppress(Exception):
            await websocket.close(code=1011, reason="the database is unavailable; try again")
    finally:
        hub.notifications.unlisten(account, queue)
        await close_over(websocket, guards, limit)
        guards.close_socket(websocket)
