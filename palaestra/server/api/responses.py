"""Response bodies of the HTTP API (documented in the OpenAPI schema, checked on the way out).

Nested game data whose shape belongs to each game (a state, score details, a board's web data) is
a free JSON object; everything the server itself decides has a field here.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

Number = int | float


class ViewJSON(Response):
    """A game's view, already encoded (``Session.view_json``: once per change, shared with the
    websockets). The routes returning it declare ``response_model=GameView`` for the schema;
    FastAPI passes a returned Response through without validating it again, a quarter of the
    CPU of an action (docs/benchmarks.md). tests/server/test_shared_work.py checks views
    against ``GameView``."""

    media_type = "application/json"


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(Out):
    error: str = Field(description="a short code, stable between versions (see the route's responses)")
    message: str = Field(description="what went wrong, for a person")


class Status(Out):
    status: str


class SeatView(Out):
    seat: int
    player_name: str = Field(description="the game's name of the seat (a colour)")
    kind: str = Field(description="'human' or 'ai'")
    name: str = Field(description="the display name ('' if none was given)")
    level: str | None = Field(description="the AI level of an AI seat")
    joined: bool = Field(description="a person (or the AI) holds the seat")
    invitation: str | None = Field(description="None, 'open', 'used' or 'revoked'")
    member: str | None = Field(None, description="the username of the account holding the seat")


class Chance(Out):
    scheme: str = Field(description="how draws follow from the secret (docs/web.md, fairness)")
    commitment: str = Field(description="SHA-256 of the secret, published at creation")
    secret: str | None = Field(description="revealed once the game is over")


class TimeControl(Out):
    type: str = Field(description="'per_move', 'fischer' or 'correspondence'")
    days: int | None = Field(None, description="correspondence: days for each turn")
    seconds: float = Field(
        description="per move and correspondence: each turn's time; fischer: each seat's time at the start"
    )
    increment: float | None = Field(None, description="fischer: seconds added after each turn")
    on_timeout: str = Field(description="'lose' or 'ai' (the AI plays a turn whose time ran out)")
    ai_level: str | None = Field(None, description="the AI level that plays such a turn")


class SeatClock(Out):
    seat: int
    remaining: float = Field(description="seconds left at `since` (the last change)")
    left: float = Field(description="seconds left at `now` (when this view was made)")
    running: bool = Field(description="this seat's clock runs")
    timeouts: int = Field(description="turns the AI played for this seat after its time ran out")


class ClockView(Out):
    """A game's clock, kept by the server: count down from `left` with the time since the view
    arrived (never the client's own wall clock)."""

    control: TimeControl
    since: str = Field(description="the server's time of the clock's last change (ISO 8601, UTC)")
    now: str = Field(description="the server's time when this view was made")
    deadline: str | None = Field(description="when the running clock's flag falls (server time)")
    autoplay: int | None = Field(description="the seat whose turn the AI plays after its time ran out")
    flagged: int | None = Field(description="the seat that lost on time")
    seats: list[SeatClock]


class RematchView(Out):
    offered_by: int | None = Field(description="the seat that offered the rematch")
    game: str | None = Field(description="the new game, once accepted")


class Rematch(Out):
    """The answer to a rematch call: the offer stands, or the new game with the caller's seat."""

    game: str | None = Field(description="the new game (null: offered, waiting for the other side)")
    seat: int | None = Field(description="the caller's seat in the new game")
    token: str | None = Field(description="the caller's token of that seat (null: held by account)")
    rematch: RematchView


class GameView(Out):
    """Everything a client shows: the same for players and spectators (tokens never appear)."""

    id: str
    game: str
    title: str
    options: dict[str, Any]
    num_players: int
    seats: list[SeatView]
    seed: int | None = Field(description="the chosen seed (hot seat and AI games only)")
    chance: Chance | None
    hints: bool = Field(description="hints are allowed in this game")
    public: bool = Field(description="listed in the lobby")
    rated: bool = Field(False, description="a rated game (accounts only; docs/accounts.md)")
    ply: int = Field(description="moves so far (chance draws included)")
    version: int = Field(description="bumped on every change")
    status: str = Field(
        description="'active', 'finished' or 'abandoned' (nobody moved for abandon_after_seconds: "
        "kept, no move accepted)"
    )
    current_player: int = Field(description="the seat to move (negative: chance or nobody)")
    to_move: str | None
    scores: list[Number]
    score_details: dict[str, Any]
    dead_position: bool
    max_plies: int
    result: dict[str, Any] | None
    moves: list[dict[str, Any]] = Field(description="the record's moves: player, move (notation), at")
    legal: list[dict[str, Any]] = Field(description="action and move of each legal action of a person")
    undo: int | None = Field(description="the seat that may take back the last action now")
    clock: ClockView | None = Field(None, description="each seat's clock (None: no time control)")
    rematch: RematchView | None = Field(None, description="a finished game's rematch: offer, new game")
    web: dict[str, Any] | None = Field(description="the renderer's static data (board geometry)")
    state: dict[str, Any]
    text: str = Field(description="the position as text")
    created: str
    updated: str


class GameSummary(Out):
    """A lobby row."""

    id: str
    game: str
    title: str
    options: dict[str, Any]
    seats: list[SeatView]
    ply: int
    moves_played: int | None = None
    status: str
    to_move: str | None
    result: dict[str, Any] | None
    updated: str


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
