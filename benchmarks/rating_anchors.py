"""The AI levels' fixed ratings in the rating pools (each game's ``GameInfo.ai_ratings``, read by
palaestra/server/service/ratings.py) from the measured ladder of docs/ai.md.

    .venv/bin/python benchmarks/rating_anchors.py    # the table, then each game's ai_ratings

tests/server/test_ratings_math.py checks that the games declare what this prints, and that
docs/accounts.md shows its table; when the ladder's data change, paste the ``ai_ratings=`` blocks
into each game's ``info.py`` and the table into docs/accounts.md.

Reads the rows docs/ai.md's ladder is printed from (:data:`FILES`), pools them as
benchmarks/strength_report.py does, and per setup (one rating pool: ``athos/3 1v2`` is
``athos-3``, ``athos/4t`` is ``athos-teams``):

1. takes the upper level's score ``s`` over ``m`` seat-games of each adjacent step
   (beginner-random, casual-beginner, strong-casual, expert-strong) and shrinks it by one virtual
   drawn game, ``p = (s + 1/2) / (m + 1)``, so that a step won every time (Athos's beginner beat
   random 200 games of 200) gives a large but finite difference that grows with the games played
   rather than an infinite one;
2. turns ``p`` into a rating difference with the pool's own model: ``p`` is the chance that the
   upper level finishes ahead of one lower opponent, which Plackett–Luce puts at
   ``logistic(t * dmu / c)`` for ``t`` seats a side (a team's skill is its members' sum) and
   ``c = sqrt(k) * beta`` for ``k`` sides of established players, so the difference is
   ``SCALE * c * ln(p / (1 - p)) / t`` shown points: ``400 * log10(p / (1 - p))`` with two
   players (Elo's), times ``sqrt(k / 2)`` with ``k`` players, halved for two teams of two;
3. adds the steps up from ``random`` and shifts the pool's ladder so that :data:`ANCHOR_LEVEL`
   (``casual``, the opponent the app offers first) stands at a newcomer's 1500: a newcomer is
   taken to be that level's equal until their games say otherwise. No fixed rating of ``random``
   would do: its step to ``beginner`` ranges from some 400 points (Agamemnon, Archimedes) to
   some 1,500 (Athos with 4 players, 200 games of 200 won), so a newcomer would stand below
   ``beginner`` in one pool and above ``strong`` in another.
"""

from __future__ import annotations

import glob
import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from palaestra.core.registry import game_info, load_game
from palaestra.server.service import ratings

HERE = Path(__file__).resolve().parent
#: the files docs/ai.md's ladder is printed from (docs/ai.md, *Strength*)
FILES = ("results/strength-*.jsonl", "results/agamemnon-2026-11-2[67].jsonl")
#: the level that stands at a newcomer's rating (ratings.NEWCOMER) in every pool
ANCHOR_LEVEL = "casual"


def _strength_report() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_report", HERE / "strength_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("strength_report", module)
    spec.loader.exec_module(module)
    return module


def data_files() -> list[str]:
    return sorted(path for pattern in FILES for path in glob.glob(str(HERE / pattern)))


def pool_of_setup(setup: str) -> ratings.Pool:
    """The rating pool of a strength.py setup: ``NAME``, ``NAME/N`` or ``NAME/Nt`` (teams), with
    an optional line-up after a space (``athos/3 1v2``)."""
    spec = setup.split(" ")[0]
    name, _, count = spec.partition("/")
    info = game_info(name)
    if count.endswith("t"):
        if info.team_options is None:
            raise ValueError(f"{setup}: {info.title} declares no team game")
        return ratings.pool_of(load_game(name, **info.team_options))
    players = int(count) if count else info.player_counts[0]
    return ratings.pool_of(load_game(name, **info.options_for_players(players)))


def step_points(pool: ratings.Pool, score: float, seat_games: int) -> float:
    """The shown-rating difference of a step the upper level scored ``score`` of ``seat_games``."""
    p = (score + 0.5) / (seat_games + 1)
    team_size = 2 if pool.teams else 1  # the team games declared are two sides of two
    sides = pool.players // team_size
    c = math.sqrt(sides) * ratings.MODEL.beta
    return ratings.SCALE * c * math.log(p / (1 - p)) / team_size


def anchors(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """The shown rating of every level per pool id, rounded to whole points."""
    sr = _strength_report()
    pooled = sr.pool(rows)
    out: dict[str, dict[str, float]] = {}
    for setup in sorted({s for s, _ in pooled}):
        pool = pool_of_setup(setup)
        ladder = [0.0]
        for lower, upper in zip(sr.LADDER, sr.LADDER[1:], strict=False):
            step = pooled[(setup, f"{upper}-{lower}")]
            ladder.append(ladder[-1] + step_points(pool, step.total, step.m))
        shift = ratings.NEWCOMER - ladder[sr.LADDER.index(ANCHOR_LEVEL)]
        out[pool.id] = {level: float(round(shift + x)) for level, x in zip(sr.LADDER, ladder, strict=True)}
    return out


def computed() -> dict[str, dict[str, float]]:
    """The anchors from the committed data files."""
    return anchors(_strength_report().read_rows(data_files()))


def markdown(table: dict[str, dict[str, float]]) -> str:
    """The table of docs/accounts.md: a row per pool, a column per level."""
    levels = ratings.LEVELS
    lines = ["| pool | " + " | ".join(levels) + " |", "|---|" + "---:|" * len(levels)]
    for pool in ratings.all_pools():
        row = table.get(pool.id)
        if row is not None:
            cells = [f"{row[level]:.0f}" for level in levels]
            lines.append(f"| {pool.title} (`{pool.id}`) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    table = computed()
    print(markdown(table))
    for game in sorted({pool.game for pool in ratings.all_pools()}):
        declared = {p.id: table[p.id] for p in ratings.all_pools() if p.game == game and p.id in table}
        if declared:
            print(f"\npalaestra/games/{game}/info.py:\n    ai_ratings={{")
            for pool_id, levels in declared.items():
                print(f"        {pool_id!r}: {levels!r},")
            print("    },")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
