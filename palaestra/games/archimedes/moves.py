"""Archimedes moves: the typed move, its action id and its notation (docs/archimedes.md).

* a move is ``START-END`` in the board's cell names (``a2-b1``); a pass is ``pass`` (ARC-M6);
* its action id is ``start * size + end`` (``size``: the cells of the board, 96), and the pass
  is ``size * size`` (9216), the last id.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from palaestra.core.errors import NotationError
from palaestra.games.archimedes.board import Board

_MOVE = re.compile(r"^\s*([a-z]\d{1,2})\s*-\s*([a-z]\d{1,2})\s*$")


class Move(NamedTuple):
    """A cube's move from cell ``start`` to cell ``end`` (cell numbers of the board), or the pass
    (:data:`PASS`, both ``-1``)."""

    start: int
    end: int

    @property
    def is_pass(self) -> bool:
        return self.start < 0


#: the move of a player without a legal move (ARC-M6)
PASS = Move(-1, -1)


def pass_action(board: Board) -> int:
    """The action id of the pass: the last id, after every ``start * size + end``."""
    return board.size * board.size


def encode(move: Move, board: Board) -> int:
    """The action id of ``move``."""
    return pass_action(board) if move.is_pass else move.start * board.size + move.end


def decode(action: int, board: Board) -> Move:
    """The move of an action id from 0 to ``pass_action(board)`` (the caller checks the range)."""
    if action == pass_action(board):
        return PASS
    start, end = divmod(action, board.size)
    return Move(start, end)


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
    return Move(cells[0], cells[1])


def cell_help(board: Board) -> str:
    """The cell names of ``board`` in short: ``cells are a1..a9, b1..b11, ...``."""
    rows: dict[str, int] = {}
    for name in board.names:
        rows[name[0]] = max(rows.get(name[0], 0), int(name[1:]))
    return "cells are " + ", ".join(f"{r}1..{r}{m}" for r, m in rows.items())
