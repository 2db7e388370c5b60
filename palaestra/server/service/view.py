"""What clients are shown of a game: the view models, and the view built from one set of inputs.

One declaration of each shape: :class:`GameView` (everything a client shows: players and
spectators alike, tokens never appear), :class:`GameSummary` (a lobby row) and their parts are
Pydantic models, built here by the service and named by the API as its ``response_model``s
(palaestra/server/api/responses.py re-exports them; this module imports nothing of HTTP).

The view is made by :func:`make_view` from a :class:`ViewInputs` and nothing else: a frozen record
of everything the view reads of a game (version, status, state, record, seats, clock, rematch,
...). :class:`Views` keeps a session's latest view and its JSON with the inputs they were made
from, and makes them anew when the next call's inputs differ: the inputs *are* the cache key, so
a view cannot read something its key leaves out (docs/web.md, "The view of a game").

The data is ours, so the models are made with ``model_construct`` (no validation), and their JSON
is written by orjson from their fields (``to_json``: the bytes pydantic's serializer makes,
quicker). Only the clock's times are made afresh for each call: the view's JSON is encoded once
per change without its clock, and the clock, the view's last key, is added for each call of a
game that has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, ConfigDict, Field

from palaestra.core.game import CHANCE, Game, State
from palaestra.core.record import Move, Record
from palaestra.server import fairness
from palaestra.server.encoding import encode_json
from palaestra.server.game_hooks import can_undo, web_data
from palaestra.server.service.clock import Clock, stamp

if TYPE_CHECKING:
    from palaestra.server.service.session import Seat

Number = int | float


class Out(BaseModel):
    """A body the server sends: every field declared (extra ones are refused on validation)."""

    model_config = ConfigDict(extra="forbid")


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
    rematch: RematchView | None = Field(None, description="a finished game's rematch: offer, new game")
    web: dict[str, Any] | None = Field(description="the renderer's static data (board geometry)")
    state: dict[str, Any]
    text: str = Field(description="the position as text")
    created: str
    updated: str
    #: last: the only part made afresh for each call (``Views.json`` adds it to the bytes kept)
    clock: ClockView | None = Field(None, description="each seat's clock (None: no time control)")


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


# --- the inputs -------------------------------------------------------------------------------
#: inputs compared by value (immutable); every other input is compared by identity: a change of
#: a game replaces its state, record, seats, rematch or undo entry, and bumps its version
_VALUES = (str, int, float, bool, type(None), datetime, Clock)


@dataclass(frozen=True, eq=False, slots=True)
class ViewInputs:
    """Everything the view of a game is made of. :func:`make_view` reads nothing else, and two
    equal inputs give the same view: the inputs are the view's cache key (``Views``), so a field
    the view needs must be added here, and then it is compared by construction."""

    id: str
    game: Game
    seed: int
    secret: str | None
    created_at: datetime
    updated_at: datetime
    version: int
    status: str
    state: State
    record: Record
    #: the record's length when read (a change makes a new record; the length is belt and braces)
    plies: int
    seats: list[Seat]
    #: the newest (state before, action) of the undo stack: what ``undo_seat`` reads of it
    undo_top: tuple[State, int] | None
    public: bool
    hints: bool
    rated: bool
    rematch: dict[str, Any] | None
    clock: Clock | None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ViewInputs):
            return NotImplemented
        mine, theirs = _parts(self), _parts(other)
        if all(map(is_, mine, theirs)):  # the usual case, a read of a game that did not change
            return True
        return all(
            a is b or (type(a) in _VALUES and type(a) is type(b) and a == b)
            for a, b in zip(mine, theirs, strict=True)
        )

    __hash__ = None  # type: ignore[assignment]

    # --- what the rules say of these inputs (Session asks them too) ---------------------------
    @property
    def seed_chosen(self) -> bool:
        return self.secret is None or self.secret.startswith("seed:")

    def hints_allowed(self) -> bool:
        """Hints only where they help nobody against another person: against the AI, in hot seat
        (every human seat is the creator's), or when the creator allowed them."""
        if self.rated:
            return False
        return self.hints or all(s.kind != "human" or s.creator for s in self.seats)

    def human_to_move(self) -> bool:
        """A person is to move in a game that goes on (not the AI playing a turn out of time)."""
        player = self.state.current_player
        return (
            self.status == "active"
            and not self.state.is_terminal()
            and 0 <= player < len(self.seats)
            and self.seats[player].kind == "human"
            and not (self.clock is not None and self.clock.autoplay == player)
        )

    def undo_seat(self) -> int | None:
        """The seat that may take back the last action now (None: nothing to undo).

        Only an action of the seat still to move, while the game goes on, and only if the game's
        undo policy allows it (``State.can_take_back``, see palaestra/server/game_hooks.py). Known
        from the undo stack of the session (rebuilt from the record when a game is loaded
        mid-turn)."""
        moves = self.record.moves
        if self.rated or self.status != "active" or not moves or self.undo_top is None:
            return None
        player = self.state.current_player
        if moves[-1].player != player or not 0 <= player < len(self.seats):
            return None
        if self.seats[player].kind != "human":
            return None
        before, action = self.undo_top
        if len(before.history) != len(moves) - 1:
            return None
        return player if can_undo(before, action) else None


_parts: Callable[[ViewInputs], tuple[Any, ...]] = attrgetter(*(f.name for f in fields(ViewInputs)))


# --- building -----------------------------------------------------------------------------------
def make_view(inputs: ViewInputs, moves_json: MovesJSON) -> GameView:
    """The view of a game without its clock's times (``clock`` is None: ``Views`` adds it).
    ``moves_json`` only keeps the moves' documents from one change to the next."""
    state, game, record = inputs.state, inputs.game, inputs.record
    player = state.current_player
    human_to_move = inputs.human_to_move()
    legal = (
        [{"action": a, "move": state.action_to_string(a)} for a in state.legal_actions()]
        if human_to_move
        else []
    )
    return GameView.model_construct(
        id=inputs.id,
        game=game.name,
        title=game.title,
        options={k: v for k, v in game.options.items() if v is not None},
        num_players=game.num_players,
        seats=seat_views(inputs.seats, game),
        seed=inputs.seed if inputs.seed_chosen else None,
        chance=chance_view(inputs.secret, revealed=inputs.status != "active"),
        hints=inputs.hints_allowed(),
        public=inputs.public,
        rated=inputs.rated,
        ply=len(record.moves),
        version=inputs.version,
        status=inputs.status,
        current_player=player,
        to_move=who(game, player),
        scores=state.scores(),
        score_details=jsonable(state.score_details()),
        dead_position=state.dead_position(),
        max_plies=game.max_game_length(),
        result=record.result,
        moves=moves_json(record.moves),
        legal=legal,
        undo=inputs.undo_seat() if human_to_move else None,
        rematch=rematch_view(inputs.rematch),
        web=web_data(game),
        state=state.to_json(),
        text=state.render(),
        created=inputs.created_at.isoformat(timespec="seconds"),
        updated=inputs.updated_at.isoformat(timespec="seconds"),
        clock=None,
    )


def game_summary(inputs: ViewInputs) -> GameSummary:
    """A game's lobby row."""
    game = inputs.game
    return GameSummary.model_construct(
        id=inputs.id,
        game=game.name,
        title=game.title,
        options={k: v for k, v in game.options.items() if v is not None},
        seats=seat_views(inputs.seats, game),
        ply=len(inputs.record.moves),
        moves_played=sum(1 for m in inputs.record.moves if m.player >= 0),  # chance draws left out
        status=inputs.status,
        to_move=who(game, inputs.state.current_player),
        result=inputs.record.result,
        updated=inputs.updated_at.isoformat(timespec="seconds"),
    )


def seat_views(seats: list[Seat], game: Game) -> list[SeatView]:
    return [
        SeatView.model_construct(
            seat=i,
            player_name=game.player_name(i),
            kind=seat.kind,
            name=seat.name,
            level=seat.level,
            joined=seat.joined,
            invitation=seat.invite,
            member=seat.member,
        )
        for i, seat in enumerate(seats)
    ]


def chance_view(secret: str | None, revealed: bool) -> Chance | None:
    doc = fairness.chance_doc(secret, revealed=revealed)
    return None if doc is None else Chance.model_construct(**doc)


def rematch_view(rematch: Mapping[str, Any] | None) -> RematchView | None:
    """The rematch as everyone may see it: who offered it and, once accepted, the new game."""
    if rematch is None:
        return None
    return RematchView.model_construct(offered_by=rematch.get("offered_by"), game=rematch.get("game"))


def clock_view(clock: Clock, now: float) -> ClockView:
    """The clock as clients see it: each seat's time left at the server's ``now``, which seat
    runs, and the server's times of the last change and of this view (a browser counts down
    from ``left`` with its own elapsed time, never its own wall clock)."""
    deadline = clock.deadline()
    return ClockView.model_construct(
        control=TimeControl.model_construct(**clock.control.to_json()),
        since=stamp(clock.since),
        now=stamp(now),
        deadline=None if deadline is None else stamp(deadline),
        autoplay=clock.autoplay,
        flagged=clock.flagged,
        seats=[
            SeatClock.model_construct(
                seat=i,
                remaining=round(clock.remaining[i], 3),
                left=round(clock.left(i, now), 3),
                running=i == clock.running,
                timeouts=clock.timeouts[i] if i < len(clock.timeouts) else 0,
            )
            for i in range(len(clock.remaining))
        ],
    )


def who(game: Game, player: int) -> str | None:
    if player == CHANCE:
        return "chance"
    if 0 <= player < game.num_players:
        return game.player_name(player)
    return None


def to_json(model: BaseModel, exclude: set[str] | None = None) -> bytes:
    """``model`` as compact JSON (UTF-8): the bytes its pydantic serializer makes, made by orjson.

    The models here declare plain fields only (no aliases, no serializers of their own), and the
    service fills them with JSON data, so a model is its fields: orjson writes the fields, and a
    nested model as its fields. pydantic-core's ``to_json`` writes the same bytes but took some
    three times as long for a view (its ``Any`` fields, the state, moves and legal moves, are
    inspected value by value; docs/benchmarks.md, "One view model"); tests/server/test_view_model.py
    checks that both give the same bytes. What orjson refuses (a lone surrogate, which UTF-8
    cannot hold; an integer past 64 bits) goes through ``encode_json``'s fallback."""
    fields = model.__dict__
    if exclude:
        fields = {k: v for k, v in fields.items() if k not in exclude}
    try:
        return orjson.dumps(fields, default=_fields)
    except orjson.JSONEncodeError:
        return encode_json(model.model_dump(exclude=exclude))


def _fields(value: Any) -> dict[str, Any]:
    """orjson's hook for a value it does not know: a nested model is written as its fields."""
    if isinstance(value, BaseModel):
        return value.__dict__
    raise TypeError(f"{type(value).__name__} is not JSON")


def jsonable(value: Any) -> Any:
    """Score details as plain JSON (tuples to lists, unknown objects to strings)."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


# --- a session's views ------------------------------------------------------------------------
class Views:
    """A session's latest view and its JSON, kept with the inputs they were made from.

    Made once per change: the answer to the mover, the push to every websocket and every reader
    until the next change share them (the legal moves, scores and text of a position cost more
    than the rest of a request; docs/benchmarks.md). Callers must not change them. Only the
    clock's times are made afresh for each call (they count down with the server's time)."""

    def __init__(self) -> None:
        self.inputs: ViewInputs | None = None
        self.made: GameView | None = None
        #: the view's JSON without its clock, up to the closing brace (the clock is its last key)
        self.head: bytes | None = None
        #: the JSON of a view without a clock, whole
        self.whole: bytes | None = None
        self.moves_json = MovesJSON()

    def fresh(self, inputs: ViewInputs) -> bool:
        """Make the view of ``inputs`` unless it is the one kept; True if it was made anew."""
        if self.made is not None and self.inputs == inputs:
            return False
        self.inputs, self.made = inputs, make_view(inputs, self.moves_json)
        self.head = self.whole = None
        return True

    def view(self, now: float) -> GameView:
        """The view kept (``fresh`` first), with its clock's times at ``now``."""
        assert self.inputs is not None and self.made is not None
        clock = self.inputs.clock
        if clock is None:
            return self.made
        return self.made.model_copy(update={"clock": clock_view(clock, now)})

    def json(self, now: float) -> bytes:
        """The view kept as JSON (``fresh`` first): its bytes are shared until the next change,
        and a game with a clock adds the clock's JSON at ``now`` to the bytes of the rest."""
        assert self.inputs is not None and self.made is not None
        clock = self.inputs.clock
        if clock is None:
            if self.whole is None:
                self.whole = to_json(self.made)
            return self.whole
        if self.head is None:
            self.head = to_json(self.made, exclude={"clock"})[:-1]
        return self.head + b',"clock":' + to_json(clock_view(clock, now)) + b"}"

    def drop(self) -> None:
        """Forget the view and its JSON (made again by the next reader); the moves' documents stay."""
        self.inputs = self.made = None
        self.head = self.whole = None

    @property
    def kept(self) -> bool:
        return self.made is not None


class MovesJSON:
    """The moves of a game as JSON documents, kept from one change to the next: a change adds or
    takes back moves at the end, so only those are made (``Move.to_json`` of every move of a long
    game, for the view and for the stored record, was the largest cost of an action late in a
    game: docs/benchmarks.md). Moves equal to those seen before (compared in C, by identity
    first) reuse their documents, which callers must not change."""

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.docs: list[dict[str, Any]] = []

    def __call__(self, moves: list[Move]) -> list[dict[str, Any]]:
        known = len(self.moves)
        if len(moves) >= known and moves[:known] == self.moves:
            docs = self.docs + [m.to_json() for m in moves[known:]]
        elif moves == self.moves[: len(moves)]:
            docs = self.docs[: len(moves)]
        else:
            docs = [m.to_json() for m in moves]
        self.moves, self.docs = list(moves), docs
        return docs
