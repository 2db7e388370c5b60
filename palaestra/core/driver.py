"""The one game driver: a match loop that asks the seats for their actions, draws chance by the
one seeding rule (:mod:`palaestra.core.chance`), keeps the record and tells its listeners what
happened. ``palaestra play``, ``palaestra match`` (the arena, on one process or on Ray), the web
app's server moves and the PettingZoo environment all drive games through it::

    driver = Driver(game.new_initial_state(seed), ChanceSource.from_seed(seed),
                    seats={0: agent.select_action, 1: ask_the_human}, record=record)
    driver.listeners.append(print)          # MovePlayed, ChanceDrawn, GameOver
    result = driver.run()                   # GameOver, or None when a seat stopped (quit)

A *seat* is a callable ``state -> action`` (an agent's ``select_action``, a prompt); it returns
``None`` to stop the match (the player left; the record keeps the game to resume). A seat that
no ``seats`` entry covers is played elsewhere (a person in the web app): :meth:`Driver.step`
then returns ``None`` and :func:`next_action` says ``None``. Whatever a seat or the chance rule
gives is applied with ``apply_action``, so an illegal action raises ``IllegalActionError`` and
changes nothing.

Adjudication: with ``adjudicate`` (the default) a game whose result can no longer change
(``State.settled_result``) ends there with that result (docs/core.md, *Settled results*).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from palaestra.core.chance import ChanceSource
from palaestra.core.game import CHANCE, State
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
    """The end: by the rules, or ``settled`` (adjudicated: the result could no longer change)."""

    returns: list[float]
    text: str
    settled: bool = False


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


def game_over(state: State, adjudicate: bool = True) -> GameOver | None:
    """The end of ``state``: its returns when the rules ended it, with ``adjudicate`` its settled
    result when that can no longer change, else ``None``."""
    if state.is_terminal():
        return GameOver([float(x) for x in state.returns()], state.result_text())
    if adjudicate and (settled := state.settled_result()) is not None:
        returns, text = settled
        return GameOver([float(x) for x in returns], text, settled=True)
    return None


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
    result: GameOver | None = None

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
        """Apply ``action`` (checked; written to the record), then tell the listeners: the move or
        draw, and the end if it came. Returns those events."""
        state = self.state
        player, ply = state.current_player, len(state.history)
        # the notation only for whoever reads it (an arena game without records plays faster)
        text = state.action_to_string(action) if self.record is not None or self.listeners else ""
        state.apply_action(action)
        if player == CHANCE:
            events: list[Event] = [ChanceDrawn(ply, action, text)]
        else:
            events = [MovePlayed(ply, player, action, text)]
        if self.record is not None:
            self.record.write_move(player, text)
        over = game_over(state, self.adjudicate)
        if over is not None:
            self.result = over
            if self.record is not None:
                self.record.finish(state, over.returns, over.text, over.settled)
            events.append(over)
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

    def run(self) -> GameOver | None:
        """Play until the end (returned) or until a seat stops or is played elsewhere (``None``)."""
        while not self.over:
            if self.step() is None:
                break
        return self.result
