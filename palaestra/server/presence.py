"""Whether another ``palaestra serve`` without Redis serves the same database (issue 31).

Such a process is an easy mistake (a second ``serve`` in another terminal, a restart that
overlaps). Both stay correct (each polls the versions of the games it holds: broker.py,
``PollingBroker``), but a change made through one reaches the other's websockets only by that
poll, and each plays the AI of the games it was asked to move: the operator should run them with
``--redis-url``. So each such process holds a lock for as long as it runs, and one that finds the
lock taken logs a warning naming ``--redis-url``.

No table holds the lock (a lease row would need a migration, and a heartbeat to expire it): the
lock lives as long as the process, released by the operating system or the database when it dies.

- PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``, local to the database) on a
  connection of its own, kept open while the process runs.
- SQLite: ``flock`` on a file beside the database (``NAME.serve-lock``); a lock belongs to the
  open file, so two apps in one process exclude each other too. Elsewhere (no ``fcntl``, an
  in-memory database): no lock, no warning.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

log = logging.getLogger("palaestra.server")

#: the advisory lock of the processes without Redis ("palaestra serve" cut to 63 bits; any constant
#: other than ``db.MIGRATION_LOCK``)
SERVE_LOCK = 0x7061_6C61_6573_7365

WARNING = (
    "another `palaestra serve` without --redis-url is serving this database ({where}). Both stay "
    "correct (each reads the stored version of a game it holds every {every:g} s and on every refused "
    "request), but a change made through one reaches the other's websockets only then, and each "
    "process plays the AI moves of its own requests. To run several processes on one database, "
    "give each --redis-url and start `palaestra worker` (docs/deploy.md)."
)


class ServeLock:
    """The lock of one process without Redis on its database; ``alone`` says whether it got it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.alone = True
        self._file: Any = None
        self._connection: sa.engine.Connection | None = None
        self._own_engine: Engine | None = None

    def acquire(self) -> bool:
        """Take the lock if free; False if another live process holds it (never raises: without
        a lock this process only cannot warn)."""
        try:
            if self.engine.dialect.name == "postgresql":
                self.alone = self._advisory()
            elif self.engine.dialect.name == "sqlite":
                self.alone = self._flock()
        except Exception as err:  # a database that refuses advisory locks: no warning, no harm
            log.info("cannot tell whether another process serves this database: %s", err)
        return self.alone

    def _advisory(self) -> bool:
        # a connection of its own, outside the pool (whose connections are recycled and shared)
        self._own_engine = sa.create_engine(self.engine.url, poolclass=sa.pool.NullPool)
        self._connection = self._own_engine.connect()
        got = bool(
            self._connection.execute(sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": SERVE_LOCK}).scalar()
        )
        self._connection.commit()  # the lock is the session's: it outlives the transaction
        if not got:
            self._close_connection()
        return got

    def _flock(self) -> bool:
        try:
            import fcntl
        except ImportError:  # not on this system
            return True
        database = self.engine.url.database
        if not database or database == ":memory:" or database.startswith("file:"):
            return True
        path = Path(f"{os.path.abspath(database)}.serve-lock")
        handle = path.open("a+b")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._file = handle
        return True

    def where(self) -> str:
        if self.engine.dialect.name == "sqlite":
            return f"{self.engine.url.database}.serve-lock is locked"
        return "its advisory lock is held"

    def _close_connection(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None
        if self._own_engine is not None:
            self._own_engine.dispose()
            self._own_engine = None

    def release(self) -> None:
        self._close_connection()  # closing the session releases its advisory lock
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()  # closing the file releases its flock
            self._file = None
