"""Action layouts: an action space as named segments, with encode and decode.

Palaestra's actions are integers (``0 <= a < game.num_distinct_actions()``). A game's action space
is a sequence of *segments*, each a kind of action with its own coordinates::

    layout = ActionLayout(
        ("step", (edges,)),           # one id per edge of the board graph
        ("flip", (fields,)),
        ("end_move", ()),             # a single action
        ("relocate", (fields, fields)),
    )
    layout.size                       # the number of distinct actions
    a = layout.encode("relocate", 3, 17)
    layout.decode(a)                  # ("relocate", (3, 17))
    layout.segment_of(a).name         # "relocate"
    layout["flip"].start              # the first id of a segment (for fast paths)

A segment's ids are consecutive, in the order the segments are given; a coordinate tuple is
numbered row-major (the last coordinate varies fastest), as numpy's ``ravel_multi_index``.
Encoding checks every coordinate against its bound and decoding checks the id against the
space, raising :class:`ValueError`: a game turns that into its own ``IllegalActionError`` or
``NotationError`` with a ruling. Layouts are immutable and cheap to query; a fast path may keep
``layout["name"].start`` in a local.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from math import prod


@dataclass(frozen=True)
class Segment:
    """One kind of action: ids ``start .. start + size - 1``, coordinates of ``shape``."""

    name: str
    shape: tuple[int, ...]
    start: int

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and self.start <= action < self.stop

    def encode(self, *coords: int) -> int:
        """The id of the action at ``coords`` of this segment."""
        if len(coords) != len(self.shape):
            raise ValueError(f"{self.name} takes {len(self.shape)} coordinate(s), not {len(coords)}")
        index = 0
        for c, bound in zip(coords, self.shape, strict=True):
            if not 0 <= c < bound:
                raise ValueError(f"{self.name}: coordinate {c} is outside 0..{bound - 1}")
            index = index * bound + c
        return self.start + index

    def decode(self, action: int) -> tuple[int, ...]:
        """The coordinates of an id of this segment."""
        if action not in self:
            raise ValueError(f"action {action} is not a {self.name} action")
        index = action - self.start
        coords = []
        for bound in reversed(self.shape):
            index, c = divmod(index, bound)
            coords.append(c)
        return tuple(reversed(coords))


class ActionLayout:
    """An action space made of named segments (see the module docstring)."""

    def __init__(self, *segments: tuple[str, tuple[int, ...]]) -> None:
        made: list[Segment] = []
        start = 0
        for name, shape in segments:
            if any(s.name == name for s in made):
                raise ValueError(f"segment {name!r} is declared twice")
            if any(not isinstance(b, int) or b < 0 for b in shape):
                raise ValueError(f"segment {name!r}: bounds are whole numbers, 0 or more")
            segment = Segment(name, tuple(shape), start)
            made.append(segment)
            start = segment.stop
        self.segments: tuple[Segment, ...] = tuple(made)
        self.size = start
        self._by_name = {s.name: s for s in made}
        self._starts = [s.start for s in made if s.size]
        self._nonempty = [s for s in made if s.size]

    def __getitem__(self, name: str) -> Segment:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no segment {name!r} (segments: {', '.join(self._by_name)})") from None

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.segments)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        parts = ", ".join(f"{s.name}{list(s.shape)}@{s.start}" for s in self.segments)
        return f"ActionLayout({parts}; size {self.size})"

    def encode(self, name: str, *coords: int) -> int:
        """The id of action ``name`` at ``coords``."""
        return self[name].encode(*coords)

    def segment_of(self, action: int) -> Segment:
        """The segment an id belongs to."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.size:
            raise ValueError(f"action {action!r} is outside the action space 0..{self.size - 1}")
        return self._nonempty[bisect_right(self._starts, action) - 1]

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(segment name, coordinates)`` of an id."""
        segment = self.segment_of(action)
        return segment.name, segment.decode(action)
