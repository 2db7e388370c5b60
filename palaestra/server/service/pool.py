"""A bounded pool for the AI's searches, fair between games (issue 17, "Limits").

Every search of the server (an AI seat's move, a hint, the AI's view of a finished game's move)
runs through :class:`SearchPool`: at most ``size`` at once, each in one of ``size`` worker threads,
so the event loop keeps answering and a burst of searches cannot take every thread and all memory.

Waiting searches are queued per game and served round-robin: a game with many searches waiting
gets one turn, then every other waiting game gets one, so one game (or a client asking many hints
in it) cannot starve the others. Searches a person waits for (a hint, an analysis, the AI's reply
in a game with a human seat: ``urgent``) go before searches nobody waits for (games between AI
seats only), but never more than ``burst`` in a row while such a search waits, so many AI-vs-AI
games slow each other down, not the people, and are never starved either.

With ``palaestra serve --redis-url`` the web processes do not search at all; the workers
(palaestra/server/worker.py) take one job per move from the arq queue (fair between games the same
way: each move is a job at the back of the queue) and search through their own pool.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class _Job:
    key: str
    work: Callable[[], Any]
    done: asyncio.Future[Any]


class SearchPool:
    """At most ``size`` searches at once; waiting ones served round-robin between games."""

    def __init__(self, size: int = 2, *, burst: int = 3) -> None:
        if size < 1:
            raise ValueError(f"a search pool needs at least one thread, not {size}")
        self.size = size
        #: urgent searches served in a row while a background one waits
        self.burst = max(1, burst)
        self._threads = concurrent.futures.ThreadPoolExecutor(size, thread_name_prefix="palaestra-search")
        #: waiting jobs: [background, urgent], each game's jobs in order, games in turn order
        self._waiting: tuple[OrderedDict[str, deque[_Job]], OrderedDict[str, deque[_Job]]] = (
            OrderedDict(),
            OrderedDict(),
        )
        self._streak = 0
        self.running = 0

    @property
    def waiting(self) -> int:
        return sum(len(jobs) for queue in self._waiting for jobs in queue.values())

    async def run(self, key: str, work: Callable[[], T], *, urgent: bool = True) -> T:
        """Run ``work()`` in a worker thread when its turn comes; ``key`` is the game it is for."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting[urgent].setdefault(key, deque()).append(_Job(key, work, done))
        self._dispatch()
        return await done

    def _next(self) -> _Job | None:
        background, urgent = self._waiting
        if urgent and (not background or self._streak < self.burst):
            self._streak += 1
            queue = urgent
        elif background:
            self._streak = 0
            queue = background
        else:
            return None
        key, jobs = next(iter(queue.items()))
        job = jobs.popleft()
        del queue[key]
        if jobs:  # the game's other searches wait for its next turn, behind every other game
            queue[key] = jobs
        return job

    def _dispatch(self) -> None:
        while self.running < self.size:
            job = self._next()
            if job is None:
                return
            if job.done.cancelled():  # the asker went away before its turn
                continue
            self.running += 1
            started = asyncio.get_running_loop().run_in_executor(self._threads, job.work)
            started.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, result: asyncio.Future[Any]) -> None:
        self.running -= 1
        if not job.done.done():
            if result.cancelled():
                job.done.cancel()
            elif result.exception() is not None:
                job.done.set_exception(result.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(result.result())
        self._dispatch()

    def close(self) -> None:
        """Refuse what waits, let running searches end in their threads."""
        for queue in self._waiting:
            for jobs in queue.values():
                for job in jobs:
                    job.done.cancel()
            queue.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)
