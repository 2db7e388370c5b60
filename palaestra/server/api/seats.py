"""Routes of seats: joining through an invitation, the creator's invitations."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header

from palaestra.server.api.auth import MaybeMember
from palaestra.server.api.deps import CreatorToken, GameId, HubDep, SeatNumber
from palaestra.server.api.errors import errors
from palaestra.server.api.games import invite_link
from palaestra.server.api.models import JoinSeat
from palaestra.server.api.responses import Invitation, InvitationInfo, Joined
from palaestra.server.service.errors import DomainError

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


#: an invitation's code, in a header so that it stays out of URLs (and so out of server logs)
InvitationCode = Annotated[
    str | None, Header(max_length=64, description="the code of the invitation link (its last part)")
]


@router.get(
    "/invitation",
    summary="What an invitation offers (game, seat, inviter, clock) and whether it is still open; "
    "does not use it up",
    response_model=InvitationInfo,
    responses=errors("game_not_found", "wrong_token"),
)
async def invitation(
    hub: HubDep, game_id: GameId, x_invitation_code: InvitationCode = None
) -> dict[str, Any]:
    if not x_invitation_code:
        raise DomainError("wrong_token", "send the invitation's code in the X-Invitation-Code header")
    session, seat, status = await hub.seats.invitation(game_id, x_invitation_code)
    view = session.view()
    creator = next((i for i, s in enumerate(session.seats) if s.creator and s.kind == "human"), None)
    return {
        "seat": seat,
        "player_name": view.seats[seat].player_name,
        "status": status,
        "inviter": None if creator is None else session.seats[creator].name,
        "inviter_seat": creator,
        "game": view,
    }


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
