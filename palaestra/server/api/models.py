"""Request bodies of the HTTP API, with a bound on every field (issue 17, "validation at the edge").

Every text a client sends must be valid UTF-8 (a lone surrogate such as ``"\\ud800"`` is refused:
it could not be written back out as JSON) and free of control characters; names are 1 to 40
printable characters. Numbers stay within 64 bits. A request that breaks a bound gets 422
``invalid_request`` and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AliasChoices, BaseModel, BeforeValidator, Field, field_validator

from palaestra.server.service import clock

#: the largest seed a client may choose (stored in a signed 64-bit column)
MAX_SEED = 2**63 - 1
#: plies, actions and option numbers: far beyond any game, well inside 64 bits
MAX_INT = 2**31 - 1
NAME_LENGTH = 40
TOKEN_LENGTH = 64
MOVE_LENGTH = 200
OPTION_TEXT_LENGTH = 200


def valid_text(value: str) -> str:
    """Valid UTF-8 (no lone surrogates) and no control characters."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid UTF-8 (no lone surrogates)") from None
    if not value.isprintable():
        raise ValueError("text must not hold control or invisible characters")
    return value


def _blank_is_none(value: object) -> object:
    """A name left empty (or only spaces) means "no name" (the seat's default name is shown)."""
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


def _valid_name(value: str | None) -> str | None:
    if value is None:
        return None
    if len(value) > NAME_LENGTH:
        raise ValueError(f"a name has at most {NAME_LENGTH} characters")
    return valid_text(value)


Text = Annotated[str, AfterValidator(valid_text)]
#: a display name: 1-40 printable characters (an empty one counts as none given)
Name = Annotated[str | None, BeforeValidator(_blank_is_none), AfterValidator(_valid_name)]
Token = Annotated[
    Text, Field(min_length=1, max_length=TOKEN_LENGTH, pattern=r"^[A-Za-z0-9_\-]+$", description="a secret")
]
OptionValue = (
    bool
    | Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)]
    | Annotated[Text, Field(max_length=OPTION_TEXT_LENGTH)]
    # a document option (Option kind dict: a board document, ...): passed to the game, which
    # validates it; bounded by the body's size (max_body_bytes) and the option's own bound
    | dict[str, Any]
)


class Strict(BaseModel):
    """Unknown fields are ignored (older and newer clients keep working)."""


class SeatSpec(Strict):
    kind: Literal["human", "ai"] = Field("human", description="'human' (a person) or 'ai'")
    level: Annotated[Text, Field(max_length=32)] | None = Field(
        None, description="AI level (see /api/meta) for kind 'ai'"
    )
    name: Name = Field(None, description="a display name: 1 to 40 printable characters")
    joined: bool = Field(False, description="true for the creator's own seat")


OnTimeout = Literal["lose", "ai"]
AiLevel = Annotated[Text, Field(max_length=32)] | None


class PerMove(Strict):
    """A time for each turn (what is left of a turn is not carried over)."""

    type: Literal["per_move"]
    seconds: int = Field(
        ge=clock.PER_MOVE_SECONDS[0], le=clock.PER_MOVE_SECONDS[1], description="seconds for each turn"
    )
    on_timeout: OnTimeout = Field("lose", description="'lose': the seat loses; 'ai': the AI plays the turn")
    ai_level: AiLevel = Field(None, description="the AI that plays a turn out of time (see /api/meta)")


class Fischer(Strict):
    """A total time for the game, plus an increment after each turn."""

    type: Literal["fischer"]
    seconds: int = Field(
        ge=clock.FISCHER_SECONDS[0], le=clock.FISCHER_SECONDS[1], description="each seat's time at the start"
    )
    increment: int = Field(
        0,
        ge=clock.FISCHER_INCREMENT[0],
        le=clock.FISCHER_INCREMENT[1],
        description="seconds added after each turn",
    )
    on_timeout: OnTimeout = Field("lose", description="'lose': the seat loses; 'ai': the AI plays the turn")
    ai_level: AiLevel = Field(None, description="the AI that plays a turn out of time (see /api/meta)")


class Correspondence(Strict):
    """Days for each turn (issue 29; what is left of a turn is not carried over)."""

    type: Literal["correspondence"]
    days: Literal[1, 2, 3, 7, 14] = Field(description="days for each turn: 1, 2, 3, 7 or 14")
    on_timeout: OnTimeout = Field("lose", description="'lose': the seat loses; 'ai': the AI plays the turn")
    ai_level: AiLevel = Field(None, description="the AI that plays a turn out of time (see /api/meta)")

    @field_validator("days", mode="before")
    @classmethod
    def _whole_days(cls, value: Any) -> Any:
        """A JSON integer only (not true, "3" or 3.0, which the literal alone would take)."""
        if type(value) is not int:
            raise ValueError("days must be one of 1, 2, 3, 7, 14")
        return value


TimeControlSpec = Annotated[PerMove | Fischer | Correspondence, Field(discriminator="type")]


class CreateGame(Strict):
    game: Annotated[Text, Field(max_length=64)] = Field(description="a game name from /api/meta")
    options: dict[Annotated[Text, Field(max_length=64)], OptionValue | None] = Field(
        default_factory=dict, max_length=32, description="game options (variants, players, ...)"
    )
    seats: list[SeatSpec] = Field(min_length=1, max_length=8, description="one per player, in seat order")
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="seed of the chance draws, for hot seat and games against the AI only "
        "(a secret drawn by the server if left out)",
    )
    public: bool = Field(
        False, description="list the game in the lobby for spectators (a rated game always is)"
    )
    hints: bool = Field(False, description="allow hints in a game between people")
    rated: bool = Field(
        False,
        description="a rated game (docs/accounts.md): signed-in creator, members only, a clock, "
        "no hints, no undo, no chosen seed",
    )
    time_control: TimeControlSpec | None = Field(
        None, description="a clock for the game (see /api/meta's time_controls); none if left out"
    )


class JoinSeat(Strict):
    code: Token = Field(
        validation_alias=AliasChoices("code", "token"),
        description="the invitation code (from the link; 'token' is accepted as its old name)",
    )
    name: Name = Field(None, description="a display name: 1 to 40 printable characters")


class SubmitAction(Strict):
    token: Token | None = Field(
        None,
        description="the secret token of the seat to move (left out: the signed-in member's seat, "
        "with the X-CSRF-Token header)",
    )
    ply: int = Field(ge=0, le=MAX_INT, description="the ply (number of moves so far) the action is meant for")
    action: int | None = Field(None, ge=0, le=MAX_INT, description="the action id (from /legal)")
    move: Annotated[Text, Field(min_length=1, max_length=MOVE_LENGTH)] | None = Field(
        None, description="or the move in the game's notation"
    )


class Resign(Strict):
    token: Token | None = Field(None, description="the seat's token (left out: the signed-in member's seat)")


class Undo(Strict):
    token: Token | None = Field(
        None, description="the secret token of the seat to move (left out: the signed-in member's seat)"
    )
    ply: int = Field(ge=0, le=MAX_INT, description="the ply the client saw (refused if the game moved on)")
