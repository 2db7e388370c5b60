"""Routes of members (issue 28; docs/accounts.md): signing up, in and out, the account, profiles,
leaderboards, claiming a guest's games, the export and deletion of an account."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from palaestra.server.api.auth import (
    MaybeMember,
    Member,
    clear_session_cookie,
    limit_sign_in,
    limit_sign_up,
    set_session_cookie,
)
from palaestra.server.api.deps import HubDep
from palaestra.server.api.errors import errors
from palaestra.server.api.models import Strict, Text, Token
from palaestra.server.api.passkeys import PasskeyAssertion, passkeys_of, relying_party
from palaestra.server.api.responses import Out
from palaestra.server.service.accounts import Opened
from palaestra.server.service.errors import DomainError

router = APIRouter(prefix="/api", tags=["accounts"])

Password = Annotated[str, Field(min_length=1, max_length=256)]
Username = Annotated[Text, Field(min_length=1, max_length=40)]
UserName = Annotated[str, Path(min_length=1, max_length=40, description="a member's username")]


class Credentials(Strict):
    username: Username = Field(description="3 to 20 letters, digits, '_' and '-'")
    password: Password = Field(description="at least 10 characters, not a common password")


class PasswordChange(Strict):
    current_password: Password
    new_password: Password


class AccountDeletion(Strict):
    """Exactly one proof: the password, or a passkey's answer to
    ``POST /api/account/passkey-proof/options``."""

    password: Password | None = Field(None, description="the account's password, to confirm")
    passkey: PasskeyAssertion | None = Field(None, description="or a passkey's answer, to confirm")


class SeatClaim(Strict):
    game: Annotated[Text, Field(min_length=1, max_length=32)]
    token: Token


class Claims(Strict):
    seats: list[SeatClaim] = Field(max_length=200, description="seat tokens this browser holds")


class SignedInBody(Out):
    username: str
    csrf_token: str = Field(description="send it as X-CSRF-Token with every signed-in change")


class SessionView(Out):
    signed_in: bool
    username: str | None = Field(None, description="the member, when signed in")
    csrf_token: str | None = Field(None, description="the session's CSRF token, when signed in")


class RatingView(Out):
    rating: int
    deviation: int
    games: int
    provisional: bool


class AccountView(Out):
    username: str
    joined: str
    csrf_token: str
    ratings: dict[str, RatingView]


class UserView(Out):
    username: str
    joined: str = Field(description="the date the member joined")
    ratings: dict[str, RatingView] = Field(description="per rating pool")
    history: dict[str, list[dict[str, Any]]] = Field(
        description="per pool, every rating change: game, at, rating, deviation, change"
    )
    games: int = Field(description="games played")


class UserGames(Out):
    username: str
    page: int
    pages: int
    total: int
    games: list[dict[str, Any]]


class Leaderboard(Out):
    pool: dict[str, Any]
    players: list[dict[str, Any]] = Field(description="rank, username, rating, deviation, games, provisional")


class Claimed(Out):
    claimed: list[dict[str, Any]] = Field(description="game and seat of each seat now held by the account")
    refused: list[dict[str, Any]] = Field(description="game and error code of each seat not claimed")


def _signed_in(request: Request, opened: Opened, status: int) -> JSONResponse:
    response = JSONResponse(
        {"username": opened.account.username, "csrf_token": opened.csrf}, status_code=status
    )
    set_session_cookie(request, response, opened.session_id)
    return response


@router.post(
    "/account",
    status_code=201,
    summary="Sign up: a new account, signed in",
    response_model=SignedInBody,
    responses=errors("bad_username", "weak_password", "username_taken", "busy", body=True, limited=True),
)
async def sign_up(request: Request, hub: HubDep, body: Credentials) -> JSONResponse:
    await limit_sign_up(request)
    return _signed_in(request, await hub.accounts.sign_up(body.username, body.password), 201)


@router.post(
    "/session",
    summary="Sign in with a username and password (a new session id each time)",
    response_model=SignedInBody,
    responses=errors("bad_credentials", "busy", body=True, limited=True),
)
async def sign_in(request: Request, hub: HubDep, body: Credentials) -> JSONResponse:
    await limit_sign_in(request, body.username)
    return _signed_in(request, await hub.accounts.sign_in(body.username, body.password), 200)


@router.get(
    "/session",
    summary="Who this browser is: a member (with the CSRF token) or a guest (never an error)",
    response_model=SessionView,
    responses=errors(),
)
async def who(viewer: MaybeMember) -> dict[str, Any]:
    if viewer is None:
        return {"signed_in": False}
    return {"signed_in": True, "username": viewer.account.username, "csrf_token": viewer.csrf}


@router.delete(
    "/session",
    summary="Sign out (ends this session)",
    response_model=dict[str, bool],
    responses=errors("sign_in_required", "csrf"),
)
async def sign_out(request: Request, hub: HubDep, member: Member) -> JSONResponse:
    await hub.accounts.sign_out(member)
    response = JSONResponse({"signed_out": True})
    clear_session_cookie(request, response)
    return response


@router.get(
    "/account",
    summary="The signed-in member (and the CSRF token again)",
    response_model=AccountView,
    responses=errors("sign_in_required"),
)
async def me(hub: HubDep, member: Member) -> dict[str, Any]:
    return await hub.accounts.me(member)


@router.post(
    "/account/password",
    summary="Change the password (every other session ends)",
    response_model=dict[str, bool],
    responses=errors("sign_in_required", "csrf", "wrong_password", "weak_password", "busy", body=True),
)
async def change_password(hub: HubDep, member: Member, body: PasswordChange) -> dict[str, bool]:
    await hub.accounts.change_password(member, body.current_password, body.new_password)
    return {"changed": True}


@router.get(
    "/account/export",
    summary="Everything kept about you: profile, ratings, every game record, lessons done (JSON)",
    response_model=dict[str, Any],
    responses=errors("sign_in_required"),
)
async def export(hub: HubDep, member: Member) -> JSONResponse:
    doc = await hub.accounts.export(member.account)
    doc.update(await hub.challenges.export(member.account))  # issue 29: challenges, who may make them
    # the lessons done (issue 30, "Learn to play"), kept beside the account
    doc["lessons"] = await asyncio.to_thread(hub.lessons.progress, member.account.id)
    doc["notifications"] = await hub.notifications.export(member.account.id)
    name = f"palaestra-{member.account.username}.json"
    return JSONResponse(doc, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.delete(
    "/account",
    summary="Delete your account (its games stay for the opponents, under 'deleted player')",
    response_model=dict[str, bool],
    responses=errors(
        "sign_in_required",
        "csrf",
        "bad_request",
        "wrong_password",
        "bad_passkey",
        "challenge_expired",
        "wrong_passkey",
        "busy",
        body=True,
    ),
)
async def delete_account(
    request: Request, hub: HubDep, member: Member, body: AccountDeletion
) -> JSONResponse:
    if body.password is not None and body.passkey is None:
        await hub.accounts.check_password(member.account, body.password)
    elif body.passkey is not None and body.password is None:
        proof = body.passkey
        await passkeys_of(request).prove(
            member.account, proof.challenge_id, proof.credential, relying_party(request)
        )
    else:
        raise DomainError("bad_request", "confirm with either 'password' or 'passkey' (exactly one)")
    await hub.accounts.delete(member.account)
    response = JSONResponse({"deleted": True})
    clear_session_cookie(request, response)
    return response


@router.post(
    "/account/claim",
    summary="Hold by account the seats this browser holds by token (a guest who signed up)",
    response_model=Claimed,
    responses=errors("sign_in_required", "csrf", body=True),
)
async def claim(hub: HubDep, member: Member, body: Claims) -> dict[str, Any]:
    claimed, refused = [], []
    for item in body.seats:
        try:
            seat = await hub.seats.claim(item.game, item.token, member.account)
        except DomainError as err:
            if err.failure:
                raise
            refused.append({"game": item.game, "error": err.code})
        else:
            claimed.append({"game": item.game, "seat": seat})
    return {"claimed": claimed, "refused": refused}


@router.get(
    "/users/{name}",
    summary="A member's profile: ratings with their history, games played, joined",
    response_model=UserView,
    responses=errors("user_not_found"),
)
async def user(hub: HubDep, name: UserName) -> dict[str, Any]:
    return await hub.accounts.profile(name)


@router.get(
    "/users/{name}/games",
    summary="A member's games, newest first (others see rated and public games; you see all yours)",
    response_model=UserGames,
    responses=errors("user_not_found"),
)
async def user_games(
    hub: HubDep,
    name: UserName,
    viewer: MaybeMember,
    page: Annotated[int, Query(ge=1, le=100000)] = 1,
    game: Annotated[str | None, Query(max_length=64, pattern=r"^[a-z][a-z0-9_]*$")] = None,
) -> dict[str, Any]:
    return await hub.accounts.games(name, page, game, None if viewer is None else viewer.account)


@router.get(
    "/leaderboard/{pool}",
    summary="The best of a rating pool (10 rated games or more, active in the last 90 days)",
    response_model=Leaderboard,
    responses=errors("no_such_pool"),
)
async def leaderboard(
    hub: HubDep, pool: Annotated[str, Path(max_length=40, description="a pool id from /api/meta")]
) -> dict[str, Any]:
    return await hub.accounts.leaderboard(pool)
