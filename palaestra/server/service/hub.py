"""The service of one server process: every part wired together, started and stopped.

The routers (palaestra/server/api/) reach the parts through :class:`Hub`:

- ``sessions`` (sessions.py): games in memory, loading, eviction, writes, pushes, the lobby;
- ``seats`` (seats.py): creating games, seat tokens, invitations;
- ``play`` (play.py): actions, resignation, undo;
- ``moves`` (runner.py): the server's own moves (chance, AI);
- ``pool`` (pool.py): the bounded, fair pool every search runs in;
- ``analyst`` (analysis.py): hints, analysis, replays;
- ``lobby`` (seeks.py): seeks and quick pairing, from posting to their game (issue 29);
- ``feed`` (lobby_feed.py): what the lobby shows, and its changes pushed live to its websockets;
- ``challenges`` (challenges.py): challenges to a named member (issue 29);
- ``accounts`` (accounts.py): members, sign-in sessions, profiles, leaderboards; rated games are
  rated as they finish (rated.py, ``Sessions.on_finish``); ``passkeys`` (passkeys.py): WebAuthn.
- ``notifications`` (notifications.py): queued with the writes that cause them
  (``Sessions.on_write``, ``RematchService.on_offer``) and sent as jobs (delivery.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from palaestra.ai import make_agent
from palaestra.ai.base import Agent
from palaestra.server.account_store import AccountStore
from palaestra.server.broker import Broker
from palaestra.server.challenge_store import ChallengeStore
from palaestra.server.db import StorageError, Store
from palaestra.server.lesson_store import LessonStore
from palaestra.server.memory import release_free_memory
from palaestra.server.passkey_store import PasskeyStore
from palaestra.server.seek_store import SeekStore
from palaestra.server.service.absence import Absence
from palaestra.server.service.accounts import AccountService
from palaestra.server.service.analysis import Analyst, Searcher, available_levels
from palaestra.server.service.challenges import ChallengeService
from palaestra.server.service.clocks import ClockKeeper
from palaestra.server.service.errors import DomainError
from palaestra.server.service.lobby_feed import LobbyFeed
from palaestra.server.service.notifications import Notifications
from palaestra.server.service.passkeys import PasskeyService
from palaestra.server.service.passwords import Hasher
from palaestra.server.service.play import PlayService
from palaestra.server.service.pool import SearchPool
from palaestra.server.service.rated import rating_writer
from palaestra.server.service.rematch import RematchService
from palaestra.server.service.runner import MoveQueue, ServerMoves
from palaestra.server.service.seats import SeatService
from palaestra.server.service.seeks import SeekService
from palaestra.server.service.session import Session
from palaestra.server.service.sessions import Sessions

log = logging.getLogger("palaestra.server")


class Hub:
    """All games of one server, backed by a :class:`Store`.

    One of many processes (docs/deploy.md) with a shared ``broker`` (Redis pub/sub: changes are
    announced and heard) and a ``queue`` (the server's moves are jobs for ``palaestra worker``)."""

    def __init__(
        self,
        store: Store,
        *,
        ai_delay: float = 0.4,
        agent_factory: Callable[[str, int | None], Agent] = make_agent,
        broker: Broker | None = None,
        queue: MoveQueue | None = None,
        searcher: Searcher | None = None,
        search_workers: int = 2,
        search_processes: bool = False,
        search_nice: int = 10,
        search_limit: float = 0.0,
        hasher: Hasher | None = None,
    ) -> None:
        self.store = store
        self.levels = available_levels()
        self.sessions = Sessions(store, broker)
        self.sessions.on_finish = rating_writer
        #: every search of this process (AI moves, hints, analysis): bounded, fair between games;
        #: with ``search_processes``, in child processes (not with a custom ``agent_factory``,
        #: whose agents live here: the tests')
        processes = search_processes and agent_factory is make_agent
        self.pool = SearchPool(search_workers, processes=processes, nice=search_nice, limit=search_limit)
        self.moves = ServerMoves(
            self.sessions, ai_delay=ai_delay, agent_factory=agent_factory, queue=queue, pool=self.pool
        )
        self.seats = SeatService(self.sessions, self.levels, self.moves.kick)
        self.clocks = ClockKeeper(self.sessions, self.moves.kick)
        self.play = PlayService(self.sessions, self.moves.kick, self.clocks.flag)
        self.analyst = Analyst(self.sessions, self.levels, agent_factory, searcher, self.pool)
        self.accounts = AccountService(AccountStore(store), hasher or Hasher())
        seeks = SeekStore(store)
        #: the lobby's listing and its live changes (issue 29)
        self.feed = LobbyFeed(seeks, self.sessions, self.sessions.broker)
        #: seeks and quick pairing (issue 29)
        self.lobby = SeekService(seeks, self.accounts.store, self.seats, self.feed)
        #: challenges to a named member (issue 29); their pushes travel on the lobby's channel
        self.challenges = ChallengeService(ChallengeStore(store), self.accounts.store, self.lobby)
        self.sessions.broker.on_lobby = self._on_lobby
        self.accounts.on_games_changed = self._changed_here
        #: the websockets of each seat, for claims of an absent player's game (issue 29)
        self.absence = Absence()
        #: seconds a seat to move must have had no websocket before the others may claim the win
        self.claim_after = 60.0
        #: rematches of finished games (issue 29)
        self.rematches = RematchService(self.sessions, self.seats, self.accounts.store)
        self.passkeys = PasskeyService(PasskeyStore(store), self.accounts)
        #: the lessons a member has done (issue 30, "Learn to play")
        self.lessons = LessonStore(store)
        #: notifications (issue 29): queued with the writes that cause them, sent as jobs
        self.notifications = Notifications(store, self.sessions.broker)
        self.sessions.on_write = self.notifications.on_write
        self.sessions.on_start = self.notifications.on_start
        self.sessions.after_write = self.notifications.kick
        self.rematches.on_offer = self.notifications.rematch_writer
        self.challenges.on_made = lambda challenge, name, title: self.notifications.challenge_writer(
            challenge.challenged_id, challenge.id, name, title, "/#/"
        )
        self.challenges.after_made = self.notifications.kick
        #: how often (seconds) idle games are evicted and inactive ones marked abandoned
        self.evict_every = 30.0
        #: games nobody changed for this long (seconds) become ``abandoned``; 0: never
        self.abandon_after = 0.0
        self._sweeper: asyncio.Task[None] | None = None
        self._clock_keeper: asyncio.Task[None] | None = None

    # --- start and stop ---------------------------------------------------------------------
    async def start(self) -> None:
        """Resume unfinished games whose next move is the server's (AI or chance): each active
        game is looked at once and kept in memory only if it has such a move to play; the others
        are loaded again on demand. Then idle games are evicted every ``evict_every`` seconds."""
        await self.sessions.broker.start(self.sessions.on_notice)
        await self.notifications.start()
        await self.abandon_idle()  # before resuming: an abandoned game is not resumed
        for game_id in await asyncio.to_thread(self.store.ids, "active"):
            try:
                session = await self.sessions.get(game_id)
            except DomainError as err:
                log.error("cannot resume game %s: %s", game_id, err.message)
                continue
            self.moves.kick(session)
            if not session.waiting_for_server():
                self.sessions.evict(session)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.lobby.start()
        self.challenges.start()
        # flags that fell while no server ran are acted on by its first sweep (docs/web.md)
        if self.clocks.every > 0:
            self._clock_keeper = asyncio.get_running_loop().create_task(self.clocks.run())

    def _on_lobby(self, message: str) -> None:
        """A lobby channel message of another process: a challenge's, or the lobby's."""
        if not self.challenges.on_message(message):
            self.feed.on_message(message)

    async def _sweep(self) -> None:
        while not self.moves.closing:
            await asyncio.sleep(self.evict_every)
            self.sessions.evict_idle()
            await self.abandon_idle()
            # what a burst freed goes back to the system, not only to the C heap (memory.py)
            await asyncio.to_thread(release_free_memory)

    async def abandon_idle(self) -> int:
        """Mark the active games nobody changed for ``abandon_after`` seconds as ``abandoned``
        (docs/web.md, "Abandoned games"). The database decides, game by game under the version
        guard (palaestra/server/db.py ``Store.abandon_idle``): safe across restarts and with many
        processes on one database. A game this process holds is reloaded and pushed; the others
        hear of it by a change notice. Returns how many games this call marked."""
        if self.abandon_after <= 0:
            return 0
        cutoff = datetime.now(UTC) - timedelta(seconds=self.abandon_after)
        try:
            marked = await asyncio.to_thread(self.store.abandon_idle, cutoff)
        except StorageError as err:  # the database is away: the next sweep tries again
            log.warning("abandoned games could not be marked now: %s", err)
            return 0
        for game_id, version in marked:
            log.info("game %s abandoned: nobody changed it for %.0f s", game_id, self.abandon_after)
            await self.sessions.changed_elsewhere(game_id, version)
        return len(marked)

    async def _changed_here(self, changed: list[tuple[str, int]]) -> None:
        """Rows this process changed outside a game's session (a deleted member's seats renamed):
        copies in memory reload them, other processes hear of it."""
        for game_id, version in changed:
            await self.sessions.changed_elsewhere(game_id, version)

    async def stop(self) -> None:
        """Stop the server's moves and tell every websocket that the server goes away."""
        tasks = [t for t in (self._sweeper, self._clock_keeper) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:  # let them unwind
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.lobby.stop()
        await self.challenges.stop()
        await self.notifications.stop()
        await self.moves.stop()
        self.pool.close()
        self.accounts.hasher.close()
        self.sessions.close_watchers()
        await self.sessions.stop_background()

    # --- shortcuts used by the app and the tests --------------------------------------------
    async def get(self, game_id: str) -> Session:
        return await self.sessions.get(game_id)

    def evict_idle(self) -> int:
        return self.sessions.evict_idle()

    @property
    def loaded(self) -> dict[str, Session]:
        """The games in memory, by id."""
        return self.sessions.loaded
