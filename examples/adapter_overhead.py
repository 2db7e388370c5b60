"""How fast random games run through each interface: the engine, OpenSpiel, PettingZoo.

Run it (needs the research extra)::

    python examples/adapter_overhead.py                    # every game, 20 games each
    python examples/adapter_overhead.py --game athos --games 5 --option players=4

For each game it plays the same number of uniformly random games (chance drawn from its
probabilities) on the Palaestra engine directly, on the OpenSpiel state of
``palaestra.adapters.openspiel`` and in the PettingZoo environment of
``palaestra.adapters.pettingzoo``, and prints actions per second for each. Figures for
docs/benchmarks.md come from this script.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from palaestra.adapters import openspiel as spiel_adapter
from palaestra.adapters import pettingzoo as zoo_adapter
from palaestra.core.game import random_playout, sample_outcome
from palaestra.core.registry import game_names, load_game


def engine_games(name: str, options: dict[str, Any], games: int, seed: int) -> int:
    game = load_game(name, **options)
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        actions += random_playout(state, rng)
    return actions


def openspiel_games(name: str, options: dict[str, Any], games: int, seed: int) -> int:
    game = spiel_adapter.load(name, **options)
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def pettingzoo_games(name: str, options: dict[str, Any], games: int, seed: int) -> int:
    environment = zoo_adapter.env(game=name, **options)
    rng = random.Random(seed)
    actions = 0
    for i in range(games):
        environment.reset(seed=seed + i)
        for _agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            environment.step(int(rng.choice(legal)))
            actions += 1
    return actions


def parse_value(text: str) -> bool | int | str:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        return text


def measure(name: str, options: dict[str, Any], games: int, seed: int) -> dict[str, float]:
    """Actions per second on each interface (PettingZoo counts agent actions only)."""
    rates = {}
    for label, run in (
        ("engine", engine_games),
        ("openspiel", openspiel_games),
        ("pettingzoo", pettingzoo_games),
    ):
        start = time.perf_counter()
        actions = run(name, options, games, seed)
        rates[label] = actions / max(time.perf_counter() - start, 1e-9)
    return rates


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=[], help="a game (repeatable; default all)")
    parser.add_argument("--games", type=int, default=20, help="random games per interface")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option takes KEY=VALUE, not {item!r}")
        options[key] = parse_value(value)
    results = {}
    for name in args.game or game_names():
        rates = measure(name, options, args.games, args.seed)
        results[name] = rates
        print(
            f"{name:<11} engine {rates['engine']:>9,.0f} actions/s   "
            f"openspiel {rates['openspiel']:>9,.0f} actions/s   "
            f"pettingzoo {rates['pettingzoo']:>9,.0f} actions/s"
        )
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
