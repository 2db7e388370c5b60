"""What a leaf of the MCTS tree is worth: the :class:`Evaluator` protocol and its kinds.

The search (:mod:`palaestra.ai.mcts`) is given one evaluator, as OpenSpiel's ``MCTSBot`` is
given its ``Evaluator``; it calls :meth:`Evaluator.prepare` once before each search with the
root, and :meth:`Evaluator.evaluate` once per simulation with the new leaf, a copy of the
position the search owns (an evaluator may play it on). Every value is one number per player in
[-1, 1], comparable with ``returns()``.

* :class:`RolloutEvaluator`: random actions (with probability ``epsilon`` the greedy one-ply
  action) for at most ``depth`` actions, then the static value (``depth=None``: to the end).
* :class:`HeuristicEvaluator`: the static value of the leaf itself (a rollout of depth 0).
* :class:`PlayoutEvaluator`: the game's playout to the end (``State.playout_scores``), each
  player's value the graded margin :func:`margin_values`; a finished game by its result with
  ``terminal_result``.
* :class:`Contempt`: wraps another evaluator and lowers the searching player's value of a leaf
  that ends in a dead position (``State.dead_position()``).

The *static value* (:class:`StaticValue`) is ``State.evaluate()`` or a heuristic the game names
(``game_heuristic``); the expansion order of :mod:`palaestra.ai.mcts` reads it too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol

from palaestra.ai.base import game_heuristic
from palaestra.ai.greedy import action_values
from palaestra.core.game import CHANCE, TERMINAL, Game, State, sample_outcome


class Evaluator(Protocol):
    """The value of a leaf for every player (see the module docstring)."""

    def prepare(self, root: State) -> None:
        """Called once before a search from ``root`` (a player is to move there)."""

    def evaluate(self, state: State, rng: random.Random) -> list[float]:
        """One value per player in [-1, 1]; ``state`` is the search's copy (it may be changed)."""
        ...


def _evaluate(state: State) -> list[float]:
    return state.evaluate()


class StaticValue:
    """The static value of a position: ``State.evaluate()``, or the heuristic ``name`` of the
    game being searched (found from the game's class when a search of that game starts)."""

    __slots__ = ("fn", "game", "name")

    def __init__(self, name: str | None = None) -> None:
        self.name = name
        #: the function of the game searched last
        self.fn: Callable[[State], list[float]] = _evaluate
        self.game: Game | None = None

    def prepare(self, game: Game) -> None:
        if self.name is not None and self.game is not game:
            self.fn = game_heuristic(game, self.name)
            self.game = game


def clamped(values: list[float]) -> list[float]:
    return [min(1.0, max(-1.0, float(v))) for v in values]


class HeuristicEvaluator:
    """The leaf's static value (clamped to [-1, 1]); ``returns()`` where the game is over."""

    def __init__(self, value: StaticValue) -> None:
        self.value = value

    def prepare(self, root: State) -> None:
        self.value.prepare(root.game)

    def evaluate(self, state: State, rng: random.Random) -> list[float]:
        if state.current_player == TERMINAL:
            return state.returns()
        return clamped(self.value.fn(state))


class RolloutEvaluator:
    """Random actions from the leaf, at most ``depth`` (``None``: to the end), then the static
    value; with probability ``epsilon`` an action is the greedy one-ply one (ties at random).
    Chance outcomes are drawn with their probabilities; the end of the game gives ``returns()``."""

    def __init__(self, value: StaticValue, depth: int | None = None, epsilon: float = 0.0) -> None:
        self.value = value
        self.depth = depth
        self.epsilon = epsilon

    def prepare(self, root: State) -> None:
        self.value.prepare(root.game)

    def evaluate(self, state: State, rng: random.Random) -> list[float]:
        randrange = rng.randrange
        limit = self.depth
        epsilon = self.epsilon
        depth = 0
        while True:
            player = state.current_player
            if player == TERMINAL:
                return state.returns()
            if limit is not None and depth >= limit:
                return clamped(self.value.fn(state))
            if player == CHANCE:
                a = sample_outcome(state.chance_outcomes(), rng)
            elif epsilon > 0.0 and rng.random() < epsilon:
                values = action_values(state, chance_depth=0)
                best = max(v for _, v in values)
                a = rng.choice([x for x, v in values if v == best])
            else:
                actions = state.legal_actions()
                a = actions[randrange(len(actions))]
            state.apply_legal(a)
            depth += 1


class PlayoutEvaluator:
    """The game's playout to the end (``State.playout_scores``, which a game may draw at once),
    valued by :func:`margin_values` at ``scale`` points; with ``terminal_result`` a leaf where the
    game is over is valued by its result (``returns()``) instead: nothing is uncertain there."""

    def __init__(self, scale: float = 6.0, terminal_result: bool = False) -> None:
        self.scale = scale
        self.terminal_result = terminal_result

    def prepare(self, root: State) -> None:
        return None

    def evaluate(self, state: State, rng: random.Random) -> list[float]:
        if self.terminal_result and state.is_terminal():
            return state.returns()
        return margin_values(state.playout_scores(rng), self.scale)


class Contempt:
    """``inner``'s values, less ``contempt`` for the searching player (the root's mover) where
    the leaf, once ``inner`` has judged it, is a dead position: nobody can win any more and only
    the move limit will rank the players."""

    def __init__(self, inner: Evaluator, contempt: float) -> None:
        self.inner = inner
        self.contempt = contempt
        self.player = 0

    def prepare(self, root: State) -> None:
        self.inner.prepare(root)
        self.player = root.current_player

    def evaluate(self, state: State, rng: random.Random) -> list[float]:
        result = self.inner.evaluate(state, rng)
        if state.dead_position():
            result = list(result)
            result[self.player] -= self.contempt
        return result


def margin_values(scores: list[float], scale: float) -> list[float]:
    """Each player's value of end scores, in [-1, 1]: ``tanh((own score - best other score) /
    scale)``, the sign of the result graded by the margin (``scale`` points give 0.76). A player
    alone is measured against 0."""
    return [math.tanh(margin(scores, i) / scale) for i in range(len(scores))]


def margin(scores: list[float], player: int) -> float:
    """``player``'s score less the best score of the others (0 for the others of a player alone)."""
    return scores[player] - max((x for j, x in enumerate(scores) if j != player), default=0.0)
