"""Distributed tournaments: the games of an arena match as Ray tasks (the ``cluster`` extra).

``run_match(..., ray="local")`` starts a Ray cluster on this machine with ``workers`` CPUs for the
match and stops it afterwards; ``ray="HOST:PORT"`` (or ``"auto"``) joins a running cluster
(``ray start --head`` on one machine, ``ray start --address=HOST:PORT`` on the others: docs/ai.md)
and leaves it running. Every game is one task running :func:`palaestra.ai.arena.play_game`, the
same function a single-process match calls with the same arguments, so a match with iteration
budgets gives exactly the same games and results on a cluster as in one process (a task that dies
with its machine is run again by Ray, ``max_retries``; a game is a pure function of its seed).
Records (``record_dir``) are written by the worker that played the game, on its machine: across
machines give a directory every machine shares.

Ray is chosen over a home-made job queue because it already does what a tournament across
machines needs: scheduling on whatever CPUs the cluster has, retrying tasks of a lost worker,
shipping the game and agent specs (pickled) to the workers, and a one-line way to join machines.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palaestra.core.errors import OptionError
from palaestra.core.game import Game

#: ``ray=LOCAL``: a throwaway cluster on this machine for the match
LOCAL = "local"


def _ray() -> Any:
    try:
        import ray
    except ImportError as err:
        raise OptionError("tournaments on Ray need Ray: pip install 'palaestra[cluster]'") from err
    return ray


def connect(address: str, workers: int = 2) -> bool:
    """Start (:data:`LOCAL`, ``workers`` CPUs) or join (``HOST:PORT``, ``auto``) a Ray cluster for
    this process, unless Ray is already connected; True when this call connected (the caller
    then ends it with ``ray.shutdown()``). A script running many matches connects once."""
    ray = _ray()
    if ray.is_initialized():
        return False
    if address == LOCAL:
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            object_store_memory=200 * 1024 * 1024,
            logging_level=logging.WARNING,
        )
    else:
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except (ConnectionError, ValueError, RuntimeError) as err:
            raise OptionError(f"cannot join the Ray cluster at {address!r}: {err}") from None
    return True


def play_games_on_ray(
    game: Game,
    agents: list[str],
    n: int,
    seed: int,
    *,
    address: str,
    workers: int = 2,
    record_dir: Path | None = None,
    move_time_limit: float | None = None,
    adjudicate: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> list[Any]:
    """The ``n`` games of a match played as Ray tasks, in game order (``GameOutcome`` each).

    ``address``: :data:`LOCAL` for a cluster of ``workers`` CPUs started (and stopped) here, else
    the address of a running cluster (``HOST:PORT`` or ``auto``) joined for the match."""
    from palaestra.ai.arena import Failure, GameOutcome, derive_seed, play_game, seat_assignment

    ray = _ray()
    started = connect(address, workers)
    try:
        task = ray.remote(num_cpus=1, max_retries=3)(play_game)
        refs = {
            task.remote(game, agents, i, seed, record_dir, move_time_limit, adjudicate): i for i in range(n)
        }
        outcomes: list[Any] = [None] * n
        pending = list(refs)
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                i = refs[ref]
                try:
                    outcomes[i] = ray.get(ref)
                except Exception as err:  # the task failed for good (retries spent)
                    k = len(agents)
                    outcomes[i] = GameOutcome(
                        i,
                        derive_seed(seed, "game", i // k),
                        seat_assignment(k, game.num_players, i),
                        None,
                        None,
                        0,
                        Failure(i, None, None, "game-error", f"{type(err).__name__}: {err}"),
                    )
                done += 1
                if progress is not None:
                    progress(done, n)
        return outcomes
    finally:
        if started:
            ray.shutdown()
