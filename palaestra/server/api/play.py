"""Routes of playing: a seat's action, resignation and undo; hints and the AI's analysis."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from palaestra.server.api.auth import member_of
from palaestra.server.api.deps import GameId, HubDep, SeatToken
from palaestra.server.api.errors import errors
from palaestra.server.api.guards import limit
from palaestra.server.api.models import Resign, SubmitAction, Undo
from palaestra.server.api.responses import Analysis, GameView, Hint, Rematch, ViewJSON
from palaestra.server.db import StorageError
from palaestra.server.service.errors import DomainError
from palaestra.server.service.seek_again import seek_again
from palaestra.server.service.session import Session

router = APIRouter(prefix="/api/games/{game_id}", tags=["play"])
log = logging.getLogger("palaestra.server.api")

TURN = (
    "game_not_found",
    "wrong_token",
    "game_over",
    "game_abandoned",
    "stale_action",
    "conflict",
    "sign_in_required",
    "csrf",
)


#: what a seat's request that ends the game (resign, abort, claim) may be answered
ENDING = (
    "game_not_found",
    "wrong_token",
    "game_over",
    "game_abandoned",
    "conflict",
    "sign_in_required",
    "csrf",
)


async def seat_holder(request: Request, token: str | None) -> int | None:
    """Who acts: a seat token, or without one the signed-in member's account (the cookie
    authenticates the request: it needs the CSRF token)."""
    if token is not None:
        return None
    signed_in = await member_of(request, required=True)
    assert signed_in is not None
    return signed_in.account.id


@router.post(
    "/actions",
    summary="Play an action for a seat",
    response_model=GameView,
    responses=errors(
        *TURN,
        "bad_request",
        "not_your_turn",
        "waiting_for_players",
        "illegal_action",
        "bad_notation",
        "out_of_time",
        body=True,
        limited=True,
    ),
    dependencies=[Depends(limit("actions"))],
)
async def act(request: Request, hub: HubDep, game_id: GameId, body: SubmitAction) -> ViewJSON:
    account = await seat_holder(request, body.token)
    session = await hub.play.act(game_id, body.token, body.ply, body.action, body.move, account)
    return ViewJSON(session.view_json())


@router.post(
    "/resign",
    summary="Resign a seat (ends the game)",
    response_model=GameView,
    responses=errors(*ENDING, body=True),
)
async def resign(request: Request, hub: HubDep, game_id: GameId, body: Resign) -> ViewJSON:
    account = await seat_holder(request, body.token)
    return ViewJSON((await hub.play.resign(game_id, body.token, account)).view_json())


@router.post(
    "/abort",
    summary="Call the game off while some seat has not moved yet (no winner, not rated)",
    response_model=GameView,
    responses=errors(*ENDING, "cannot_abort", body=True),
)
async def abort(request: Request, hub: HubDep, game_id: GameId, body: Resign) -> ViewJSON:
    """A game made from a seek: the seek goes back to the lobby for the others
    (palaestra/server/service/seek_again.py)."""
    account = await seat_holder(request, body.token)

    async def again(session: Session, aborter: int) -> None:
        try:
            await seek_again(
                hub.lobby, game_id, aborter, lambda seat: hub.absence.gone_for(game_id, seat) is not None
            )
        except StorageError as err:  # the abort is stored: the seek is not posted again, that is all
            log.warning("the seek of game %s was not posted again: %s", game_id, err)

    session = await hub.play.abort(game_id, body.token, account, then=again)
    return ViewJSON(session.view_json())


@router.post(
    "/rematch",
    summary="Offer a rematch of a finished game, or accept it (then: the new game and your seat)",
    response_model=Rematch,
    responses=errors(
        "game_not_found",
        "wrong_token",
        "cannot_rematch",
        "conflict",
        "sign_in_required",
        "csrf",
        body=True,
    ),
)
async def rematch(request: Request, hub: HubDep, game_id: GameId, body: Resign) -> dict[str, Any]:
    account = await seat_holder(request, body.token)
    return await hub.rematches.rematch(game_id, body.token, account)


@router.post(
    "/claim",
    summary="Claim the win from the seat to move of a real-time game when it has been gone",
    response_model=GameView,
    responses=errors(*ENDING, "cannot_claim", body=True),
)
async def claim(request: Request, hub: HubDep, game_id: GameId, body: Resign) -> ViewJSON:
    account = await seat_holder(request, body.token)
    session = await hub.play.claim(game_id, body.token, hub.absence, hub.claim_after, account)
    return ViewJSON(session.view_json())


@router.post(
    "/undo",
    summary="Take back your own last action of this turn",
    response_model=GameView,
    responses=errors(*TURN, "cannot_undo", "out_of_time", body=True, limited=True),
    dependencies=[Depends(limit("actions"))],
)
async def undo(request: Request, hub: HubDep, game_id: GameId, body: Undo) -> ViewJSON:
    account = await seat_holder(request, body.token)
    return ViewJSON((await hub.play.undo(game_id, body.token, body.ply, account)).view_json())


@router.get(
    "/hint",
    summary="The strong agent's top moves for the seat to move",
    response_model=list[Hint],
    responses=errors(
        "game_not_found",
        "wrong_token",
        "hints_off",
        "no_hint",
        "game_abandoned",
        "ai_unavailable",
        limited=True,
    ),
    dependencies=[Depends(limit("hints"))],
)
async def hint(
    hub: HubDep,
    game_id: GameId,
    x_seat_token: SeatToken = None,
    top: Annotated[int, Query(ge=1, le=10)] = 3,
) -> list[dict[str, Any]]:
    if not x_seat_token:
        raise DomainError("wrong_token", "hints are for players: send the X-Seat-Token header")
    return await hub.analyst.hint(game_id, x_seat_token, top)


@router.get(
    "/analysis",
    summary="The AI's view of a move of a finished game (strong agent, small budget)",
    response_model=Analysis,
    responses=errors("game_not_found", "not_finished", "bad_ply", "ai_unavailable", limited=True),
    dependencies=[Depends(limit("analysis"))],
)
async def analysis(
    hub: HubDep,
    game_id: GameId,
    ply: Annotated[int, Query(ge=0, description="moves before the one analysed")],
    top: Annotated[int, Query(ge=1, le=10)] = 3,
) -> dict[str, Any]:
    return await hub.analyst.analysis(game_id, ply, top)
