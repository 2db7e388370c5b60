"""The game driver: a match loop that asks the seats for their actions, draws chance by the
one seeding rule (:mod:`palaestra.core.chance`), keeps the record and tells its listeners what
happened. ``palaestra play``, ``palaestra match`` (the arena, on one process or on Ray) and the
PettingZoo environment drive games through it::

    driver = Driver(game.new_initial_state(seed), ChanceSource.from_seed(seed),
                    seats={0: agent.select_action, 1: ask_the_human}, record=record)
    driver.listeners.append(print)          # MovePlayed, ChanceDrawn, GameOver
    outcome = driver.run()                  # the Outcome, or None when a seat stopped (quit)

The web app does not run a driver: its games wait for people between requests. Its server moves
(an AI seat, a chance draw) come from :func:`next_action`, and every action of every path, the
driver's and the web app's, is applied by :func:`palaestra.core.finish.advance`, the one place
that decides whether and how the game ended (an :class:`~palaestra.core.outcome.Outcome`).

A *seat* is a callable ``state -> action`` (an agent's ``select_action``, a prompt); it returns
``None`` to stop the match (the player left; the record keeps the game to resume). A seat that
no ``seats`` entry covers is played elsewhere: :meth:`Driver.step` then returns ``None`` and
:func:`next_action` says ``None``. An illegal action raises ``IllegalActionError`` and changes
nothing.

Adjudication: with ``adjudicate`` (the default) a game whose result can no longer change
(``State.settled_result``) ends there with that result (docs/core.md, *Settled results*).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from palaestra.core.chance import ChanceSource
from palaestra.core.finish import advance
from palaestra.core.game import CHANCE, State
from palaestra.core.outcome import Outcome, Termination
from palaestra.core.record import Record

#: a seat: chooses the action of the player to move in a state (``None``: stop the match)
Seat = Callable[[State], int | None]


@dataclass(frozen=True)
class MovePlayed:
    """A player's action; ``ply`` counts the actions before it (chance outcomes included);
    ``text`` is its notation (``""`` from a driver with neither a record nor listeners)."""

    ply: int
    player: int
    action: int
    text: str


@dataclass(frozen=True)
class ChanceDrawn:
    """A chance outcome drawn by the seeding rule (or given by whoever drives the game)."""

    ply: int
    action: int
    text: str


@dataclass(frozen=True)
class GameOver:
    """The end, with its :class:`~palaestra.core.outcome.Outcome` (why: by the rules, the move
    limit, or adjudicated where the result could no longer change)."""

    outcome: Outcome

    @property
    def returns(self) -> list[float]:
        return list(self.outcome.returns)

    @property
    def text(self) -> str:
        return self.outcome.text

    @property
    def settled(self) -> bool:
        return self.outcome.termination is Termination.ADJUDICATION


Event = MovePlayed | ChanceDrawn | GameOver
Listener = Callable[[Event], None]


def next_action(state: State, chance: ChanceSource, seats: Mapping[int, Seat]) -> int | None:
    """The next action of ``state``: the chance outcome the rule draws, or what the seat to move
    chooses; ``None`` at the end, for a seat not in ``seats``, or when the seat stops."""
    if state.is_terminal():
        return None
    if state.current_player == CHANCE:
        return chance.draw(state)
    seat = seats.get(state.current_player)
    return None if seat is None else seat(state)


def check_draws(record: Record, chance: ChanceSource, start: int = 0) -> tuple[int, str | None]:
    """Check that each chance outcome of ``record`` from move index ``start`` on is what the rule
    draws from ``chance``'s key: ``(draws checked, None)``, or the first that is not with a
    sentence. A record that does not replay raises the ``RecordError`` of :meth:`Record.replay`."""
    record.replay()  # every move reads and is legal, in turn
    state = record.initial_state()
    checked = 0
    for ply, move in enumerate(record.moves):
        action = state.string_to_action(move.move)
        if ply >= start and move.player == CHANCE:
            expected = chance.draw(state)
            if action != expected:
                text = state.action_to_string(expected)
                return checked, f"draw at move {ply + 1} was {move.move}, but the rule gives {text}"
            checked += 1
        state.apply_action(action)
    return checked, None


@dataclass
class Driver:
    """Plays one game on ``state`` (in place): see the module docstring."""

    state: State
    chance: ChanceSource
    seats: Mapping[int, Seat] = field(default_factory=dict)
    record: Record | None = None
    adjudicate: bool = True
    listeners: list[Listener] = field(default_factory=list)
    #: the end once reached (by the rules or adjudicated)
    result: Outcome | None = None

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, adjudicated, or in its record (resigned)."""
        return (
            self.result is not None
            or self.state.is_terminal()
            or (self.record is not None and self.record.over)
        )

    def next_action(self) -> int | None:
        """See :func:`next_action`."""
        return next_action(self.state, self.chance, self.seats)

    def play(self, action: int) -> list[Event]:
        """Apply ``action`` by the one way a game moves on (:func:`~palaestra.core.finish.advance`:
        checked, written to the record, the end decided), then tell the listeners: the move or
        draw, and the end if it came. Returns those events."""
        # the notation only for whoever reads it (an arena game without records plays faster)
        step = advance(self.state, action, self.record, self.adjudicate, notate=bool(self.listeners))
        if step.player == CHANCE:
            events: list[Event] = [ChanceDrawn(step.ply, action, step.text)]
        else:
            events = [MovePlayed(step.ply, step.player, action, step.text)]
        if step.outcome is not None:
            self.result = step.outcome
            events.append(GameOver(step.outcome))
        for event in events:
            for listener in self.listeners:
                listener(event)
        return events

    def step(self) -> list[Event] | None:
        """Play the next action (a draw or the seat's choice); ``None`` when no seat here plays it
        or the seat stopped, or the game is over."""
        if self.over:
            return None
        action = self.next_action()
        return None if action is None else self.play(action)

    def run(self) -> Outcome | None:
        """Play until the end (its outcome) or until a seat stops or is played elsewhere (``None``)."""
        while not self.over:
            if self.step() is None:
                break
        return self.result
