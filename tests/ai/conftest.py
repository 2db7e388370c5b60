from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from palaestra.ai.base import AGENTS, Agent
from palaestra.core import registry
from palaestra.core.game import State
from tests.ai.games import GAMES


class ConstAgent(Agent):
    """Plays ``value`` when legal, else the first legal action (scripted arena tests)."""

    name = "const"

    def __init__(self, seed: int | None = None, value: int = 0) -> None:
        super().__init__(seed)
        self.value = value

    def select_action(self, state: State) -> int:
        actions = state.legal_actions()
        return self.value if self.value in actions else actions[0]


class BoomAgent(Agent):
    """Raises on its second move."""

    name = "boom"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.moves = 0

    def select_action(self, state: State) -> int:
        self.moves += 1
        if self.moves >= 2:
            raise RuntimeError("boom")
        return state.legal_actions()[0]


class CheatAgent(Agent):
    """Plays an action that is never legal."""

    name = "cheat"

    def select_action(self, state: State) -> int:
        return 999


class SleepyAgent(Agent):
    """Takes ``pause`` seconds per move."""

    name = "sleepy"

    def __init__(self, seed: int | None = None, pause: float = 0.2) -> None:
        super().__init__(seed)
        self.pause = pause

    def select_action(self, state: State) -> int:
        time.sleep(self.pause)
        return state.legal_actions()[0]


@pytest.fixture(autouse=True)
def test_games_and_agents(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the small games of tests/ai/games.py, the toy game Ladder (tests/fourth/ladder/)
    and the scripted agents for one test."""
    for name, cls in GAMES.items():
        monkeypatch.setitem(registry._GAMES, name, f"tests.ai.games:{cls.__name__}")
    monkeypatch.setitem(registry._GAMES, "ladder", "palaestra_ladder.info:INFO")
    for agent in (ConstAgent, BoomAgent, CheatAgent, SleepyAgent):
        monkeypatch.setitem(AGENTS, agent.name, agent)
    yield
