"""Archimedes move-generation speed, on one core.

    .venv/bin/python benchmarks/archimedes.py [--games 40] [--seed 1] [--depth 4]

Prints perft(1..depth) of the 2-player start (and perft(1..depth-1) of the 3-player start) with
the time of each, the legal-move generations per second over positions sampled from random games
(each generation without the state's cache of legal actions; first with the game's move memos
emptied before each pass, then with them warm) with the time to make all the game's path tables
(once per game object), and random games per second (uniformly random legal actions, default
options: move limit 1000 plies). Times are CPU seconds of this process
(time.process_time), so that other work on the machine does not distort them.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from collections import Counter
from time import process_time as perf_counter  # CPU time of this process: steady on a busy machine

from palaestra.core.perft import perft
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState


def sample_positions(game: ArchimedesGame, games: int, seed: int) -> list[ArchimedesState]:
    """Every 10th position of ``games`` random games (a fresh copy: no cached moves)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.ply % 10 == 0:
                out.append(game.state_from_position(state.to_position()))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def generations_per_second(
    states: list[ArchimedesState], rounds: int = 3, cold: bool = True
) -> tuple[float, float]:
    """Best of ``rounds`` passes over ``states``; returns (generations/s, mean moves). ``cold``: the
    game's memos of single-cube moves are emptied before each pass (else they hold every position's
    moves); the game's tables of paths, made once per game, stay."""
    best = 0.0
    moves = 0
    for _ in range(rounds):
        if cold:
            for game in {id(s.game): s.game for s in states}.values():
                game.move_generator.clear_memos()
        start = perf_counter()
        moves = 0
        for state in states:
            moves += len(state.moves_of(state.current_player) or [state.game.pass_action])
        best = max(best, len(states) / (perf_counter() - start))
    return best, moves / max(1, len(states))


def random_games(game: ArchimedesGame, games: int, seed: int) -> tuple[float, float, Counter[str]]:
    rng = random.Random(seed)
    plies = 0
    ends: Counter[str] = Counter()
    start = perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        plies += state.ply
        ends[state.end_reason or "?"] += 1
    elapsed = perf_counter() - start
    return games / elapsed, plies / elapsed, ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="random games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=4, help="perft depth of the 2-player start")
    args = parser.parse_args()
    print(
        f"Archimedes benchmark: Python {sys.version.split()[0]}, {platform.machine()}, "
        f"{platform.processor() or platform.platform()}"
    )
    for players, depth in ((2, args.depth), (3, args.depth - 1)):
        game = ArchimedesGame(players=players)
        for d in range(1, depth + 1):
            start = perf_counter()
            leaves = perft(game.new_initial_state(), d)
            took = perf_counter() - start
            print(f"perft({d}) {players} players: {leaves:>10,} leaves in {took:8.3f} s CPU")
    for players in (2, 3):
        for revisit in (False, True):
            game = ArchimedesGame(players=players, revisit=revisit)
            states = sample_positions(game, max(1, args.games // 4), args.seed)
            fresh = ArchimedesGame(players=players)  # path tables (used without revisit only)
            start = perf_counter()
            for c in range(fresh.size):
                for steps in range(3, 8):
                    for p in range(players):
                        fresh.move_generator.path_table(c, steps, p)
            tables = perf_counter() - start
            rate, mean = generations_per_second(states)
            warm, _ = generations_per_second(states, cold=False)
            label = f"{players} players{', revisit' if revisit else ''}"
            print(
                f"move generation, {label}: {rate:10,.0f} generations/s (memos emptied first), "
                f"{warm:10,.0f} (memos warm) over {len(states)} positions of random games "
                f"({mean:.1f} moves each)"
                + ("" if revisit else f"; all path tables made in {tables:.3f} s CPU")
            )
    for players in (2, 3):
        game = ArchimedesGame(players=players)
        gps, pps, ends = random_games(game, args.games, args.seed)
        print(f"random games, {players} players: {gps:6.2f} games/s, {pps:8,.0f} plies/s, ends {dict(ends)}")


if __name__ == "__main__":
    main()
