"""Between sessions in memory and rows in the database (palaestra/server/db.py).

``load_server_game`` builds a game from options a client sent or a row holds (only server-safe
options: nothing names a file); ``session_from_stored`` rebuilds a session from its row,
``stored_from_session`` makes the row of a new game.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from palaestra.core.errors import PalaestraError, RecordError
from palaestra.core.game import Game, State
from palaestra.core.record import Record
from palaestra.core.registry import game_class, load_game
from palaestra.server.db import StoredGame
from palaestra.server.game_hooks import has_undo
from palaestra.server.service.clock import Clock
from palaestra.server.service.errors import DomainError
from palaestra.server.service.session import Seat, Session


def load_server_game(name: str, options: Mapping[str, Any]) -> Game:
    """A game for the web app: only options a game marks as server-safe (``Option.server``), so a
    request can never name a file on the server; a bad option is a 400 ``bad_options``."""
    try:
        cls = game_class(name)
    except (PalaestraError, ImportError, AttributeError, TypeError) as err:
        raise DomainError("bad_options", str(err)) from None
    refused = [o.name for o in cls.OPTIONS if not o.server and options.get(o.name) is not None]
    if refused:
        raise DomainError(
            "option_not_allowed",
            f"option {refused[0]!r} of {cls.title} names a file on the server; the web app offers "
            "only what the game ships",
        )
    try:
        key = json.dumps(options, sort_keys=True)
    except (TypeError, ValueError) as err:
        raise DomainError("bad_options", f"bad options: {err}") from None
    try:
        return _shared_game(cls, name, key)
    except PalaestraError as err:
        raise DomainError("bad_options", str(err)) from None
    except (TypeError, ValueError) as err:
        raise DomainError("bad_options", f"bad options: {err}") from None


@functools.lru_cache(maxsize=64)
def _shared_game(cls: type[Game], name: str, options: str) -> Game:
    """One game object per game and options, shared by every session of this process.

    A game object is the rules with their options (immutable once made) plus the engine's tables
    and bounded memos, which the engines keep safe for several threads at once (the AI searches
    of different sessions). Making one costs far more than a request (one game's move tables:
    some 70 ms and 200 KB), so each game created or loaded no longer makes its own
    (docs/benchmarks.md, "Web app under load"). ``cls`` is part of the key: a name registered
    anew (the tests' games) gets a new object."""
    return load_game(name, **json.loads(options))


def state_before_last(record: Record) -> tuple[State, int]:
    """The state before the record's last move, and that move's action."""
    try:
        before = record.replay(len(record.moves) - 1)
        return before, before.string_to_action(record.moves[-1].move)
    except (RecordError, PalaestraError) as err:
        raise DomainError("broken_game", f"the game does not replay: {err}") from None


def iso(value: Any) -> str:
    return value.isoformat(timespec="seconds") if isinstance(value, datetime) else str(value)


def utc_iso(stamp: Any, timespec: str = "auto") -> str:
    """A stored time in ISO 8601 with its offset: SQLite gives it back without one (the times
    are stored in UTC), PostgreSQL with; anything else as text."""
    if not isinstance(stamp, datetime):
        return str(stamp)
    aware = stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)
    return aware.isoformat(timespec=timespec)


def advance(base: Session, game: Game, record: Record) -> tuple[State, tuple[State, int] | None] | None:
    """The state after ``record``'s moves, from ``base`` (the same game held in memory, some moves
    behind): its state with the moves it lacks applied, checked like a replay, and the state
    before the last of them with its action (None if no move was applied). None when ``base``
    is not a beginning of ``record`` (an undo, other options): the caller reads the snapshot. (A
    state is a function of the moves in notation, chance outcomes included, as a replay is.)

    Reloading a game another process moved on is then a few microseconds of the rules instead of
    parsing the whole position (some 0.25 ms for a position of 50 moves; docs/benchmarks.md)."""
    known = base.record.moves
    moves = record.moves
    if base.game is not game or len(moves) < len(known) or len(base.state.history) != len(known):
        return None
    if any((m.player, m.move) != (k.player, k.move) for m, k in zip(moves, known, strict=False)):
        return None
    state = base.state.clone()
    before: tuple[State, int] | None = None
    try:
        for move in moves[len(known) :]:
            if state.is_terminal() or move.player != state.current_player:
                return None
            action = state.string_to_action(move.move)  # raises for a move that does not read
            previous = state.clone()
            state.apply_action(action)
            before = (previous, action)
    except PalaestraError:
        return None
    return state, before


def session_from_stored(stored: StoredGame, base: Session | None = None) -> Session:
    """Rebuild a session: the snapshot if it agrees with the record, else a replay of the record.
    With ``base``, the same game held in memory some moves behind, its state goes on with the
    moves it lacks instead (``advance``)."""
    try:
        game = load_server_game(stored.game, stored.options)
    except DomainError as err:
        raise DomainError("broken_game", f"game {stored.id} cannot be loaded: {err.message}") from None
    try:
        record = Record.from_json(stored.record)
    except RecordError as err:
        raise DomainError("broken_game", f"game {stored.id} has a broken record: {err}") from None
    advanced = None if base is None else advance(base, game, record)
    state: State | None = None if advanced is None else advanced[0]
    if state is None:
        try:
            state = game.state_from_json(stored.snapshot)
            if len(state.history) != len(record.moves):
                state = None
        except Exception:
            state = None
    if state is None:
        try:
            state = record.replay()
        except RecordError as err:
            raise DomainError("broken_game", f"game {stored.id} does not replay: {err}") from None
    seats = [Seat.from_json(s) for s in stored.seats]
    created = _aware(stored.created_at)
    updated = _aware(stored.updated_at)
    undo_stack: list[tuple[State, int]] = []
    clock = None
    if stored.clock is not None:
        try:
            clock = Clock.from_json(stored.clock)
        except (KeyError, TypeError, ValueError) as err:
            raise DomainError("broken_game", f"game {stored.id} has a broken clock: {err}") from None
    moves = record.moves
    if (
        stored.status == "active"
        and moves
        and moves[-1].player == state.current_player
        and has_undo(game.name)
    ):
        # a turn in progress of a game with undo: rebuild the state before its last action now, so
        # the view can offer the undo at once (one replay, only for turns in progress)
        if advanced is not None and advanced[1] is not None:
            undo_stack.append(advanced[1])
        else:
            with contextlib.suppress(DomainError):
                undo_stack.append(state_before_last(record))
    return Session(
        stored.id,
        game,
        seats,
        stored.seed,
        state,
        record,
        stored.status,
        created,
        updated,
        version=stored.version,
        undo_stack=undo_stack,
        public=stored.public,
        hints=stored.hints,
        creator_hash=stored.creator_hash,
        secret=stored.secret,
        clock=clock,
        rated=stored.rated,
        rematch=stored.rematch,
    )


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def stored_from_session(session: Session) -> StoredGame:
    """The row of a new game (version 0)."""
    return StoredGame(
        session.id,
        session.game.name,
        session.record.options,
        [s.to_json() for s in session.seats],
        session.seed,
        session.ply,
        session.status,
        session.record.to_json(),
        session.state.to_json(),
        session.created_at,
        session.updated_at,
        session.version,
        public=session.public,
        hints=session.hints,
        creator_hash=session.creator_hash,
        secret=session.secret,
        clock=None if session.clock is None else session.clock.to_json(),
        deadline=None if session.clock is None else session.clock.deadline(),
        rated=session.rated,
        rematch=session.rematch,
    )
