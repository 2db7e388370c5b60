from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from palaestra.core import registry
from palaestra.server.app import create_app


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the core's test game ``nim`` (tests/core/nim.py) for the duration of a test."""
    monkeypatch.setitem(registry._GAMES, "nim", "tests.core.nim:NimGame")
    yield


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'palaestra.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        yield c
