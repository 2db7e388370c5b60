"""The rating maths: pools, OpenSkill's Plackett–Luce model on a familiar scale, the AI anchors.

Pure: no I/O, no database. The accounts code calls :func:`rated_result` with a finished game and
stores what it returns (docs/accounts.md, *Ratings*, says the same for players).

**Pools.** One pool per game and player count, and one for each team game a game declares
(``GameInfo.team_options``, ``Game.teams()``): ``NAME-2``, ``NAME-3`` ..., ``NAME-teams``
(:func:`pool_of`, :func:`all_pools`); a game with a single player count has one pool, ``NAME``.

**The model.** OpenSkill's Plackett–Luce model (Weng and Lin 2011, algorithm 4) with its defaults:
a newcomer has ``mu = 25``, ``sigma = 25/3``, and the performance noise is ``beta = 25/6``. It
rates games of any number of sides, each side one player or a team (whose skill is the sum of its
members'); a side's rank comes from its return (higher return, better rank; equal returns tie).

**The scale.** Shown rating ``= 1500 + SCALE * (mu - 25)`` and deviation ``= SCALE * sigma``, with
``SCALE`` chosen so that a rating difference means what it means in Elo: 400 points are odds of
10 to 1 between two established players. Plackett–Luce makes the chance that side ``a`` finishes
ahead of side ``b`` the logistic function of ``(mu_a - mu_b) / c``, where
``c = sqrt(sum over the game's sides of (sigma_s**2 + beta**2))`` (Luce's choice axiom: that pair's
order does not depend on the other sides). Two established players (``sigma`` small beside
``beta``) give ``c = sqrt(2) * beta``. Elo's chance is the logistic function of ``D * ln(10) / 400``
for a difference of ``D`` points. The two agree when ``D = SCALE * (mu_a - mu_b)`` with::

    SCALE = 400 / (ln(10) * sqrt(2) * beta) = 400 / (2.3026 * 5.8926) = 29.48

so a newcomer shows 1500 with a deviation of ``SCALE * 25/3 = 246``. OpenSkill's ``predict_win``
is not that likelihood: it uses the normal distribution (``Phi((mu_a - mu_b) / c)``), which puts
two players 400 points apart at 98.9% instead of 10/11; the update (``rate``) follows the logistic
likelihood, and it is what ratings converge to (its expected change is zero for the player who
wins with the logistic chance: tests/server/test_ratings_math.py checks both).

In a pool of ``k`` sides ``c`` is ``sqrt(k) * beta``: the same 400 points there mean odds of
``10 ** sqrt(2 / k)`` to 1 between two players of one game (6.5 to 1 with three, 5.1 with four),
since the more sides, the more noise in one game's order. The AI anchors are converted with each
pool's own ``c`` (benchmarks/rating_anchors.py) so that they sit where the model would put them.

**Provisional** while an account has played fewer than 10 rated games in the pool.

**Aborted games** (a seat made fewer than two moves) are not rated: :func:`rated_result` returns
``None``.

**AI anchors** (:func:`ai_anchors`): each AI level has a fixed rating in each pool, which the game
declares (``GameInfo.ai_ratings``) as benchmarks/rating_anchors.py computes it from the measured
strength table of docs/ai.md (``casual`` at a newcomer's 1500; the table and how it is made are in
docs/accounts.md), with a small fixed deviation (:data:`ANCHOR_DEVIATION`). An anchor plays as a
rated player in the update, so its rating moves the others', but it is never updated itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from palaestra.core.game import Game
from palaestra.core.registry import game_info, game_infos, load_game

#: the model with OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)
MODEL = PlackettLuce()
#: shown points per unit of mu (the module docstring derives it)
SCALE = 400.0 / (math.log(10) * math.sqrt(2) * MODEL.beta)
#: the shown rating of mu = MODEL.mu: a newcomer's
NEWCOMER = 1500.0
#: rated games in a pool before a rating stops being provisional
PROVISIONAL_GAMES = 10
#: an AI level's fixed deviation, in shown points
ANCHOR_DEVIATION = 50.0
#: the AI levels, weakest first (docs/ai.md)
LEVELS = ("random", "beginner", "casual", "strong", "expert")
#: a seat must make this many moves, or the game is aborted and not rated
MIN_MOVES = 2


def to_shown(mu: float) -> float:
    """The shown rating of a skill ``mu``."""
    return NEWCOMER + SCALE * (mu - MODEL.mu)


def to_mu(shown: float) -> float:
    """The skill ``mu`` of a shown rating."""
    return MODEL.mu + (shown - NEWCOMER) / SCALE


# --- pools ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pool:
    """One rating pool: a game with a number of players, or its team game."""

    id: str
    game: str
    players: int
    teams: bool
    title: str


def pool_of(game: Game) -> Pool:
    """The pool a game of these options is rated in."""
    info = game_info(game.name)
    players = game.num_players
    if game.teams() is not None:
        return Pool(f"{game.name}-teams", game.name, players, True, f"{info.title}, teams")
    if len(info.player_counts) == 1:
        return Pool(game.name, game.name, players, False, info.title)
    return Pool(f"{game.name}-{players}", game.name, players, False, f"{info.title}, {players} players")


def all_pools() -> list[Pool]:
    """Every pool of the registered games, in menu order: each player count, then the team game."""
    pools = []
    for info in game_infos():
        for count in info.player_counts:
            pools.append(pool_of(load_game(info.name, **info.options_for_players(count))))
        if info.team_options is not None:
            pools.append(pool_of(load_game(info.name, **info.team_options)))
    return pools


# --- ratings -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """An account's standing in one pool (OpenSkill's ``mu`` and ``sigma``, the games rated)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def rating(self) -> float:
        return to_shown(self.mu)

    @property
    def deviation(self) -> float:
        return SCALE * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def shown(self) -> dict[str, Any]:
        """As players see it: ``{"rating", "deviation", "games", "provisional"}``."""
        return {
            "rating": round(self.rating),
            "deviation": round(self.deviation),
            "games": self.games,
            "provisional": self.provisional,
        }


def ai_anchors() -> dict[str, dict[str, float]]:
    """The shown rating of each AI level per pool id, as the registered games declare them
    (``GameInfo.ai_ratings``); pools without anchors are left out."""
    return {pool_id: dict(levels) for info in game_infos() for pool_id, levels in info.ai_ratings.items()}


def anchor_rating(pool_id: str, level: str) -> Rating:
    """The fixed rating of an AI level in a pool (:func:`ai_anchors`); KeyError for a pool
    without anchors or an unknown level."""
    shown = ai_anchors()[pool_id][level]
    return Rating(to_mu(shown), ANCHOR_DEVIATION / SCALE, 0)


@dataclass(frozen=True)
class Account:
    """A seat held by an account: its key and its rating in the game's pool before the game."""

    key: str
    rating: Rating


@dataclass(frozen=True)
class Anchor:
    """A seat held by an AI level: its fixed rating (:func:`anchor_rating`), never updated."""

    level: str
    rating: Rating


Participant = Account | Anchor


def move_counts(players: Iterable[int], seats: int) -> list[int]:
    """The moves each seat made, from the ``player`` of a record's moves (chance, -1, left out)."""
    counts = [0] * seats
    for player in players:
        if 0 <= player < seats:
            counts[player] += 1
    return counts


def is_aborted(moves: Sequence[int]) -> bool:
    """Whether a game with these moves per seat was aborted: a seat made fewer than two."""
    return any(count < MIN_MOVES for count in moves)


def _ranks(values: Sequence[float]) -> list[int]:
    """1 for the highest value, equal values the same rank, the next value one more (OpenSkill:
    lower is better)."""
    distinct = sorted(set(values), reverse=True)
    return [distinct.index(v) + 1 for v in values]


def _sides(game: Game) -> tuple[tuple[int, ...], ...]:
    teams = game.teams()
    if teams is None:
        return tuple((p,) for p in range(game.num_players))
    return teams


def rated_result(
    game: Game,
    seats: Sequence[Participant],
    returns: Sequence[float],
    moves: Sequence[int],
) -> dict[str, Rating] | None:
    """The new rating of every account of a finished game of ``game`` (rated in ``pool_of(game)``),
    by account key; ``None`` when the game was aborted (:func:`is_aborted`).

    ``seats``: who held each seat, ``returns``: the record's returns per seat, ``moves``: the moves
    each seat made (:func:`move_counts`). Sides are the seats, or the teams of ``game.teams()``
    (whose members must have equal returns); a side's rank comes from its return. AI anchors take
    part with their fixed ratings and are left out of the answer. An account in two seats
    (hot-seat games, which are never rated) is a ValueError.
    """
    n = game.num_players
    if not (len(seats) == len(returns) == len(moves) == n):
        raise ValueError(f"a game of {n} seats needs {n} participants, returns and move counts")
    keys = [s.key for s in seats if isinstance(s, Account)]
    if len(set(keys)) != len(keys):
        raise ValueError("an account holds two seats: a hot-seat game, which is never rated")
    if is_aborted(moves):
        return None
    sides = _sides(game)
    side_returns = []
    for side in sides:
        values = {returns[p] for p in side}
        if len(values) != 1:
            raise ValueError(f"the seats {list(side)} play as one team but have returns {sorted(values)}")
        side_returns.append(values.pop())
    teams = [[MODEL.rating(seats[p].rating.mu, seats[p].rating.sigma) for p in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(r) for r in _ranks(side_returns)])
    out: dict[str, Rating] = {}
    for side, new in zip(sides, rated, strict=True):
        for p, player in zip(side, new, strict=True):
            seat = seats[p]
            if isinstance(seat, Account):
                out[seat.key] = Rating(player.mu, player.sigma, seat.rating.games + 1)
    return out
