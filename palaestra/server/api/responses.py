"""Response bodies of the HTTP API (documented in the OpenAPI schema, checked on the way out).

Nested game data whose shape belongs to each game (a state, score details, a board's web data) is
a free JSON object; everything the server itself decides has a field here. The view of a game and
its parts are declared once, where the service builds them (palaestra/server/service/view.py), and
named here.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from palaestra.server.service.view import (
    Chance,
    ClockView,
    GameSummary,
    GameView,
    Number,
    Out,
    RematchView,
    SeatClock,
    SeatView,
    TimeControl,
)

__all__ = [
    "Chance",
    "ClockView",
    "GameSummary",
    "GameView",
    "Number",
    "Out",
    "RematchView",
    "SeatClock",
    "SeatView",
    "TimeControl",
]


class ViewJSON(Response):
    """A game's view, already encoded (``Session.view_json``: once per change, shared with the
    websockets). The routes returning it declare ``response_model=GameView`` for the schema;
    FastAPI passes a returned Response through without validating it again, a quarter of the
    CPU of an action (docs/benchmarks.md). tests/server/test_shared_work.py checks views
    against ``GameView``."""

    media_type = "application/json"


class ErrorBody(Out):
    error: str = Field(description="a short code, stable between versions (see the route's responses)")
    message: str = Field(description="what went wrong, for a person")


class Status(Out):
    status: str


class Rematch(Out):
    """The answer to a rematch call: the offer stands, or the new game with the caller's seat."""

    game: str | None = Field(description="the new game (null: offered, waiting for the other side)")
    seat: int | None = Field(description="the caller's seat in the new game")
    token: str | None = Field(description="the caller's token of that seat (null: held by account)")
    rematch: RematchView


class CreatedSeat(Out):
    seat: int
    kind: str
    token: str | None = Field(description="the seat token (only for the creator's own seats)")
    invite: str | None = Field(description="the invitation link of a seat offered to a friend")


class CreatedGame(Out):
    id: str
    creator_token: str = Field(description="manages the invitations (X-Creator-Token)")
    seats: list[CreatedSeat]
    game: GameView


class Joined(Out):
    seat: int
    token: str = Field(description="the joiner's own seat token")
    game: GameView


class InvitationInfo(Out):
    """What an invitation link offers, read without using it up (the join page)."""

    seat: int = Field(description="the seat the invitation offers")
    player_name: str = Field(description="the game's name of that seat (a colour)")
    status: str = Field(
        description="'open' (it can be used), 'used' (the seat is taken) or 'revoked' (withdrawn)"
    )
    inviter: str | None = Field(
        description="the display name of the creator's first seat ('' if none was given); None in a game "
        "whose creator holds no seat"
    )
    inviter_seat: int | None = Field(description="the creator's first seat")
    game: GameView


class Invitation(Out):
    seat: int
    invite: str | None = Field(description="the new invitation link; None once withdrawn")


class Legal(Out):
    ply: int
    current_player: int
    legal: list[dict[str, Any]]


class Replay(Out):
    ply: int
    moves: int
    last_move: dict[str, Any] | None
    current_player: int
    scores: list[Number]
    state: dict[str, Any]
    text: str


class Hint(Out):
    action: int
    move: str
    value: float
    agent: str


class RankedMove(Out):
    action: int
    move: str
    value: float


class Analysis(Out):
    ply: int
    player: int
    to_move: str | None
    played: dict[str, Any]
    agent: str | None
    top: list[RankedMove]
    of: int
    played_rank: int | None
    played_value: float | None
    chance: bool


class RecordDoc(BaseModel):
    """The core record JSON (format 1, docs/formats.md) with the chance commitment."""

    model_config = ConfigDict(extra="allow")

    format: int
    game: str
    options: dict[str, Any]
    players: list[str]
    moves: list[dict[str, Any]]
    result: dict[str, Any] | None


class Meta(Out):
    version: str
    games: list[dict[str, Any]] = Field(
        description="in menu order: name, title, options (with label and explain for players), "
        "players_option, seatings, renderer, stylesheet, catalogues, undo"
    )
    ai_levels: list[str]
    languages: list[str]
    time_controls: dict[str, Any] = Field(
        description="clocks a game can be created with: kinds with bounds (seconds), presets, on_timeout"
    )
    rating_pools: list[dict[str, Any]] = Field(
        default_factory=list,
        description="the rating pools (docs/accounts.md): id, game, players, teams, title",
    )
    challenges: dict[str, Any] = Field(
        default_factory=dict,
        description="challenges (docs/web.md): decline_reasons (id and English text), "
        "expire_seconds (real_time, slow), challenges_from (the choices of who may challenge you)",
    )
