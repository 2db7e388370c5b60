"""Agamemnon: the loom set-up and the Warp, each ruling stated once (AGA-B2, AGA-T4, in the order
of RULINGS.md).

:func:`setup_kinds` (AGA-B2) and :func:`warp_targets` (AGA-T4, AGA-B2) are facts of a board and a
set-up, which the game memoises (``AgamemnonGame.warp_targets``). :class:`WarpRules` is a part of
:class:`~palaestra.games.agamemnon.rules.AgamemnonState`: :meth:`~WarpRules.swap_problem` states
the Warp's swap for one pair of connections, and :meth:`~WarpRules.allowed_swaps` asks it for
the pairs at the Warp's space, which the board indexes (``Board.pairs_at``). The other rulings of
a turn: ``turns.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.games.agamemnon.board import CLASS_NAMES, EMPTY, FORCE, KIND_NAMES, LEADERSHIP, STRENGTH, Board
from palaestra.games.agamemnon.tiles import SETUPS

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame


# --- AGA-B2: the loom set-up ----------------------------------------------------------------------
def setup_kinds(board: Board, index: int) -> tuple[tuple[int, ...], int]:
    """AGA-B2: the connection kinds and the out-of-play space of loom set-up ``index``: the
    classes it names carry strength, force and leadership; the fourth is empty, and the one space
    whose connections are all of the fourth class is out of play."""
    s_cls, f_cls, l_cls = SETUPS[index]
    empty_cls = (set(range(len(CLASS_NAMES))) - {s_cls, f_cls, l_cls}).pop()
    kind_of = {s_cls: STRENGTH, f_cls: FORCE, l_cls: LEADERSHIP, empty_cls: EMPTY}
    return tuple(kind_of[x] for x in board.labels), board.out_of_play(empty_cls)


# --- AGA-T4: the Warp -----------------------------------------------------------------------------
def warp_targets(board: Board, out: int, any_target: bool) -> int:
    """AGA-T4, AGA-B2 (amended 2026-11-25): the connections (a mask) onto which a loom Warp may
    move a string tile when they are empty: those printed with the fourth class of the set-up (the
    class of the out-of-play space ``out``'s connections) that do not touch ``out``. By the rulings
    of 2026-11-23 (``any_target``): every empty connection."""
    if any_target:
        return (1 << board.num_connections) - 1
    if out < 0:
        return 0
    empty_class = board.labels[board.incident[out][0]]
    return sum(
        1 << c
        for c, (a, b) in enumerate(board.connections)
        if board.labels[c] == empty_class and out not in (a, b)
    )


class WarpRules:
    """AGA-T4: after placing a Warp its player swaps the string tiles of two connections at its
    space, or swaps nothing (``noswap``, always allowed)."""

    game: AgamemnonGame
    _kinds: tuple[int, ...]
    _out: int
    _warp: int

    def swap_problem(self, pair: int) -> str | None:
        """AGA-T4: the two connections of ``pair`` both touch the Warp's space and carry different
        kinds; a string tile moves onto an empty connection only of the set-up's fourth class,
        never one touching the out-of-play space (AGA-B2, :func:`warp_targets`). None: allowed."""
        c1, c2, space = self.game.board.pairs[pair]
        if space != self._warp:
            return f"the connections must both touch space {self._warp}, the Warp's space"
        k1, k2 = self._kinds[c1], self._kinds[c2]
        if k1 == k2:
            same = "are empty" if k1 == EMPTY else f"carry {KIND_NAMES[k1]}"
            return f"both connections {same}, swapping them changes nothing (write 'noswap')"
        empty = c1 if k1 == EMPTY else c2 if k2 == EMPTY else -1
        if empty < 0 or self.game.warp_targets(self._out) >> empty & 1:
            return None
        return self._target_problem(empty)

    def _target_problem(self, empty: int) -> str:
        """Why the empty connection ``empty`` is no target of the Warp (:func:`warp_targets`)."""
        board = self.game.board
        a, b = board.connections[empty]
        if self._out in (a, b):
            why = f"{a}-{b} touches the out-of-play space {self._out} (AGA-B2)"
        else:
            why = f"{a}-{b} is of class {CLASS_NAMES[board.labels[empty]]}, left empty by an earlier Warp"
        return f"a string tile may move only onto an empty connection of the fourth class (AGA-T4): {why}"

    def allowed_swaps(self) -> list[int]:
        """The pairs the Warp may swap: those at its space (the board's index) that
        :meth:`swap_problem` allows."""
        return [p for p in self.game.board.pairs_at[self._warp] if self.swap_problem(p) is None]
