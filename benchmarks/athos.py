"""Athos engine speed: actions generated and applied per second, random games per second.

    .venv/bin/python benchmarks/athos.py [--seconds 10] [--players 2 3 4] [--round-limit 150]

Three figures per player count (uniformly random legal actions, default options):

* playout: one ``legal_actions()`` call plus one ``apply_action()`` of a random legal action, the
  way random playouts and tree searches use the engine (the aim is 20,000 actions/s), and whole
  random games per second;
* generated: ``legal_actions()`` alone, on copies of states met in those games with every cache
  cleared (the path-rule search is redone for each);
* applied: ``apply_action()`` alone (with its legality check), replaying the games' actions.

``--fixed N``: instead, a fixed workload that a busy machine disturbs less: the same N random games
(from ``--seed``), played ``--passes`` times in this process; the best pass's actions per CPU
second is printed. Compare checkouts with alternating processes.

Figures are printed for wall-clock time and for CPU time of this process (steadier on a busy
machine). Results are recorded in docs/benchmarks.md (section "Athos").
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import PHASE_NAMES, AthosState


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def rates(count: int, start: tuple[float, float], digits: int = 0) -> str:
    wall, cpu = (now - then for now, then in zip(clocks(), start, strict=True))
    return f"{count / wall:,.{digits}f} wall, {count / cpu:,.{digits}f} cpu"


def run(players: int, round_limit: int, seconds: float, seed: int) -> None:
    game = AthosGame(players=players, round_limit=round_limit)
    rng = random.Random(seed)
    actions = games = 0
    per_phase: dict[str, int] = {}
    sample: list[AthosState] = []
    histories: list[list[int]] = []
    start = clocks()
    while time.perf_counter() - start[0] < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            phase = PHASE_NAMES[state.phase]
            per_phase[phase] = per_phase.get(phase, 0) + 1
            if len(sample) < 5000 and rng.random() < 0.05:
                sample.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        histories.append(state.history)
        games += 1
    playout = rates(actions, start)
    games_rate = rates(games, start, 2)
    mix = ", ".join(f"{k} {100 * v / actions:.0f}%" for k, v in sorted(per_phase.items()))
    print(
        f"{players} players, round limit {round_limit}: {games} random games, {actions} actions "
        f"({actions / games:.0f} per game; {mix})"
    )
    print(f"  playout (legal_actions + apply_action) per second: {playout}")
    print(f"  random games per second: {games_rate}")

    for s in sample:
        s._position_changed()  # no cached path-rule search
    start = clocks()
    generated = 0
    for s in sample:
        s.legal_actions()
        generated += 1
    print(f"  legal_actions() per second (no cache, {generated} states): {rates(generated, start)}")

    start = clocks()
    applied = 0
    for history in histories:
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        applied += len(history)
    print(f"  apply_action() per second ({applied} actions): {rates(applied, start)}")


def fixed(players: int, games: int, passes: int, seed: int) -> None:
    """The same ``games`` random games, ``passes`` times: the best pass's actions per CPU second."""
    game = AthosGame(players=players)

    def play() -> int:
        rng = random.Random(seed)
        count = 0
        for k in range(games):
            state = game.new_initial_state(seed=seed + k)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                count += 1
        return count

    best, count = float("inf"), 0
    for _ in range(passes):
        start = time.process_time()
        count = play()
        best = min(best, time.process_time() - start)
    rate = count / best
    print(f"{players} players, {games} games, {count} actions: {rate:,.0f} per CPU second (best of {passes})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0, help="playout time per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2], help="player counts")
    parser.add_argument("--round-limit", type=int, default=150, help="ATH-E3 round limit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fixed", type=int, default=0, help="a fixed workload of this many games instead")
    parser.add_argument("--passes", type=int, default=4, help="passes of the fixed workload")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.node()}")
    for players in args.players:
        if args.fixed:
            fixed(players, args.fixed, args.passes, args.seed)
        else:
            run(players, args.round_limit, args.seconds, args.seed)


if __name__ == "__main__":
    main()
