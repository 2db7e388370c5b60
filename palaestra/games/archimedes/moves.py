"""Archimedes moves: the typed move, its action id and its notation (docs/archimedes.md).

* a move is :class:`Move`, in the one shape of every game's move (``palaestra/core/move.py``):
  its :class:`Kind` (a cube's move, or the pass of ARC-M6), then its ``start`` and ``end`` cells
  (``-1`` for the pass);
* its action id comes from the game's one :func:`layout`: ``start * size + end`` (``size``: the
  cells of the board, 96), then the pass, ``size * size`` (9216), the last id;
* its notation is ``START-END`` in the board's cell names (``a2-b1``), or ``pass``.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from palaestra.core.errors import NotationError
from palaestra.core.layout import ActionLayout
from palaestra.games.archimedes.board import Board

_MOVE = re.compile(r"^\s*([a-z]\d{1,2})\s*-\s*([a-z]\d{1,2})\s*$")


class Kind(StrEnum):
    """The kinds of move, named as the segments of :func:`layout`."""

    #: a cube moves from ``start`` to ``end`` (ARC-M1..M5, ARC-M7)
    MOVE = "move"
    #: the player has no move and passes (ARC-M6)
    PASS = "pass"


class Move(NamedTuple):
    """A cube's move from cell ``start`` to cell ``end`` (cell numbers of the board), or the pass
    (:data:`PASS`, both ``-1``)."""

    kind: Kind
    start: int
    end: int

    @property
    def is_pass(self) -> bool:
        return self.kind is Kind.PASS


#: the move of a player without a legal move (ARC-M6)
PASS = Move(Kind.PASS, -1, -1)


def cube_move(start: int, end: int) -> Move:
    """The move of the cube on ``start`` to ``end``."""
    return Move(Kind.MOVE, start, end)


def layout(board: Board) -> ActionLayout:
    """The action ids: a cube's move ``start * size + end`` (ids 0 to ``size * size - 1``), then
    the pass. The engine's fast paths (``rules._apply``, the heuristic's mobility) read a move's
    cells from its id with ``divmod(action, size)``; the game checks at its start that this
    layout puts them there."""
    return ActionLayout((Kind.MOVE, (board.size, board.size)), (Kind.PASS, ()))


def encode(move: Move, actions: ActionLayout) -> int:
    """The action id of ``move``; :class:`ValueError` for a cell outside the board."""
    if move.kind is Kind.PASS:
        return actions.encode(Kind.PASS)
    return actions.encode(Kind.MOVE, move.start, move.end)


def decode(action: int, actions: ActionLayout) -> Move:
    """The move of an action id; :class:`ValueError` for an id outside the action space."""
    kind, cells = actions.decode(action)
    return PASS if kind == Kind.PASS else cube_move(*cells)


def format_move(move: Move, board: Board) -> str:
    """``a2-b1`` or ``pass``."""
    return "pass" if move.is_pass else f"{board.names[move.start]}-{board.names[move.end]}"


def parse_move(text: object, board: Board) -> Move:
    """Read ``START-END`` (cell names) or ``pass``; :class:`NotationError` for anything else."""
    if not isinstance(text, str):
        raise NotationError(f"a move is a text like a2-a1 or 'pass', not {text!r}")
    t = text.strip().lower()
    if t == "pass":
        return PASS
    match = _MOVE.match(t)
    if match is None:
        raise NotationError(
            f"cannot read {text.strip()!r}: write a move as START-END with two cell names "
            "(for example a2-a1), or 'pass'"
        )
    cells = []
    for name in match.groups():
        if name not in board.index:
            raise NotationError(f"{name} is not a cell of the board ({cell_help(board)})")
        cells.append(board.index[name])
    return cube_move(cells[0], cells[1])


def cell_help(board: Board) -> str:
    """The cell names of ``board`` in short: ``cells are a1..a9, b1..b11, ...``."""
    rows: dict[str, int] = {}
    for name in board.names:
        rows[name[0]] = max(rows.get(name[0], 0), int(name[1:]))
    return "cells are " + ", ".join(f"{r}1..{r}{m}" for r, m in rows.items())
