"""Evaluate OpenSpiel's MCTS against Palaestra's random agent on a Palaestra game.

Run it (needs the research extra: ``pip install -e '.[research]'``)::

    python examples/openspiel_mcts_vs_random.py --game archimedes --games 10 --simulations 50
    python examples/openspiel_mcts_vs_random.py --game agamemnon --option oracle=true
    python examples/openspiel_mcts_vs_random.py --game athos --option players=3 --option round_limit=20

The game is loaded through OpenSpiel (``pyspiel.load_game("palaestra_<game>", params)``) after
``palaestra.adapters.openspiel`` registered it; OpenSpiel's ``MCTSBot`` searches the OpenSpiel
state, Palaestra's random agent plays on the Palaestra state under it
(``state.palaestra_state``), and chance outcomes are drawn from their probabilities. MCTS takes
every seat in turn; the script prints MCTS's mean return, its wins, draws and losses.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from palaestra.adapters import openspiel as adapter
from palaestra.ai import make_agent
from palaestra.core.game import sample_outcome


def parse_value(text: str) -> bool | int | str:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        return text


def play(
    game: Any, mcts_seat: int, simulations: int, rollouts: int, seed: int, rollout_limit: int | None = None
) -> list[float]:
    """One complete game; returns the final returns of every seat."""
    rng = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed), max_length=rollout_limit)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=evaluator,
        random_state=np.random.RandomState(seed),
    )
    opponent = make_agent("random", seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.current_player() == mcts_seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(opponent.select_action(state.palaestra_state))
    returns: list[float] = state.returns()
    return returns


def evaluate(
    game_name: str,
    params: dict[str, Any],
    games: int,
    simulations: int,
    rollouts: int = 1,
    seed: int = 0,
    rollout_limit: int | None = None,
) -> dict[str, Any]:
    """Play ``games`` games, MCTS in each seat in turn; MCTS's results."""
    game = pyspiel.load_game(adapter.spiel_name(game_name), params)
    results = []
    for i in range(games):
        seat = i % game.num_players()
        returns = play(game, seat, simulations, rollouts, seed + i, rollout_limit)
        results.append(returns[seat])
    return {
        "game": str(game),
        "games": games,
        "mean_return": sum(results) / len(results) if results else 0.0,
        "wins": sum(1 for r in results if r > 0),
        "draws": sum(1 for r in results if r == 0),
        "losses": sum(1 for r in results if r < 0),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="archimedes", help="athos, archimedes or agamemnon")
    parser.add_argument("--games", type=int, default=10, help="games to play")
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations per move")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument(
        "--rollout-limit", type=int, default=None, help="cut random rollouts after this many actions"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    args = parser.parse_args(argv)
    if args.simulations < 2:
        parser.error("OpenSpiel's MCTS needs at least 2 simulations (the first only expands the root)")
    params = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option takes KEY=VALUE, not {item!r}")
        params[key] = parse_value(value)
    result = evaluate(
        args.game, params, args.games, args.simulations, args.rollouts, args.seed, args.rollout_limit
    )
    print(
        f"{result['game']}: MCTS ({args.simulations} simulations) vs random over {result['games']} games: "
        f"mean return {result['mean_return']:+.2f}, "
        f"{result['wins']} won, {result['draws']} drawn, {result['losses']} lost"
    )
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
