"""A game being played, in memory: its seats, state, record, its transitions and what clients
are shown.

A :class:`Session` is the server's authoritative copy of one game; a :class:`Seat` one player's
place in it (token hash, invitation). A session owns its game's transitions: each (``play``,
``act``, ``resign``, ``abort``, ``claim_win``, ``flag_fall``, ``undo``, ``seated``,
``rematch_agreed``) computes the game after a change from the game as it is now, a
:class:`~palaestra.server.service.change.Change`, or refuses with a ``DomainError``; it never
stores nor tells anyone (``Sessions.commit`` stores the change, then makes it current).
``Session.view`` is what every client sees (players and spectators alike: tokens never appear),
``Session.summary`` a lobby row.
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

from palaestra.ai.base import Agent
from palaestra.core.chance import ChanceSource
from palaestra.core.errors import NotationError, PalaestraError
from palaestra.core.finish import advance, end_by
from palaestra.core.game import CHANCE, Game, State
from palaestra.core.outcome import Termination
from palaestra.core.record import Move, Record
from palaestra.server import fairness
from palaestra.server.encoding import encode_json
from palaestra.server.game_hooks import can_undo, web_data
from palaestra.server.service.change import Change, copy_record
from palaestra.server.service.clock import Clock
from palaestra.server.service.errors import DomainError

#: a message for a websocket: a dict to encode, or JSON text already encoded (``state_message``)
Message = dict[str, Any] | str

#: how many positions before the last actions a session keeps in memory for undo
UNDO_DEPTH = 64


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_secret(a: str, b: str) -> bool:
    return secrets.compare_digest(a, b)


def showable(doc: Any) -> bool:
    """True if ``doc`` can be sent as JSON (a row holding a lone surrogate cannot)."""
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError):
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

    def public(self, index: int, game: Game) -> dict[str, Any]:
        return {
            "seat": index,
            "player_name": game.player_name(index),
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "joined": self.joined,
            "invitation": self.invite,
            "member": self.member,
        }


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
    #: the latest view and what it was made from (see ``view``)
    _view: tuple[tuple[Any, ...], dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    #: the documents of the record's moves (see ``moves_json``)
    _moves_json: MovesJSON = field(default_factory=lambda: MovesJSON(), repr=False, compare=False)
    #: the latest view as JSON (see ``view_json``), with the view it encodes
    _view_json: tuple[dict[str, Any], bytes] | None = field(default=None, repr=False, compare=False)
    #: called when the view caches are made anew (the sessions keep only the latest games' caches)
    on_view_cached: Callable[[Session], None] = field(default=lambda s: None, repr=False, compare=False)

    @property
    def seed_chosen(self) -> bool:
        return self.secret is None or self.secret.startswith("seed:")

    def hints_allowed(self) -> bool:
        """Hints only where they help nobody against another person: against the AI, in hot seat
        (every human seat is the creator's), or when the creator allowed them."""
        if self.rated:
            return False
        return self.hints or all(s.kind != "human" or s.creator for s in self.seats)

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
        """The seat that may take back the last action now (None: nothing to undo).

        Only an action of the seat still to move, while the game goes on, and only if the game's
        undo policy allows it (``State.can_take_back``, see palaestra/server/game_hooks.py). Known
        from the undo stack of this session (rebuilt from the record when a game is loaded
        mid-turn)."""
        if self.rated or self.status != "active" or not self.record.moves or not self.undo_stack:
            return None
        player = self.state.current_player
        if self.record.moves[-1].player != player or not 0 <= player < len(self.seats):
            return None
        if self.seats[player].kind != "human":
            return None
        before, action = self.undo_stack[-1]
        if len(before.history) != self.ply - 1:
            return None
        return player if can_undo(before, action) else None

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

    def flag_fall(self, now: float) -> tuple[int, Change] | None:
        """The fall of the flag of the seat whose time has run out by ``now``, and the game after
        it: the seat loses, or (``on_timeout`` "ai") the AI plays its turn. None if no time is up."""
        clock = self.clock
        seat = None if clock is None or self.status != "active" else clock.out_of_time(now)
        if clock is None or seat is None:
            return None
        fallen = clock.fall(now)
        if clock.control.on_timeout == "ai":
            return seat, self._moved(self.state, self.record, self.status, clock=fallen)
        return seat, self.ended_by(seat, Termination.TIME, clock=fallen)

    def undo_from_stack(self, seat: int, ply: int) -> tuple[State, int] | None:
        """Refuse to take back the last action unless it is ``seat``'s own and still its turn, at
        move ``ply``, in its time, in a game that allows undo; the state before it and the action,
        from the undo stack (None: not there, the caller replays the record,
        ``persistence.state_before_last``). Then ``undo`` gives the game after it."""
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
    def view(self) -> dict[str, Any]:
        """Everything a client shows: the same for players and spectators (tokens never appear).

        Made once per change: the answer to the mover, the push to every websocket and every
        reader until the next change share it (the legal moves, scores and text of a position cost
        more than the rest of a request; docs/benchmarks.md). Callers must not change it. A change
        replaces ``state``, ``record``, ``seats`` or ``clock`` and bumps ``version``; the key holds
        all of them, so a view is never older than the session. Only the clock's times are made
        afresh for each call (they count down with the server's time)."""
        key = (
            self.version,
            self.status,
            id(self.state),
            id(self.record),
            len(self.record.moves),
            id(self.seats),
            len(self.undo_stack),
            self.public,
            self.hints,
            self.rated,
            id(self.rematch),
            self.secret,
            self.updated_at,
            id(self.clock),
        )
        if self._view is None or self._view[0] != key:
            self._view = (key, self._make_view())
            self.on_view_cached(self)
        view = self._view[1]
        if self.clock is None:
            return view
        return {**view, "clock": self.clock.view(self.now())}

    def view_json(self) -> bytes:
        """``view()`` as JSON (UTF-8), encoded once per change like the view itself: the answer
        to the mover, the push to every websocket and every reader share the bytes. A game with a
        clock is encoded for each call (its times are made afresh)."""
        view = self.view()
        if self._view_json is not None and self._view_json[0] is view:
            return self._view_json[1]
        encoded = encode_json(view)
        if self.clock is None:
            self._view_json = (view, encoded)
        return encoded

    def drop_view_caches(self) -> None:
        """Forget the cached view and its JSON (some 25 KB for a game of 2 players): made again by
        the next reader. The sessions keep them for the games used last only (``Sessions``,
        ``view_cache_games``), so games played once and left idle hold their state, not their view."""
        self._view = None
        self._view_json = None

    def moves_json(self, moves: list[Move] | None = None) -> list[dict[str, Any]]:
        """The documents of ``moves`` (default: the record's), made once per move of the game."""
        return self._moves_json(self.record.moves if moves is None else moves)

    def state_message(self) -> str:
        """The websocket message ``{"type": "state", "game": VIEW}`` as JSON text, from the view
        encoded once (``view_json``)."""
        return '{"type":"state","game":' + self.view_json().decode() + "}"

    def _make_view(self) -> dict[str, Any]:
        state = self.state
        player = state.current_player
        human_to_move = (
            self.status == "active"
            and not state.is_terminal()
            and 0 <= player < len(self.seats)
            and self.seats[player].kind == "human"
            and not (self.clock is not None and self.clock.autoplay == player)
        )
        legal = (
            [{"action": a, "move": state.action_to_string(a)} for a in state.legal_actions()]
            if human_to_move
            else []
        )
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": {k: v for k, v in self.game.options.items() if v is not None},
            "num_players": self.game.num_players,
            "seats": [seat.public(i, self.game) for i, seat in enumerate(self.seats)],
            "seed": self.seed if self.seed_chosen else None,
            "chance": self.chance(),
            "hints": self.hints_allowed(),
            "public": self.public,
            "rated": self.rated,
            "ply": self.ply,
            "version": self.version,
            "status": self.status,
            "current_player": player,
            "to_move": who(self.game, player),
            "scores": state.scores(),
            "score_details": _jsonable(state.score_details()),
            "dead_position": state.dead_position(),
            "max_plies": self.game.max_game_length(),
            "result": self.record.result,
            "moves": self.moves_json(),
            "legal": legal,
            "undo": self.undo_seat() if human_to_move else None,
            "clock": None if self.clock is None else self.clock.view(self.now()),
            "rematch": self.rematch_view(),
            "web": web_data(self.game),
            "state": state.to_json(),
            "text": state.render(),
            "created": self.created_at.isoformat(timespec="seconds"),
            "updated": self.updated_at.isoformat(timespec="seconds"),
        }

    def rematch_view(self) -> dict[str, Any] | None:
        """The rematch as everyone may see it: who offered it and, once accepted, the new game."""
        if self.rematch is None:
            return None
        return {"offered_by": self.rematch.get("offered_by"), "game": self.rematch.get("game")}

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": {k: v for k, v in self.game.options.items() if v is not None},
            "seats": [seat.public(i, self.game) for i, seat in enumerate(self.seats)],
            "ply": self.ply,
            "moves_played": sum(1 for m in self.record.moves if m.player >= 0),  # chance draws left out
            "status": self.status,
            "to_move": who(self.game, self.state.current_player),
            "result": self.record.result,
            "updated": self.updated_at.isoformat(timespec="seconds"),
        }


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


def who(game: Game, player: int) -> str | None:
    if player == CHANCE:
        return "chance"
    if 0 <= player < game.num_players:
        return game.player_name(player)
    return None


def _jsonable(value: Any) -> Any:
    """Score details as plain JSON (tuples to lists, unknown objects to strings)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
