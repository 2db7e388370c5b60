"""Rematches (issue 29, part 6; docs/web.md, "Rematch"): after a finished game every person in it
agrees to play again, with the same game, options, rated flag and time control, the seats rotated
by one (seat ``i`` of the new game is seat ``i - 1``'s player).

Each call by a seat's holder records its agreement in the old game's row (``rematch``, written
version-guarded like every change and pushed to its websockets); the call that completes the
agreement of every human seat makes the new game and writes its id there. A seat held by account
is held by account again; a seat held by token gets the token :func:`next_token` derives from
its old one, so every player learns theirs by calling again (idempotent) and no token is stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any

from palaestra.server.account_store import AccountStore
from palaestra.server.db import Then
from palaestra.server.service.errors import DomainError
from palaestra.server.service.play import Holder
from palaestra.server.service.seats import Held, SeatService
from palaestra.server.service.session import Session, hash_token
from palaestra.server.service.sessions import Sessions


def next_token(token: str) -> str:
    """The token of a seat's holder in the rematch, derived from their token of the old game."""
    return hmac.new(token.encode(), b"palaestra rematch", hashlib.sha256).hexdigest()[:32]


class RematchService:
    """Offers and acceptances of rematches."""

    def __init__(self, sessions: Sessions, seats: SeatService, accounts: AccountStore) -> None:
        self.sessions = sessions
        self.seats = seats
        self.accounts = accounts
        #: what else an offer writes in its transaction (the notifications of the others:
        #: palaestra/server/service/notifications.py; once committed, ``Sessions.after_write``)
        self.on_offer: Callable[[Session, dict[str, Any]], Then | None] = lambda session, rematch: None

    async def rematch(self, game_id: str, token: str | None, account: int | None = None) -> dict[str, Any]:
        """The seat agrees to a rematch → ``{"game", "seat", "token", "rematch"}``: ``game`` null
        while others have still to agree, else the new game with the caller's seat and token."""
        session = await self.sessions.get(game_id)
        holder = Holder(token, account)
        before = session.version
        answer = await self.sessions.judge(session, lambda s: self._rematch(s, holder))
        if session.version != before:
            await self.sessions.broadcast(session)
        return answer

    async def _rematch(self, session: Session, holder: Holder) -> dict[str, Any]:
        async with session.lock:
            seat = holder.seat(session)
            n = session.game.num_players
            if session.status != "finished":
                raise DomainError("cannot_rematch", "a rematch is offered once the game has finished")
            humans = [i for i, s in enumerate(session.seats) if s.kind == "human"]
            if any(session.seats[i].token_hash is None and session.seats[i].account is None for i in humans):
                raise DomainError("cannot_rematch", "a seat of this game was never taken")
            current = dict(session.rematch or {})
            if current.get("game") is None:
                hashes: dict[str, str | None] = dict(current.get("hashes") or {})
                hashes[str(seat)] = None if holder.token is None else hash_token(next_token(holder.token))
                agreed = {"offered_by": current.get("offered_by", seat), "hashes": hashes}
                if all(str(i) in hashes for i in humans):
                    agreed["game"] = secrets.token_hex(6)
                    held = await self._held(session, hashes)
                    await self._write(session, agreed)
                    control = session.clock.control.to_json() if session.clock is not None else None
                    await self.seats.create(
                        session.game.name,
                        dict(session.record.options),
                        [],
                        public=session.public,
                        time_control=control,
                        rated=session.rated,
                        held=held,
                        game_id=agreed["game"],
                    )
                elif current != agreed:
                    await self._write(session, agreed)
            assert session.rematch is not None
            new_game = session.rematch.get("game")
            return {
                "game": new_game,
                "seat": None if new_game is None else (seat + 1) % n,
                "token": None if new_game is None or holder.token is None else next_token(holder.token),
                "rematch": session.rematch_view(),
            }

    async def _held(self, session: Session, hashes: dict[str, str | None]) -> list[Held | str]:
        """Who holds each seat of the new game: seat ``i`` is old seat ``i - 1``'s holder."""
        n = session.game.num_players
        held: list[Held | str] = []
        for new in range(n):
            old = session.seats[(new - 1) % n]
            if old.kind != "human":
                held.append(old.level or "random")
                continue
            member = None
            if old.account is not None:
                member = await asyncio.to_thread(self.accounts.by_id, old.account)
            token_hash = hashes.get(str((new - 1) % n))
            if token_hash is None:  # held by account (or a token the caller did not send)
                token_hash = hash_token(secrets.token_urlsafe(18))
            name = old.member if member is not None and old.member else old.name
            held.append(Held(token_hash, member, name))
        return held

    async def _write(self, session: Session, rematch: dict[str, Any]) -> None:
        then = self.on_offer(session, rematch)
        await self.sessions.commit(session, session.rematch_agreed(rematch), then)
