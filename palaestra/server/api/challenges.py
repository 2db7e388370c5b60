"""Routes of challenges to a named member (issue 29, part 4; docs/web.md, "Challenges"), and of
a member's choice of who may challenge them. Members only: a guest gets 401
``sign_in_required``; every change needs the session's CSRF header."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path
from pydantic import Field

from palaestra.server.api.auth import Member
from palaestra.server.api.deps import HubDep
from palaestra.server.api.errors import errors
from palaestra.server.api.guards import limit
from palaestra.server.api.models import Strict, Text, TimeControlSpec
from palaestra.server.api.responses import Out
from palaestra.server.challenge_store import FROM_CHOICES
from palaestra.server.service.challenges import DECLINE_REASONS, DeclineReason
from palaestra.server.service.seeks import Wanted

router = APIRouter(prefix="/api", tags=["challenges"])

ChallengesFrom = Literal["everyone", "played", "nobody"]
assert FROM_CHOICES == ("everyone", "played", "nobody")


class ChallengeSpec(Strict):
    to: Annotated[Text, Field(min_length=1, max_length=40)] = Field(description="the member's username")
    game: Annotated[Text, Field(max_length=64)] = Field(description="a game name from /api/meta")
    options: dict[
        Annotated[Text, Field(max_length=64)], bool | int | Annotated[Text, Field(max_length=200)]
    ] = Field(default_factory=dict, max_length=32, description="game options and variants")
    time_control: TimeControlSpec | None = Field(None, description="the game's clock (needed when rated)")
    rated: bool = Field(False, description="a rated game")
    public: bool = Field(True, description="listed for spectators (a rated game always is)")


class Decline(Strict):
    reason: DeclineReason = Field(
        "generic", description="why: " + "; ".join(f"`{k}`: {v}" for k, v in DECLINE_REASONS.items())
    )


class ChallengeView(Out):
    id: str
    from_: str | None = Field(alias="from", description="the challenger's username")
    to: str | None = Field(description="the challenged member's username")
    game: str = Field(description="the game's name")
    title: str
    options: dict[str, Any]
    time_control: dict[str, Any] | None
    rated: bool
    public: bool
    status: str = Field(description="open, starting, accepted, declined, cancelled, expired or failed")
    decline_reason: str | None = Field(description="declined: the reason's id (see /api/meta)")
    decline_text: str | None = Field(description="declined: the reason in English")
    created: str
    expires: str
    game_id: str | None = Field(description="accepted: the game")
    challenger_seat: int | None = Field(
        description="accepted: the challenger's seat (the other's is the other)"
    )


class Challenges(Out):
    incoming: list[ChallengeView] = Field(description="open challenges made to you, newest first")
    outgoing: list[ChallengeView] = Field(
        description="your challenges, open or answered in the last hour, newest first"
    )


class ChallengeAccepted(Out):
    game: str = Field(description="the new game's id")
    seat: int = Field(description="your seat in it")
    token: str = Field(description="your seat token (you also act by account)")
    challenge: ChallengeView


class Preferences(Strict):
    challenges: ChallengesFrom = Field(
        description="who may challenge you: everyone, played (people you have played), nobody"
    )


ChallengeId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9]+$")]

CREATE_ERRORS = (
    "sign_in_required",
    "csrf",
    "user_not_found",
    "bad_challenge",
    "challenge_refused",
    "too_many_challenges",
    "bad_options",
    "option_not_allowed",
    "bad_seats",
    "bad_time_control",
    "bad_rated",
)
ANSWER_ERRORS = ("sign_in_required", "csrf", "challenge_not_found", "challenge_gone", "conflict")


@router.post(
    "/challenges",
    status_code=201,
    summary="Challenge a member to a game",
    response_model=ChallengeView,
    responses=errors(*CREATE_ERRORS, body=True, limited=True),
    dependencies=[Depends(limit("create"))],
)
async def create_challenge(hub: HubDep, member: Member, body: ChallengeSpec) -> dict[str, Any]:
    wanted = Wanted(
        body.game,
        body.options,
        2,
        None if body.time_control is None else body.time_control.model_dump(),
        body.rated,
        None,
        member.account,
        None,
    )
    return await hub.challenges.create(member.account, body.to, wanted, body.public)


@router.get(
    "/challenges",
    summary="Your challenges: incoming (open) and outgoing",
    response_model=Challenges,
    responses=errors("sign_in_required"),
)
async def list_challenges(hub: HubDep, member: Member) -> dict[str, Any]:
    return await hub.challenges.listing(member.account)


@router.get(
    "/challenges/{challenge_id}",
    summary="One of your challenges",
    response_model=ChallengeView,
    responses=errors("sign_in_required", "challenge_not_found"),
)
async def get_challenge(hub: HubDep, member: Member, challenge_id: ChallengeId) -> dict[str, Any]:
    return await hub.challenges.get(challenge_id, member.account)


@router.post(
    "/challenges/{challenge_id}/accept",
    summary="Accept a challenge made to you: the game starts at once",
    response_model=ChallengeAccepted,
    responses=errors(
        *ANSWER_ERRORS, "not_challenged", "bad_options", "bad_seats", "bad_time_control", "bad_rated"
    ),
)
async def accept_challenge(hub: HubDep, member: Member, challenge_id: ChallengeId) -> dict[str, Any]:
    return await hub.challenges.accept(challenge_id, member.account)


@router.post(
    "/challenges/{challenge_id}/decline",
    summary="Decline a challenge made to you, with a reason (see /api/meta)",
    response_model=ChallengeView,
    responses=errors(*ANSWER_ERRORS, "not_challenged", "bad_request", body=True),
)
async def decline_challenge(
    hub: HubDep, member: Member, challenge_id: ChallengeId, body: Decline | None = None
) -> dict[str, Any]:
    reason = "generic" if body is None else body.reason
    return await hub.challenges.decline(challenge_id, member.account, reason)


@router.delete(
    "/challenges/{challenge_id}",
    summary="Cancel your challenge while it is open",
    response_model=ChallengeView,
    responses=errors(*ANSWER_ERRORS, "not_challenger"),
)
async def cancel_challenge(hub: HubDep, member: Member, challenge_id: ChallengeId) -> dict[str, Any]:
    return await hub.challenges.cancel(challenge_id, member.account)


@router.get(
    "/account/preferences",
    tags=["accounts"],
    summary="Your preferences: who may challenge you",
    response_model=Preferences,
    responses=errors("sign_in_required"),
)
async def preferences(hub: HubDep, member: Member) -> dict[str, Any]:
    return {"challenges": await hub.challenges.challenges_from(member.account)}


@router.put(
    "/account/preferences",
    tags=["accounts"],
    summary="Change your preferences: who may challenge you",
    response_model=Preferences,
    responses=errors("sign_in_required", "csrf", body=True),
)
async def set_preferences(hub: HubDep, member: Member, body: Preferences) -> dict[str, Any]:
    await hub.challenges.set_challenges_from(member.account, body.challenges)
    return {"challenges": body.challenges}
