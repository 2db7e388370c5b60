"""Moves: the typed currency of a game's rules.

A game's *action ids* (integers, ``0 <= a < game.num_distinct_actions()``) are its edge: records,
searches, the adapters and the web API speak them, because they are cheap and OpenSpiel's
protocol is built on them. Inside a game the rules speak *moves*: ``rules.py``'s ``problem(move)``,
its predicates, its notation, hints and the texts players read.

Every game's move has one shape, :class:`Move`: an immutable record (a ``NamedTuple``) whose first
field ``kind`` is a member of the game's ``Kind`` (a ``StrEnum``), whose values are the names of
the segments of the game's one :class:`~palaestra.core.layout.ActionLayout`; the other fields are
the move's coordinates, named for what they are (a field, a tile, a space), ``-1`` where a kind
has none. Ids and moves meet in one place per game, ``Game.decode`` and ``Game.encode``, built on
that layout.

A game that keeps the defaults (the toy games of the tests) has no typed moves: its ids are its
moves.
"""

from __future__ import annotations

from typing import Protocol


class Move(Protocol):
    """What every game's move has (see the module docstring)."""

    @property
    def kind(self) -> str:
        """The kind of move: a member of the game's ``Kind``, named as its layout segment."""
        ...
