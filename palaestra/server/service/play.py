"""Playing a game: a seat's action, resignation, abort, claim and undo, under the game's lock.

Each request finds its seat (token or account), has the session compute the change (every check
happens there, before anything changes: game over, ply, turn, time, legality;
palaestra/server/service/session.py), has it stored, then shown (``Sessions.commit`` and
``broadcast``, palaestra/server/service/sessions.py). After a player's action the server's moves
(chance, AI) are started.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from palaestra.server.service.absence import Absence
from palaestra.server.service.errors import DomainError
from palaestra.server.service.persistence import state_before_last
from palaestra.server.service.session import Session
from palaestra.server.service.sessions import Sessions


@dataclass(frozen=True)
class Holder:
    """Who claims a seat: its secret token, or a signed-in member's account."""

    token: str | None
    account: int | None = None

    def seat(self, session: Session) -> int:
        seat = session.seat_of(self.token, self.account)
        if seat is None:
            if self.token is None:
                raise DomainError("wrong_token", "your account holds no seat of this game")
            raise DomainError("wrong_token", "this token does not belong to a seat of this game")
        return seat


class PlayService:
    """The actions of the seats of every game of a :class:`Sessions`."""

    def __init__(
        self,
        sessions: Sessions,
        kick: Callable[[Session], None],
        flag: Callable[[Session], Awaitable[bool]] | None = None,
    ) -> None:
        self.sessions = sessions
        self.kick = kick
        #: acts on a clock whose time is up (palaestra/server/service/clocks.py)
        self.flag = flag

    async def act(
        self,
        game_id: str,
        token: str | None,
        ply: int,
        action: int | None,
        move: str | None,
        account: int | None = None,
    ) -> Session:
        """A seat's action; the seat is the token's, or without one the signed-in ``account``'s."""
        if (action is None) == (move is None):
            raise DomainError("bad_request", "give exactly one of 'action' (a number) or 'move'")
        session = await self.sessions.get(game_id, ply=ply)
        holder = Holder(token, account)
        await self.sessions.judge(session, lambda s: self._act_again(s, holder, ply, action, move))
        await self.sessions.broadcast(session)
        self.kick(session)
        return session

    async def _act_again(
        self, session: Session, holder: Holder, ply: int, action: int | None, move: str | None
    ) -> None:
        try:
            try:
                await self._act(session, holder, ply, action, move)
            except DomainError as err:
                if err.code != "conflict":
                    raise
                # another process changed the game since we read it; it is reloaded now, so the
                # action is judged again on the current game (still right, or now stale)
                await self._act(session, holder, ply, action, move)
        except DomainError as err:
            if err.code == "out_of_time" and self.flag is not None:
                await self.flag(session)  # the fall is stored and announced before the answer
            raise

    async def _act(
        self, session: Session, holder: Holder, ply: int, action: int | None, move: str | None
    ) -> None:
        await self.sessions.change(session, lambda s: s.act(holder.seat(s), ply, action, move))

    async def resign(self, game_id: str, token: str | None, account: int | None = None) -> Session:
        """The seat gives up: it ranks last, the others share the rest (see docs/web.md)."""
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: self._resign(s, Holder(token, account)))
        await self.sessions.broadcast(session)
        return session

    async def _resign(self, session: Session, holder: Holder) -> None:
        await self.sessions.change(session, lambda s: s.resign(holder.seat(s)))

    async def abort(
        self,
        game_id: str,
        token: str | None,
        account: int | None = None,
        then: Callable[[Session, int], Awaitable[None]] | None = None,
    ) -> Session:
        """A seat calls the game off while some seat has not moved yet: no winner, not rated.
        ``then(session, seat)`` runs once it is stored and before it is pushed (the seek posted
        again: palaestra/server/service/seek_again.py, there when the pages look for it)."""
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: self._abort(s, Holder(token, account)))
        if then is not None:
            await then(session, Holder(token, account).seat(session))
        await self.sessions.broadcast(session)
        return session

    async def _abort(self, session: Session, holder: Holder) -> None:
        await self.sessions.change(session, lambda s: s.abort(holder.seat(s)))

    async def claim(
        self, game_id: str, token: str | None, absence: Absence, after: float, account: int | None = None
    ) -> Session:
        """The win of a real-time game whose seat to move has had no websocket for ``after``
        seconds: that seat loses as if it had resigned (rated as such)."""
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: self._claim(s, Holder(token, account), absence, after))
        await self.sessions.broadcast(session)
        absence.forget(game_id)
        return session

    async def _claim(self, session: Session, holder: Holder, absence: Absence, after: float) -> None:
        gone_for = functools.partial(absence.gone_for, session.id)
        await self.sessions.change(session, lambda s: s.claim_win(holder.seat(s), gone_for, after))

    async def undo(self, game_id: str, token: str | None, ply: int, account: int | None = None) -> Session:
        """Take back the seat's own last action of the current turn, where the game allows it.

        The record loses that move (it never happened for the other players: nobody moved since,
        and undoable actions reveal nothing), so the stored record stays replayable; the game's
        ``version`` still goes up, so every client sees the change."""
        session = await self.sessions.get(game_id, ply=ply)
        await self.sessions.judge(session, lambda s: self._undo_flagged(s, Holder(token, account), ply))
        await self.sessions.broadcast(session)
        return session

    async def _undo_flagged(self, session: Session, holder: Holder, ply: int) -> None:
        try:
            await self._undo(session, holder, ply)
        except DomainError as err:
            if err.code == "out_of_time" and self.flag is not None:
                await self.flag(session)
            raise

    async def _undo(self, session: Session, holder: Holder, ply: int) -> None:
        async with session.lock:
            last = session.undo_from_stack(holder.seat(session), ply)
            if last is None:  # a game loaded mid-turn: the state before is replayed from the record
                last = await asyncio.to_thread(state_before_last, session.record)
            await self.sessions.commit(session, session.undo(*last))
