"""Routes of the lobby (issue 29): seeks, quick pairing, the lobby's state and its websocket.

Who is asking: a signed-in member (the session cookie; changes need the CSRF header), or a guest.
A guest may send a secret of their own in ``X-Guest-Token`` (a browser keeps one): it tells their
seeks apart from others' (nobody accepts their own seek). A place's secret (``seek_token``) goes
in ``X-Seek-Token``: to withdraw the seek, and to learn one's seat once the table is full.
"""

from __future__ import annotations

import contextlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Response, WebSocket, WebSocketDisconnect
from pydantic import Field

from palaestra.server.account_store import SignedIn
from palaestra.server.api.auth import MaybeMember, session_cookie
from palaestra.server.api.deps import HubDep, get_guards, get_hub
from palaestra.server.api.errors import errors
from palaestra.server.api.guards import limit
from palaestra.server.api.models import Name, Strict, Text, TimeControlSpec
from palaestra.server.api.realtime import PONG, SocketQueue, close_over, json_object, serve_queue
from palaestra.server.api.responses import ClockView, GameSummary, Out
from palaestra.server.db import StorageError
from palaestra.server.service.lobby_feed import CLOSING
from palaestra.server.service.ratings import NEWCOMER
from palaestra.server.service.seeks import Wanted

router = APIRouter(prefix="/api", tags=["lobby"])

#: ratings a range may name
RATING_BOUND = 10_000


class RatingRange(Strict):
    min: int | None = Field(None, ge=0, le=RATING_BOUND, description="the lowest rating accepted")
    max: int | None = Field(None, ge=0, le=RATING_BOUND, description="the highest rating accepted")


class SeekSpec(Strict):
    game: Annotated[Text, Field(max_length=64)] = Field(description="a game name from /api/meta")
    options: dict[
        Annotated[Text, Field(max_length=64)], bool | int | Annotated[Text, Field(max_length=200)]
    ] = Field(default_factory=dict, max_length=32, description="game options and variants")
    players: int = Field(2, ge=1, le=8, description="the number of players (a table of 3 or 4 fills up)")
    time_control: TimeControlSpec | None = Field(None, description="the game's clock (needed when rated)")
    rated: bool = Field(False, description="a rated game: members only")
    rating_range: RatingRange | None = Field(
        None, description=f"rated: the ratings accepted (a newcomer counts {NEWCOMER:.0f})"
    )
    name: Name = Field(None, description="a guest's display name")


class AcceptSeek(Strict):
    name: Name = Field(None, description="a guest's display name")
    rating_range: RatingRange | None = Field(None, description="rated: the poster's ratings you accept")


class SeatedView(Out):
    name: str
    member: bool
    rating: int | None


class SeekView(Out):
    id: str
    game: str = Field(description="the game's name")
    title: str
    options: dict[str, Any]
    players: int
    pool: str = Field(description="the rating pool of its game")
    time_control: dict[str, Any] | None
    rated: bool
    rating_range: dict[str, int | None] | None
    seated: list[SeatedView] = Field(description="the places taken, the poster's first")
    status: str = Field(description="open, starting, started, cancelled, expired or left")
    game_id: str | None = Field(description="the game it started")
    created: str
    expires: str
    seat: int | None = Field(None, description="with your X-Seek-Token, once started: your seat")
    token: str | None = Field(None, description="with your X-Seek-Token, once started: your seat token")


class PostedSeek(SeekView):
    seek_token: str = Field(description="your secret: withdraw the seek, learn your seat (X-Seek-Token)")


class Accepted(Out):
    game: str | None = Field(description="the game's id, once it started (the table is full)")
    seat: int | None = Field(description="your seat in it")
    token: str | None = Field(description="your seat token")
    seek_token: str | None = Field(description="while the table fills: your place's secret (X-Seek-Token)")
    seek: SeekView | None = Field(description="while the table fills: the seek")


class LobbyGame(GameSummary):
    """A public game being played."""

    rated: bool
    ratings: list[int | None] = Field(
        description="each seat's rating in the game's pool (null: a guest, the AI)"
    )
    clock: ClockView | None = Field(description="the game's clock, as in its VIEW (null: none)")


class LobbyView(Out):
    seeks: list[SeekView] = Field(description="the open seeks, oldest first")
    games: list[LobbyGame] = Field(description="public games being played, newest first")


SeekId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9]+$")]
SeekToken = Annotated[str | None, Header(max_length=64, description="a place's secret (seek_token)")]
GuestToken = Annotated[
    str | None,
    Header(
        max_length=64, pattern=r"^[A-Za-z0-9_\-]+$", description="a guest's own secret (tells their seeks)"
    ),
]


def bounds(spec: RatingRange | None) -> tuple[int | None, int | None] | None:
    return None if spec is None else (spec.min, spec.max)


@router.get(
    "/lobby",
    summary="The lobby: open seeks and public games being played",
    response_model=LobbyView,
    responses=errors(),
)
async def lobby(hub: HubDep) -> dict[str, Any]:
    return await hub.feed.state()


POST_ERRORS = (
    "bad_options",
    "option_not_allowed",
    "bad_seats",
    "bad_time_control",
    "bad_rated",
    "bad_seek",
    "sign_in_required",
    "csrf",
)


def wanted(body: SeekSpec, member: SignedIn | None, guest: str | None) -> Wanted:
    """A seek's request as the lobby service takes it."""
    return Wanted(
        body.game,
        body.options,
        body.players,
        None if body.time_control is None else body.time_control.model_dump(),
        body.rated,
        bounds(body.rating_range),
        None if member is None else member.account,
        guest,
        body.name,
    )


@router.post(
    "/seeks",
    status_code=201,
    summary="Post a seek (anyone may accept it)",
    response_model=PostedSeek,
    responses=errors(*POST_ERRORS, body=True, limited=True),
    dependencies=[Depends(limit("create"))],
)
async def post_seek(
    hub: HubDep, body: SeekSpec, member: MaybeMember, x_guest_token: GuestToken = None
) -> dict[str, Any]:
    seek, secret = await hub.lobby.post(wanted(body, member, x_guest_token))
    return {**seek, "seek_token": secret}


@router.get(
    "/seeks/{seek_id}",
    summary="A seek; with a place's X-Seek-Token, that place's seat and token once it started",
    response_model=SeekView,
    responses=errors("seek_not_found", "wrong_token"),
)
async def get_seek(hub: HubDep, seek_id: SeekId, x_seek_token: SeekToken = None) -> dict[str, Any]:
    return await hub.lobby.get(seek_id, x_seek_token)


@router.delete(
    "/seeks/{seek_id}",
    summary="Withdraw your seek (X-Seek-Token, or signed in as its poster)",
    response_model=SeekView,
    responses=errors("seek_not_found", "not_poster", "seek_gone", "conflict", "csrf"),
)
async def cancel_seek(
    hub: HubDep, seek_id: SeekId, member: MaybeMember, x_seek_token: SeekToken = None
) -> dict[str, Any]:
    await hub.lobby.cancel(seek_id, x_seek_token, None if member is None else member.account)
    return await hub.lobby.get(seek_id, None)


ACCEPT_ERRORS = (
    "seek_not_found",
    "seek_gone",
    "own_seek",
    "already_seated",
    "out_of_range",
    "sign_in_required",
    "conflict",
    "bad_rated",
    "csrf",
)


@router.post(
    "/seeks/{seek_id}/accept",
    summary="Accept a seek: the game starts when the table is full",
    response_model=Accepted,
    responses=errors(*ACCEPT_ERRORS, body=True),
)
async def accept_seek(
    hub: HubDep,
    seek_id: SeekId,
    member: MaybeMember,
    body: AcceptSeek | None = None,
    x_guest_token: GuestToken = None,
) -> dict[str, Any]:
    body = body or AcceptSeek.model_validate({})
    return await hub.lobby.accept(
        seek_id,
        None if member is None else member.account,
        x_guest_token,
        body.name,
        bounds(body.rating_range),
    )


@router.post(
    "/lobby/play-now",
    summary="Quick pairing: take the oldest compatible open seek, or post one (then 201)",
    response_model=Accepted,
    responses=errors(*POST_ERRORS, "seek_gone", "already_seated", "conflict", body=True, limited=True),
    dependencies=[Depends(limit("create"))],
)
async def play_now(
    hub: HubDep, body: SeekSpec, member: MaybeMember, response: Response, x_guest_token: GuestToken = None
) -> dict[str, Any]:
    answer, posted = await hub.lobby.play_now(wanted(body, member, x_guest_token))
    if posted:
        response.status_code = 201
    return answer


@router.websocket("/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's changes, live: first ``{"type": "lobby", "seeks", "games"}``, then
    ``{"type": "seek", "seek"}``, ``{"type": "seek_gone", "id", "status", "game"}`` and ``{"type":
    "game", "game"}``; a signed-in member's socket also ``{"type": "challenge", "challenge"}`` for
    each change of a challenge they made or received. A poster sends ``{"type": "hold", "id":
    SEEK, "seek_token": TOKEN}`` (answered ``{"type": "held", "id", "ok"}``): the seek stays open
    while this socket lives. ``{"type": "ping"}`` is answered ``{"type": "pong"}``. Closing codes
    and limits as the game's websocket's (api/realtime.py): a socket that leaves more than
    ``ws_max_pending_bytes`` unread is closed with 1008."""
    guards = get_guards(websocket)
    if not guards.open_socket(websocket, await guards.key_of(websocket)):
        await websocket.accept()
        await websocket.close(code=1013, reason="too many websockets; try again later")
        return
    hub = get_hub(websocket)
    held: list[str] = []
    settings = guards.settings
    queue = SocketQueue[str](settings.ws_max_pending_bytes, CLOSING)
    hub.feed.subscribe(queue)
    member: int | None = None
    limit: str | None = None
    try:
        # a signed-in member's socket also hears of their challenges (service/challenges.py)
        signed_in = await hub.accounts.session(session_cookie(websocket))
        if signed_in is not None:
            member = signed_in.account.id
            hub.challenges.subscribe(member, queue)
        await websocket.accept()
        await websocket.send_text(json.dumps({"type": "lobby", **await hub.feed.state()}))

        async def answer(text: str) -> None:
            incoming = json_object(text)
            kind = None if incoming is None else incoming.get("type")
            if kind == "ping":
                queue.put_nowait(PONG)
            elif incoming is not None and kind == "hold":
                seek_id, secret = str(incoming.get("id", ""))[:32], str(incoming.get("seek_token", ""))[:64]
                ok = bool(seek_id and secret) and await hub.lobby.hold(seek_id, secret)
                if ok:
                    held.append(seek_id)
                queue.put_nowait(json.dumps({"type": "held", "id": seek_id, "ok": ok}))
            else:
                queue.put_nowait(
                    json.dumps(
                        {"type": "error", "error": "bad_message", "message": 'send "ping" or "hold" only'}
                    )
                )

        # the game socket's limits (issue 31, finding 3), its loop (api/realtime.py)
        limit = await serve_queue(websocket, settings, queue, answer)
    except WebSocketDisconnect:
        pass
    except StorageError:  # the database is away: the page reconnects and gets the lobby again
        with contextlib.suppress(Exception):
            await websocket.close(code=1011, reason="the database is unavailable; try again")
    finally:
        hub.feed.unsubscribe(queue)
        if member is not None:
            hub.challenges.unsubscribe(member, queue)
        for seek_id in held:
            hub.lobby.release(seek_id)
        await close_over(websocket, guards, limit)
        guards.close_socket(websocket)
