"""Routes of seats: joining through an invitation, the creator's invitations."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from palaestra.server.api.auth import MaybeMember
from palaestra.server.api.deps import CreatorToken, GameId, HubDep, SeatNumber
from palaestra.server.api.errors import errors
from palaestra.server.api.games import invite_link
from palaestra.server.api.models import JoinSeat
from palaestra.server.api.responses import Invitation, Joined

router = APIRouter(prefix="/api/games/{game_id}", tags=["seats"])

MANAGE = errors(
    "game_not_found",
    "not_creator",
    "no_such_seat",
    "game_over",
    "game_abandoned",
    "no_invitation",
    "seat_taken",
    "conflict",
)


@router.post(
    "/join",
    summary="Take the seat of an invitation (uses the code up)",
    response_model=Joined,
    responses=errors(
        "game_not_found",
        "wrong_token",
        "game_over",
        "game_abandoned",
        "invitation_used",
        "invitation_revoked",
        "conflict",
        "sign_in_required",
        "already_seated",
        "csrf",
        body=True,
    ),
)
async def join(hub: HubDep, game_id: GameId, body: JoinSeat, member: MaybeMember) -> dict[str, Any]:
    """A signed-in joiner holds the seat by account too (a rated game needs one)."""
    account = None if member is None else member.account
    seat, token = await hub.seats.join(game_id, body.code, body.name, account)
    return {"seat": seat, "token": token, "game": (await hub.get(game_id)).view()}


@router.post(
    "/seats/{seat}/invitation",
    summary="Creator: withdraw a seat's unused invitation and issue a new one",
    response_model=Invitation,
    responses=MANAGE,
)
async def reinvite(
    hub: HubDep, game_id: GameId, seat: SeatNumber, x_creator_token: CreatorToken
) -> dict[str, Any]:
    code = await hub.seats.reinvite(game_id, x_creator_token, seat, new=True)
    return {"seat": seat, "invite": invite_link(game_id, code)}


@router.delete(
    "/seats/{seat}/invitation",
    summary="Creator: withdraw a seat's unused invitation",
    response_model=Invitation,
    responses=MANAGE,
)
async def revoke(
    hub: HubDep, game_id: GameId, seat: SeatNumber, x_creator_token: CreatorToken
) -> dict[str, Any]:
    await hub.seats.reinvite(game_id, x_creator_token, seat, new=False)
    return {"seat": seat, "invite": None}
