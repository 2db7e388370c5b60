"""One way to finish a game (issue 32): the same game played through every path ends with the
same ``Outcome``: how it ended, the returns, the scores and the sentence.

The paths: a record (``Record.apply``, which ``palaestra play --resume`` and the web app's stored
games replay through), the core driver with scripted seats, the arena (``run_match``, whose games
a Ray task plays with the same function), ``palaestra play`` in hot seat, the web app (the API,
hot seat) and PettingZoo. Each of them used to decide the end on its own: PettingZoo, for one,
played a settled game on to its move limit where the others adjudicated it. Every path now goes
through ``palaestra.core.finish.advance``; this test fails if one of them decides differently."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from palaestra.adapters.pettingzoo import env
from palaestra.ai.arena import run_match
from palaestra.ai.base import AGENTS, Agent, register_agent
from palaestra.cli import app
from palaestra.core.chance import ChanceSource
from palaestra.core.driver import Driver
from palaestra.core.game import State
from palaestra.core.outcome import Outcome, Termination
from palaestra.core.record import Record
from palaestra.core.registry import load_game
from palaestra.server.app import create_app
from tests.archimedes.settled_game import MOVES, SETTLED_AFTER

pytestmark = pytest.mark.slow  # six ways of playing three games: some 20 s

#: (game, options, seed, the players' moves, how it must end)
GAMES: list[tuple[str, dict[str, Any], int, list[str], Termination]] = [
    # settled after its 47th action: adjudicated (a draw the rules would reach at the move limit)
    ("archimedes", {}, 1, MOVES[:SETTLED_AFTER], Termination.ADJUDICATION),
    # the move limit of 12 plies: the game's own software end
    ("archimedes", {"move_limit": 12}, 1, MOVES[:12], Termination.MOVE_LIMIT),
    # a coin toss (chance), then the last stone taken: the rules
    ("nim", {"stones": 5, "coin": True}, 3, ["take 2", "take 1", "take 2"], Termination.RULES),
]

SCRIPT: list[str] = []


class ScriptAgent(Agent):
    """Plays the next of ``SCRIPT``'s moves (those of every seat, in order)."""

    name = "script"

    def select_action(self, state: State) -> int:
        played = sum(1 for p in state_players(state) if p >= 0)
        return state.string_to_action(SCRIPT[played])


def state_players(state: State) -> list[int]:
    """Who made each action of ``state``'s history (-1: chance), by replaying it."""
    replay = state.game.new_initial_state(state.seed)
    players = []
    for action in state.history:
        players.append(replay.current_player)
        replay.apply_action(action)
    return players


@pytest.fixture
def script_agent() -> Iterator[None]:
    register_agent("script", ScriptAgent)
    yield
    AGENTS.pop("script", None)


def options_args(options: dict[str, Any]) -> list[str]:
    return [arg for k, v in options.items() for arg in ("--option", f"{k}={str(v).lower()}")]


def by_record(name: str, options: dict[str, Any], seed: int, moves: list[str]) -> Outcome | None:
    record = Record.start(load_game(name, **options), ["a", "b"], seed)
    state = record.initial_state()
    chance = ChanceSource.from_seed(seed)
    for text in moves:
        while state.is_chance_node():
            record.apply(state, chance.draw(state))
        record.apply(state, state.string_to_action(text))
    return record.outcome


def by_driver(name: str, options: dict[str, Any], seed: int, moves: list[str]) -> Outcome | None:
    script = iter(moves)
    seat = lambda s: s.string_to_action(next(script))  # noqa: E731
    driver = Driver(
        load_game(name, **options).new_initial_state(seed), ChanceSource.from_seed(seed), {0: seat, 1: seat}
    )
    return driver.run()


def by_arena(
    name: str, options: dict[str, Any], moves: list[str], tmp_path: Path
) -> tuple[Outcome | None, int]:
    SCRIPT[:] = moves
    result = run_match(load_game(name, **options), ["script", "script"], 1, seed=5, record_dir=tmp_path)
    assert result.outcomes[0].failure is None
    record = Record.load(tmp_path / "game-00000.json")
    assert record.outcome is not None and list(record.outcome.returns) == result.outcomes[0].returns
    assert result.outcomes[0].settled == (record.outcome.termination is Termination.ADJUDICATION)
    assert record.seed is not None
    return record.outcome, record.seed


def by_cli(name: str, options: dict[str, Any], seed: int, moves: list[str], path: Path) -> Outcome | None:
    args = ["play", name, *options_args(options), "--seed", str(seed), "--record", str(path)]
    out = CliRunner().invoke(app, args, input="\n".join(moves) + "\n")
    assert out.exit_code == 0, out.output
    return Record.load(path).outcome


def by_web(client: TestClient, name: str, options: dict[str, Any], seed: int, moves: list[str]) -> Outcome:
    seats = [{"kind": "human", "joined": True}] * 2
    r = client.post("/api/games", json={"game": name, "options": options, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    for text in moves:
        view = settled_view(client, gid)
        assert view["status"] == "active", f"the web app ended the game before {text}"
        move = {"token": tokens[view["current_player"]], "ply": view["ply"], "move": text}
        answer = client.post(f"/api/games/{gid}/actions", json=move)
        assert answer.status_code == 200, answer.text
    view = settled_view(client, gid)
    assert view["status"] == "finished"
    return Outcome.from_json(view["result"])


def settled_view(client: TestClient, gid: str) -> dict[str, Any]:
    """The game's view once the server's own moves (the chance draws its runner plays in the
    background) are done: a person to move, or the end."""
    deadline = time.monotonic() + 10
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if view["status"] != "active" or view["current_player"] >= 0 or time.monotonic() > deadline:
            return view
        time.sleep(0.01)


def by_pettingzoo(name: str, options: dict[str, Any], seed: int, moves: list[str]) -> Outcome | None:
    environment = env(game=name, **options)
    environment.reset(seed=seed)
    inner = environment.unwrapped
    for text in moves:
        agent = environment.agent_selection
        assert not environment.terminations[agent], f"PettingZoo ended the game before {text}"
        environment.step(inner.state.string_to_action(text))
    outcome = inner.outcome
    assert outcome is not None and all(environment.terminations.values())
    assert [inner._cumulative_rewards[a] for a in inner.possible_agents] == list(outcome.returns)
    assert {info["termination"] for info in environment.infos.values()} == {outcome.termination.value}
    return outcome


@pytest.mark.parametrize(
    ("name", "options", "seed", "moves", "termination"), GAMES, ids=lambda x: str(x)[:24]
)
def test_every_path_ends_the_same_game_with_the_same_outcome(
    name: str,
    options: dict[str, Any],
    seed: int,
    moves: list[str],
    termination: Termination,
    tmp_path: Path,
    script_agent: None,
) -> None:
    arena, arena_seed = by_arena(name, options, moves, tmp_path / "arena")
    assert arena is not None and arena.termination is termination
    seed = arena_seed  # the arena's game seed: the same draws on every path
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", ai_delay=0.0)) as client:
        outcomes = {
            "record": by_record(name, options, seed, moves),
            "driver": by_driver(name, options, seed, moves),
            "cli": by_cli(name, options, seed, moves, tmp_path / "cli.json"),
            "web": by_web(client, name, options, seed, moves),
            "pettingzoo": by_pettingzoo(name, options, seed, moves),
        }
    for path, outcome in outcomes.items():
        assert outcome == arena, f"{path} ended the game otherwise: {outcome} (the arena: {arena})"
