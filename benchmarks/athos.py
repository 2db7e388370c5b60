"""Athos engine speed: actions generated and applied per second, random games per second.

    .venv/bin/python benchmarks/athos.py [--seconds 10] [--players 2] [--round-limit 150]

One "action" is one ``legal_actions()`` call plus one ``apply_action()`` of a uniformly random
legal action (the way random playouts and tree searches use the engine). Figures are printed for
wall-clock time and for CPU time of this process (steadier on a busy machine). Results are
recorded in docs/benchmarks.md (section "Athos").
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import PHASE_NAMES


def run(players: int, round_limit: int, seconds: float, seed: int) -> None:
    game = AthosGame(players=players, round_limit=round_limit)
    rng = random.Random(seed)
    actions = games = 0
    per_phase: dict[str, int] = {}
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            per_phase[PHASE_NAMES[state.phase]] = per_phase.get(PHASE_NAMES[state.phase], 0) + 1
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    mix = ", ".join(f"{k} {100 * v / actions:.0f}%" for k, v in sorted(per_phase.items()))
    print(
        f"{players} players, round limit {round_limit}: {games} random games, {actions} actions "
        f"({actions / games:.0f} per game; {mix})"
    )
    print(f"  actions generated+applied per second: {actions / wall:,.0f} wall, {actions / cpu:,.0f} cpu")
    print(f"  random games per second: {games / wall:.2f} wall, {games / cpu:.2f} cpu")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0, help="time per configuration")
    parser.add_argument("--players", type=int, nargs="*", default=[2], help="player counts")
    parser.add_argument("--round-limit", type=int, default=150, help="ATH-E3 round limit")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.node()}")
    for players in args.players:
        run(players, args.round_limit, args.seconds, args.seed)


if __name__ == "__main__":
    main()
