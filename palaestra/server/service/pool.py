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

With ``processes`` (setting ``search_processes``, the default of ``palaestra serve``; issue 31,
item 2) each of the ``size`` slots is a child process (started with "spawn", at a lower priority:
``nice``), and the searches given as a :class:`ChildCall` run there: pure-Python searches hold the
GIL, and in the server's process they starve its event loop. The scheduling stays here; a game has
an affinity to one slot (a stable hash of its key), so its searches run one at a time, in the child
that keeps its AI seats' agents from move to move (palaestra/server/service/searching.py). Other
work (a plain callable: a custom agent factory of the tests) runs in a thread of its game's slot.

With ``palaestra serve --redis-url`` the web processes do not search at all; the workers
(palaestra/server/worker.py) take one job per move from the arq queue (fair between games the same
way: each move is a job at the back of the queue) and search through their own pool.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import multiprocessing
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from palaestra.server.service.searching import start_child

T = TypeVar("T")
log = logging.getLogger("palaestra.server")


@dataclass(frozen=True)
class ChildCall:
    """A search that may run in a child process: a module-level function and picklable
    arguments (palaestra/server/service/searching.py). Called here, it runs in this process."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]

    def __call__(self) -> Any:
        return self.fn(*self.args)


@dataclass
class _Job:
    key: str
    work: Callable[[], Any]
    done: asyncio.Future[Any]


class SearchPool:
    """At most ``size`` searches at once; waiting ones served round-robin between games."""

    def __init__(
        self, size: int = 2, *, burst: int = 3, processes: bool = False, nice: int = 10, limit: float = 0.0
    ) -> None:
        if size < 1:
            raise ValueError(f"a search pool needs at least one thread, not {size}")
        self.size = size
        #: urgent searches served in a row while a background one waits
        self.burst = max(1, burst)
        self._threads = concurrent.futures.ThreadPoolExecutor(size, thread_name_prefix="palaestra-search")
        #: with processes: the child of each slot (started at its first search), the busy slots
        self.processes = processes
        self.nice = nice
        self._children: list[concurrent.futures.ProcessPoolExecutor | None] = [None] * size
        self._busy: set[int] = set()
        #: with processes: a search still running after this many seconds is stopped (its child
        #: ended, the asker gets TimeoutError; 0: never); each level's own budget is far below
        self.limit = limit
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
        """Run ``work()`` when its turn comes, in a worker thread, or (with processes) a
        :class:`ChildCall` in the child of the game's slot; ``key`` is the game it is for."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting[urgent].setdefault(key, deque()).append(_Job(key, work, done))
        self._dispatch()
        return await done

    def slot(self, key: str) -> int:
        """The slot (child process) the searches of game ``key`` run in (with processes)."""
        return zlib.crc32(key.encode()) % self.size

    def _first(self, queue: OrderedDict[str, deque[_Job]]) -> str | None:
        """The first game in turn order whose searches may start now (its slot is free)."""
        for key in queue:
            if not self.processes or self.slot(key) not in self._busy:
                return key
        return None

    def _next(self) -> _Job | None:
        background, urgent = self._waiting
        first_urgent, first_background = self._first(urgent), self._first(background)
        if first_urgent is not None and (first_background is None or self._streak < self.burst):
            self._streak += 1
            queue, key = urgent, first_urgent
        elif first_background is not None:
            self._streak = 0
            queue, key = background, first_background
        else:
            return None
        jobs = queue.pop(key)
        job = jobs.popleft()
        if jobs:  # the game's other searches wait for its next turn, behind every other game
            queue[key] = jobs
        return job

    def _child(self, slot: int) -> concurrent.futures.ProcessPoolExecutor:
        child = self._children[slot]
        if child is None:  # "spawn": this process runs threads and an event loop, never fork it
            child = concurrent.futures.ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=start_child,
                initargs=(self.nice,),
            )
            self._children[slot] = child
        return child

    def _dispatch(self) -> None:
        while self.running < self.size:
            job = self._next()
            if job is None:
                return
            if job.done.cancelled():  # the asker went away before its turn
                continue
            self.running += 1
            loop = asyncio.get_running_loop()
            slot = None
            if self.processes:
                slot = self.slot(job.key)
                self._busy.add(slot)
            if slot is not None and isinstance(job.work, ChildCall):
                try:
                    try:
                        started = loop.run_in_executor(self._child(slot), job.work)
                    except BrokenProcessPool:  # the child died (killed): a new one for this search
                        self._children[slot] = None
                        started = loop.run_in_executor(self._child(slot), job.work)
                except Exception as err:  # no child could be started: the asker is told
                    self.running -= 1
                    self._busy.discard(slot)
                    job.done.set_exception(err)
                    continue
                if self.limit > 0:
                    timer = loop.call_later(self.limit, self._overrun, job, slot)
                    started.add_done_callback(functools.partial(_cancel, timer))
            else:
                started = loop.run_in_executor(self._threads, job.work)
            started.add_done_callback(functools.partial(self._finished, job, slot))

    def _overrun(self, job: _Job, slot: int) -> None:
        """A search ran past ``limit``: end its child (the slot's next search starts another)."""
        log.warning("a search of game %s ran past %.0f s: its process is stopped", job.key, self.limit)
        if not job.done.done():
            job.done.set_exception(TimeoutError(f"the search ran past {self.limit:g} s"))
        child = self._children[slot]
        if child is None:
            return
        processes = list(getattr(child, "_processes", {}).values())
        self._children[slot] = None
        child.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()

    def _finished(self, job: _Job, slot: int | None, result: asyncio.Future[Any]) -> None:
        self.running -= 1
        if slot is not None:
            self._busy.discard(slot)
            if not result.cancelled() and isinstance(result.exception(), BrokenProcessPool):
                self._children[slot] = None  # the child died: the slot's next search starts another
        if not job.done.done():
            if result.cancelled():
                job.done.cancel()
            elif result.exception() is not None:
                job.done.set_exception(result.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(result.result())
        self._dispatch()

    def children(self) -> list[multiprocessing.process.BaseProcess]:
        """The child processes running now (with processes)."""
        found: list[multiprocessing.process.BaseProcess] = []
        for child in self._children:
            if child is not None:
                found.extend(getattr(child, "_processes", {}).values())  # not public in the stdlib
        return [p for p in found if p.is_alive()]

    def close(self) -> None:
        """Refuse what waits, let running searches end in their threads; end the children (a
        search running in one is stopped: nobody will read its move)."""
        for queue in self._waiting:
            for jobs in queue.values():
                for job in jobs:
                    job.done.cancel()
            queue.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)
        processes = self.children()
        for child in self._children:
            if child is not None:
                child.shutdown(wait=False, cancel_futures=True)
        self._children = [None] * self.size
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            process.join(timeout=5)


def _cancel(timer: asyncio.TimerHandle, _: object) -> None:
    timer.cancel()
