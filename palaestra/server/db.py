"""Persistence of the web app: one table of games, SQLAlchemy 2, migrated by Alembic.

A row holds everything needed to resume a game: the game and its options, the seats (kind, AI
level, name, a hash of the seat's secret token), the seed, the game record (the core record JSON,
moves in notation) and a snapshot of the state (``State.to_json``). The row is written in one
transaction per applied action, before the action is acknowledged.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from palaestra.core.errors import PalaestraError
from palaestra.server.encoding import dumps


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(64), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(sa.JSON)
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    ply: Mapped[int] = mapped_column(sa.Integer)
    version: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    record: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    snapshot: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    public: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    hints: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    creator_hash: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    secret: Mapped[str | None] = mapped_column(sa.String(128), nullable=True)
    #: the game's clock (palaestra/server/service/clock.py; None: no time control)
    clock: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    #: when the running clock's flag falls (seconds since the epoch; None: no clock runs)
    deadline: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    #: a rated game (issue 28: accounts only, a clock, no undo, no hints; rated once when it ends)
    rated: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    #: a finished game's rematch (issue 29; migration 0008): the offer, then the new game's id
    rematch: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)

    #: one range scan for each query that picks games by a time: the clock sweep's
    #: (``Store.due``: active games by deadline), the lobby's (public games, newest first) and the
    #: abandoned-games sweep's (active games unchanged since a moment); migrations 0003 to 0005
    __table_args__ = (
        sa.Index("ix_games_status_deadline", "status", "deadline"),
        sa.Index("ix_games_public_updated", "public", "updated_at"),
        sa.Index("ix_games_status_updated", "status", "updated_at"),
    )


class StorageError(PalaestraError):
    """The database could not be reached or written (the message is safe to show: no SQL)."""


class VersionConflict(StorageError):
    """The row is no longer at the expected version: another request (or process) changed it."""


#: what a client is told when the database fails; the details go to the log only
UNAVAILABLE = "the game store is unavailable right now; try again in a moment"

log = logging.getLogger("palaestra.server.db")

F = TypeVar("F", bound=Callable[..., Any])
#: more to write in the transaction of a game's write (``Store.insert``, ``update``, ``update_seats``)
Then = Callable[[Connection], None]


def guarded(method: F) -> F:
    """Turn any database failure (connection lost, disk full, read-only file, bad bytes) into a
    :class:`StorageError` with a message that names no statement or parameter."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except StorageError:
            raise
        except (SQLAlchemyError, OSError, ValueError) as err:
            log.error("database failure in %s: %s", method.__name__, err)
            raise StorageError(UNAVAILABLE) from err

    return wrapper  # type: ignore[return-value]


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("palaestra", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'palaestra.sqlite3'}"


#: how long a SQLite writer waits for the lock before giving up (seconds)
SQLITE_BUSY_TIMEOUT = 10.0


def make_engine(
    url: str, *, pool_size: int = 10, max_overflow: int = 10, pool_timeout: float = 10.0
) -> Engine:
    """An engine: SQLite in WAL mode with a busy timeout (readers never wait for the writer), or a
    server database with a pool of ``pool_size`` connections (plus ``max_overflow`` at peaks)."""
    # SQLAlchemy's plain postgresql:// means psycopg2; prefer psycopg 3 when it is installed.
    if url.startswith("postgresql://") and importlib.util.find_spec("psycopg") is not None:
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT},
            json_serializer=_dumps,
        )
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(
        url,
        pool_pre_ping=True,
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=pool_timeout,
        json_serializer=_dumps,
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        if cursor.execute("PRAGMA database_list").fetchone()[2]:  # a file, not :memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_TIMEOUT * 1000)}")
    finally:
        cursor.close()


def _dumps(value: Any) -> str:
    return dumps(value)  # orjson (palaestra/server/encoding.py)


#: the PostgreSQL advisory lock held while migrating (any constant; "palaestra" in ASCII, cut)
MIGRATION_LOCK = 0x70616C6165737472


def migrate(engine: Engine) -> None:
    """Bring the database schema up to date (Alembic ``upgrade head``).

    Every process migrates at its start; on PostgreSQL the processes of a deployment that start
    together (docs/deploy.md) take turns under an advisory lock held until the transaction ends,
    so the second finds the schema at head instead of creating the same table again."""
    config = Config()
    config.set_main_option("script_location", "palaestra.server:migrations")
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    ply: int
    status: str
    record: dict[str, Any]
    snapshot: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    version: int = 0
    public: bool = False
    hints: bool = False
    creator_hash: str | None = None
    secret: str | None = None
    clock: dict[str, Any] | None = None
    deadline: float | None = None
    rated: bool = False
    rematch: dict[str, Any] | None = None


# The statements of every request, built once: building a statement costs more than running it
# on an indexed key (SQLAlchemy caches the compiled SQL, not the Python objects; a version check
# fell from some 210 to 45 µs, a read of a game from 480 µs through the ORM to about 100; see
# docs/benchmarks.md).
GAMES = cast(sa.Table, GameRow.__table__)
_GET = sa.select(GAMES).where(GAMES.c.id == sa.bindparam("game_id"))
_VERSION = sa.select(GAMES.c.version).where(GAMES.c.id == sa.bindparam("game_id"))
_VERSIONS = sa.select(GAMES.c.id, GAMES.c.version).where(GAMES.c.id.in_(sa.bindparam("ids", expanding=True)))
#: ids per query of ``Store.versions`` (SQLite allows some 32,000 parameters; a round figure)
VERSIONS_CHUNK = 500


@functools.lru_cache(maxsize=16)
def _guarded_update(columns: tuple[str, ...]) -> sa.Update:
    """``UPDATE games SET column = :new_column, ... WHERE id = :game_id AND version = :expect``."""
    return (
        sa.update(GAMES)
        .where(GAMES.c.id == sa.bindparam("game_id"), GAMES.c.version == sa.bindparam("expect"))
        .values({c: sa.bindparam(f"new_{c}") for c in columns})
    )


def _stored(row: Any) -> StoredGame:
    """A stored game from a row of ``games`` (its columns as attributes)."""
    return StoredGame(
        row.id,
        row.game,
        dict(row.options),
        list(row.seats),
        row.seed,
        row.ply,
        row.status,
        dict(row.record),
        dict(row.snapshot),
        row.created_at,
        row.updated_at,
        row.version,
        bool(row.public),
        bool(row.hints),
        row.creator_hash,
        row.secret,
        None if row.clock is None else dict(row.clock),
        row.deadline,
        bool(row.rated),
        None if row.rematch is None else dict(row.rematch),
    )


class Store:
    """Synchronous access to the games table (the server calls it from worker threads)."""

    def __init__(self, url: str, *, pool_size: int = 10, max_overflow: int = 10) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size=pool_size, max_overflow=max_overflow)
        # SQLite has one writer at a time; a second writer waits in SQLite's busy handler, which
        # sleeps 1, 2, 5 ... 100 ms between tries: the writers of this process queue on a lock
        # instead, and each goes the moment the one before commits (docs/benchmarks.md)
        self._writing: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )

    @contextlib.contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction (one writer at a time on SQLite)."""
        with self._writing, self.engine.begin() as conn:
            yield conn

    @guarded
    def ping(self) -> None:
        """Raise StorageError unless the database answers."""
        with self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @guarded
    def insert(self, game: StoredGame, then: Then | None = None) -> None:
        """Store a new game; ``then`` writes more in the same transaction (the seats of accounts)."""
        with self.writing() as conn:
            conn.execute(
                sa.insert(GameRow).values(
                    id=game.id,
                    game=game.game,
                    options=game.options,
                    seats=game.seats,
                    seed=game.seed,
                    ply=game.ply,
                    version=game.version,
                    status=game.status,
                    record=game.record,
                    snapshot=game.snapshot,
                    created_at=game.created_at,
                    updated_at=game.updated_at,
                    public=game.public,
                    hints=game.hints,
                    creator_hash=game.creator_hash,
                    secret=game.secret,
                    clock=game.clock,
                    deadline=game.deadline,
                    rated=game.rated,
                    rematch=game.rematch,
                )
            )
            if then is not None:
                then(conn)

    @guarded
    def update(
        self,
        game_id: str,
        *,
        expect_version: int,
        version: int,
        ply: int,
        status: str,
        record: dict[str, Any],
        snapshot: dict[str, Any],
        seats: list[dict[str, Any]] | None = None,
        clock: dict[str, Any] | None = None,
        deadline: float | None = None,
        then: Then | None = None,
    ) -> None:
        """Write a new state; refuses (StorageError) if the row is not at ``expect_version``.
        ``then`` writes more in the same transaction once the guarded update has won (the
        ratings of a rated game that this write finishes: exactly once, with its result)."""
        values: dict[str, Any] = {
            "ply": ply,
            "version": version,
            "status": status,
            "record": record,
            "snapshot": snapshot,
            "updated_at": datetime.now(UTC),
            "clock": clock,
            "deadline": deadline,
        }
        if seats is not None:
            values["seats"] = seats
        with self.writing() as conn:
            params = {f"new_{k}": v for k, v in values.items()}
            result = conn.execute(
                _guarded_update(tuple(values)), {"game_id": game_id, "expect": expect_version, **params}
            )
            if result.rowcount != 1:
                raise VersionConflict(f"game {game_id} was changed elsewhere; reload it")
            if then is not None:
                then(conn)

    @guarded
    def update_seats(
        self,
        game_id: str,
        seats: list[dict[str, Any]],
        *,
        expect_version: int,
        version: int,
        clock: dict[str, Any] | None = None,
        deadline: float | None = None,
        then: Then | None = None,
    ) -> None:
        with self.writing() as conn:
            result = conn.execute(
                sa.update(GameRow)
                .where(GameRow.id == game_id, GameRow.version == expect_version)
                .values(
                    seats=seats,
                    version=version,
                    updated_at=datetime.now(UTC),
                    clock=clock,
                    deadline=deadline,
                )
            )
            if result.rowcount != 1:
                raise VersionConflict(f"game {game_id} was changed elsewhere; reload it")
            if then is not None:
                then(conn)

    @guarded
    def update_rematch(
        self,
        game_id: str,
        rematch: dict[str, Any],
        *,
        expect_version: int,
        version: int,
        then: Then | None = None,
    ) -> None:
        """Write a finished game's rematch (the offer, or the new game's id), guarded by its
        version; ``then`` writes more in the same transaction (the notifications of an offer)."""
        with self.writing() as conn:
            result = conn.execute(
                sa.update(GameRow)
                .where(GameRow.id == game_id, GameRow.version == expect_version)
                .values(rematch=rematch, version=version, updated_at=datetime.now(UTC))
            )
            if result.rowcount != 1:
                raise VersionConflict(f"game {game_id} was changed elsewhere; reload it")
            if then is not None:
                then(conn)

    @guarded
    def abandon_idle(self, before: datetime, limit: int = 500) -> list[tuple[str, int]]:
        """Mark ``active`` games unchanged since ``before`` as ``abandoned`` (kept, not deleted).

        Each game is marked by its own update guarded by the version read, like every other
        change: a move stored meanwhile wins and the game stays active, and of several processes
        sweeping at once exactly one marks it. Returns ``(id, new version)`` of the games this
        call marked (at most ``limit``; the next sweep takes the rest)."""
        with self.engine.connect() as conn:
            candidates = conn.execute(
                sa.select(GameRow.id, GameRow.version)
                .where(GameRow.status == "active", GameRow.updated_at < before)
                .order_by(GameRow.updated_at)
                .limit(limit)
            ).all()
        marked = []
        for game_id, version in candidates:
            with self.writing() as conn:
                result = conn.execute(
                    sa.update(GameRow)
                    .where(GameRow.id == game_id, GameRow.version == version, GameRow.status == "active")
                    .values(status="abandoned", version=version + 1, updated_at=datetime.now(UTC))
                )
            if result.rowcount == 1:
                marked.append((str(game_id), int(version) + 1))
        return marked

    @guarded
    def get(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(_GET, {"game_id": game_id}).one_or_none()
            return None if row is None else _stored(row)

    @guarded
    def version(self, game_id: str) -> int | None:
        """The stored version of a game (None: no such game): one indexed read, to learn whether
        a game in memory is still current when other processes change games too."""
        with self.engine.connect() as conn:
            found = conn.execute(_VERSION, {"game_id": game_id}).scalar()
            return None if found is None else int(found)

    @guarded
    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The stored versions of games (those that exist), by id: one indexed read per
        ``VERSIONS_CHUNK`` games. A process without Redis polls the games it holds this way to
        hear of changes made by another process on the same database (broker.py, ``PollingBroker``)."""
        out: dict[str, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(game_ids), VERSIONS_CHUNK):
                chunk = game_ids[start : start + VERSIONS_CHUNK]
                out.update((str(i), int(v)) for i, v in conn.execute(_VERSIONS, {"ids": chunk}))
        return out

    @guarded
    def ids(self, status: str | None = None) -> list[str]:
        query = sa.select(GameRow.id).order_by(GameRow.created_at)
        if status is not None:
            query = query.where(GameRow.status == status)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    @guarded
    def due(self, now: float, limit: int = 100) -> list[str]:
        """Active games whose running clock's flag has fallen by ``now`` (earliest first; one
        range scan of the ``deadline`` index)."""
        query = (
            sa.select(GameRow.id)
            .where(GameRow.deadline <= now, GameRow.status == "active")
            .order_by(GameRow.deadline)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    @guarded
    def summaries(
        self, limit: int = 50, *, public_only: bool = True, status: str | None = None
    ) -> list[dict[str, Any]]:
        """The newest games first (only those their creator listed in the lobby, by default; only
        those of ``status`` if given)."""
        query = (
            sa.select(
                GameRow.id,
                GameRow.game,
                GameRow.options,
                GameRow.seats,
                GameRow.ply,
                GameRow.status,
                GameRow.created_at,
                GameRow.updated_at,
            )
            .order_by(GameRow.updated_at.desc())
            .limit(limit)
        )
        if public_only:
            query = query.where(GameRow.public.is_(True))
        if status is not None:
            query = query.where(GameRow.status == status)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]
