"""Persistence of the lobby's seeks (issue 29; migration 0007). Like :class:`Store`, the only code
that talks SQL about seeks; the service calls it from worker threads.

Every change of a seek is an update guarded by its version (and its status where it matters), in
one transaction: of two requests (in one process or several) that change the same seek at once,
exactly one wins, and the other learns it lost (:class:`SeekConflict`) and reads the row again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from palaestra.server.account_store import RATINGS
from palaestra.server.db import Base, StorageError, Store, guarded


class SeekRow(Base):
    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(64))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    players: Mapped[int] = mapped_column(sa.Integer)
    pool: Mapped[str] = mapped_column(sa.String(64))
    time_control: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    rating_min: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    rating_max: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: the poster's account (None: a guest)
    poster_account: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: who posted it: ``a:ID`` for a member, ``g:HASH`` for a guest (a hash of their secret)
    poster_key: Mapped[str] = mapped_column(sa.String(80))
    #: the hash of the seek token (the poster's secret: cancel, learn the seat)
    poster_hash: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    #: when the poster was last seen (their lobby websocket, or a poll of the seek); once the
    #: table is full, when it filled
    seen_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    status: Mapped[str] = mapped_column(sa.String(16))
    version: Mapped[int] = mapped_column(sa.Integer, server_default="0")
    #: the places taken, the poster's first: ``{"key", "account", "name", "hash"}``
    places: Mapped[list[dict[str, Any]]] = mapped_column(sa.JSON)
    game_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)

    __table_args__ = (sa.Index("ix_seeks_status_created", "status", "created_at"),)


SEEKS = cast(sa.Table, SeekRow.__table__)
#: a seek anyone may still accept
OPEN = "open"
#: the table is full and its game is being made (by the request that took the last place)
STARTING = "starting"
STARTED = "started"
#: ended without a game: by its poster, by time, by its poster leaving
ENDED = ("cancelled", "expired", "left")


class SeekConflict(StorageError):
    """The seek was changed by another request meanwhile: read it again."""


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


@dataclass
class StoredSeek:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    pool: str
    time_control: dict[str, Any] | None
    rated: bool
    rating_min: int | None
    rating_max: int | None
    poster_account: int | None
    poster_key: str
    poster_hash: str
    created_at: datetime
    expires_at: datetime
    seen_at: datetime
    status: str
    version: int = 0
    places: list[dict[str, Any]] = field(default_factory=list)
    game_id: str | None = None

    @property
    def full(self) -> bool:
        return len(self.places) >= self.players


def _seek(row: Any) -> StoredSeek:
    return StoredSeek(
        str(row.id),
        str(row.game),
        dict(row.options),
        int(row.players),
        str(row.pool),
        None if row.time_control is None else dict(row.time_control),
        bool(row.rated),
        row.rating_min,
        row.rating_max,
        row.poster_account,
        str(row.poster_key),
        str(row.poster_hash),
        _aware(row.created_at),
        _aware(row.expires_at),
        _aware(row.seen_at),
        str(row.status),
        int(row.version),
        [dict(p) for p in row.places],
        row.game_id,
    )


class SeekStore:
    """The ``seeks`` table, on the engine of the games' :class:`Store` (one database)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    @guarded
    def insert(self, seek: StoredSeek) -> None:
        with self.store.writing() as conn:
            conn.execute(
                sa.insert(SEEKS).values(
                    id=seek.id,
                    game=seek.game,
                    options=seek.options,
                    players=seek.players,
                    pool=seek.pool,
                    time_control=seek.time_control,
                    rated=seek.rated,
                    rating_min=seek.rating_min,
                    rating_max=seek.rating_max,
                    poster_account=seek.poster_account,
                    poster_key=seek.poster_key,
                    poster_hash=seek.poster_hash,
                    created_at=seek.created_at,
                    expires_at=seek.expires_at,
                    seen_at=seek.seen_at,
                    status=seek.status,
                    version=seek.version,
                    places=seek.places,
                    game_id=seek.game_id,
                )
            )

    @guarded
    def get(self, seek_id: str) -> StoredSeek | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(SEEKS).where(SEEKS.c.id == seek_id)).one_or_none()
            return None if row is None else _seek(row)

    @guarded
    def made(self, game_id: str) -> StoredSeek | None:
        """The seek whose full table made the game ``game_id`` (None: the game came from
        elsewhere). A rare question (a game aborted): no index of its own."""
        query = sa.select(SEEKS).where(SEEKS.c.game_id == game_id, SEEKS.c.status == STARTED).limit(1)
        with self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
            return None if row is None else _seek(row)

    @guarded
    def open_seeks(self, now: datetime, limit: int = 200) -> list[StoredSeek]:
        """The open seeks not expired yet, oldest first."""
        query = (
            sa.select(SEEKS)
            .where(SEEKS.c.status == OPEN, SEEKS.c.expires_at > now)
            .order_by(SEEKS.c.created_at, SEEKS.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [_seek(r) for r in conn.execute(query)]

    @guarded
    def change(self, seek: StoredSeek, *, expect_status: str = OPEN, **values: Any) -> StoredSeek:
        """Set ``values`` if the row is still at ``seek.version`` and ``expect_status``; the new
        seek, or :class:`SeekConflict` when another request changed it first."""
        with self.store.writing() as conn:
            result = conn.execute(
                sa.update(SEEKS)
                .where(
                    SEEKS.c.id == seek.id,
                    SEEKS.c.version == seek.version,
                    SEEKS.c.status == expect_status,
                )
                .values(version=seek.version + 1, **values)
            )
            if result.rowcount != 1:
                raise SeekConflict(f"seek {seek.id} was changed meanwhile")
        changed = StoredSeek(**{**seek.__dict__, **values})
        changed.version = seek.version + 1
        return changed

    @guarded
    def seen(self, seek_id: str, at: datetime) -> None:
        """The poster is still there (no version change: nobody else needs to know)."""
        with self.store.writing() as conn:
            conn.execute(
                sa.update(SEEKS).where(SEEKS.c.id == seek_id, SEEKS.c.status == OPEN).values(seen_at=at)
            )

    @guarded
    def seen_all(self, seek_ids: list[str], at: datetime, chunk: int = 500) -> None:
        """:meth:`seen` for many seeks at once: one statement per ``chunk`` of them, in one
        transaction (the sweep renews every seek held here: one write, not one per seek)."""
        if not seek_ids:
            return
        with self.store.writing() as conn:
            for start in range(0, len(seek_ids), chunk):
                part = seek_ids[start : start + chunk]
                conn.execute(
                    sa.update(SEEKS).where(SEEKS.c.id.in_(part), SEEKS.c.status == OPEN).values(seen_at=at)
                )

    @guarded
    def stale(self, now: datetime, unseen_since: datetime, limit: int = 200) -> list[StoredSeek]:
        """Open seeks that expired, or whose poster was not seen since ``unseen_since``."""
        query = (
            sa.select(SEEKS)
            .where(
                SEEKS.c.status == OPEN,
                sa.or_(SEEKS.c.expires_at <= now, SEEKS.c.seen_at < unseen_since),
            )
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [_seek(r) for r in conn.execute(query)]

    @guarded
    def starting(self, since: datetime, limit: int = 100) -> list[StoredSeek]:
        """Seeks whose table filled before ``since`` and whose game was never said to have
        started (the process making it died, or is still at it)."""
        query = sa.select(SEEKS).where(SEEKS.c.status == STARTING, SEEKS.c.seen_at < since).limit(limit)
        with self.engine.connect() as conn:
            return [_seek(r) for r in conn.execute(query)]

    @guarded
    def ratings(self, pool: str, accounts: list[int]) -> dict[int, tuple[float, float, int]]:
        """``(mu, sigma, games)`` of these accounts in ``pool`` (newcomers are left out)."""
        if not accounts:
            return {}
        query = sa.select(RATINGS).where(RATINGS.c.pool == pool, RATINGS.c.account_id.in_(accounts))
        with self.engine.connect() as conn:
            return {int(r.account_id): (r.mu, r.sigma, r.games) for r in conn.execute(query)}
