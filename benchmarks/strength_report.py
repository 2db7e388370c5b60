"""The strength tables of docs/ai.md from the rows that ``benchmarks/strength.py`` writes.

    .venv/bin/python benchmarks/strength_report.py benchmarks/results/strength-*.jsonl

Reads JSON lines (``strength.py --jsonl``: one row per match or per ``--chunk``), pools every row
of the same setup and pairing (games, wins, draws and losses add up; the mean and the 95%
interval are those of all the seat-games' score fractions together, as if one match had played
them all) and prints, in Markdown:

* **the ladder**: every adjacent step (beginner-random, casual-beginner, strong-casual,
  expert-strong) per setup, with whether the whole interval lies above 65%, and expert-random with
  the expert's win rate and the exact one-sided 95% lower bound of that rate (Clopper-Pearson), to
  hold against the required 98%;
* **the matrix** per setup: every level against every lower one.

With ``--pairings`` it prints instead one table of every pairing in the files, probes with
explicit agent specs included (``expert-openspiel-mcts:time=0.3``): games, score with its
interval, W/D/L, the mean point margin of the upper agent with its 95% interval (rows that carry
their games' ``margins``), and the CPU seconds per decision of both agents (the mean of the rows'
figures, weighted by their games).

A row carries the upper agent's score fraction of each seat-game (``fractions``); rows written
before that field existed (and rows transcribed from older docs) carry only ``seat_games``,
``score`` and ``score_half``, from which the sum and the sum of squares of the fractions follow
(``s = score_half * sqrt(m) / 1.96``). Only pairings of ladder names (``random`` and the levels)
are shown; other rows (probes with explicit agent specs) are left out.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from palaestra.ai.arena import Z95, mean_interval

LADDER = ("random", "beginner", "casual", "strong", "expert")
STEPS = ("beginner-random", "casual-beginner", "strong-casual", "expert-strong")
THRESHOLD = 0.65  # each level against the one below
EXPERT_WINS = 0.98  # expert against random


@dataclass
class Pool:
    """All rows of one setup and pairing, added up."""

    setup: str
    pair: str
    games: int = 0
    m: int = 0  # seat-games
    total: float = 0.0  # sum of the fractions
    squares: float = 0.0  # sum of their squares
    wins: int = 0
    draws: int = 0
    losses: int = 0
    seeds: list[int] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)  # the upper agent's point margin per game
    cpu: list[tuple[int, float, float]] = field(default_factory=list)  # (games, upper, lower)

    def add(self, row: dict[str, Any]) -> None:
        fractions = row.get("fractions")
        if fractions is not None:
            m, total, squares = len(fractions), sum(fractions), sum(x * x for x in fractions)
        else:
            m = int(row["seat_games"])
            mean = float(row["score"])
            half = row.get("score_half")
            sd = float(half) * math.sqrt(m) / Z95 if half is not None and m > 1 else 0.0
            total = m * mean
            squares = (m - 1) * sd * sd + m * mean * mean
        self.games += int(row["games"])
        self.m += m
        self.total += total
        self.squares += squares
        self.wins += int(row["wins"])
        self.draws += int(row["draws"])
        self.losses += int(row["losses"])
        if "seed" in row and row["seed"] is not None:
            self.seeds.append(int(row["seed"]))
        self.margins.extend(float(x) for x in row.get("margins") or ())
        if row.get("cpu_per_decision") is not None and row.get("lower_cpu_per_decision") is not None:
            self.cpu.append(
                (int(row["games"]), float(row["cpu_per_decision"]), float(row["lower_cpu_per_decision"]))
            )

    @property
    def mean(self) -> float:
        return self.total / self.m

    @property
    def half(self) -> float | None:
        """The half-width of the 95% interval of the mean (None for a single seat-game)."""
        if self.m < 2:
            return None
        var = max(0.0, (self.squares - self.total * self.total / self.m) / (self.m - 1))
        return Z95 * math.sqrt(var / self.m)

    def interval(self) -> tuple[float, float] | None:
        half = self.half
        if half is None:
            return None
        return max(0.0, self.mean - half), min(1.0, self.mean + half)


def pool(rows: Iterable[dict[str, Any]], ladder_only: bool = True) -> dict[tuple[str, str], Pool]:
    """Rows pooled by (setup, pair), in the order first seen; pairs outside the ladder left out
    unless ``ladder_only`` is false."""
    pools: dict[tuple[str, str], Pool] = {}
    for row in rows:
        upper, _, lower = str(row["pair"]).partition("-")
        if ladder_only and (upper not in LADDER or lower not in LADDER):
            continue
        key = (str(row["setup"]), str(row["pair"]))
        if key not in pools:
            pools[key] = Pool(*key)
        pools[key].add(row)
    return pools


def win_rate_lower_bound(wins: int, n: int, alpha: float = 0.05) -> float:
    """The exact (Clopper-Pearson) one-sided ``1 - alpha`` lower bound of a win rate: the ``p`` at
    which ``wins`` or more wins in ``n`` games have probability ``alpha``. ``0.05 ** (1 / n)``
    when every game was won."""
    if wins <= 0:
        return 0.0
    if wins >= n:
        return float(alpha ** (1.0 / n))

    def tail(p: float) -> float:  # P(X >= wins) for X ~ Binomial(n, p)
        return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(wins, n + 1))

    lo, hi = 0.0, 1.0
    for _ in range(60):  # the tail grows with p: bisect for tail(p) = alpha
        mid = (lo + hi) / 2
        if tail(mid) < alpha:
            lo = mid
        else:
            hi = mid
    return lo


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def score_text(p: Pool) -> str:
    iv = p.interval()
    if iv is None or iv[0] == iv[1]:
        return pct(p.mean)
    return f"{pct(p.mean)} [{100 * iv[0]:.1f}, {100 * iv[1]:.1f}]"


def verdict(p: Pool) -> str:
    if p.pair == "expert-random":
        rate = p.wins / p.m
        bound = win_rate_lower_bound(p.wins, p.m)
        met = "yes" if rate >= EXPERT_WINS else "**no**"
        return f"won {p.wins} of {p.m} ({pct(rate)}; 95% lower bound {pct(bound)}): {met}"
    iv = p.interval()
    if iv is not None and iv[0] < iv[1]:
        return "yes" if iv[0] > THRESHOLD else "**no**"
    # every game went the same way: the interval is a point; with all won, the exact bound says
    # how many games that takes (7 or more for 65%)
    bound = win_rate_lower_bound(p.wins, p.m) if p.mean == 1.0 else 0.0
    return "yes" if bound > THRESHOLD else "too few games"


def ladder(pools: dict[tuple[str, str], Pool]) -> str:
    lines = [
        "| setup | step | games | score of upper [95% CI] | upper W/D/L | requirement met |",
        "|---|---|---:|---|---|---|",
    ]
    for setup in _setups(pools):
        for pair in (*STEPS, "expert-random"):
            p = pools.get((setup, pair))
            if p is None:
                lines.append(f"| {setup} | {pair} | 0 | — | — | not measured |")
                continue
            wdl = f"{p.wins}/{p.draws}/{p.losses}"
            lines.append(f"| {setup} | {pair} | {p.games} | {score_text(p)} | {wdl} | {verdict(p)} |")
    return "\n".join(lines)


def matrix(pools: dict[tuple[str, str], Pool], setup: str) -> str:
    upper_levels = LADDER[1:]
    lines = [
        f"**{setup}** (score of the row's level against the column's, games in brackets)",
        "",
        "| upper \\ lower | " + " | ".join(LADDER[:-1]) + " |",
        "|---|" + "---|" * (len(LADDER) - 1),
    ]
    for i, upper in enumerate(upper_levels, start=1):
        cells = []
        for j, lower in enumerate(LADDER[:-1]):
            if j >= i:
                cells.append("")
                continue
            p = pools.get((setup, f"{upper}-{lower}"))
            if p is None:
                cells.append("—")
                continue
            half = p.half
            spread = f" ±{100 * half:.1f}" if half else ""
            cells.append(f"{pct(p.mean)}{spread} ({p.games})")
        lines.append(f"| {upper} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def margin_text(p: Pool) -> str:
    if not p.margins:
        return "—"
    mean, half = mean_interval(p.margins)
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]" if len(p.margins) > 1 else f"{mean:+.2f}"


def cpu_text(p: Pool) -> str:
    games = sum(n for n, _, _ in p.cpu)
    if not games:
        return "—"
    upper = sum(n * u for n, u, _ in p.cpu) / games
    lower = sum(n * low for n, _, low in p.cpu) / games
    return f"{upper:.3f}, {lower:.3f}"


def pairings(pools: dict[tuple[str, str], Pool]) -> str:
    lines = [
        "| setup | pairing (upper-lower) | games | score of upper [95% CI] | W/D/L | point margin [95% CI] "
        "| CPU s/decision (upper, lower) |",
        "|---|---|---:|---|---|---|---|",
    ]
    for (setup, pair), p in pools.items():
        wdl = f"{p.wins}/{p.draws}/{p.losses}"
        lines.append(
            f"| {setup} | `{pair}` | {p.games} | {score_text(p)} | {wdl} | {margin_text(p)} | {cpu_text(p)} |"
        )
    return "\n".join(lines)


def _setups(pools: dict[tuple[str, str], Pool]) -> list[str]:
    return sorted({setup for setup, _ in pools})


def report(rows: Iterable[dict[str, Any]]) -> str:
    pools = pool(rows)
    parts = ["### The ladder", "", ladder(pools), "", "### Every level against every other", ""]
    for setup in _setups(pools):
        parts += [matrix(pools, setup), ""]
    return "\n".join(parts)


def read_rows(paths: Iterable[str]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise SystemExit(f"{path}:{number}: not a JSON row ({exc.msg})") from None
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="JSONL files written by strength.py --jsonl")
    parser.add_argument("--pairings", action="store_true", help="one table of every pairing, probes included")
    args = parser.parse_args()
    rows = read_rows(args.files)
    print(pairings(pool(rows, ladder_only=False)) if args.pairings else report(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
