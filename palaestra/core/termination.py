"""Why a game ended: the :class:`Termination` of an ``Outcome`` (:mod:`palaestra.core.outcome`).

Its own module so that ``State.termination()`` (:mod:`palaestra.core.game`) can name it."""

from __future__ import annotations

from enum import StrEnum


class Termination(StrEnum):
    """Why a game ended."""

    RULES = "rules"  # the rules ended it (a player won, a draw by the rules)
    MOVE_LIMIT = "move_limit"  # the game's move limit ended it (a rule too, but a software end)
    ADJUDICATION = "adjudication"  # its result could no longer change (``State.settled_result``)
    RESIGNATION = "resignation"  # ``seat`` gave up
    TIME = "time"  # ``seat``'s clock ran out
    ABANDONMENT = "abandonment"  # ``seat`` left a real-time game; ``claimed_by`` claimed the win
    ABORT = "abort"  # ``seat`` called the game off before every seat moved: no winner, not rated

    @property
    def by_seat(self) -> bool:
        """Whether a seat ended the game (``Outcome.seat`` names it)."""
        return self in _BY_SEAT


_BY_SEAT = frozenset({Termination.RESIGNATION, Termination.TIME, Termination.ABANDONMENT, Termination.ABORT})
