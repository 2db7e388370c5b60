"""Agamemnon: the rulings of a turn, each stated once (AGA-B2, AGA-T1, AGA-T2, AGA-T3, AGA-V2,
AGA-V3, in the order of RULINGS.md).

:class:`TurnRules` is a part of :class:`~palaestra.games.agamemnon.rules.AgamemnonState`: one
predicate per ruling, each changing nothing. A predicate that the legal moves are built from
answers with the set it allows (the free spaces, the tiles that may be placed, the draw counts);
its ``..._problem`` twin answers for one move with a sentence that cites the ruling, from the same
set. ``rules.py`` composes them: ``problem(move)`` for one move, ``legal_actions()`` for all.
The Warp and the loom set-up (AGA-B2, AGA-T4): ``warps.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.games.agamemnon.tiles import (
    CODES,
    NUM_CODES,
    PLAYER_NAMES,
    SET_ASIDE_CODES,
    SET_ASIDE_TURNS,
    STACK_CODES,
    STACK_NAMES,
    STACK_OF,
    TURN_TILES,
    Stack,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame


class TurnRules:
    """The rulings of placing, drawing, setting aside and naming stacks (see the module docstring)."""

    game: AgamemnonGame
    _owner: list[int]
    _out: int
    _free: list[int]
    _pools: list[int]
    _hand: list[int]
    _aside: list[int]
    _named: list[int]
    _mover: int
    _turn: int
    _to_place: int

    # --- AGA-B2, AGA-T1: a tile goes on a free space in play ----------------------------------------
    def space_problem(self, space: int) -> str | None:
        """AGA-T1, AGA-B2: a tile goes on a space that holds none, never on the loom's out-of-play
        space. None: ``space`` is free; else why not. (:meth:`free_spaces` keeps the answer.)"""
        if space >= len(self._owner):
            return f"there is no space {space}"
        if space == self._out:
            return f"space {space} is out of play"
        return f"space {space} is taken" if self._owner[space] >= 0 else None

    def free_spaces(self) -> list[int]:
        """The spaces :meth:`space_problem` allows, in order: derived from it when the board is set
        (``rules.py``, ``_set_board``) and kept up to date by each placement (read only)."""
        return self._free

    # --- AGA-T2 (AGA-V3): the tiles a player places ---------------------------------------------------
    def placeable_tiles(self) -> list[int]:
        """AGA-T2: the codes of the tiles drawn this turn and not yet placed; AGA-V3: with Defying
        the gods nothing is drawn, and every code left in the mover's pool may be placed."""
        if self.game.defying:
            start = NUM_CODES * self._mover
            pools = self._pools
            return [c for c in range(NUM_CODES) if pools[start + c]]
        return self._hand  # (read only; a code drawn twice is in it twice)

    def tile_problem(self, code: int) -> str | None:
        """Why the mover may not place a tile ``code`` (:meth:`placeable_tiles`), or None."""
        if code in self.placeable_tiles():
            return None
        if self.game.defying:
            return f"you have no {CODES[code]} left"
        drawn = " ".join(CODES[x] for x in self._hand)
        return f"you have not drawn a {CODES[code]} (your drawn tiles: {drawn})"

    # --- AGA-T2 (AGA-V2): the draw --------------------------------------------------------------------
    def draw_counts(self) -> list[int]:
        """AGA-T2: each tile left in the mover's pool may be drawn, each equally likely (AGA-T3:
        weavers set aside this turn are out of the pool); AGA-V2: only from the stack named."""
        start = NUM_CODES * self._mover
        counts = self._pools[start : start + NUM_CODES]
        if self._named:
            stack = self._named[0]
            return [n if STACK_OF[c] == stack else 0 for c, n in enumerate(counts)]
        return counts

    def draw_problem(self, code: int) -> str | None:
        """Why no tile ``code`` can be drawn now (:meth:`draw_counts`), or None."""
        if self.draw_counts()[code]:
            return None
        who = PLAYER_NAMES[self._mover]
        if code in self._aside:
            return f"{who}'s {CODES[code]} is set aside and cannot be drawn again this turn"
        where = f"the {STACK_NAMES[self._named[0]]} stack" if self._named else "the pool"
        return f"{who} has no {CODES[code]} left in {where}"

    # --- AGA-T3: setting a weaver aside ---------------------------------------------------------------
    def set_aside_time_problem(self) -> str | None:
        """AGA-T3: weavers may be set aside in a player's first two turns, before the turn's first
        placement (AGA-V3: with Defying the gods nothing is drawn, so nothing is set aside)."""
        if self.game.defying:
            return "with Defying the gods nothing is drawn, so nothing is set aside"
        if self._turn >= SET_ASIDE_TURNS:
            return "weavers may be set aside only in a player's first two turns (AGA-T3)"
        if self._to_place != TURN_TILES[self._turn]:
            return "weavers may be set aside only before the turn's first tile is placed (AGA-T3)"
        return None

    def may_set_aside(self) -> bool:
        """AGA-T3: may a weaver drawn be set aside now (:meth:`set_aside_time_problem`)?"""
        return self.set_aside_time_problem() is None

    def set_aside_problem(self, code: int) -> str | None:
        """AGA-T3: a revealed Warp or Weft, drawn this turn, may be set aside for a fresh draw."""
        if code not in SET_ASIDE_CODES:
            return f"only a Warp or a Weft may be set aside (AGA-T3), not a {CODES[code]}"
        why = self.set_aside_time_problem()
        if why is None and code not in self._hand:
            why = f"you have not drawn a {CODES[code]}"
        return why

    def set_aside_tiles(self) -> list[int]:
        """The codes of the weavers that may be set aside now (:meth:`set_aside_problem`)."""
        if not self.may_set_aside():
            return []
        return [code for code in SET_ASIDE_CODES if self.set_aside_problem(code) is None]

    # --- AGA-V2: the Oracle ---------------------------------------------------------------------------
    def stack_available(self, stack: int) -> bool:
        """AGA-V2: a stack may be named while it holds more tiles than it is already named for."""
        start = NUM_CODES * self._mover
        return sum(self._pools[start + c] for c in STACK_CODES[stack]) > self._named.count(stack)

    def stack_problem(self, stack: int) -> str | None:
        """Why the mover may not name ``stack`` now (:meth:`stack_available`), or None."""
        if self.stack_available(stack):
            return None
        return f"{PLAYER_NAMES[self._mover]}'s {STACK_NAMES[stack]} stack has no tile left for this draw"

    def stacks_available(self) -> list[int]:
        """The stacks that may be named now (:meth:`stack_available`)."""
        return [stack for stack in range(len(Stack)) if self.stack_available(stack)]
