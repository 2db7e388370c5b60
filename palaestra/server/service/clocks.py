"""Falls of the flag: found by a sweep of the database, acted on exactly once (issue 21).

Every server process runs :meth:`ClockKeeper.run`: every ``every`` seconds it asks the database
for the active games whose clock's ``deadline`` has passed (one range scan of an index), and for
each it :meth:`flag`\\ s the game: under the game's lock, the clock is checked against the current
row (``Sessions.get`` reloads a game another process changed), the session computes the fall
(``Session.flag_fall``: the seat loses, or the AI plays its turn) and it is stored like any other
change (``Sessions.commit``), guarded by the row's version. Two processes that find the same fall race for one
version: one writes it, the other's write is refused (409 ``conflict``), it reloads the row and
finds the game over (or the AI playing the turn). So a fall is acted on once, and announced on the
websockets of every process (``broadcast``).

The sweep does not depend on anyone making a request, nor on the game being in memory, and after
a restart the first sweep finds every flag that fell while no server ran (docs/web.md, "Clocks":
the clock of the seat to move keeps running while the server is down). A player's own request
after the deadline is refused (409 ``out_of_time``) and triggers the fall at once, so the sweep's
period never gives anyone extra time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from palaestra.server.db import StorageError
from palaestra.server.service.errors import DomainError
from palaestra.server.service.session import Session
from palaestra.server.service.sessions import Sessions

log = logging.getLogger("palaestra.server")


class ClockKeeper:
    """Acts on the clocks of the games of a :class:`Sessions`."""

    def __init__(self, sessions: Sessions, kick: Callable[[Session], None]) -> None:
        self.sessions = sessions
        #: starts the server's moves (the AI's turn for a seat out of time)
        self.kick = kick
        #: how often (seconds) the database is asked for games whose time ran out
        self.every = 0.5
        self.falls = 0
        #: games whose row does not load (logged once; they stay as they are)
        self.broken: set[str] = set()

    async def sweep(self) -> int:
        """Act on every flag that has fallen by now; returns how many were acted on here."""
        acted = 0
        for game_id in await asyncio.to_thread(self.sessions.store.due, self.sessions.now()):
            if game_id in self.broken:
                continue
            try:
                session = await self.sessions.get(game_id, fresh=True)  # the row says time is up
                if await self.flag(session):
                    acted += 1
            except DomainError as err:
                if err.failure:  # a row that does not load: said once, not every sweep
                    self.broken.add(game_id)
                log.error("game %s: its clock cannot be acted on: %s", game_id, err.message)
            except StorageError as err:
                log.warning("game %s: its clock could not be acted on (%s); again next sweep", game_id, err)
        return acted

    async def flag(self, session: Session) -> bool:
        """If the running clock of ``session`` is out of time, act on it (store, then announce):
        the seat loses, or the AI plays its turn. False if there was nothing to do (the time is
        not up, or another process acted first)."""
        try:  # the session computes the fall (None: no time is up), the sessions store it
            change = await self.sessions.change(session, lambda s: s.flag_fall(self.sessions.now()))
        except DomainError as err:
            if err.code == "conflict":  # another process acted first (or a move came in time)
                return False
            raise
        if change is None:
            return False
        fallen = change.clock
        assert fallen is not None
        seat = fallen.flagged if fallen.flagged is not None else fallen.autoplay  # lost, or the AI plays
        assert seat is not None
        self.falls += 1
        log.info("game %s: %s ran out of time", session.id, session.game.player_name(seat))
        await self.sessions.broadcast(session)
        self.kick(session)
        return True

    async def run(self) -> None:
        """Sweep for ever (cancelled when the server stops)."""
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away: try again on the next sweep
                log.exception("the clock sweep failed; again in %.1f s", self.every)
            await asyncio.sleep(self.every)
