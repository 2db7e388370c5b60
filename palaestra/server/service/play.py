"""Playing a game: a seat's action, resignation and undo, each checked under the game's lock.

Every check happens before anything changes (token, game over, ply, turn, legality); the change is
stored, then shown (palaestra/server/service/sessions.py). After a player's action the server's
moves (chance, AI) are started.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from palaestra.core.errors import NotationError, PalaestraError
from palaestra.core.outcome import Termination
from palaestra.server.game_hooks import can_undo
from palaestra.server.service.absence import Absence
from palaestra.server.service.clocks import out_of_time
from palaestra.server.service.errors import DomainError
from palaestra.server.service.persistence import state_before_last
from palaestra.server.service.session import Session, who
from palaestra.server.service.sessions import Sessions, copy_record, ended_by


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
        async with session.lock:
            seat = holder.seat(session)
            session.check_playable()
            session.check_everybody_joined()
            if ply != session.ply:
                raise DomainError(
                    "stale_action",
                    f"this action was meant for move {ply}, but the game is at move {session.ply}; "
                    "reload and try again",
                )
            if session.state.current_player != seat:
                raise DomainError(
                    "not_your_turn",
                    f"it is {who(session.game, session.state.current_player)}'s turn, "
                    f"not {session.game.player_name(seat)}'s",
                )
            self._check_time(session, seat)
            state = session.state
            if move is not None:
                try:
                    action = state.string_to_action(move)
                except NotationError as err:
                    raise DomainError("bad_notation", str(err)) from None
                except PalaestraError as err:
                    raise DomainError("illegal_action", str(err)) from None
            assert action is not None
            if not state.is_legal(action):
                raise DomainError("illegal_action", state.explain_illegal(action))
            await self.sessions.apply(session, action)

    def _check_time(self, session: Session, seat: int) -> None:
        """Refuse a seat's action once its time has run out (or while the AI plays its turn)."""
        clock = session.clock
        if clock is not None and (clock.autoplay == seat or clock.out_of_time(session.now()) == seat):
            raise out_of_time(session, seat)

    async def resign(self, game_id: str, token: str | None, account: int | None = None) -> Session:
        """The seat gives up: it ranks last, the others share the rest (see docs/web.md)."""
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: self._resign(s, Holder(token, account)))
        await self.sessions.broadcast(session)
        return session

    async def _resign(self, session: Session, holder: Holder) -> None:
        async with session.lock:
            seat = holder.seat(session)
            session.check_playable()
            record = ended_by(session, seat, Termination.RESIGNATION)
            await self.sessions.write(session, session.state, record, "finished")

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
        async with session.lock:
            seat = holder.seat(session)
            session.check_playable()
            moved = {m.player for m in session.record.moves}
            if all(p in moved for p in range(session.game.num_players)):
                raise DomainError("cannot_abort", "every seat has moved: resign instead")
            record = ended_by(session, seat, Termination.ABORT)
            await self.sessions.write(session, session.state, record, "finished")

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
        async with session.lock:
            seat = holder.seat(session)
            session.check_playable()
            absent = session.state.current_player
            clock = session.clock
            if clock is None or clock.control.kind == "correspondence":
                raise DomainError("cannot_claim", "only a real-time game (with a clock) can be claimed")
            if (
                absent == seat
                or not 0 <= absent < len(session.seats)
                or session.seats[absent].kind != "human"
            ):
                raise DomainError("cannot_claim", "the win is claimed from another person who is to move")
            gone = absence.gone_for(session.id, absent)
            if gone is None or gone < after:
                raise DomainError(
                    "cannot_claim",
                    f"{session.game.player_name(absent)} has not been gone for {after:g} s",
                )
            record = ended_by(session, absent, Termination.ABANDONMENT, claimed_by=seat)
            await self.sessions.write(session, session.state, record, "finished")

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
            seat = holder.seat(session)
            session.check_playable()
            if session.rated:
                raise DomainError("cannot_undo", "a rated game allows no undo")
            if ply != session.ply:
                raise DomainError(
                    "stale_action",
                    f"this undo was meant for move {ply}, but the game is at move {session.ply}; "
                    "reload and try again",
                )
            self._check_time(session, seat)
            moves = session.record.moves
            if not moves or moves[-1].player != seat or session.state.current_player != seat:
                raise DomainError("cannot_undo", "only your own last action, while it is still your turn")
            if session.undo_stack and len(session.undo_stack[-1][0].history) == session.ply - 1:
                before, action = session.undo_stack[-1]
                from_stack = True
            else:
                before, action = await asyncio.to_thread(state_before_last, session.record)
                from_stack = False
            if not can_undo(before, action):
                raise DomainError(
                    "cannot_undo", f"{moves[-1].move} cannot be taken back (the rules do not allow it)"
                )
            record = copy_record(session.record)
            record.moves.pop()
            record.outcome = None
            record.ended = None
            await self.sessions.write(session, before.clone(), record, "active")
            if from_stack:
                session.undo_stack.pop()
