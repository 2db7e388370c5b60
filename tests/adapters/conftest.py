"""Shared set-up of the adapter tests: the test game ``race`` (tests/adapters/tinygame.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from palaestra.core import registry


@pytest.fixture(autouse=True)
def race_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the test game ``race`` with Palaestra's registry for the duration of a test."""
    monkeypatch.setitem(registry._GAMES, "race", "tests.adapters.tinygame:INFO")
    yield
