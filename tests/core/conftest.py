from __future__ import annotations

from collections.abc import Iterator

import pytest

from palaestra.core import registry


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the test game ``nim`` (tests/core/nim.py) for the duration of a test."""
    monkeypatch.setitem(registry._GAMES, "nim", "tests.core.nim:INFO")
    yield
