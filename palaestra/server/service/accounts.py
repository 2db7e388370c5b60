"""Members (issue 28; docs/accounts.md): signing up and in, sessions, profiles, ratings shown,
leaderboards, the export and deletion of an account.

Free of HTTP: the API (palaestra/server/api/accounts.py) sets the cookie and checks the CSRF
token; here a session is the secret id the cookie carries. Only hashes of session ids are stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from palaestra.core.info import GameInfo
from palaestra.core.registry import game_infos
from palaestra.server.account_store import Account, AccountStore, SignedIn, StoredRating, UsernameTaken
from palaestra.server.service.errors import DomainError
from palaestra.server.service.passwords import Hasher, check_password, check_username
from palaestra.server.service.persistence import utc_iso
from palaestra.server.service.ratings import Pool, Rating, all_pools

#: the name a deleted member's seats show
DELETED = "deleted player"
#: leaderboards list accounts with this many rated games in the pool ...
LEADERBOARD_GAMES = 10
#: ... rated within this many days
LEADERBOARD_DAYS = 90
PAGE = 20
#: how long ``member_id`` remembers whose session an id is (rate-limit keys only)
KEY_SECONDS = 30.0


def hash_session(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


@dataclass(frozen=True)
class Opened:
    """A new sign-in: the secret session id (for the cookie) and the CSRF token."""

    account: Account
    session_id: str
    csrf: str


def shown(rating: StoredRating | None) -> dict[str, Any]:
    """A rating as players see it (a newcomer's when there is none yet)."""
    if rating is None:
        return Rating().shown()
    return Rating(rating.mu, rating.sigma, rating.games).shown()


def bad_credentials() -> DomainError:
    return DomainError("bad_credentials", "unknown username or wrong password")


class AccountService:
    """Accounts, sign-in sessions, profiles and leaderboards."""

    def __init__(self, store: AccountStore, hasher: Hasher) -> None:
        self.store = store
        self.hasher = hasher
        #: session id -> (account or None, until when) for ``member_id``
        self._keys: dict[str, tuple[int | None, float]] = {}
        #: told of games whose stored rows changed here (a deleted member's seats renamed)
        self.on_games_changed: Callable[[list[tuple[str, int]]], Awaitable[None]] | None = None

    # --- signing up, in and out ------------------------------------------------------------
    async def sign_up(self, username: str, password: str) -> Opened:
        check_username(username)
        check_password(password, username)
        if await asyncio.to_thread(self.store.by_name, username) is not None:
            raise self._taken(username)
        digest = await self.hasher.hash(password)
        try:
            account = await asyncio.to_thread(self.store.create, username, digest)
        except UsernameTaken:
            raise self._taken(username) from None
        return await self._open(account)

    @staticmethod
    def _taken(username: str) -> DomainError:
        return DomainError("username_taken", f"the name {username!r} is taken: choose another")

    async def sign_in(self, username: str, password: str) -> Opened:
        """A new session for the right password. A wrong password, an unknown name and a closed
        account get the same answer after the same work (one Argon2 verification)."""
        account = await asyncio.to_thread(self.store.by_name, username) if len(username) <= 20 else None
        ok = await self.hasher.verify(account.password_hash if account else None, password)
        if account is None or not ok or account.closed:
            raise bad_credentials()
        if self.hasher.needs_rehash(account.password_hash):
            digest = await self.hasher.hash(password)
            await asyncio.to_thread(self.store.set_password, account.id, digest, None)
        return await self._open(account)

    async def open_for(self, account: Account) -> Opened:
        """A new session for an account that proved itself another way (a passkey)."""
        if account.closed:
            raise bad_credentials()
        return await self._open(account)

    async def _open(self, account: Account) -> Opened:
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        await asyncio.to_thread(self.store.open_session, account.id, hash_session(session_id), csrf)
        return Opened(account, session_id, csrf)

    async def member_id(self, session_id: str | None) -> int | None:
        """The account of a live session, for choosing whose rate limits a request counts against
        (never for deciding what it may do: ``session`` does that). Remembered for
        ``KEY_SECONDS``, unknown ids too, so a member's requests cost no database read each."""
        if not session_id or len(session_id) > 64:
            return None
        now = time.monotonic()
        known = self._keys.get(session_id)
        if known is not None and known[1] > now:
            return known[0]
        found = await self.session(session_id)
        if len(self._keys) >= 10_000:
            self._keys.clear()
        account = None if found is None else found.account.id
        self._keys[session_id] = (account, now + KEY_SECONDS)
        return account

    async def session(self, session_id: str | None) -> SignedIn | None:
        if not session_id or len(session_id) > 128:
            return None
        return await asyncio.to_thread(self.store.session, hash_session(session_id))

    async def sign_out(self, signed_in: SignedIn) -> None:
        await asyncio.to_thread(self.store.end_session, signed_in.id_hash)

    async def change_password(self, signed_in: SignedIn, current: str, new: str) -> None:
        """A new password (the current one proves it is you); every other session ends."""
        account = signed_in.account
        if not await self.hasher.verify(account.password_hash, current):
            raise DomainError("wrong_password", "the current password is wrong")
        check_password(new, account.username)
        digest = await self.hasher.hash(new)
        await asyncio.to_thread(self.store.set_password, account.id, digest, signed_in.id_hash)

    async def check_password(self, account: Account, password: str) -> None:
        if not await self.hasher.verify(account.password_hash, password):
            raise DomainError("wrong_password", "the password is wrong")

    # --- the member's own data --------------------------------------------------------------
    async def me(self, signed_in: SignedIn) -> dict[str, Any]:
        account = signed_in.account
        return {
            "username": account.username,
            "joined": account.joined,
            "csrf_token": signed_in.csrf,
            "ratings": await self._ratings(account.id),
        }

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything kept about the member: profile, ratings and their history, every game."""
        history = await asyncio.to_thread(self.store.history, account.id)
        records = await asyncio.to_thread(self.store.records_of, account.id)
        return {
            "format": "palaestra-account-export/1",
            "exported": datetime.now(UTC).isoformat(timespec="seconds"),
            "account": {"username": account.username, "joined": account.joined},
            "ratings": await self._ratings(account.id),
            "rating_history": [self._event(e) for e in history],
            "games": [
                {
                    "id": r["id"],
                    "rated": bool(r["rated"]),
                    "status": r["status"],
                    "created": utc_iso(r["created_at"], "seconds"),
                    "record": r["record"],
                }
                for r in records
            ],
        }

    async def delete(self, account: Account) -> None:
        """Remove the account (the caller checked the password or a passkey)."""
        changed = await asyncio.to_thread(self.store.delete, account.id, DELETED)
        if self.on_games_changed is not None:
            await self.on_games_changed(changed)

    # --- what everyone sees -----------------------------------------------------------------
    async def _member(self, name: str) -> Account:
        account = await asyncio.to_thread(self.store.by_name, name) if len(name) <= 20 else None
        if account is None:
            raise DomainError("user_not_found", f"no member is called {name!r}")
        return account

    async def _ratings(self, account_id: int) -> dict[str, dict[str, Any]]:
        return {r.pool: shown(r) for r in await asyncio.to_thread(self.store.ratings, account_id)}

    @staticmethod
    def _event(event: Mapping[str, Any]) -> dict[str, Any]:
        after = Rating(event["mu"], event["sigma"], 0).shown()
        before = Rating(event["before_mu"], event["before_sigma"], 0).shown()
        return {
            "pool": event["pool"],
            "game": event["game"],
            "at": utc_iso(event["at"], "seconds"),
            "rating": after["rating"],
            "deviation": after["deviation"],
            "change": after["rating"] - before["rating"],
        }

    async def profile(self, name: str) -> dict[str, Any]:
        account = await self._member(name)
        history: dict[str, list[dict[str, Any]]] = {}
        for event in await asyncio.to_thread(self.store.history, account.id):
            history.setdefault(event["pool"], []).append(self._event(event))
        return {
            "username": account.username,
            "joined": account.joined,
            "ratings": await self._ratings(account.id),
            "history": history,
            "games": await asyncio.to_thread(self.store.game_count, account.id),
        }

    async def games(self, name: str, page: int, game: str | None, viewer: Account | None) -> dict[str, Any]:
        """One page of a member's games, newest first. Others see the rated and public games;
        the member sees every game of theirs ("my games" on any device)."""
        account = await self._member(name)
        everything = viewer is not None and viewer.id == account.id
        total, rows = await asyncio.to_thread(
            lambda: self.store.games_of(
                account.id, game=game, offset=(page - 1) * PAGE, limit=PAGE, everything=everything
            )
        )
        return {
            "username": account.username,
            "page": page,
            "pages": max(1, -(-total // PAGE)),
            "total": total,
            "games": [game_line(row, account.id) for row in rows],
        }

    async def leaderboard(self, pool_id: str) -> dict[str, Any]:
        pool = pools().get(pool_id)
        if pool is None:
            raise DomainError("no_such_pool", f"no rating pool {pool_id!r} (see /api/meta's rating_pools)")
        since = datetime.now(UTC) - timedelta(days=LEADERBOARD_DAYS)
        rows = await asyncio.to_thread(self.store.leaderboard, pool.id, LEADERBOARD_GAMES, since, 500)
        players = sorted(
            ({"username": name, **shown(rating)} for name, rating in rows),
            key=lambda p: (-p["rating"], p["username"].casefold()),
        )[:100]
        return {
            "pool": pool_doc(pool),
            "players": [{"rank": i + 1, **p} for i, p in enumerate(players)],
        }


def game_infos_by_name() -> dict[str, GameInfo]:
    return {info.name: info for info in game_infos()}


def pools() -> dict[str, Pool]:
    return {p.id: p for p in all_pools()}


def pool_doc(pool: Pool) -> dict[str, Any]:
    return {
        "id": pool.id,
        "game": pool.game,
        "players": pool.players,
        "teams": pool.teams,
        "title": pool.title,
    }


def game_line(row: Mapping[str, Any], account_id: int) -> dict[str, Any]:
    """A row of a member's games: the game, its opponents, the member's result and the date."""
    seats = list(row["seats"])
    mine = [i for i, s in enumerate(seats) if s.get("account") == account_id]
    result = (row.get("record") or {}).get("result")
    outcome = None
    if result and mine and isinstance(result.get("returns"), list):
        returns = [float(x) for x in result["returns"]]
        own = returns[mine[0]] if mine[0] < len(returns) else None
        if own is not None:
            best = max(returns)
            rank = 1 + sum(1 for r in returns if r > own)
            kind = "draw" if all(r == best for r in returns) else ("win" if own == best else "loss")
            outcome = {"outcome": kind, "rank": rank, "text": result.get("text")}
    info = game_infos_by_name().get(row["game"])
    title = info.title if info is not None else row["game"]  # a game no longer installed still lists
    return {
        "id": row["id"],
        "game": row["game"],
        "title": title,
        "rated": bool(row.get("rated")),
        "status": row["status"],
        "seat": mine[0] if mine else None,
        "result": outcome,
        "opponents": [
            {"seat": i, "name": s.get("name") or "", "member": s.get("member"), "kind": s.get("kind")}
            for i, s in enumerate(seats)
            if i not in mine
        ],
        "date": utc_iso(row["created_at"], "seconds"),
    }
