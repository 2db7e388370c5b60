"""A throwaway PostgreSQL server for the tests, started from Debian's ``postgresql`` binaries.

Each pytest worker starts its own cluster in a temporary folder (a Unix socket there, no TCP
port); each test gets a fresh database in it. As root the server runs as the ``postgres`` user
(``initdb`` refuses root), as anybody else as that user. Without PostgreSQL installed the tests that
need it fail with a message saying what to install: they are not skipped.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

INSTALL_HINT = "the PostgreSQL tests need Debian's PostgreSQL server: apt-get install postgresql"


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """``start()`` a cluster, ``new_database()`` for each test, ``stop()`` at the end."""

    def __init__(self) -> None:
        bindir = _bindir()
        if bindir is None:
            raise RuntimeError(INSTALL_HINT)
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="palaestra-pg-"))
        self.data = self.root / "data"
        self.socket = self.root / "socket"
        self.as_root = os.geteuid() == 0
        self.user = "postgres" if self.as_root else os.environ.get("USER", "postgres")

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {done.stdout}{done.stderr}")

    def start(self, *, fsync: bool = False, max_connections: int = 60) -> PostgresServer:
        """Start the cluster (``fsync`` off by default: a test's data need not survive a power cut;
        benchmarks/server_load.py turns it on, as in production)."""
        self.socket.mkdir()
        if self.as_root:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.socket, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8", "--no-sync")
        options = (
            f"-k {self.socket} -c listen_addresses='' -c fsync={'on' if fsync else 'off'} "
            f"-c max_connections={max_connections}"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        return self

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@/{database}?host={self.socket}"

    def new_database(self) -> str:
        """A new empty database; its SQLAlchemy URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(host=str(self.socket), user=self.user, dbname="postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
