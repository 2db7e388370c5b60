"""Routes of games as a whole: what can be played, the lobby, creating, reading, records."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from palaestra import __version__
from palaestra.i18n import LANGUAGES
from palaestra.server.api.auth import MaybeMember
from palaestra.server.api.deps import GameId, HubDep
from palaestra.server.api.errors import errors
from palaestra.server.api.guards import limit
from palaestra.server.api.models import MAX_INT, CreateGame
from palaestra.server.api.responses import (
    CreatedGame,
    GameSummary,
    GameView,
    Legal,
    Meta,
    RecordDoc,
    Replay,
    ViewJSON,
)
from palaestra.server.api.web import games_meta
from palaestra.server.service import clock
from palaestra.server.service.accounts import pool_doc, pools

router = APIRouter(prefix="/api", tags=["games"])


def invite_link(game_id: str, code: str | None) -> str | None:
    """The invitation link: the code stays in the URL fragment (never sent to the server)."""
    return f"/#/join/{game_id}/{code}" if code else None


@router.get(
    "/meta",
    summary="Games, their options and seatings, AI levels",
    response_model=Meta,
)
async def meta(hub: HubDep) -> dict[str, Any]:
    games = await asyncio.to_thread(games_meta)
    return {
        "version": __version__,
        "games": games,
        "ai_levels": hub.levels,
        "languages": list(LANGUAGES),  # of the UI and the rules pages (issue 21)
        "time_controls": clock.meta(),
        "rating_pools": [pool_doc(p) for p in (await asyncio.to_thread(pools)).values()],
        "challenges": hub.challenges.meta(),
    }


#: the most games one ``ids`` list may name
MAX_IDS = 50


@router.get(
    "/games",
    summary="The lobby: recent public games (to watch or resume); or, with ids, these games",
    response_model=list[GameSummary],
    responses=errors(),
)
async def list_games(
    hub: HubDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ids: Annotated[
        str | None,
        Query(
            max_length=MAX_IDS * 33,
            description=f"comma-separated game ids (at most {MAX_IDS}): these games, public or not, in "
            "this order, each with its player to move and result; unknown ones are left out",
        ),
    ] = None,
) -> list[GameSummary]:
    if ids is not None:
        return await hub.sessions.summaries_of([i for i in ids.split(",") if i][:MAX_IDS])
    return await hub.sessions.list_games(limit)


@router.post(
    "/games",
    status_code=201,
    summary="Create a game",
    response_model=CreatedGame,
    responses=errors(
        "bad_options",
        "option_not_allowed",
        "bad_seats",
        "seed_not_allowed",
        "bad_time_control",
        "bad_rated",
        "sign_in_required",
        "csrf",
        body=True,
        limited=True,
    ),
    dependencies=[Depends(limit("create"))],
)
async def create_game(hub: HubDep, body: CreateGame, member: MaybeMember) -> dict[str, Any]:
    """A signed-in creator holds their own seats (``joined``) by account too."""
    session, created = await hub.seats.create(
        body.game,
        {k: v for k, v in body.options.items() if v is not None},
        [s.model_dump() for s in body.seats],
        body.seed,
        public=body.public,
        hints=body.hints,
        time_control=None if body.time_control is None else body.time_control.model_dump(),
        rated=body.rated,
        member=None if member is None else member.account,
    )
    seats = [
        {"seat": i, "kind": session.seats[i].kind, "token": token, "invite": invite_link(session.id, code)}
        for i, (token, code) in enumerate(zip(created.tokens, created.invites, strict=True))
    ]
    return {"id": session.id, "creator_token": created.creator_token, "seats": seats, "game": session.view()}


@router.get(
    "/games/{game_id}",
    summary="The state of a game (for players and spectators)",
    response_model=GameView,
    responses=errors("game_not_found"),
)
async def get_game(
    hub: HubDep,
    game_id: GameId,
    version: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_INT,
            description="the newest version the client has seen (of an answer through another "
            "server process): the answer is at least that new",
        ),
    ] = None,
) -> ViewJSON:
    return ViewJSON((await hub.sessions.get(game_id, version=version)).view_json())


@router.get(
    "/games/{game_id}/legal",
    summary="The legal actions of the human seat to move",
    response_model=Legal,
    responses=errors("game_not_found"),
)
async def legal(hub: HubDep, game_id: GameId) -> dict[str, Any]:
    view = (await hub.get(game_id)).view()
    return {"ply": view.ply, "current_player": view.current_player, "legal": view.legal}


@router.get(
    "/games/{game_id}/record",
    summary="The game record (core record JSON, format 1, with the chance commitment)",
    response_model=RecordDoc,
    responses=errors("game_not_found"),
)
async def record(hub: HubDep, game_id: GameId) -> dict[str, Any]:
    return (await hub.get(game_id)).record_json()


@router.get(
    "/games/{game_id}/replay",
    summary="The position after the first PLY moves",
    response_model=Replay,
    responses=errors("game_not_found", "bad_ply"),
)
async def replay(hub: HubDep, game_id: GameId, ply: Annotated[int, Query(ge=0)]) -> dict[str, Any]:
    return await hub.analyst.replay(game_id, ply)
