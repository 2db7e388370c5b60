"""Persistence of members: accounts, sign-in sessions, ratings and who sat where (issue 28).

The tables are made by migration 0006 (docs/accounts.md). Like :class:`palaestra.server.db.Store`
this is the only code that talks SQL about members; the service calls it from worker threads.
Ratings are written by :func:`rate_game` inside the transaction that stores a rated game's result
(``Store.update(..., then=...)``), so a game is rated exactly once, with its result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from palaestra.server.db import GAMES, Base, GameRow, StorageError, Store, guarded
from palaestra.server.lesson_store import LESSONS
from palaestra.server.notify_store import MEMBER_TABLES


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(sa.String(20))
    username_key: Mapped[str] = mapped_column(sa.String(20), unique=True)
    password_hash: Mapped[str] = mapped_column(sa.String(255))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    active_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    #: who may challenge the member (issue 29): everyone, played (people they have played), nobody
    challenges_from: Mapped[str] = mapped_column(sa.String(16), server_default="everyone")


class SessionRow(Base):
    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


class PasskeyRow(Base):
    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"), index=True)
    credential_id: Mapped[str] = mapped_column(sa.String(1400), unique=True)
    public_key: Mapped[bytes] = mapped_column(sa.LargeBinary)
    sign_count: Mapped[int] = mapped_column(sa.BigInteger, server_default="0")
    name: Mapped[str] = mapped_column(sa.String(64))
    transports: Mapped[list[str] | None] = mapped_column(sa.JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)


class ChallengeRow(Base):
    __tablename__ = "webauthn_challenges"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    challenge: Mapped[str] = mapped_column(sa.String(128))
    purpose: Mapped[str] = mapped_column(sa.String(16))
    account_id: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    expires: Mapped[float] = mapped_column(sa.Float, index=True)


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"), primary_key=True)
    pool: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    games: Mapped[int] = mapped_column(sa.Integer)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))

    __table_args__ = (sa.Index("ix_ratings_pool_mu", "pool", "mu"),)


class RatingEventRow(Base):
    __tablename__ = "rating_events"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"))
    pool: Mapped[str] = mapped_column(sa.String(32))
    game_id: Mapped[str] = mapped_column(sa.String(32))
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    before_mu: Mapped[float] = mapped_column(sa.Float)
    before_sigma: Mapped[float] = mapped_column(sa.Float)
    at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))

    __table_args__ = (
        sa.UniqueConstraint("game_id", "account_id", name="uq_rating_events_game_account"),
        sa.Index("ix_rating_events_account_pool", "account_id", "pool", "at"),
    )


class GamePlayerRow(Base):
    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"))
    game: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))

    __table_args__ = (sa.Index("ix_game_players_account", "account_id", "created_at"),)


class UsernameTaken(StorageError):
    """Another account has this name (compared without regard to case)."""


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    password_hash: str
    created_at: datetime
    active_at: datetime
    closed: bool

    @property
    def joined(self) -> str:
        return _aware(self.created_at).date().isoformat()


@dataclass(frozen=True)
class SignedIn:
    """A live sign-in session: its account and CSRF token."""

    account: Account
    csrf: str
    id_hash: str


@dataclass(frozen=True)
class StoredRating:
    pool: str
    mu: float
    sigma: float
    games: int
    updated_at: datetime


@dataclass(frozen=True)
class RatingUpdate:
    """What :func:`rate_game` writes for one account of a finished rated game."""

    account_id: int
    mu: float
    sigma: float
    before_mu: float
    before_sigma: float


ACCOUNTS = cast(sa.Table, AccountRow.__table__)
SESSIONS = cast(sa.Table, SessionRow.__table__)
RATINGS = cast(sa.Table, RatingRow.__table__)
EVENTS = cast(sa.Table, RatingEventRow.__table__)
PLAYERS = cast(sa.Table, GamePlayerRow.__table__)
PASSKEYS = cast(sa.Table, PasskeyRow.__table__)
CHALLENGES = cast(sa.Table, ChallengeRow.__table__)


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def _account(row: Any) -> Account:
    return Account(
        int(row.id),
        str(row.username),
        str(row.password_hash),
        _aware(row.created_at),
        _aware(row.active_at),
        row.closed_at is not None,
    )


def seat_players(game_id: str, game: str, seats: Iterable[tuple[int, int]], at: datetime) -> Any:
    """A ``then`` for :meth:`Store.insert` / ``update_seats``: record who holds which seat."""
    rows = [
        {"game_id": game_id, "seat": seat, "account_id": account, "game": game, "created_at": at}
        for seat, account in seats
    ]

    def write(conn: Connection) -> None:
        if rows:
            conn.execute(sa.insert(PLAYERS), rows)

    return write


def read_ratings(conn: Connection, pool: str, accounts: Sequence[int]) -> dict[int, StoredRating]:
    """The current ratings of ``accounts`` in ``pool``, locked until the transaction ends where
    the database can (PostgreSQL: two games of one member finishing at once are rated in turn;
    SQLite has one writer at a time anyway)."""
    query = sa.select(RATINGS).where(RATINGS.c.pool == pool, RATINGS.c.account_id.in_(list(accounts)))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return {
        int(r.account_id): StoredRating(r.pool, r.mu, r.sigma, r.games, _aware(r.updated_at))
        for r in conn.execute(query)
    }


def write_ratings(conn: Connection, game_id: str, pool: str, updates: Sequence[RatingUpdate]) -> None:
    """Store the new ratings of one rated game. The unique (game, account) key of
    ``rating_events`` refuses a second rating of the same game (the transaction fails whole)."""
    now = datetime.now(UTC)
    for update in updates:
        conn.execute(
            sa.insert(EVENTS).values(
                account_id=update.account_id,
                pool=pool,
                game_id=game_id,
                mu=update.mu,
                sigma=update.sigma,
                before_mu=update.before_mu,
                before_sigma=update.before_sigma,
                at=now,
            )
        )
        changed = conn.execute(
            sa.update(RATINGS)
            .where(RATINGS.c.account_id == update.account_id, RATINGS.c.pool == pool)
            .values(mu=update.mu, sigma=update.sigma, games=RATINGS.c.games + 1, updated_at=now)
        )
        if changed.rowcount == 0:
            conn.execute(
                sa.insert(RATINGS).values(
                    account_id=update.account_id,
                    pool=pool,
                    mu=update.mu,
                    sigma=update.sigma,
                    games=1,
                    updated_at=now,
                )
            )


class AccountStore:
    """Members' rows, on the engine of the games' :class:`Store` (one database)."""

    #: a session unused this long ends (the cookie lives as long)
    SESSION_DAYS = 30
    #: ``seen_at`` is written at most this often per session (not on every request)
    SEEN_EVERY = timedelta(minutes=5)

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # --- accounts ---------------------------------------------------------------------------
    @guarded
    def create(self, username: str, password_hash: str) -> Account:
        now = datetime.now(UTC)
        try:
            with self.store.writing() as conn:
                new_id = conn.execute(
                    sa.insert(ACCOUNTS).values(
                        username=username,
                        username_key=username.casefold(),
                        password_hash=password_hash,
                        created_at=now,
                        active_at=now,
                        closed_at=None,
                    )
                ).inserted_primary_key
        except IntegrityError:
            raise UsernameTaken(f"the name {username!r} is taken") from None
        assert new_id is not None
        return Account(int(new_id[0]), username, password_hash, now, now, False)

    @guarded
    def by_name(self, username: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(ACCOUNTS).where(ACCOUNTS.c.username_key == username.casefold())
            ).one_or_none()
        return None if row is None else _account(row)

    @guarded
    def by_id(self, account_id: int) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).one_or_none()
        return None if row is None else _account(row)

    @guarded
    def names(self, ids: Iterable[int]) -> dict[int, str]:
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(ACCOUNTS.c.id, ACCOUNTS.c.username).where(ACCOUNTS.c.id.in_(wanted))
            )
            return {int(r.id): str(r.username) for r in rows}

    @guarded
    def listing(self) -> list[Account]:
        with self.engine.connect() as conn:
            return [_account(r) for r in conn.execute(sa.select(ACCOUNTS).order_by(ACCOUNTS.c.id))]

    @guarded
    def set_closed(self, account_id: int, closed: bool) -> None:
        """Close an account (no sign-in, its sessions end) or reopen it."""
        with self.store.writing() as conn:
            conn.execute(
                sa.update(ACCOUNTS)
                .where(ACCOUNTS.c.id == account_id)
                .values(closed_at=datetime.now(UTC) if closed else None)
            )
            if closed:
                conn.execute(sa.delete(SESSIONS).where(SESSIONS.c.account_id == account_id))

    @guarded
    def set_password(self, account_id: int, password_hash: str, keep: str | None) -> None:
        """A new password hash; every session of the account but ``keep`` (an id hash) ends."""
        with self.store.writing() as conn:
            conn.execute(
                sa.update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(password_hash=password_hash)
            )
            ended = sa.delete(SESSIONS).where(SESSIONS.c.account_id == account_id)
            if keep is not None:
                ended = ended.where(SESSIONS.c.id_hash != keep)
            conn.execute(ended)

    # --- sessions ---------------------------------------------------------------------------
    @guarded
    def open_session(self, account_id: int, id_hash: str, csrf: str) -> None:
        now = datetime.now(UTC)
        with self.store.writing() as conn:
            conn.execute(
                sa.insert(SESSIONS).values(
                    id_hash=id_hash, account_id=account_id, csrf=csrf, created_at=now, seen_at=now
                )
            )
            conn.execute(sa.update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(active_at=now))

    @guarded
    def session(self, id_hash: str) -> SignedIn | None:
        """The live session of a cookie (None: unknown, expired or its account closed)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(SESSIONS.c.csrf, SESSIONS.c.seen_at, ACCOUNTS)
                .join(ACCOUNTS, ACCOUNTS.c.id == SESSIONS.c.account_id)
                .where(SESSIONS.c.id_hash == id_hash)
            ).one_or_none()
        if row is None or row.closed_at is not None:
            return None
        now = datetime.now(UTC)
        seen = _aware(row.seen_at)
        if now - seen > timedelta(days=self.SESSION_DAYS):
            self.end_session(id_hash)
            return None
        if now - seen > self.SEEN_EVERY:
            with self.store.writing() as conn:
                conn.execute(sa.update(SESSIONS).where(SESSIONS.c.id_hash == id_hash).values(seen_at=now))
                conn.execute(sa.update(ACCOUNTS).where(ACCOUNTS.c.id == row.id).values(active_at=now))
        return SignedIn(_account(row), str(row.csrf), id_hash)

    @guarded
    def end_session(self, id_hash: str) -> None:
        with self.store.writing() as conn:
            conn.execute(sa.delete(SESSIONS).where(SESSIONS.c.id_hash == id_hash))

    @guarded
    def session_count(self, account_id: int) -> int:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(sa.func.count()).select_from(SESSIONS).where(SESSIONS.c.account_id == account_id)
            ).scalar()
        return int(found or 0)

    # --- games and ratings ------------------------------------------------------------------
    @guarded
    def ratings(self, account_id: int) -> list[StoredRating]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(RATINGS).where(RATINGS.c.account_id == account_id).order_by(RATINGS.c.pool)
            )
            return [StoredRating(r.pool, r.mu, r.sigma, r.games, _aware(r.updated_at)) for r in rows]

    @guarded
    def history(self, account_id: int) -> list[dict[str, Any]]:
        """Every rating change of the account, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(EVENTS).where(EVENTS.c.account_id == account_id).order_by(EVENTS.c.at, EVENTS.c.id)
            )
            return [
                {
                    "pool": r.pool,
                    "game": r.game_id,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "before_mu": r.before_mu,
                    "before_sigma": r.before_sigma,
                    "at": _aware(r.at),
                }
                for r in rows
            ]

    @guarded
    def leaderboard(
        self, pool: str, min_games: int, since: datetime, limit: int
    ) -> list[tuple[str, StoredRating]]:
        """Open accounts of the pool with ``min_games`` rated games or more, rated since ``since``,
        best first (by mu; the service orders by the shown rating)."""
        query = (
            sa.select(ACCOUNTS.c.username, RATINGS)
            .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
            .where(
                RATINGS.c.pool == pool,
                RATINGS.c.games >= min_games,
                RATINGS.c.updated_at >= since,
                ACCOUNTS.c.closed_at.is_(None),
            )
            .order_by(RATINGS.c.mu.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                (str(r.username), StoredRating(r.pool, r.mu, r.sigma, r.games, _aware(r.updated_at)))
                for r in conn.execute(query)
            ]

    @guarded
    def game_count(self, account_id: int) -> int:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(sa.func.count(sa.distinct(PLAYERS.c.game_id))).where(
                    PLAYERS.c.account_id == account_id
                )
            ).scalar()
        return int(found or 0)

    @guarded
    def games_of(
        self, account_id: int, *, game: str | None, offset: int, limit: int, everything: bool
    ) -> tuple[int, list[dict[str, Any]]]:
        """The games an account sat in, newest first: (how many in all, one page of rows).
        Without ``everything`` only rated and public games (what others may see)."""
        where = [PLAYERS.c.account_id == account_id]
        if game is not None:
            where.append(PLAYERS.c.game == game)
        if not everything:
            where.append(sa.or_(GAMES.c.rated.is_(True), GAMES.c.public.is_(True)))
        ids = (
            sa.select(PLAYERS.c.game_id, sa.func.max(PLAYERS.c.created_at).label("at"))
            .join(GAMES, GAMES.c.id == PLAYERS.c.game_id)
            .where(*where)
            .group_by(PLAYERS.c.game_id)
            .subquery()
        )
        with self.engine.connect() as conn:
            total = int(conn.execute(sa.select(sa.func.count()).select_from(ids)).scalar() or 0)
            rows = conn.execute(
                sa.select(
                    GAMES.c.id,
                    GAMES.c.game,
                    GAMES.c.options,
                    GAMES.c.seats,
                    GAMES.c.status,
                    GAMES.c.rated,
                    GAMES.c.public,
                    GAMES.c.record,
                    GAMES.c.created_at,
                    GAMES.c.updated_at,
                )
                .join(ids, ids.c.game_id == GAMES.c.id)
                .order_by(ids.c.at.desc(), GAMES.c.id)
                .offset(offset)
                .limit(limit)
            )
            return total, [dict(r._mapping) for r in rows]

    @guarded
    def records_of(self, account_id: int) -> list[dict[str, Any]]:
        """Every game record of the account's games (the export)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(GAMES.c.id, GAMES.c.record, GAMES.c.rated, GAMES.c.status, GAMES.c.created_at)
                .where(GAMES.c.id.in_(sa.select(PLAYERS.c.game_id).where(PLAYERS.c.account_id == account_id)))
                .order_by(GAMES.c.created_at)
            )
            return [dict(r._mapping) for r in rows]

    @guarded
    def delete(self, account_id: int, placeholder: str) -> list[tuple[str, int]]:
        """Remove an account: its name, hash, sessions, passkeys, ratings and lessons done. Its games stay for
        the other players, its seats renamed ``placeholder`` (the seats' JSON and the records'
        player names), each game's version bumped so that copies in memory reload it. Returns
        ``(game id, new version)`` of the games changed."""
        changed: list[tuple[str, int]] = []
        with self.store.writing() as conn:
            seats_of: dict[str, list[int]] = {}
            for row in conn.execute(
                sa.select(PLAYERS.c.game_id, PLAYERS.c.seat).where(PLAYERS.c.account_id == account_id)
            ):
                seats_of.setdefault(str(row.game_id), []).append(int(row.seat))
            for game_id, seats in seats_of.items():
                game = conn.execute(
                    sa.select(GAMES.c.seats, GAMES.c.record, GAMES.c.version).where(GAMES.c.id == game_id)
                ).one_or_none()
                if game is None:
                    continue
                new_seats = [dict(s) for s in game.seats]
                record = dict(game.record)
                players = list(record.get("players", []))
                for seat in seats:
                    if seat < len(new_seats):
                        new_seats[seat].update(name=placeholder, account=None, member=None)
                    if seat < len(players):
                        players[seat] = placeholder
                record["players"] = players
                conn.execute(
                    sa.update(GameRow)
                    .where(GameRow.id == game_id)
                    .values(seats=new_seats, record=record, version=game.version + 1)
                )
                changed.append((game_id, int(game.version) + 1))
            for table in (*MEMBER_TABLES, PLAYERS, EVENTS, RATINGS, SESSIONS, PASSKEYS, LESSONS):
                conn.execute(sa.delete(table).where(table.c.account_id == account_id))
            conn.execute(sa.delete(CHALLENGES).where(CHALLENGES.c.account_id == account_id))
            # the challenges made by or to the account (issue 29; a local import: that module
            # builds on this one)
            from palaestra.server.challenge_store import GAME_CHALLENGES

            made = GAME_CHALLENGES.c
            conn.execute(
                sa.delete(GAME_CHALLENGES).where(
                    sa.or_(made.challenger_id == account_id, made.challenged_id == account_id)
                )
            )
            conn.execute(sa.delete(ACCOUNTS).where(ACCOUNTS.c.id == account_id))
        return changed
