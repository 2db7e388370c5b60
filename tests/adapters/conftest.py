"""Shared set-up of the adapter tests: the toy game ``ladder`` (its package, tests/fourth/ladder/)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from palaestra.core import registry


@pytest.fixture(autouse=True)
def ladder_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the toy game ``ladder`` with Palaestra's registry for the duration of a test."""
    monkeypatch.setitem(registry._GAMES, "ladder", "palaestra_ladder.info:INFO")
    yield
