"""The server's own moves: chance draws and AI seats, played until a person is to move.

``kick(session)`` starts a runner task for a game whose next move is the server's (no-op if one
runs), or, with a ``queue`` (``palaestra serve --redis-url``), asks a ``palaestra worker`` for
the move (palaestra/server/worker.py): then this process never searches. The runner asks the core
driver's :func:`~palaestra.core.driver.next_action` for each move: chance drawn by the one
seeding rule from the game's secret (palaestra/server/fairness.py), or the seat's agent through
the bounded search pool (palaestra/server/service/pool.py: worker threads, fair between games; the
AI's reply to a person goes before AI-against-AI games), so the event loop stays responsive. A
move that cannot be
stored (database down, disk full) is retried with back-off until it is: no game is left stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from palaestra.ai import make_agent
from palaestra.ai.base import Agent
from palaestra.core.driver import Seat, next_action
from palaestra.core.game import CHANCE
from palaestra.server.db import StorageError
from palaestra.server.service.errors import DomainError
from palaestra.server.service.pool import ChildCall, SearchPool
from palaestra.server.service.searching import agent_move, played_spec, position
from palaestra.server.service.session import Session
from palaestra.server.service.sessions import Sessions

log = logging.getLogger("palaestra.server")


class MoveQueue(Protocol):
    """Where the server's moves are played when not in this process: ``submit`` asks for the next
    chance or AI move of a game at ``version`` (palaestra/server/worker.py: an arq job)."""

    async def submit(self, game_id: str, version: int) -> bool: ...

    async def queued(self) -> int: ...


class ServerMoves:
    """Plays the chance and AI moves of every game of a :class:`Sessions` (or has them played)."""

    def __init__(
        self,
        sessions: Sessions,
        *,
        ai_delay: float = 0.4,
        agent_factory: Callable[[str, int | None], Agent] = make_agent,
        queue: MoveQueue | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        self.sessions = sessions
        self.queue = queue
        #: where the AI's searches run (at most ``pool.size`` at once, fair between games)
        self.pool = pool or SearchPool()
        self._submitting: set[asyncio.Task[None]] = set()
        #: the least time an AI move takes (so people can follow it)
        self.ai_delay = ai_delay
        self.agent_factory = agent_factory
        #: waits between tries of a server move that could not be stored (the last one repeats)
        self.retry_delays: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
        self.closing = False

    def kick(self, session: Session) -> None:
        """Start playing the server's moves of ``session`` if it waits for one."""
        if self.closing or not session.waiting_for_server():
            return
        if self.queue is not None:  # a job for a worker process (retried there; see worker.py)
            task = asyncio.get_running_loop().create_task(self._submit(session.id, session.version))
            self._submitting.add(task)
            task.add_done_callback(self._submitting.discard)
            return
        if session.runner is not None and not session.runner.done():
            return
        session.runner = asyncio.get_running_loop().create_task(self._run(session))

    async def stop(self) -> None:
        """Cancel every runner (their moves so far are stored; a restart resumes them)."""
        self.closing = True
        runners = [s.runner for s in self.sessions.loaded.values() if s.runner is not None]
        for task in runners:
            task.cancel()
        for task in runners:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, session: Session) -> None:
        """Play chance and AI moves until a human is to move or the game ends."""
        lost = 0  # searches lost in a row to a search child that died
        try:
            while session.waiting_for_server():
                try:
                    if not await self.play_one(session):
                        return  # another process moved this game on: whoever loads it continues it
                except BrokenProcessPool:
                    lost += 1
                    if lost > len(self.retry_delays):
                        raise
                    log.warning("game %s: its search's process died (try %d); again", session.id, lost)
                    await asyncio.sleep(self.retry_delays[lost - 1])
                    continue
                lost = 0
                await self.sessions.broadcast(session)
        except asyncio.CancelledError:
            raise
        except Exception:  # an engine or agent bug must not kill the server
            log.exception("server moves of game %s stopped", session.id)

    async def play_one(self, session: Session) -> bool:
        """Draw the chance outcome or search the AI's move, and store it (not pushed yet). False
        if the row moved on without us (the session then holds the current row)."""
        ply = session.ply
        player = session.state.current_player
        chance = session.chance_source()
        if player == CHANCE:
            action = next_action(session.state, chance, {})
        elif session.state.is_terminal():
            action = None
        else:
            person_waits = any(seat.kind == "human" for seat in session.seats)
            search = self.pool.run(session.id, self._search(session, player), urgent=person_waits)
            action, _ = await asyncio.gather(search, asyncio.sleep(self.ai_delay))
        if action is None:  # not the server's move after all (an agent gave none)
            return True
        return await self._store(session, ply, action)

    async def _submit(self, game_id: str, version: int) -> None:
        assert self.queue is not None
        try:
            await self.queue.submit(game_id, version)
        except Exception:  # Redis down: the workers' sweep finds the game (docs/deploy.md)
            log.exception("game %s: the server's move could not be queued", game_id)

    async def _store(self, session: Session, ply: int, action: int) -> bool:
        """Apply and store an AI or chance move; a failed write (database down, disk full) is
        retried with exponential back-off (``retry_delays``) until it succeeds, so the game goes on
        by itself once the database is back. False if the row moved on without us (a lost race:
        the session was dropped from the cache, the next request loads the current row)."""
        attempt = 0
        while True:
            try:
                # unless the game moved on (a resignation): then the caller looks again
                await self.sessions.change(
                    session, lambda s: s.play(action) if s.ply == ply and s.waiting_for_server() else None
                )
                return True
            except StorageError:
                delay = self.retry_delays[min(attempt, len(self.retry_delays) - 1)]
                attempt += 1
                log.warning(
                    "game %s: the move could not be stored (try %d); again in %.1f s",
                    session.id,
                    attempt,
                    delay,
                )
                await asyncio.sleep(delay)
            except DomainError as err:
                if err.code == "conflict":
                    return False
                raise

    def _search(self, session: Session, player: int) -> Callable[[], int | None]:
        """The search of the AI seat ``player``'s move: in the pool's child process (its agent
        kept there, palaestra/server/service/searching.py) when the pool has processes and the
        agents are the levels' (``make_agent``); else here, with the agent of the session."""
        if self.pool.processes and self.agent_factory is make_agent:
            key = (session.id, player, session.token)
            level = session.ai_level(player)
            seed = session.chance_source().agent_seed(player)
            spec = played_spec(level, session.game)
            return ChildCall(agent_move, (key, spec, seed, position(session.state)))
        seats: dict[int, Seat] = {player: self.agent(session, player).select_action}
        snapshot = session.state.clone()
        chance = session.chance_source()
        return lambda: next_action(snapshot, chance, seats)

    def agent(self, session: Session, player: int) -> Agent:
        """The agent of an AI seat, or of a seat whose turn the AI plays because its time ran out
        (made once per session, seeded by the one rule from the game's chance key: the seed the
        arena and ``palaestra play`` give the agent of this seat in a game of the same seed)."""
        agent = session.agents.get(player)
        if agent is None:
            level = session.ai_level(player)
            agent = self.agent_factory(level, session.chance_source().agent_seed(player))
            session.agents[player] = agent
        return agent
