"""Clocks of online games (issue 21): the time controls a game can have and one game's clock.

Pure values, no I/O: every function takes the time (``now``, seconds since the epoch on the
server's clock) as an argument, so the service and the tests decide what time it is.

- A **time control** is chosen at creation: ``per_move`` (``seconds`` for each turn; what is left
  of a turn is not carried over), ``fischer`` (a total of ``seconds`` plus ``increment`` seconds
  after each turn) or ``correspondence`` (issue 29: ``days``, one of 1, 2, 3, 7 or 14, for each
  turn: per move in days, its ``seconds`` are ``days`` × 86400). ``on_timeout`` says what a fall
  of the flag does: ``lose`` (the seat loses) or ``ai`` (the AI, at ``ai_level``, plays that turn;
  the clock then goes on as the control says: a fresh turn's time per move and correspondence,
  or just the increment under Fischer).
- A **turn** is what one seat does while it stays the seat to move: a turn of many actions
  is one turn of the clock. The turn ends when another seat (or chance) is to move.
- Only **human seats' clocks run**: never while chance is to move, never for an AI seat, and not
  before every invited player has joined (nobody's time runs while a friend has yet to open the
  link).
- The clock is stored with the game: ``remaining`` per seat *at* ``since`` (the server's time of
  the last change) and the seat whose clock ``running``. The time left now is
  ``remaining - (now - since)`` for the running seat. The moment its flag falls, ``deadline``, is
  stored in its own indexed column so that a sweep finds due games in the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

#: the kinds of time control and their bounds (seconds); the API's request model uses them
PER_MOVE = "per_move"
FISCHER = "fischer"
CORRESPONDENCE = "correspondence"
DAY = 24 * 3600
CORRESPONDENCE_DAYS = (1, 2, 3, 7, 14)  # the days a turn may have (issue 29)
PER_MOVE_SECONDS = (5, 3 * 24 * 3600)  # 5 s to three days a turn
FISCHER_SECONDS = (30, 24 * 3600)  # 30 s to a day in all
FISCHER_INCREMENT = (0, 600)
ON_TIMEOUT = ("lose", "ai")
#: what the creation form offers first (the API accepts any value within the bounds)
PRESETS: list[dict[str, Any]] = [
    {"type": PER_MOVE, "seconds": 30},
    {"type": PER_MOVE, "seconds": 120},
    {"type": FISCHER, "seconds": 300, "increment": 3},
    {"type": FISCHER, "seconds": 600, "increment": 5},
    {"type": FISCHER, "seconds": 1800, "increment": 20},
    {"type": CORRESPONDENCE, "days": 1},
    {"type": CORRESPONDENCE, "days": 3},
]


def meta() -> dict[str, Any]:
    """What ``/api/meta`` says about clocks: the kinds with their bounds, presets, timeout modes."""
    return {
        "kinds": [
            {"type": PER_MOVE, "seconds": {"min": PER_MOVE_SECONDS[0], "max": PER_MOVE_SECONDS[1]}},
            {
                "type": FISCHER,
                "seconds": {"min": FISCHER_SECONDS[0], "max": FISCHER_SECONDS[1]},
                "increment": {"min": FISCHER_INCREMENT[0], "max": FISCHER_INCREMENT[1]},
            },
            {"type": CORRESPONDENCE, "days": list(CORRESPONDENCE_DAYS)},
        ],
        "presets": [dict(p) for p in PRESETS],
        "on_timeout": list(ON_TIMEOUT),
    }


@dataclass(frozen=True)
class TimeControl:
    kind: str  # PER_MOVE, FISCHER or CORRESPONDENCE (whose seconds are its days × DAY)
    seconds: float
    increment: float = 0.0
    on_timeout: str = "lose"
    ai_level: str | None = None  # the AI that plays a turn whose time ran out ("ai")

    def start(self) -> float:
        """Each seat's time at the start of the game."""
        return float(self.seconds)

    def after_turn(self, left: float) -> float:
        """A seat's time once its turn is over: a fresh turn (per move) or plus the increment."""
        return float(self.seconds) if self.kind in (PER_MOVE, CORRESPONDENCE) else left + self.increment

    @property
    def days(self) -> int:
        """A correspondence control's days per turn."""
        return round(self.seconds / DAY)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"type": self.kind}
        if self.kind == CORRESPONDENCE:
            doc["days"] = self.days
        doc["seconds"] = self.seconds
        if self.kind == FISCHER:
            doc["increment"] = self.increment
        doc["on_timeout"] = self.on_timeout
        if self.on_timeout == "ai":
            doc["ai_level"] = self.ai_level
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> TimeControl:
        """A stored control, or the API's request (a correspondence request names only ``days``)."""
        kind = str(doc["type"])
        return cls(
            kind,
            float(doc["days"]) * DAY if kind == CORRESPONDENCE else float(doc["seconds"]),
            float(doc.get("increment", 0.0)),
            str(doc.get("on_timeout", "lose")),
            doc.get("ai_level"),
        )


@dataclass(frozen=True)
class Clock:
    """One game's clock at the server's time ``since`` (see the module's docstring)."""

    control: TimeControl
    remaining: tuple[float, ...]
    running: int | None
    since: float
    #: the seat the AI plays for this turn because its time ran out (``on_timeout`` "ai")
    autoplay: int | None = None
    #: the seat whose time ran out and lost (``on_timeout`` "lose")
    flagged: int | None = None
    #: how many turns the AI played for each seat after its time ran out
    timeouts: tuple[int, ...] = field(default=())

    @classmethod
    def new(cls, control: TimeControl, seats: int, now: float) -> Clock:
        return cls(control, (control.start(),) * seats, None, now, timeouts=(0,) * seats)

    def left(self, seat: int, now: float) -> float:
        """The seat's time left at ``now`` (never below 0)."""
        value = self.remaining[seat]
        if seat == self.running:
            value -= max(0.0, now - self.since)
        return max(0.0, value)

    def deadline(self) -> float | None:
        """When the running seat's flag falls (None: no clock runs)."""
        return None if self.running is None else self.since + self.remaining[self.running]

    def out_of_time(self, now: float) -> int | None:
        """The running seat if its time is up at ``now``."""
        if self.running is not None and self.left(self.running, now) <= 0.0:
            return self.running
        return None

    def advance(self, timed: int | None, now: float) -> Clock:
        """The clock after a change of the game at ``now``: ``timed`` is the seat whose clock
        should run now (a human seat to move; None: chance, an AI seat, the game over or not
        started). The running seat is charged the time since the last change; a seat whose turn
        ended gets its next turn's time (per move) or its increment (Fischer)."""
        remaining = [self.left(i, now) for i in range(len(self.remaining))]
        autoplay = self.autoplay
        for seat in {self.running, self.autoplay} - {None, timed}:
            assert seat is not None
            remaining[seat] = self.control.after_turn(remaining[seat])
        if autoplay is not None and autoplay != timed:
            autoplay = None
        running = None if timed is None or timed == autoplay else timed
        return replace(self, remaining=tuple(remaining), running=running, since=now, autoplay=autoplay)

    def fall(self, now: float) -> Clock:
        """The running seat's flag has fallen at ``now``: it loses, or the AI takes its turn."""
        seat = self.running
        assert seat is not None
        remaining = list(self.remaining)
        remaining[seat] = 0.0
        if self.control.on_timeout == "ai":
            timeouts = list(self.timeouts or (0,) * len(self.remaining))
            timeouts[seat] += 1
            return replace(
                self,
                remaining=tuple(remaining),
                running=None,
                since=now,
                autoplay=seat,
                timeouts=tuple(timeouts),
            )
        return replace(self, remaining=tuple(remaining), running=None, since=now, flagged=seat)

    def stop(self, now: float) -> Clock:
        """The game is over: every clock stops where it is."""
        return replace(
            self,
            remaining=tuple(self.left(i, now) for i in range(len(self.remaining))),
            running=None,
            since=now,
            autoplay=None,
        )

    # --- JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "control": self.control.to_json(),
            "remaining": list(self.remaining),
            "running": self.running,
            "since": self.since,
            "autoplay": self.autoplay,
            "flagged": self.flagged,
            "timeouts": list(self.timeouts),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Clock:
        remaining = tuple(float(x) for x in doc["remaining"])
        return cls(
            TimeControl.from_json(doc["control"]),
            remaining,
            doc.get("running"),
            float(doc["since"]),
            doc.get("autoplay"),
            doc.get("flagged"),
            tuple(int(x) for x in doc.get("timeouts") or (0,) * len(remaining)),
        )


def stamp(seconds: float) -> str:
    """An epoch time as ISO 8601 in UTC with milliseconds."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")
