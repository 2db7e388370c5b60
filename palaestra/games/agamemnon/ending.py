"""Agamemnon: the end of a game and its score (AGA-SC1..SC4, AGA-T5), in the order of RULINGS.md.

:class:`EndRules` is a part of :class:`~palaestra.games.agamemnon.rules.AgamemnonState`: the
strings as the rulings word them (``scoring.py``), the points each player holds now and at the
end (AGA-SC4) from the fast scoring of ``_fast.py`` (the live score, kept up to date by each
placement after the first request; a finished game scored once from scratch), the winner, and what
the AI reads from them: ``evaluate`` (``heuristic.py``) and the playout drawn at once
(``_search.py``). The tests check the fast scoring against ``scoring.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from palaestra.core.game import State
from palaestra.games.agamemnon import heuristic, scoring
from palaestra.games.agamemnon._fast import LIVE_POINTS_0, LIVE_POINTS_1, KindMaps, live_score, points
from palaestra.games.agamemnon._search import playout_scores, tiles_to_place
from palaestra.games.agamemnon.tiles import Phase

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame

#: the phase of a finished game, as a plain int (speed)
END = int(Phase.END)


class EndRules(State):
    """The score and the end of a position (see the module docstring)."""

    game: AgamemnonGame
    _owner: list[int]
    _code: list[int]
    _pools: list[int]
    _hand: list[int]
    _aside: list[int]
    _masks: list[int]
    _mover: int
    _free: list[int]
    _phase: int
    _kinds: tuple[int, ...]
    _maps: KindMaps | None
    _live: list[Any] | None

    def strings_by_the_rules(self) -> list[scoring.String]:
        """Every string with its controller, by the rules as written (:func:`scoring.strings`)."""
        return scoring.strings(self.game.board, self._kinds, self._owner, self._code)

    def strings(self) -> list[dict[str, Any]]:
        """Every string as in ``score_details``: kind, connections, controller (None when tied)."""
        return [string.as_json(self.game.board) for string in self.strings_by_the_rules()]

    def score_details(self) -> dict[str, Any]:
        return {"scores": self.scores(), "strings": self.strings()}

    def live_score(self) -> list[Any]:
        """The live score of ``_fast.py`` (points of each player, the soft value of ``evaluate``,
        per part), built on the first request and kept up to date from then on; read only."""
        if self._live is None:
            if self._maps is None:  # the loom set-up is not drawn yet: nothing to keep
                return [0, 0, 0.0]
            self._live = live_score(self._maps, self._masks, self.game.ends)
        return self._live

    def _points(self) -> tuple[int, int]:
        """AGA-SC4: the connections of the strings each player controls."""
        live = self._live
        if live is None:
            if self._phase == END and self._maps is not None:
                # a finished game is scored once, from scratch (cheaper than the live score; kept
                # as totals only: nothing changes any more)
                p0, p1 = points(self._maps, self._masks, self.game.ends)
                self._live = [p0, p1, 0.0]
                return p0, p1
            live = self.live_score()
        return live[LIVE_POINTS_0], live[LIVE_POINTS_1]

    def scores(self) -> list[float]:
        p0, p1 = self._points()
        return [float(p0), float(p1)]

    def returns(self) -> list[float]:
        """AGA-SC4: at the end, more points wins; equal points is a draw."""
        if self._phase != END:
            return [0.0, 0.0]
        p0, p1 = self._points()
        return [1.0, -1.0] if p0 > p1 else [-1.0, 1.0] if p1 > p0 else [0.0, 0.0]

    def playout_scores(self, rng: random.Random) -> list[float]:
        """End scores of a random playout where no Warp swaps, drawn at once (``_search.py``)."""
        if self._phase == END or self._maps is None:  # over, or the loom set-up still to draw
            return super().playout_scores(rng)
        tiles = tiles_to_place(self._pools, self._mover, self._hand + self._aside)
        return playout_scores(self._maps, self._masks, self._free, tiles, self.game.ends, rng.random)

    def evaluate(self) -> list[float]:
        """The live score margin plus a soft share of every contested string (:func:`heuristic.evaluate`)."""
        if self._phase == END:
            return self.returns()
        live = self._live
        return heuristic.evaluate(self.live_score() if live is None else live)
