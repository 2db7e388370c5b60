"""Strength of the levels: the arena over pairings of levels, per game and player count.

    .venv/bin/python benchmarks/strength.py [--setups "agamemnon;archimedes/2;athos/4t"]
        [--pairs "beginner-random;casual-beginner;..."] [--games 200] [--expert-games 10]
        [--quick] [--seed 1] [--jsonl FILE]

A *setup* is ``GAME`` or ``GAME/PLAYERS`` (``t`` after the count: Athos teams), optionally
followed by ``:key=value,...`` game options (``archimedes/2:move_limit=300``); setups are
separated by ``;``. A *pairing* is ``UPPER-LOWER``, two agent specs (levels, ``random``,
``greedy``, ``mcts:...``); pairings are separated by ``;``. By default the pairings are the
adjacent levels (beginner-random, casual-beginner, strong-casual, expert-strong) and
expert-random. Each pairing is one arena match (``palaestra.ai.arena.run_match``, seats rotated,
one process); pairings with ``expert`` play ``--expert-games`` games, the others ``--games``.
``--pairs all``: every level against every lower level, random included (ten pairings).
``--quick``: 10 games, 2 with expert (a smoke run).

With more than two players, the upper agent takes one seat and the lower agent every other seat
(``--lineup one-vs-rest``, the default): the upper agent's score is then the share of lower
opponents it beats, 50% for equal strength and 100% when it wins every game, comparable to the
2-player threshold of 65%. ``--lineup shared`` seats the two agents alternately instead (game
``i`` gives seat ``s`` to agent ``(s + i) mod 2``), so an agent holds several seats of a game and
its seats play each other. Athos teams always use the shared line-up: each agent is one team, and the
summary counts games: 1 / 0.5 / 0 as the upper agent's team won, tied or lost (the arena's own
table counts seat-games, where a team's win is a shared first place).
The summary row's setup names the line-up (``athos/3 1v2``).

For every pairing it prints the arena's table, then a summary row: the upper agent's score
(its mean score fraction, 95% interval), its wins / draws / losses over its seat-games, the Elo
difference with its interval, and the time taken; at the end a Markdown table of all rows.
``--ray`` plays the games as Ray tasks on a local cluster of ``--workers`` CPUs (default 2),
``--ray HOST:PORT`` on a running cluster (docs/ai.md, *Tournaments on Ray*); the games and
results are those of the one-process run for the same seed (agents with time budgets aside).
``--chunk K`` plays a pairing as consecutive matches of ``K`` games (seeds ``S``, ``S + 1``, ...;
take ``K`` a multiple of the player count so that every chunk rotates the seats fully) and
appends each chunk's row to ``--jsonl`` as soon as it is played (``"chunk": i``), so that a long
run stopped early still leaves its games; the printed row pools all chunks.
A move taking longer than ``--move-time-limit`` seconds (default 10, the expert's promise) loses
the game and shows in the failures column. With ``--jsonl`` each summary row is appended to that
file as soon as it is measured.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import platform
import sys
from datetime import UTC, datetime
from time import perf_counter
from typing import Any

from palaestra.ai.arena import elo_from_fraction, mean_interval, run_match
from palaestra.ai.base import parse_value
from palaestra.core.registry import load_game

DEFAULT_SETUPS = "agamemnon;archimedes/2;athos/2"
DEFAULT_PAIRS = "beginner-random;casual-beginner;strong-casual;expert-strong;expert-random"
#: ``--pairs all``: every level against every lower one (random counted as the lowest)
LADDER = ("random", "beginner", "casual", "strong", "expert")
ALL_PAIRS = ";".join(f"{LADDER[i]}-{LADDER[j]}" for i in range(1, len(LADDER)) for j in range(i - 1, -1, -1))


def parse_setup(text: str) -> tuple[str, dict[str, Any], str]:
    """``"athos/4t:round_limit=60"`` -> ``("athos", {"players": 4, "teams": True, ...}, label)``."""
    head, _, rest = text.strip().partition(":")
    name, _, count = head.partition("/")
    options: dict[str, Any] = {}
    if count:
        if count.endswith("t"):
            options["teams"] = True
            count = count[:-1]
        options["players"] = int(count)
    for part in rest.split(","):
        if part.strip():
            key, _, value = part.partition("=")
            options[key.strip()] = parse_value(value)
    return name, options, text.strip()


def split_pair(pair: str) -> tuple[str, str]:
    """``"expert-openspiel-mcts:time=1"`` -> ``("expert", "openspiel-mcts:time=1")``: the pair is
    cut at the first ``-`` that leaves a known agent name on both sides (agent names may hold a
    ``-`` themselves)."""
    from palaestra.ai.base import AGENTS, _ensure_registered, parse_spec

    _ensure_registered()
    text = pair.strip()
    for i, char in enumerate(text):
        if char == "-":
            upper, lower = text[:i], text[i + 1 :]
            if parse_spec(upper.split(":")[0])[0] in AGENTS and parse_spec(lower)[0] in AGENTS:
                return upper, lower
    upper, _, lower = text.partition("-")
    return upper, lower


def team_fractions(result: Any) -> tuple[list[float], int, int, int]:
    """Athos teams: per game, 1 / 0.5 / 0 as the upper agent's team won, tied or lost."""
    fractions: list[float] = []
    wins = draws = losses = 0
    for o in result.outcomes:
        if o.returns is None:
            continue
        mine = max(r for r, a in zip(o.returns, o.seats, strict=True) if a == 0)
        theirs = max(r for r, a in zip(o.returns, o.seats, strict=True) if a != 0)
        if mine > theirs:
            wins += 1
            fractions.append(1.0)
        elif mine == theirs:
            draws += 1
            fractions.append(0.5)
        else:
            losses += 1
            fractions.append(0.0)
    return fractions, wins, draws, losses


def margins(result: Any) -> list[float]:
    """Per game, the upper agent's points minus the best points of a seat it does not hold."""
    out = []
    for o in result.outcomes:
        if o.returns is None or o.scores is None:
            continue
        mine = max(s for s, a in zip(o.scores, o.seats, strict=True) if a == 0)
        theirs = max(s for s, a in zip(o.scores, o.seats, strict=True) if a != 0)
        out.append(mine - theirs)
    return out


def thinking(result: Any, upper: bool) -> tuple[float | None, float | None]:
    """The upper (or lower) agent's mean CPU seconds per decision and its longest decision (wall)."""
    decisions, cpu, longest = 0, 0.0, 0.0
    for o in result.outcomes:
        if o.decisions is None or o.cpu is None or o.longest is None:
            continue
        for seat, agent in enumerate(o.seats):
            if (agent == 0) == upper:
                decisions += o.decisions[seat]
                cpu += o.cpu[seat]
                longest = max(longest, o.longest[seat])
    if not decisions:
        return None, None
    return round(cpu / decisions, 4), round(longest, 3)


def summary(result: Any, label: str, pair: str, seconds: float, teams: bool = False) -> dict[str, Any]:
    upper = result.stats()[0]
    fractions, wins, draws, losses = list(upper.fractions), upper.wins, upper.draws, upper.losses
    if teams:
        fractions, wins, draws, losses = team_fractions(result)
    m = len(fractions)
    mean = half = elo = lo = hi = None
    if m:
        mean, half_width = mean_interval(fractions)
        elo = elo_from_fraction(mean)
        if m > 1:
            half = half_width
            lo, hi = elo_from_fraction(mean - half), elo_from_fraction(mean + half)
    points = margins(result)
    margin = margin_half = None
    if points:
        margin, margin_half = mean_interval(points)
        margin_half = margin_half if len(points) > 1 else None
    return {
        "setup": label,
        "pair": pair,
        "games": sum(1 for o in result.outcomes if o.returns is not None),
        "seat_games": m,
        "score": mean,
        "score_half": half,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "elo": elo,
        "elo_low": lo,
        "elo_high": hi,
        "failures": len(result.failures),
        "seconds": round(seconds, 1),
        "seed": result.seed,
        "moves_mean": round(sum(o.moves for o in result.outcomes) / max(1, len(result.outcomes)), 1),
        "moves_max": max((o.moves for o in result.outcomes), default=0),
        "fractions": [round(x, 4) for x in fractions],
        "margin": margin,  # mean points of the upper agent minus its best opponent's, per game
        "margin_half": margin_half,  # half-width of its 95% interval
        "margins": points,
        # CPU seconds per decision of the upper and lower agent, their longest decision (wall)
        "cpu_per_decision": thinking(result, True)[0],
        "longest_move": thinking(result, True)[1],
        "lower_cpu_per_decision": thinking(result, False)[0],
        "lower_longest_move": thinking(result, False)[1],
    }


def fmt_elo(x: float | None) -> str:
    if x is None:
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def row(s: dict[str, Any]) -> str:
    score = "-"
    if s["score"] is not None:
        score = f"{100 * s['score']:.1f}%"
        if s["score_half"] is not None:
            lo = max(0.0, s["score"] - s["score_half"])
            hi = min(1.0, s["score"] + s["score_half"])
            score += f" [{100 * lo:.1f}, {100 * hi:.1f}]"
    wdl = f"{s['wins']}/{s['draws']}/{s['losses']}"
    elo = f"{fmt_elo(s['elo'])} [{fmt_elo(s['elo_low'])}, {fmt_elo(s['elo_high'])}]"
    margin = "-"
    if s.get("margin") is not None:
        margin = f"{s['margin']:+.2f}"
        if s.get("margin_half") is not None:
            margin += f" ±{s['margin_half']:.2f}"
    return (
        f"| {s['setup']} | {s['pair']} | {s['games']} | {score} | {wdl} | {margin} | {elo} | "
        f"{s['failures']} | {s['seconds']:.0f} |"
    )


HEADER = (
    "| setup | upper-lower | games | score of upper [95% CI] | upper W/D/L (seat-games) | "
    "point margin ±95% | Elo diff [95% CI] | failures | seconds |\n|---|---|---|---|---|---|---|---|---|"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default=DEFAULT_SETUPS, help="setups separated by ;")
    parser.add_argument(
        "--pairs",
        default=DEFAULT_PAIRS,
        help="UPPER-LOWER pairings separated by ; ('all': every level pairing)",
    )
    parser.add_argument("--games", type=int, default=200, help="games per pairing without expert")
    parser.add_argument("--expert-games", type=int, default=10, help="games per pairing with expert")
    parser.add_argument("--quick", action="store_true", help="10 games, 2 with expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--move-time-limit", type=float, default=10.0, help="seconds per move before an agent loses (0: none)"
    )
    parser.add_argument(
        "--lineup",
        choices=("one-vs-rest", "shared"),
        default="one-vs-rest",
        help="3-4 players: the upper agent in one seat, the lower in the others; or both sharing the seats",
    )
    parser.add_argument("--jsonl", default="", help="append each summary row to this file")
    parser.add_argument("--chunk", type=int, default=0, help="play a pairing in matches of this many games")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="play the games as Ray tasks: alone, on a local cluster of --workers CPUs; "
        "with HOST:PORT (or auto), on a running cluster (the cluster extra)",
    )
    parser.add_argument("--workers", type=int, default=2, help="CPUs of the local Ray cluster (with --ray)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.expert_games = 10, 2
    setups = [s for s in args.setups.split(";") if s.strip()]
    if args.pairs.strip() == "all":
        args.pairs = ALL_PAIRS
    print(
        f"# strength, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cpus, {'Ray ' + args.ray if args.ray else 'one process'}, "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    if args.ray:
        from palaestra.ai.cluster import connect

        connect(args.ray, args.workers)  # once for every match of the run
    rows = []
    for text in setups:
        name, options, label = parse_setup(text)
        game = load_game(name, **options)
        teams = bool(options.get("teams"))
        for pair in [p for p in args.pairs.split(";") if p.strip()]:
            upper, lower = split_pair(pair)
            n = args.expert_games if "expert" in (upper + lower) else args.games
            if n <= 0:
                continue
            start = perf_counter()

            def progress(done: int, total: int, start: float = start, tag: str = f"{label} {pair}") -> None:
                if done % 10 == 0 or done == total:
                    print(
                        f"  {tag}: {done}/{total} games, {perf_counter() - start:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )

            agents = [upper, lower]
            setup_label = label
            if args.lineup == "one-vs-rest" and game.num_players > 2 and not teams:
                agents = [upper] + [lower] * (game.num_players - 1)
                setup_label = f"{label} 1v{game.num_players - 1}"
            size = args.chunk if args.chunk > 0 else n
            parts = []
            for i, first in enumerate(range(0, n, size)):
                part = run_match(
                    game,
                    agents,
                    min(size, n - first),
                    seed=args.seed + i,
                    progress=progress if size == n else None,
                    move_time_limit=args.move_time_limit or None,
                    ray=args.ray,
                    workers=args.workers if args.ray else 1,
                )
                parts.append(part)
                if size < n:
                    progress(first + len(part.outcomes), n)
                    if args.jsonl:
                        s = summary(part, setup_label, pair.strip(), perf_counter() - start, teams)
                        s["chunk"] = i
                        with open(args.jsonl, "a", encoding="utf-8") as fh:
                            fh.write(json.dumps(s) + "\n")
            result = dataclasses.replace(parts[0], n=n, outcomes=[o for part in parts for o in part.outcomes])
            s = summary(result, setup_label, pair.strip(), perf_counter() - start, teams)
            print(result.table())
            print(row(s), flush=True)
            rows.append(s)
            if args.jsonl and size == n:
                with open(args.jsonl, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(s) + "\n")
    print()
    print(HEADER)
    for s in rows:
        print(row(s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
