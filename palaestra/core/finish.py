"""The one way a game moves on and ends (docs/core.md, *Finishing a game*).

:func:`advance` is the only place that applies an action to a game being played and decides
whether and how the game ended: the CLI (``palaestra play``), the arena (one process or Ray) and
PettingZoo play through :class:`~palaestra.core.driver.Driver`, whose ``play`` calls it; the web
app's ``Session.play`` and ``Record.apply`` call it directly. The end it decides is an
:class:`~palaestra.core.outcome.Outcome`: by the rules (or the move limit, as the game says), or,
with ``adjudicate``, where the result can no longer change (``State.settled_result``). A seat
that ends the game otherwise (it resigns, runs out of time, leaves, aborts) ends it with
:func:`end_by`. Whoever keeps a record gives it, and the move and the outcome are written there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from palaestra.core.game import State
from palaestra.core.outcome import Outcome, Termination

if TYPE_CHECKING:
    from palaestra.core.record import Record


@dataclass(frozen=True)
class Step:
    """What :func:`advance` did: the action of ``player`` (-1: a chance outcome) at ``ply`` (the
    actions before it), in notation (``""`` when nobody asked for it), and the game's outcome if
    this action ended it."""

    ply: int
    player: int
    action: int
    text: str
    outcome: Outcome | None


def advance(
    state: State, action: int, record: Record | None = None, adjudicate: bool = True, notate: bool = False
) -> Step:
    """Apply ``action`` to ``state`` (checked: an illegal action raises ``IllegalActionError``
    and changes nothing), write it to ``record``, and decide whether the game ended
    (:meth:`Outcome.of_state`); the outcome is written to the record too. The notation is made
    for a record, or with ``notate``."""
    player, ply = state.current_player, len(state.history)
    text = state.action_to_string(action) if record is not None or notate else ""
    state.apply_action(action)
    outcome = Outcome.of_state(state, adjudicate)
    if record is not None:
        record.write_move(player, text)
        if outcome is not None:
            record.finish(outcome)
    return Step(ply, player, action, text, outcome)


def end_by(state: State, seat: int, termination: Termination, claimed_by: int | None = None) -> Outcome:
    """The outcome of a game that ``seat`` ends before its rules do (:meth:`Outcome.by`)."""
    return Outcome.by(state, seat, termination, claimed_by)
