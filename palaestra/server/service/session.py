"""A game being played, in memory: its seats, state, record, its transitions and what clients
are shown.

A :class:`Session` is the server's authoritative copy of one game; a :class:`Seat` one player's
place in it (token hash, invitation). A session owns its game's transitions: each (``play``,
``act``, ``resign``, ``abort``, ``claim_win``, ``flag_fall``, ``undo``, ``seated``,
``rematch_agreed``) computes the game after a change from the game as it is now, a
:class:`~palaestra.server.service.change.Change`, or refuses with a ``DomainError``; it never
stores nor tells anyone (``Sessions.commit`` stores the change, then makes it current).
``Session.view`` is what every client sees (players and spectators alike: tokens never appear),
``Session.summary`` a lobby row: both are made in palaestra/server/service/view.py from the
session's ``view_inputs``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from palaestra.ai.base import Agent
from palaestra.core.chance import ChanceSource
from palaestra.core.errors import NotationError, PalaestraError
from palaestra.core.finish import advance, end_by
from palaestra.core.game import CHANCE, Game, State
from palaestra.core.outcome import Termination
from palaestra.core.record import Move, Record
from palaestra.server import fairness
from palaestra.server.game_hooks import can_undo
from palaestra.server.service.change import Change, copy_record
from palaestra.server.service.clock import Clock
from palaestra.server.service.errors import DomainError
from palaestra.server.service.view import (
    GameSummary,
    GameView,
    MovesJSON,
    RematchView,
    ViewInputs,
    Views,
    game_summary,
    rematch_view,
    who,
)

__all__ = ["Message", "MovesJSON", "Seat", "Session", "hash_token", "same_secret", "showable", "who"]

#: a message for a websocket: a dict to encode, or JSON text already encoded (``state_message``)
Message = dict[str, Any] | str

#: how many positions before the last actions a session keeps in memory for undo
UNDO_DEPTH = 64


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_secret(a: str, b: str) -> bool:
    return secrets.compare_digest(a, b)


def showable(doc: Any) -> bool:
    """True if ``doc`` (a document or a view model) can be sent as JSON (a row holding a lone
    surrogate cannot)."""
    try:
        if isinstance(doc, BaseModel):
            doc.__pydantic_serializer__.to_json(doc)
        else:
            json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError, PydanticSerializationError):
        return False
    return True


@dataclass
class Seat:
    """A seat: its player's token (hash), and for a seat offered to a friend its invitation.

    ``invite`` is None (no invitation: the creator's seat or an AI), ``"open"``, ``"used"`` (the
    friend joined: ``invite_hash`` still names the code, so a second use says so) or
    ``"revoked"``; ``revoked`` holds the hashes of earlier codes of the seat."""

    kind: str  # "human" or "ai"
    name: str
    level: str | None = None
    token_hash: str | None = None
    joined: bool = False
    creator: bool = False  # held by the game's creator (hot seat)
    invite_hash: str | None = None
    invite: str | None = None
    revoked: list[str] = field(default_factory=list)
    #: the account that holds the seat (issue 28: it acts from any device where it is signed in;
    #: the seat's token still works) and its username, shown with the seat
    account: int | None = None
    member: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token_hash": self.token_hash,
            "joined": self.joined,
            "creator": self.creator,
            "invite_hash": self.invite_hash,
            "invite": self.invite,
            "revoked": list(self.revoked),
            "account": self.account,
            "member": self.member,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Seat:
        joined = bool(doc.get("joined", False))
        token_hash = doc.get("token_hash")
        invite = doc.get("invite")
        invite_hash = doc.get("invite_hash")
        if "invite" not in doc and doc.get("kind") == "human" and not joined:
            # a seat stored before invitations: its old token is the (open) invitation code
            invite, invite_hash, token_hash = "open", token_hash, None
        return cls(
            str(doc["kind"]),
            str(doc.get("name", "")),
            doc.get("level"),
            token_hash,
            joined,
            bool(doc.get("creator", joined and doc.get("kind") == "human")),
            invite_hash,
            invite,
            [str(h) for h in doc.get("revoked", [])],
            doc.get("account"),
            doc.get("member"),
        )


@dataclass
class Session:
    """One game being played (or finished) with its subscribers."""

    id: str
    game: Game
    seats: list[Seat]
    seed: int
    state: State
    record: Record
    status: str  # "active" | "finished" | "abandoned" (nobody moved for ``abandon_after_seconds``)
    created_at: datetime
    updated_at: datetime
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: when this process last used the game (time.monotonic), for eviction
    touched: float = field(default_factory=time.monotonic)
    #: with other processes (palaestra/server/service/sessions.py, ``Sessions.get``): the broker's
    #: listening token when the row's version was last checked, and when (time.monotonic)
    checked: int | None = None
    checked_at: float = 0.0
    #: the newest version pushed to this process's websockets of the game
    pushed: int = -1
    #: the websockets' queues: a message is a dict, or a state message already encoded (a str)
    subscribers: set[asyncio.Queue[Message]] = field(default_factory=set)
    agents: dict[int, Agent] = field(default_factory=dict)
    #: this copy of the game in memory: its AI seats' agents kept in a search child are keyed by
    #: it, so a game loaded again gets new ones, as ``agents`` (palaestra/server/service/searching.py)
    token: str = field(default_factory=lambda: secrets.token_hex(8))
    runner: asyncio.Task[None] | None = None
    version: int = 0  # bumped on every change (action, undo, seats, resignation); stored
    #: (state before, action) of the latest actions, newest last, for undo (not stored: after a
    #: restart the state before is rebuilt from the record)
    undo_stack: list[tuple[State, int]] = field(default_factory=list)
    #: the AI's view of finished games' moves, by ply (computed on demand)
    analyses: dict[int, dict[str, Any]] = field(default_factory=dict)
    public: bool = False  # listed in the lobby
    hints: bool = False  # the creator allows hints between people
    rated: bool = False  # rated (issue 28): accounts only, a clock, no undo, no hints
    #: a finished game's rematch (issue 29): ``{"offered_by", "hashes"}``, then also ``"game"``
    rematch: dict[str, Any] | None = None
    creator_hash: str | None = None
    #: the chance secret (None: a game from before issue 17, drawing from its seed)
    secret: str | None = None
    #: the game's clock (None: no time control; palaestra/server/service/clock.py)
    clock: Clock | None = None
    #: the server's time (seconds since the epoch); the tests give another
    now: Callable[[], float] = field(default=time.time, repr=False)
    #: the latest view, its JSON and the documents of the record's moves (see ``view``)
    views: Views = field(default_factory=Views, repr=False, compare=False)
    #: called when the view caches are made anew (the sessions keep only the latest games' caches)
    on_view_cached: Callable[[Session], None] = field(default=lambda s: None, repr=False, compare=False)

    def hints_allowed(self) -> bool:
        """Hints only where they help nobody against another person (``ViewInputs.hints_allowed``)."""
        return self.view_inputs().hints_allowed()

    def chance_source(self) -> ChanceSource:
        """The draws of this game: the one chance-seeding rule (palaestra/core/chance.py) keyed by
        its secret, or by its seed for a game from before the secrets (issue 17)."""
        if self.secret is None:
            return ChanceSource.from_seed(self.seed)
        return ChanceSource(self.secret)

    def chance(self) -> dict[str, Any] | None:
        return fairness.chance_doc(self.secret, revealed=self.status != "active")

    def record_json(self) -> dict[str, Any]:
        """The game record, with the chance commitment (and the secret once the game is over)."""
        doc = self.record.to_json()
        chance = self.chance()
        if chance is not None:
            doc["chance"] = chance
        return doc

    @property
    def ply(self) -> int:
        return len(self.record.moves)

    def seat_of(self, token: str | None, account: int | None = None) -> int | None:
        """The seat of a token, or without one the seat of a signed-in member's account (the seat
        to move if the account holds several: hot seat)."""
        if token:
            digest = hash_token(token)
            for index, seat in enumerate(self.seats):
                if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                    return index
            return None
        if account is None:
            return None
        held = [i for i, s in enumerate(self.seats) if s.account == account]
        player = self.state.current_player
        return player if player in held else (held[0] if held else None)

    def check_playable(self, over: str = "the game is over") -> None:
        """Refuse a change of a game that is no longer played: 409 ``game_abandoned`` (nobody
        moved for a long time, docs/web.md "Abandoned games") or 409 ``game_over``."""
        if self.status == "abandoned":
            raise DomainError(
                "game_abandoned",
                "nobody moved in this game for a long time, so it was set aside as abandoned: "
                "it is kept to look at, but it cannot go on",
            )
        if self.status != "active" or self.state.is_terminal():
            raise DomainError("game_over", over)

    def unjoined(self) -> list[int]:
        """The seats whose invitation nobody has taken yet: the game waits for them (issue 30,
        finding 14: the host could move before the invited friend joined). AI seats and the
        creator's own seats are joined from the start."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and not s.joined]

    def check_everybody_joined(self) -> None:
        """Refuse a move while an invited player has not joined: 409 ``waiting_for_players``."""
        waiting = self.unjoined()
        if waiting:
            names = " and ".join(self.game.player_name(i) for i in waiting)
            raise DomainError(
                "waiting_for_players",
                f"the game starts once every invited player has joined: waiting for {names}",
            )

    def waiting_for_server(self) -> bool:
        """True if the next action is the server's (chance, an AI seat, or a seat whose time ran
        out and whose turn the AI plays); nobody moves before every invited player has joined."""
        if self.status != "active" or self.state.is_terminal() or self.unjoined():
            return False
        player = self.state.current_player
        if self.clock is not None and self.clock.autoplay == player:
            return True
        return player == CHANCE or (0 <= player < len(self.seats) and self.seats[player].kind == "ai")

    def ai_level(self, player: int) -> str:
        """The level of the AI that plays for ``player`` (an AI seat, or a seat out of time)."""
        seat = self.seats[player]
        if seat.kind == "ai":
            return seat.level or "random"
        control = self.clock.control if self.clock is not None else None
        return (control.ai_level if control is not None else None) or "random"

    def timed_seat(self, state: State, status: str, seats: list[Seat]) -> int | None:
        """The seat whose clock runs in this position: a person to move in a game that goes on,
        once every invited player has joined (None: chance, an AI seat, over, not started)."""
        if status != "active" or state.is_terminal():
            return None
        if any(s.kind == "human" and not s.joined for s in seats):
            return None
        player = state.current_player
        return player if 0 <= player < len(seats) and seats[player].kind == "human" else None

    def undo_seat(self) -> int | None:
        """The seat that may take back the last action now (None: nothing to undo; the rule is
        ``ViewInputs.undo_seat``, palaestra/server/service/view.py)."""
        return self.view_inputs().undo_seat()

    # --- transitions: each computes the game after a change, or refuses; nothing is stored ------
    def _clock_after(self, state: State, status: str, seats: list[Seat]) -> Clock | None:
        """The clock once ``state`` (with ``status`` and ``seats``) is the game's position now."""
        if self.clock is None:
            return None
        if status != "active":
            return self.clock.stop(self.now())
        return self.clock.advance(self.timed_seat(state, status, seats), self.now())

    def _moved(
        self,
        state: State,
        record: Record,
        status: str,
        undo_stack: list[tuple[State, int]] | None = None,
        action: int | None = None,
        clock: Clock | None = None,
    ) -> Change:
        """The game at ``state`` with ``record`` and ``status``, its clock going on from there
        (or ``clock``: a flag that fell)."""
        clock = clock or self._clock_after(state, status, self.seats)
        stack = self.undo_stack if undo_stack is None else undo_stack
        return Change("game", state, record, status, self.seats, clock, self.rematch, stack, action)

    def play(self, action: int) -> Change:
        """The game after ``action`` (legal: an illegal one raises ``IllegalActionError``), played
        the one way (:func:`palaestra.core.finish.advance`: the record is ended when the game is
        over or settled); the state before is kept for undo."""
        before = self.state
        state = before.clone()
        record = copy_record(self.record)
        advance(state, action, record)
        status = "finished" if record.over else "active"
        undo_stack = [*self.undo_stack, (before, action)][-UNDO_DEPTH:]
        return self._moved(state, record, status, undo_stack, action)

    def act(self, seat: int, ply: int, action: int | None, move: str | None) -> Change:
        """``seat``'s action (a number, or ``move`` in notation), meant for move ``ply``: refused
        unless the game goes on with everybody joined, at that ply, on the seat's turn and in its
        time, and the action is legal."""
        self.check_playable()
        self.check_everybody_joined()
        if ply != self.ply:
            raise DomainError(
                "stale_action",
                f"this action was meant for move {ply}, but the game is at move {self.ply}; "
                "reload and try again",
            )
        if self.state.current_player != seat:
            raise DomainError(
                "not_your_turn",
                f"it is {who(self.game, self.state.current_player)}'s turn, "
                f"not {self.game.player_name(seat)}'s",
            )
        self.check_time(seat)
        state = self.state
        if move is not None:
            try:
                action = state.string_to_action(move)
            except NotationError as err:
                raise DomainError("bad_notation", str(err)) from None
            except PalaestraError as err:
                raise DomainError("illegal_action", str(err)) from None
        assert action is not None
        if not state.is_legal(action):
            raise DomainError("illegal_action", state.explain_illegal(action))
        return self.play(action)

    def check_time(self, seat: int) -> None:
        """Refuse a seat's action once its time has run out (or while the AI plays its turn)."""
        clock = self.clock
        if clock is not None and (clock.autoplay == seat or clock.out_of_time(self.now()) == seat):
            raise self.out_of_time(seat)

    def out_of_time(self, seat: int) -> DomainError:
        name = self.game.player_name(seat)
        if self.clock is not None and self.clock.control.on_timeout == "ai":
            return DomainError("out_of_time", f"{name}'s time ran out: the AI plays this turn")
        return DomainError("out_of_time", f"{name}'s time ran out")

    def ended_by(
        self, seat: int, termination: Termination, claimed_by: int | None = None, clock: Clock | None = None
    ) -> Change:
        """The game that ``seat`` ended before its rules did (the one way a seat ends a game,
        :func:`palaestra.core.finish.end_by`): it resigned, ran out of time or left (it ranks
        last, the others share first place), or it aborted before every seat moved (no winner,
        every return 0, never rated)."""
        record = copy_record(self.record)
        record.finish(end_by(self.state, seat, termination, claimed_by))
        return self._moved(self.state, record, "finished", clock=clock)

    def resign(self, seat: int) -> Change:
        """``seat`` gives up: it ranks last, the others share the rest."""
        self.check_playable()
        return self.ended_by(seat, Termination.RESIGNATION)

    def abort(self, seat: int) -> Change:
        """``seat`` calls the game off while some seat has not moved yet: no winner, not rated."""
        self.check_playable()
        moved = {m.player for m in self.record.moves}
        if all(p in moved for p in range(self.game.num_players)):
            raise DomainError("cannot_abort", "every seat has moved: resign instead")
        return self.ended_by(seat, Termination.ABORT)

    def claim_win(self, seat: int, gone_for: Callable[[int], float | None], after: float) -> Change:
        """``seat`` claims the win of a real-time game whose seat to move has been gone (no
        websocket, ``gone_for`` seconds) for ``after`` seconds: that seat loses as if it resigned."""
        self.check_playable()
        absent = self.state.current_player
        if self.clock is None or self.clock.control.kind == "correspondence":
            raise DomainError("cannot_claim", "only a real-time game (with a clock) can be claimed")
        if absent == seat or not 0 <= absent < len(self.seats) or self.seats[absent].kind != "human":
            raise DomainError("cannot_claim", "the win is claimed from another person who is to move")
        gone = gone_for(absent)
        if gone is None or gone < after:
            raise DomainError(
                "cannot_claim", f"{self.game.player_name(absent)} has not been gone for {after:g} s"
            )
        return self.ended_by(absent, Termination.ABANDONMENT, claimed_by=seat)

    def flag_fall(self, now: float) -> Change | None:
        """The game once the flag of the seat whose time has run out by ``now`` falls: the seat
        loses (``clock.flagged``), or (``on_timeout`` "ai") the AI plays its turn
        (``clock.autoplay``). None if no time is up."""
        clock = self.clock
        seat = None if clock is None or self.status != "active" else clock.out_of_time(now)
        if clock is None or seat is None:
            return None
        fallen = clock.fall(now)
        if clock.control.on_timeout == "ai":
            return self._moved(self.state, self.record, self.status, clock=fallen)
        return self.ended_by(seat, Termination.TIME, clock=fallen)

    def undo_from_stack(self, seat: int, ply: int) -> tuple[State, int] | None:
        """Refuse to take back the last action unless it is ``seat``'s own and still its turn, at
        move ``ply``, in its time, in a game that goes on and is not rated; the state before it
        and the action, from the undo stack (None: not there, the caller replays the record,
        ``persistence.state_before_last``). Then ``undo`` (which asks the game's undo policy)
        gives the game after it."""
        self.check_playable()
        if self.rated:
            raise DomainError("cannot_undo", "a rated game allows no undo")
        if ply != self.ply:
            raise DomainError(
                "stale_action",
                f"this undo was meant for move {ply}, but the game is at move {self.ply}; "
                "reload and try again",
            )
        self.check_time(seat)
        moves = self.record.moves
        if not moves or moves[-1].player != seat or self.state.current_player != seat:
            raise DomainError("cannot_undo", "only your own last action, while it is still your turn")
        if self.undo_stack and len(self.undo_stack[-1][0].history) == self.ply - 1:
            return self.undo_stack[-1]
        return None

    def undo(self, before: State, action: int) -> Change:
        """The game with its last action (``action`` from ``before``) taken back, if the rules
        allow it: the record loses the move (nobody moved since, and undoable actions reveal
        nothing, so the record stays replayable)."""
        if not can_undo(before, action):
            raise DomainError(
                "cannot_undo",
                f"{self.record.moves[-1].move} cannot be taken back (the rules do not allow it)",
            )
        record = copy_record(self.record)
        record.moves.pop()
        record.outcome = None
        record.ended = None
        stack = self.undo_stack
        if stack and stack[-1][0] is before:
            stack = stack[:-1]
        return self._moved(before.clone(), record, "active", stack)

    def seated(self, seats: list[Seat]) -> Change:
        """The game with ``seats`` (a seat joined, bound to an account, its invitation changed):
        a clock starts once the last invited player has joined."""
        clock = self._clock_after(self.state, self.status, seats)
        return Change(
            "seats", self.state, self.record, self.status, seats, clock, self.rematch, self.undo_stack
        )

    def rematch_agreed(self, rematch: dict[str, Any]) -> Change:
        """The finished game with its rematch agreement ``rematch``."""
        return Change(
            "rematch",
            self.state,
            self.record,
            self.status,
            self.seats,
            self.clock,
            rematch,
            self.undo_stack,
        )

    # --- views ------------------------------------------------------------------------------
    def view_inputs(self) -> ViewInputs:
        """Everything the view reads of the game now: its cache key (palaestra/server/service/view.py)."""
        return ViewInputs(
            id=self.id,
            game=self.game,
            seed=self.seed,
            secret=self.secret,
            created_at=self.created_at,
            updated_at=self.updated_at,
            version=self.version,
            status=self.status,
            state=self.state,
            record=self.record,
            plies=len(self.record.moves),
            seats=self.seats,
            undo_top=self.undo_stack[-1] if self.undo_stack else None,
            public=self.public,
            hints=self.hints,
            rated=self.rated,
            rematch=self.rematch,
            clock=self.clock,
        )

    def _fresh_view(self) -> None:
        if self.views.fresh(self.view_inputs()):
            self.on_view_cached(self)

    def view(self) -> GameView:
        """Everything a client shows: the same for players and spectators (tokens never appear).

        Made once per change from ``view_inputs`` and shared by the answer to the mover, the push
        to every websocket and every reader until the inputs change (``Views``); callers must not
        change it. Only the clock's times are made afresh for each call."""
        self._fresh_view()
        return self.views.view(self.now())

    def view_json(self) -> bytes:
        """``view()`` as JSON (UTF-8), encoded once per change like the view itself: the answer
        to the mover, the push to every websocket and every reader share the bytes. A game with a
        clock adds its clock's JSON, made for each call, to the bytes of the rest."""
        self._fresh_view()
        return self.views.json(self.now())

    def drop_view_caches(self) -> None:
        """Forget the cached view and its JSON (some 25 KB for a game of 2 players): made again by
        the next reader. The sessions keep them for the games used last only (``Sessions``,
        ``view_cache_games``), so games played once and left idle hold their state, not their view."""
        self.views.drop()

    def moves_json(self, moves: list[Move] | None = None) -> list[dict[str, Any]]:
        """The documents of ``moves`` (default: the record's), made once per move of the game."""
        return self.views.moves_json(self.record.moves if moves is None else moves)

    def state_message(self) -> str:
        """The websocket message ``{"type": "state", "game": VIEW}`` as JSON text, from the view
        encoded once (``view_json``)."""
        return '{"type":"state","game":' + self.view_json().decode() + "}"

    def rematch_view(self) -> RematchView | None:
        """The rematch as everyone may see it: who offered it and, once accepted, the new game."""
        return rematch_view(self.rematch)

    def summary(self) -> GameSummary:
        """The game's lobby row."""
        return game_summary(self.view_inputs())
