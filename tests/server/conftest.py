from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from palaestra.core import registry
from palaestra.server.app import create_app
from tests.server.postgres import PostgresServer
from tests.server.redis_server import RedisServer
from tests.server.server_process import ServerProcess


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the core's test game ``nim`` (tests/core/nim.py) for the duration of a test."""
    monkeypatch.setitem(registry._GAMES, "nim", "tests.core.nim:INFO")
    yield


@pytest.fixture(autouse=True)
def no_page_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that uses a browser fails on any uncaught page error of its pages (issue 30)."""
    from tests.server.page_errors import ERRORS

    ERRORS.clear()
    yield
    if "browser" in request.fixturenames:
        errors = list(ERRORS)
        ERRORS.clear()
        assert not errors, f"uncaught page errors: {errors}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL cluster per test worker (tests/server/postgres.py)."""
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A fresh throwaway Redis server for one test (tests/server/redis_server.py), on a Unix socket."""
    server = RedisServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every test that takes ``db_url`` (or ``client``) runs on SQLite and on a real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'palaestra.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        yield c


@pytest.fixture(scope="module")
def two_processes(postgres: PostgresServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two `palaestra serve` processes on one new PostgreSQL database and a Redis of their own
    (the lobby, challenges across processes); one pair per test module."""
    db_url = postgres.new_database()
    broker = RedisServer().start()
    a = ServerProcess(db_url, redis_url=broker.url).start()  # migrates the database first
    b = ServerProcess(db_url, redis_url=broker.url).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()
        broker.stop()
