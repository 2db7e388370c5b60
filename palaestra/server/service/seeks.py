"""The seeks of the lobby (issue 29): their lifecycle, from posting to the game they make.

A *seek* offers a game (its options, player count, clock, rated or casual, an optional rating
range) to whoever accepts it. A 2-player seek starts its game at the first accept; a seek of 3 or
4 players is a table that fills place by place and starts when full. Each place has a secret: the
poster's is the ``seek_token`` of the 201 answer, an acceptor's the ``seek_token`` of their accept
while the table fills. The seat token of a place is derived from its secret (:func:`seat_token`),
so the database holds hashes only and a place's holder learns their seat by asking for the seek
with that secret once the game started.

This module owns what happens to a seek: it is checked and posted, held by its poster's lobby
websocket, accepted place by place or matched by quick pairing ("Play now"), withdrawn, ended by
the sweep (expired, its poster gone), and its full table made into a game (also the path of an
accepted challenge: :meth:`SeekService.make_game`). Every change is told to the lobby's live feed
(palaestra/server/service/lobby_feed.py), which owns the websockets and how a seek is shown.

Every change is an update guarded by the seek's version (palaestra/server/seek_store.py): of two
acceptors of the last place, in one process or in several, exactly one gets it; the other is told
the seek is gone (410 ``seek_gone``). The request that fills the table makes the game.

A seek ends after ``seek_seconds`` (``expired``), or when its poster was not seen for
``leave_seconds`` (``left``): seen means a lobby websocket that said it holds the seek, or a poll
of the seek with its token. A sweep of every process ends such seeks (guarded: one process wins).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from palaestra.core.errors import PalaestraError
from palaestra.core.registry import game_info
from palaestra.server.account_store import Account, AccountStore
from palaestra.server.seek_store import OPEN, STARTED, STARTING, SeekConflict, SeekStore, StoredSeek
from palaestra.server.service.errors import DomainError
from palaestra.server.service.lobby_feed import LobbyFeed
from palaestra.server.service.periodic import Periodic
from palaestra.server.service.persistence import load_server_game
from palaestra.server.service.ratings import pool_of
from palaestra.server.service.seats import Held, SeatService
from palaestra.server.service.session import Session, hash_token, same_secret

log = logging.getLogger("palaestra.server.lobby")

#: how often a race lost on a seek is tried again before answering 409 ``conflict``
RETRIES = 5


def seat_token(secret: str) -> str:
    """The seat token of a place, derived from the place's secret (nothing else knows it)."""
    digest = hashlib.sha256(b"palaestra-seat:" + secret.encode()).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


def gone(seek: StoredSeek | None) -> DomainError:
    status = "unknown" if seek is None else seek.status
    return DomainError("seek_gone", f"this seek is no longer open ({status})")


class Who:
    """Who is asking: a member, or a guest (known by the hash of a secret they hold, if any)."""

    def __init__(self, member: Account | None, guest: str | None) -> None:
        self.member = member
        self.guest_hash = hash_token(guest) if guest else None

    @property
    def known(self) -> str | None:
        """``a:ID`` for a member, ``g:HASH`` for a guest with a secret; None: nobody to tell apart."""
        if self.member is not None:
            return f"a:{self.member.id}"
        return None if self.guest_hash is None else f"g:{self.guest_hash}"

    def key(self, place_hash: str) -> str:
        """The key of a place they take (one of its own for a guest nobody can tell apart)."""
        return self.known or f"p:{place_hash}"

    def holds(self, place: Mapping[str, Any]) -> bool:
        return self.known is not None and place["key"] == self.known


@dataclass(frozen=True)
class Wanted:
    """What a seek or a quick pairing asks for, and who asks: a member, or a guest by the secret
    of their browser."""

    game: str
    options: Mapping[str, Any]
    players: int
    time_control: Mapping[str, Any] | None
    rated: bool
    rating_range: tuple[int | None, int | None] | None
    member: Account | None
    guest: str | None
    name: str | None = None


class SeekService(Periodic):
    """The seeks and quick pairing of one process; its sweep ends the seeks that expired or whose
    poster left, and recovers the tables whose process died while starting their game."""

    swept = "seeks"

    def __init__(self, store: SeekStore, accounts: AccountStore, seats: SeatService, feed: LobbyFeed) -> None:
        self.store = store
        self.accounts = accounts
        self.seats = seats
        #: the lobby's live feed: every change of a seek is announced there
        self.feed = feed
        #: a seek expires this long (seconds) after it was posted
        self.seek_seconds = 1800.0
        #: a seek ends when its poster was not seen this long (seconds)
        self.leave_seconds = 60.0
        #: a full table whose game was not said to have started this long (seconds) after it
        #: filled is looked at by the sweep (:meth:`recover`)
        self.starting_grace = 60.0
        #: seeks whose poster holds a lobby websocket here (how many)
        self.held: dict[str, int] = {}

    # --- held by their poster's lobby websocket ---------------------------------------------
    async def hold(self, seek_id: str, secret: str) -> bool:
        """A lobby websocket says it holds ``seek_id`` (its token ``secret``): the seek stays
        while the socket lives. False for a wrong token or a seek not open."""
        seek = await asyncio.to_thread(self.store.get, seek_id)
        if seek is None or seek.status != OPEN or not same_secret(seek.poster_hash, hash_token(secret)):
            return False
        self.held[seek_id] = self.held.get(seek_id, 0) + 1
        await asyncio.to_thread(self.store.seen, seek_id, datetime.now(UTC))
        return True

    def release(self, seek_id: str) -> None:
        count = self.held.get(seek_id, 0)
        if count > 1:
            self.held[seek_id] = count - 1
        else:
            self.held.pop(seek_id, None)

    # --- reading ----------------------------------------------------------------------------

    async def _get(self, seek_id: str) -> StoredSeek:
        seek = await asyncio.to_thread(self.store.get, seek_id)
        if seek is None:
            raise DomainError("seek_not_found", "no seek with this id")
        return seek

    async def get(self, seek_id: str, secret: str | None) -> dict[str, Any]:
        """A seek; with the secret of one of its places, also that place's seat and token once
        the game started (the poster's poll; it keeps an open seek alive too)."""
        seek = await self._get(seek_id)
        out = await self.feed.shown(seek)
        if secret:
            digest = hash_token(secret)
            place = next((p for p in seek.places if same_secret(p["hash"], digest)), None)
            if place is None:
                raise DomainError("wrong_token", "this token does not belong to a place of this seek")
            if seek.status == OPEN and same_secret(seek.poster_hash, digest):
                await asyncio.to_thread(self.store.seen, seek.id, datetime.now(UTC))
            if seek.status == STARTED:  # a seek posted again: the place's token is its seat token
                out.update(
                    seat=place["seat"], token=secret if place.get("same_token") else seat_token(secret)
                )
        return out

    # --- posting ----------------------------------------------------------------------------
    def check(self, wanted: Wanted) -> tuple[dict[str, Any], str]:
        """The full options and the pool of a game offered here (a seek, a challenge); 400 for
        what no game could be made of."""
        game, options, players, time_control = (
            wanted.game,
            wanted.options,
            wanted.players,
            wanted.time_control,
        )
        rated, member = wanted.rated, wanted.member
        try:
            info = game_info(game)
            options = {**options, **info.options_for_players(players)}
        except (PalaestraError, KeyError, ValueError) as err:
            raise DomainError("bad_options", str(err)) from None
        made = load_server_game(game, options)
        if made.num_players != players:
            raise DomainError("bad_seats", f"{made.title} with these options has {made.num_players} players")
        self.seats._time_control(time_control, [])
        if rated:
            if member is None:
                raise DomainError("sign_in_required", "a rated seek is for members: sign in to post one")
            if time_control is None:
                raise DomainError("bad_rated", "a rated game needs a clock (time_control)")
        return dict(options), pool_of(made).id

    async def post(self, wanted: Wanted) -> tuple[dict[str, Any], str]:
        """Post a seek: its public form and the poster's secret ``seek_token``."""
        full, pool = self.check(wanted)
        game, players, time_control, rated = wanted.game, wanted.players, wanted.time_control, wanted.rated
        member, guest, name = wanted.member, wanted.guest, wanted.name
        low, high = wanted.rating_range or (None, None)
        if (low is not None or high is not None) and not rated:
            raise DomainError("bad_seek", "a rating range is for rated seeks")
        if low is not None and high is not None and low > high:
            raise DomainError("bad_seek", "the rating range's min is above its max")
        who = Who(member, guest)
        secret = secrets.token_urlsafe(18)
        digest = hash_token(secret)
        now = datetime.now(UTC)
        seek = StoredSeek(
            secrets.token_hex(6),
            game,
            full,
            players,
            pool,
            None if time_control is None else dict(time_control),
            rated,
            low,
            high,
            None if member is None else member.id,
            who.key(digest),
            digest,
            now,
            now + timedelta(seconds=self.seek_seconds),
            now,
            OPEN,
            0,
            [self._place(who, secret, name)],
        )
        await asyncio.to_thread(self.store.insert, seek)
        shown = await self.feed.shown(seek)
        await self.feed.announce({"type": "seek", "seek": shown})
        return shown, secret

    @staticmethod
    def _place(who: Who, secret: str, name: str | None) -> dict[str, Any]:
        """A place taken: who holds it, the hash of its secret and of its seat token."""
        member = who.member
        digest = hash_token(secret)
        return {
            "key": who.key(digest),
            "account": None if member is None else member.id,
            "name": member.username if member is not None else (name or "Guest"),
            "hash": digest,
            "seat_hash": hash_token(seat_token(secret)),
        }

    # --- cancelling and ending --------------------------------------------------------------
    async def cancel(self, seek_id: str, secret: str | None, member: Account | None) -> None:
        """The poster withdraws an open seek (by its token, or signed in as its poster)."""
        for _ in range(RETRIES):
            seek = await self._get(seek_id)
            mine = (secret is not None and same_secret(seek.poster_hash, hash_token(secret))) or (
                member is not None and seek.poster_account == member.id
            )
            if not mine:
                raise DomainError("not_poster", "only the poster of a seek may withdraw it")
            if seek.status != OPEN:
                raise gone(seek)
            try:
                await self._end(seek, "cancelled")
                return
            except SeekConflict:
                continue
        raise DomainError("conflict", "the seek was changed by another request at the same time")

    async def _end(self, seek: StoredSeek, status: str, expect_status: str = OPEN) -> None:
        await asyncio.to_thread(self.store.change, seek, status=status, expect_status=expect_status)
        await self.feed.announce({"type": "seek_gone", "id": seek.id, "status": status, "game": None})

    async def sweep(self) -> int:
        """End the open seeks that expired or whose poster left; renew those held here."""
        now = datetime.now(UTC)
        await asyncio.to_thread(self.store.seen_all, sorted(self.held), now)
        unseen = now - timedelta(seconds=self.leave_seconds)
        ended = 0
        for seek in await asyncio.to_thread(self.store.stale, now, unseen):
            if seek.id in self.held and seek.expires_at > now:
                continue
            with contextlib.suppress(SeekConflict):
                await self._end(seek, "expired" if seek.expires_at <= now else "left")
                ended += 1
        return ended + await self.recover()

    def every(self) -> float:
        """Sweep every few seconds: a quarter of ``leave_seconds``, 0.2 to 10 s."""
        return min(10.0, max(0.2, self.leave_seconds / 4))

    async def stop(self) -> None:
        await super().stop()
        self.feed.close_watchers()

    # --- accepting --------------------------------------------------------------------------
    async def accept(
        self,
        seek_id: str,
        member: Account | None,
        guest: str | None,
        name: str | None = None,
        rating_range: tuple[int | None, int | None] | None = None,
    ) -> dict[str, Any]:
        """Take a place of an open seek. The last place starts the game: ``{"game", "seat",
        "token"}``; an earlier place of a table: ``{"game": None, "seek", "seek_token"}`` (poll
        the seek with it)."""
        who = Who(member, guest)
        secret = secrets.token_urlsafe(18)
        digest = hash_token(secret)
        for _ in range(RETRIES):
            seek = await self._get(seek_id)
            now = datetime.now(UTC)
            if seek.status == OPEN and seek.expires_at <= now:
                with contextlib.suppress(SeekConflict):
                    await self._end(seek, "expired")
                raise gone(seek)
            if seek.status != OPEN:
                raise gone(seek)
            await self._may_take(seek, who, rating_range)
            places = [*seek.places, self._place(who, secret, name)]
            full = len(places) >= seek.players
            try:
                if full:  # the seats (at random) and the game's id are stored with the last place
                    order = list(range(len(places)))
                    random.SystemRandom().shuffle(order)
                    for seat, index in enumerate(order):
                        places[index]["seat"] = seat
                    taken = await asyncio.to_thread(
                        self.store.change,
                        seek,
                        places=places,
                        status=STARTING,
                        game_id=secrets.token_hex(6),
                        seen_at=now,
                    )
                else:
                    taken = await asyncio.to_thread(self.store.change, seek, places=places)
            except SeekConflict:
                continue
            if not full:
                await self.feed.announce({"type": "seek", "seek": await self.feed.shown(taken)})
                return {
                    "game": None,
                    "seat": None,
                    "token": None,
                    "seek_token": secret,
                    "seek": await self.feed.shown(taken),
                }
            game_id, seats = await self._start(taken)
            return {
                "game": game_id,
                "seat": seats[digest],
                "token": seat_token(secret),
                "seek_token": None,
                "seek": None,
            }
        raise DomainError("conflict", "the seek was changed by other requests at the same time; try again")

    async def play_now(self, wanted: Wanted) -> tuple[dict[str, Any], bool]:
        """Quick pairing: take the oldest compatible open seek (the same game, options and pool,
        the same clock, rated or not alike, the ratings within both ranges, not one's own), or
        post one. The answer is like an accept's; True when a seek was posted."""
        member, guest, name, rating_range = wanted.member, wanted.guest, wanted.name, wanted.rating_range
        rated = wanted.rated
        full, pool = self.check(wanted)
        clock = None if wanted.time_control is None else dict(wanted.time_control)
        who = Who(member, guest)
        for seek in await asyncio.to_thread(self.store.open_seeks, datetime.now(UTC)):
            if (seek.pool, seek.options, seek.time_control, seek.rated) != (pool, full, clock, rated):
                continue
            if any(who.holds(p) for p in seek.places):
                continue
            try:
                return await self.accept(seek.id, member, guest, name, rating_range), False
            except DomainError as err:
                if err.code not in ("seek_gone", "out_of_range", "conflict"):
                    raise
        posted, secret = await self.post(wanted)
        return {"game": None, "seat": None, "token": None, "seek_token": secret, "seek": posted}, True

    async def _may_take(
        self, seek: StoredSeek, who: Who, rating_range: tuple[int | None, int | None] | None
    ) -> None:
        if seek.rated and who.member is None:
            raise DomainError("sign_in_required", "a rated seek is for members: sign in to accept it")
        for place in seek.places:
            if who.holds(place):
                if place is seek.places[0]:
                    raise DomainError("own_seek", "this is your own seek: wait for somebody to accept it")
                raise DomainError("already_seated", "you hold a place at this table already")
        if not seek.rated or who.member is None:
            return
        accounts = [p["account"] for p in seek.places if p["account"] is not None] + [who.member.id]
        ratings = await self.feed.ratings(seek.pool, accounts)
        mine_rating = ratings[who.member.id]
        if not within(mine_rating, (seek.rating_min, seek.rating_max)):
            raise DomainError("out_of_range", "your rating is outside the seek's rating range")
        poster = seek.places[0]["account"]
        if rating_range is not None and poster is not None and not within(ratings[poster], rating_range):
            raise DomainError("out_of_range", "the poster's rating is outside your rating range")

    async def _start(self, seek: StoredSeek) -> tuple[str, dict[str, int]]:
        """Make the game of a full table (this request won its last place), with the seats and
        the id stored with it; then say it started."""
        assert seek.game_id is not None
        by_seat = sorted(seek.places, key=lambda p: int(p["seat"]))
        accounts = [p["account"] for p in by_seat if p["account"] is not None]
        members = {
            a.id: a for a in await asyncio.gather(*(self._account(i) for i in accounts)) if a is not None
        }
        # the seat tokens are derived from the places' secrets, which only their holders know:
        # the game holds the hashes of the tokens, made when each place was taken
        held: list[Held | str] = [
            Held(p["seat_hash"], None if p["account"] is None else members.get(p["account"]), p["name"])
            for p in by_seat
        ]
        try:
            session = await self.make_game(
                seek.game, seek.options, seek.time_control, seek.rated, held, seek.game_id
            )
        except DomainError:
            with contextlib.suppress(SeekConflict):
                await self._end(seek, "cancelled", expect_status=STARTING)
            raise
        await self._started(seek)
        await self.feed.announce_game(session)
        return session.id, {p["hash"]: int(p["seat"]) for p in seek.places}

    async def make_game(
        self,
        game: str,
        options: Mapping[str, Any],
        time_control: Mapping[str, Any] | None,
        rated: bool,
        held: list[Held | str],
        game_id: str,
        public: bool = True,
    ) -> Session:
        """Make the game of people who met here (a full table, an accepted challenge:
        service/challenges.py), every seat held already, with the id stored with what made it."""
        session, _ = await self.seats.create(
            game,
            options,
            [],
            public=public,
            time_control=time_control,
            rated=rated,
            held=held,
            game_id=game_id,
        )
        return session

    async def _started(self, seek: StoredSeek) -> None:
        try:
            await asyncio.to_thread(self.store.change, seek, expect_status=STARTING, status="started")
        except SeekConflict:  # a sweep found the game first and said so
            return
        await self.feed.announce(
            {"type": "seek_gone", "id": seek.id, "status": "started", "game": seek.game_id}
        )

    async def recover(self) -> int:
        """Tables that filled ``starting_grace`` seconds ago without their game said to have
        started (the process making it died): started if the game was stored, else cancelled."""
        since = datetime.now(UTC) - timedelta(seconds=self.starting_grace)
        done = 0
        for seek in await asyncio.to_thread(self.store.starting, since):
            version = None
            if seek.game_id is not None:
                version = await asyncio.to_thread(self.store.store.version, seek.game_id)
            made = version is not None
            with contextlib.suppress(SeekConflict):
                if made:
                    await self._started(seek)
                else:
                    await self._end(seek, "cancelled", expect_status=STARTING)
                done += 1
        return done

    async def _account(self, account_id: int) -> Account | None:
        return await asyncio.to_thread(self.accounts.by_id, account_id)


def within(rating: float, bounds: tuple[int | None, int | None]) -> bool:
    low, high = bounds
    return (low is None or rating >= low) and (high is None or rating <= high)
