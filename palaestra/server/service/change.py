"""A change of one game: what a transition of a :class:`~palaestra.server.service.session.Session`
computes and :class:`~palaestra.server.service.sessions.Sessions` stores.

A session computes each transition of its game from the game as it is now (a move, a resignation,
an abort, a claimed win, a fall of the flag, an undo, seats changed, a rematch agreed) and returns
a :class:`Change`, or refuses with a ``DomainError``; it stores nothing and tells nobody.
``Sessions.commit`` writes the change to the game's row, guarded by its version, and only then
makes it the session's game; the caller then broadcasts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from palaestra.core.game import State
from palaestra.core.record import Record
from palaestra.server.service.clock import Clock

if TYPE_CHECKING:
    from palaestra.server.service.session import Seat, Session


@dataclass(slots=True)
class Change:
    """The game after one transition, not stored yet: every part of it, those the transition
    leaves as they were being the session's own objects. ``row`` says what the game's row stores
    anew: ``"game"`` (state, record, status and clock), ``"seats"`` (seats and clock) or
    ``"rematch"``. ``undo_stack`` is kept in memory only; ``action`` is the action played, if the
    change is one (counted for /metrics)."""

    row: str
    state: State
    record: Record
    status: str
    seats: list[Seat]
    clock: Clock | None
    rematch: dict[str, Any] | None
    undo_stack: list[tuple[State, int]]
    action: int | None = None

    @classmethod
    def of(cls, session: Session) -> Change:
        """The game ``session`` holds, as a change to make another copy of it that game (a row
        loaded again: ``Sessions.reload``)."""
        return cls(
            "game",
            session.state,
            session.record,
            session.status,
            session.seats,
            session.clock,
            session.rematch,
            session.undo_stack,
        )


def copy_record(record: Record) -> Record:
    """A copy of ``record`` to change (a move added or taken back, a result written) without
    touching the original: the list of moves is new, the moves themselves (never changed in place)
    are shared. ``copy.deepcopy`` of a long record cost as much as the rest of an action, and
    ``copy.copy`` (pickling's generic path) some 3 % of it: the fields are copied as a dict."""
    twin = object.__new__(Record)
    twin.__dict__.update(record.__dict__)
    twin.options = dict(record.options)
    twin.players = list(record.players)
    twin.moves = list(record.moves)
    twin.outcome = record.outcome  # frozen: shared
    return twin
