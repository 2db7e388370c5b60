"""Agamemnon speed on one core: random games, score evaluations and playouts per second.

Usage: python benchmarks/agamemnon.py [--seconds S] [--variant loom|oracle|defying ...] [--wall]

Random games go through the public protocol only (legal_actions, chance_outcomes + sample_outcome,
apply_action, returns), as an agent or a driver would. Score evaluations are measured three ways
on positions sampled from random games:

* from scratch: the score of a position with no incremental strings (finished games): new
  positions, each scored once with the game's strings cache emptied first, then the same positions
  again and again (every pattern cached);
* incremental: a copy of a state, one placement, then the live score (``scores``) or the heuristic
  (``evaluate``) -- what a search does at every node; the engine keeps the strings up to date
  after the first request. The cost of the update alone is derived from the same loop on parents
  that keep no live score (time with the score minus time without).

Playouts (the expert's leaf value, docs/ai.md) from the same positions, both ways: played on through
the rules (random legal actions, every Warp declining its swap, then ``scores``) and drawn at once
by ``State.playout_scores`` (``_search.py``); the two have the same distribution of end scores
(tests/agamemnon/test_agamemnon_playout.py).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from palaestra.core.game import random_playout, sample_outcome
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState, _fast
from palaestra.games.agamemnon.moves import NOSWAP


def random_game(game: AgamemnonGame, rng: random.Random) -> AgamemnonState:
    state = game.new_initial_state()
    random_playout(state, rng)
    state.returns()
    return state


#: the clock of the measurements: CPU time of this process (default: the figures do not depend on
#: other work sharing the machine) or wall-clock time (``--wall``)
CLOCK: list[Callable[[], float]] = [time.process_time]


def show(label: str, per_second: float) -> None:
    print(f"{label:<46}{per_second:10.0f} /s")


def rate(seconds: float, batch: Callable[[], int]) -> float:
    """Calls of ``batch`` (each returns how many items it did) for ``seconds``; items per second."""
    clock = CLOCK[0]
    done = 0
    start = clock()
    while True:
        done += batch()
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed


def sample_positions(game: AgamemnonGame, n: int, rng: random.Random) -> list[AgamemnonState]:
    """States where a player is about to place a tile, from random games (all stages of a game)."""
    out: list[AgamemnonState] = []
    while len(out) < n:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                continue
            if state.phase == "place" and rng.random() < 0.25:
                out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--variant", action="append", default=[], choices=["loom", "oracle", "defying"])
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = parser.parse_args()
    if args.wall:
        CLOCK[0] = time.perf_counter
    options = {v: True for v in args.variant}
    game = AgamemnonGame(**options)
    rng = random.Random(2026)
    clock = "wall-clock" if args.wall else "CPU"
    print(
        f"Agamemnon {options or 'front board, no variant'} — Python {platform.python_version()}, "
        f"one core, {clock} time"
    )

    games = rate(args.seconds, lambda: (random_game(game, rng), 1)[1])
    show("random games:", games)

    positions = sample_positions(game, 400, rng)
    late = [s for s in positions if s.tiles_placed >= 24]
    ends = game.ends

    def scratch(states: list[AgamemnonState]) -> Callable[[], int]:
        def run() -> int:
            for s in states:
                assert s._maps is not None  # read directly: the figure is the scoring's alone
                _fast.points(s._maps, s._masks, ends)
            return len(states)

        return run

    # fresh positions, each scored once, the game's strings cache emptied first (then warming up)
    fresh = sample_positions(game, 4000, rng)
    fresh_late = [s for s in fresh if s.tiles_placed >= 24]
    for name, states in (("all stages", fresh), ("24+ tiles placed", fresh_late)):
        game.strings_memo.clear()
        start = CLOCK[0]()
        scratch(states)()
        once = len(states) / (CLOCK[0]() - start)
        show(f"score from scratch, {len(states)} new ({name}):", once)
    # the same 400 positions over and over: every part's strings come from the cache
    show("score from scratch (all stages, again):", rate(args.seconds, scratch(positions)))
    show("score from scratch (24+ tiles, again):", rate(args.seconds, scratch(late)))

    moves = [(s, rng.choice([a for a in s.legal_actions() if a < NOSWAP])) for s in positions]

    def child(read: Callable[[AgamemnonState], object]) -> Callable[[], int]:
        def run() -> int:
            for s, a in moves:
                c = s.clone()
                c.apply_action(a)
                read(c)
            return len(moves)

        return run

    # parents without the incremental strings: a placement keeps no live score up to date
    bare = rate(args.seconds, child(lambda c: None))
    for s in positions:
        s.scores()  # the first request builds the incremental strings, kept from then on
    clones = rate(args.seconds, child(lambda c: None))
    scored = rate(args.seconds, child(lambda c: c.scores()))
    evaluated = rate(args.seconds, child(lambda c: c.evaluate()))
    show("clone + place a tile (no live score):", bare)
    show("clone + place a tile (score kept):", clones)
    show("clone + place a tile + scores():", scored)
    show("clone + place a tile + evaluate():", evaluated)
    update = 1.0 / (1.0 / scored - 1.0 / bare) if scored < bare else float("inf")
    show("=> incremental score updates (derived):", update)
    reads = [s.clone() for s in positions]

    def read_scores() -> int:
        for c in reads:
            c.scores()
        return len(reads)

    show("scores() of a state kept up to date:", rate(args.seconds, read_scores))

    def played_on() -> int:
        for s in positions[:50]:
            c = s.clone()
            while not c.is_terminal():
                if c.is_chance_node():
                    c.apply_legal(sample_outcome(c.chance_outcomes(), rng))
                else:
                    c.apply_legal(NOSWAP if c.phase == "warp" else rng.choice(c.legal_actions()))
            c.scores()
        return 50

    def drawn() -> int:
        for s in positions:
            s.playout_scores(rng)
        return len(positions)

    show("playouts played on through the rules:", rate(args.seconds, played_on))
    show("playouts drawn at once (playout_scores):", rate(args.seconds, drawn))


if __name__ == "__main__":
    main()
