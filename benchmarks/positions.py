"""How long reading a position document and a saved state takes, per game (issue 32: the
documents became Pydantic models). The documents are those of random playouts' states, every
10th ply; each is read ``--repeat`` times. Prints microseconds per read.

    PYTHONPATH=. python benchmarks/positions.py [--games 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from palaestra.core.game import Game, random_playout
from palaestra.core.registry import load_game

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("athos", {}),
    ("archimedes", {}),
    ("agamemnon", {"loom": True, "oracle": True}),
]


def documents(game: Game, games: int) -> tuple[list[Any], list[Any]]:
    """The positions and saved states of ``games`` random playouts, every 10th ply."""
    positions, saved = [], []
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            positions.append(json.loads(json.dumps(state.to_position())))
            saved.append(json.loads(json.dumps(state.to_json())))
            if random_playout(state, rng, plies=10) < 10:
                break
    return positions, saved


def per_read(read: Any, docs: list[Any], repeat: int) -> float:
    """Microseconds of CPU time per ``read(doc)``."""
    start = time.process_time()
    for _ in range(repeat):
        for doc in docs:
            read(doc)
    return (time.process_time() - start) / (repeat * len(docs)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name, options in GAMES:
        game = load_game(name, **options)
        positions, saved = documents(game, args.games)
        pos = per_read(game.state_from_position, positions, args.repeat)
        js = per_read(game.state_from_json, saved, args.repeat)
        print(f"{name:10} {len(positions):5} documents: position {pos:8.1f} µs, saved state {js:8.1f} µs")


if __name__ == "__main__":
    main()
