"""The scoring of Agamemnon as RULINGS.md words it (AGA-SC1..SC4, AGA-T5): the readable rules.

Slow and plain: it serves ``score_details`` and the text view, and it is the reference the fast
scoring of ``_fast.py`` (the live score, ``evaluate``) is checked against by the tests
(tests/agamemnon/test_agamemnon_fast.py).
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any, NamedTuple

from palaestra.games.agamemnon.board import KIND_NAMES, LEADERSHIP, STRENGTH, STRING_KINDS, Board
from palaestra.games.agamemnon.tiles import LEADERS, NUM_PLAYERS, SPEARS, WEFT


class String(NamedTuple):
    """A string (AGA-SC1): its kind, its connections (ascending ids) and who controls it."""

    kind: int
    connections: tuple[int, ...]
    controller: int | None

    def as_json(self, board: Board) -> dict[str, Any]:
        """As in ``score_details``: kind, connections as ``[a, b]``, controller (None when tied)."""
        conns = [list(board.connections[c]) for c in self.connections]
        return {"kind": KIND_NAMES[self.kind], "connections": conns, "controller": self.controller}


def strings(board: Board, kinds: tuple[int, ...], owner: list[int], code: list[int]) -> list[String]:
    """Every string of the position (``kinds``: of each connection; ``owner`` and ``code``: of the
    tile on each space, -1 where there is none).

    AGA-SC1: a string is a maximal set of connections of one kind joined through spaces holding a
    tile that is not a Weft (AGA-T5), with every connection of that kind touching them; a
    connection whose ends are both empty or Wefts is a string of its own. Empty loom connections
    belong to no string (AGA-SC4). Listed by kind; the joined strings by their lowest space, then
    the single connections by id."""
    if not kinds:
        return []
    position = _Position(board, kinds, owner, code)
    out = []
    for kind in STRING_KINDS:
        in_strings: set[int] = set()
        joined: set[int] = set()
        for space in range(board.num_spaces):
            if space in joined or not position.joins(space) or not position.links(space, kind):
                continue
            spaces = position.joined_spaces(space, kind)
            joined |= spaces
            conns = sorted({c for s in spaces for c in board.incident[s] if kinds[c] == kind})
            in_strings.update(conns)
            out.append(position.string(kind, conns))
        out += [position.string(kind, [c]) for c, k in enumerate(kinds) if k == kind and c not in in_strings]
    return out


class _Position:
    def __init__(self, board: Board, kinds: tuple[int, ...], owner: list[int], code: list[int]) -> None:
        self.board = board
        self.kinds = kinds
        self.owner = owner
        self.code = code

    def joins(self, space: int) -> bool:
        """AGA-SC1, AGA-T5: strings run through a space that holds a tile other than a Weft."""
        return self.owner[space] >= 0 and self.code[space] != WEFT

    def links(self, space: int, kind: int) -> list[int]:
        """The spaces joined to ``space`` by a connection of ``kind``."""
        out = []
        for c in self.board.incident[space]:
            if self.kinds[c] == kind:
                a, b = self.board.connections[c]
                out.append(b if a == space else a)
        return out

    def joined_spaces(self, start: int, kind: int) -> set[int]:
        """The joining spaces reached from ``start`` along connections of ``kind``."""
        found = {start}
        todo = [start]
        while todo:
            for far in self.links(todo.pop(), kind):
                if far not in found and self.joins(far):
                    found.add(far)
                    todo.append(far)
        return found

    def string(self, kind: int, conns: list[int]) -> String:
        """AGA-SC2: the tiles of a string are the tiles on the ends of its connections."""
        ends = {s for c in conns for s in self.board.connections[c] if self.owner[s] >= 0}
        tiles = [[self.code[s] for s in ends if self.owner[s] == p] for p in range(NUM_PLAYERS)]
        return String(kind, tuple(conns), controller(kind, tiles))


def controller(kind: int, tiles: list[list[int]]) -> int | None:
    """AGA-SC3: who controls a string whose tiles are ``tiles`` (the codes of each player's):
    strength: more spears; force: more tiles (weavers count); leadership: the leaders' ranks
    compared from the highest down, the first difference decides, and a side that still has a
    leader where the other has none wins. Equal: nobody (None)."""
    if kind == LEADERSHIP:
        ranks = [sorted(LEADERS.index(c) for c in codes if c in LEADERS) for codes in tiles]
        for r0, r1 in zip_longest(*ranks):
            if r0 != r1:
                return 0 if r1 is None or (r0 is not None and r0 < r1) else 1
        return None
    values = [sum(SPEARS[c] for c in codes) if kind == STRENGTH else len(codes) for codes in tiles]
    return None if values[0] == values[1] else 0 if values[0] > values[1] else 1
