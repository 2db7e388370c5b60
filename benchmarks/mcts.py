"""MCTS iterations per second per game, on one core.

    .venv/bin/python benchmarks/mcts.py [--seconds 3] [--games agamemnon,archimedes,athos]

For each game (and player count) it searches a few positions (the start and positions reached by
random play) with the MCTS settings of the ``expert`` level (time budget replaced by
``--seconds`` per position; for Athos, whose expert is the turn planner, those of the generic
MCTS expert), and with plain UCT (random rollouts to the end, no widening), and prints the
iterations per second: per second of wall-clock time (``it/s``, what a player waiting for the
move sees) and per second of this process's CPU time (``it/s cpu``: steadier on a shared
machine, where other work takes the core away from the search). Positions are fixed by ``--seed``.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from time import perf_counter, process_time

from palaestra.ai.base import parse_spec
from palaestra.ai.levels import LEVELS, level_spec
from palaestra.ai.mcts import MCTSAgent
from palaestra.core.game import Game, State, random_playout
from palaestra.core.registry import load_game

SETUPS: list[tuple[str, dict[str, object]]] = [
    ("agamemnon", {}),
    ("archimedes", {}),
    ("archimedes", {"players": 3}),
    ("athos", {}),
    ("athos", {"players": 3}),
    ("athos", {"players": 4}),
]


def positions(game: Game, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_initial_state(seed + i)
        plies = 0 if i == 0 else rng.randrange(4, 40)
        random_playout(state, rng, plies)
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        if not state.is_terminal():
            out.append(state)
    return out


def rate(params: dict[str, object], states: list[State], seconds: float) -> tuple[float, float, int]:
    """Iterations per wall-clock second, per CPU second, and iterations in all."""
    total = 0
    elapsed = 0.0
    cpu = 0.0
    for state in states:
        agent = MCTSAgent(seed=1, **{**params, "time": seconds, "iterations": None, "workers": 1})  # type: ignore[arg-type]
        start, start_cpu = perf_counter(), process_time()
        agent._search(state)
        elapsed += perf_counter() - start
        cpu += process_time() - start_cpu
        total += agent.last.iterations
    return total / elapsed, total / cpu, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="search time per position")
    parser.add_argument("--positions", type=int, default=3, help="positions per game")
    parser.add_argument("--games", default="", help="comma-separated game names (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    wanted = {g for g in args.games.split(",") if g}
    print(f"# MCTS iterations/s, one core, {platform.python_implementation()} {platform.python_version()}")
    print(f"{'game':<16} {'setting':<64} {'it/s':>8} {'it/s cpu':>8} {'iterations':>10}")
    for name, options in SETUPS:
        if wanted and name not in wanted:
            continue
        try:
            game = load_game(name, **options)
        except Exception as err:  # a game not written yet
            print(f"{name:<16} unavailable: {type(err).__name__}: {err}")
            continue
        label = f"{name}/{game.num_players}"
        states = positions(game, args.positions, args.seed)
        spec = level_spec("expert", name, game.num_players)
        agent, params = parse_spec(spec)
        label_spec = "expert: " + spec
        if agent != "mcts":  # Athos: the expert is the turn planner; measure the generic MCTS expert
            spec = LEVELS["expert"]
            agent, params = parse_spec(spec)
            label_spec = "mcts (expert elsewhere): " + spec
        for setting, p in ((label_spec, params), ("plain UCT: random rollouts to the end", {})):
            per_second, per_cpu, total = rate(p, states, args.seconds)
            print(f"{label:<16} {setting:<64} {per_second:>8.0f} {per_cpu:>8.0f} {total:>10}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
