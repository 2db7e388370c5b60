"""A fourth game costs its own package (issues 19 and 32): Ladder (tests/fourth/ladder/, a game
with chance that ``palaestra/`` knows nothing of) is registered in this process with core's public
``register_game`` and played through the CLI, the web API, the arena and both research adapters.
The same seed draws the same chance outcomes in all of them: the one chance-seeding rule
(palaestra/core/chance.py, issue 19 finding 5). tests/fourth/test_plugin.py installs the same
package as a plug-in (its entry point) into a throwaway environment and plays it there."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from palaestra.ai.arena import run_match
from palaestra.cli import app
from palaestra.core.chance import CHANCE_RULE, ChanceSource, agent_seed
from palaestra.core.driver import ChanceDrawn, Driver, GameOver, MovePlayed, check_draws
from palaestra.core.game import CHANCE
from palaestra.core.outcome import Termination
from palaestra.core.record import Record
from palaestra.core.registry import game_info, game_names, load_game, register_game, unregister_game
from palaestra.server.app import create_app
from palaestra.server.fairness import verify

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(autouse=True)
def ladder() -> Iterator[str]:
    """Ladder registered for the time of a test (its package is on the tests' path, not installed)."""
    name = register_game("palaestra_ladder.info:INFO")
    yield name
    unregister_game(name)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", ai_delay=0.0)) as c:
        yield c


def arena_game(tmp_path: Path, seed: int = 11) -> Record:
    """Game 0 of an arena match between two random agents, from its record."""
    result = run_match(load_game("ladder"), ["random", "random"], 1, seed=seed, record_dir=tmp_path / "arena")
    assert result.outcomes[0].failure is None and result.outcomes[0].returns is not None
    return Record.load(tmp_path / "arena" / "game-00000.json")


def player_moves(record: Record) -> list[str]:
    return [m.move for m in record.moves if m.player != CHANCE]


def draws(record: Record) -> list[tuple[int, str]]:
    return [(i, m.move) for i, m in enumerate(record.moves) if m.player == CHANCE]


# --- the cost: a package of its own -------------------------------------------------------------
def test_nothing_outside_its_folder_names_the_game(ladder: str) -> None:
    assert ladder == "ladder" and "ladder" in game_names()
    assert game_info("ladder").player_counts == (2, 3)
    for path in (ROOT / "palaestra").rglob("*"):
        if path.is_file() and path.suffix in (".py", ".js", ".json", ".css", ".html", ".toml"):
            assert "ladder" not in path.read_text(encoding="utf-8").lower(), path


# --- the one driver ---------------------------------------------------------------------------------
def test_the_driver_plays_seats_and_chance_and_tells_its_listeners() -> None:
    game = load_game("ladder", players=3)
    record = Record.start(game, seed=4)
    events: list[Any] = []
    driver = Driver(
        game.new_initial_state(4),
        ChanceSource.from_seed(4),
        {p: (lambda s: s.legal_actions()[-1]) for p in range(3)},  # always step 2
        record=record,
    )
    driver.listeners.append(events.append)
    outcome = driver.run()
    assert isinstance(events[-1], GameOver) and events[-1].outcome == outcome
    assert outcome is not None and outcome.termination is Termination.RULES and not events[-1].settled
    assert record.outcome == outcome and list(outcome.returns) == record.to_json()["result"]["returns"]
    played = [e for e in events if isinstance(e, MovePlayed)]
    drawn = [e for e in events if isinstance(e, ChanceDrawn)]
    assert [e.text for e in played] == ["step 2"] * len(played)
    assert [e.ply for e in events[:-1]] == list(range(len(record.moves)))
    # each draw is the rule's: the key and the ply, nothing else
    assert all(e.action == ChanceSource("seed:4").draw(record.replay(e.ply)) for e in drawn)
    assert record.chance_rule == CHANCE_RULE and Record.from_json(record.to_json()) == record


def test_a_seat_that_stops_leaves_the_game_open() -> None:
    game = load_game("ladder")
    driver = Driver(game.new_initial_state(1), ChanceSource.from_seed(1), {0: lambda s: 1, 1: lambda s: None})
    assert driver.run() is None and not driver.over
    assert driver.state.current_player == 1 and len(driver.state.history) == 2  # step, bonus


# --- the same seed, the same draws everywhere --------------------------------------------------
def test_the_same_seed_draws_the_same_outcomes_in_the_arena_the_cli_the_web_app_and_pettingzoo(
    tmp_path: Path, client: TestClient
) -> None:
    arena = arena_game(tmp_path)
    seed = arena.seed
    assert seed is not None and arena.chance_rule == CHANCE_RULE and draws(arena)
    moves = player_moves(arena)

    # the terminal: hot seat, the arena's moves typed in
    path = tmp_path / "cli.json"
    out = runner.invoke(
        app, ["play", "ladder", "--seed", str(seed), "--record", str(path)], input="\n".join(moves) + "\n"
    )
    assert out.exit_code == 0, out.output
    cli = Record.load(path)
    assert cli.moves and [m.move for m in cli.moves] == [m.move for m in arena.moves]
    assert cli.result == arena.result and cli.chance_rule == CHANCE_RULE

    # the web app: hot seat with the seed, the same moves through the API; chance is the server's
    web = play_on_the_web(client, seed, moves)
    assert [m["move"] for m in web["moves"]] == [m.move for m in arena.moves]
    assert web["chance_rule"] == CHANCE_RULE and web["chance"]["secret"] == f"seed:{seed}"
    assert verify(Record.from_json(web), web["chance"]).fair  # the fairness proof still holds

    # PettingZoo: reset(seed) and the same actions
    from palaestra.adapters.pettingzoo import env

    environment = env(game="ladder")
    environment.reset(seed=seed)
    state = environment.unwrapped.state
    for text in moves:
        environment.step(state.string_to_action(text))
        state = environment.unwrapped.state
    assert state.history == arena.replay().history


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "strong"])
def test_the_same_seed_plays_the_same_game_with_agents_in_the_arena_the_cli_and_the_web_app(
    tmp_path: Path, client: TestClient, level: str
) -> None:
    """The agents too: the agent of seat s is seeded by the one rule, ``agent_seed(key, s)``, in
    the arena, ``palaestra play --vs`` and the web app's AI seats (until issue 19 the seeds were
    derived three ways). A person in seat 0 types the arena's seat-0 moves; the agents of seats
    1 and 2 then choose what the arena's agents chose, and the draws are the same."""
    game = load_game("ladder", players=3, target=30)
    result = run_match(game, [level, level], 1, seed=41, record_dir=tmp_path / "arena")
    assert result.outcomes[0].failure is None
    arena = Record.load(tmp_path / "arena" / "game-00000.json")
    seed = arena.seed
    assert seed is not None and draws(arena)
    ours = [m.move for m in arena.moves if m.player == 0]
    theirs = [m.move for m in arena.moves if m.player in (1, 2)]
    assert len(set(theirs)) > 1  # the agents chose: the moves depend on their seeds

    path = tmp_path / "cli.json"
    game_args = ["ladder", "--players", "3", "--option", "target=30", "--seed", str(seed)]
    args = ["play", *game_args, "--vs", level, "--seat", "0", "--record", str(path)]
    out = runner.invoke(app, args, input="\n".join(ours) + "\n")
    assert out.exit_code == 0, out.output
    cli = Record.load(path)
    assert [(m.player, m.move) for m in cli.moves] == [(m.player, m.move) for m in arena.moves]
    assert cli.result == arena.result

    seats = [{"kind": "human", "joined": True}] + [{"kind": "ai", "level": level}] * 2
    body = {"game": "ladder", "options": {"players": 3, "target": 30}, "seats": seats, "seed": seed}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    for text in ours:
        view = wait_for(client, gid, lambda v: v["current_player"] == 0 or v["status"] == "finished")
        assert view["status"] == "active", f"the game ended before {text}"
        move = {"token": token, "ply": view["ply"], "move": text}
        answer = client.post(f"/api/games/{gid}/actions", json=move)
        assert answer.status_code == 200, answer.text
    wait_for(client, gid, lambda v: v["status"] == "finished")
    web = client.get(f"/api/games/{gid}/record").json()
    assert [(m["player"], m["move"]) for m in web["moves"]] == [(m.player, m.move) for m in arena.moves]
    assert web["result"]["returns"] == arena.result["returns"]  # type: ignore[index]

    # and the rule is what the agents were seeded with: seats and keys apart
    key = ChanceSource.from_seed(seed).key
    assert len({agent_seed(key, s) for s in range(3)}) == 3
    other = ChanceSource.from_seed(seed + 1)
    assert agent_seed(key, 1) != agent_seed(other.key, 1) == other.agent_seed(1)


def play_on_the_web(client: TestClient, seed: int, moves: list[str]) -> dict[str, Any]:
    seats = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]
    r = client.post("/api/games", json={"game": "ladder", "options": {}, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    for text in moves:
        view = wait_for(client, gid, lambda v: v["current_player"] >= 0)
        player = view["current_player"]
        body = {"token": tokens[player], "ply": view["ply"], "move": text}
        answer = client.post(f"/api/games/{gid}/actions", json=body)
        assert answer.status_code == 200, answer.text
    wait_for(client, gid, lambda v: v["status"] == "finished")
    record: dict[str, Any] = client.get(f"/api/games/{gid}/record").json()
    return record


def wait_for(client: TestClient, gid: str, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if check(view):
            return view
        assert time.monotonic() < end, f"gave up waiting; last view: {view}"
        time.sleep(0.01)


# --- everywhere else -------------------------------------------------------------------------------
def test_the_cli_lists_matches_and_replays_it(tmp_path: Path) -> None:
    listed = runner.invoke(app, ["games"])
    assert listed.exit_code == 0 and "ladder — Ladder (2, 3 players)" in listed.output
    out = runner.invoke(
        app,
        [
            "match",
            "ladder",
            "--agents",
            "random,strong",
            "-n",
            "4",
            "--seed",
            "2",
            "--players",
            "3",
            "--json",
            "--record-dir",
            str(tmp_path / "m"),
        ],
    )
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["n"] == 4 and sum(s["games"] for s in result["stats"]) == 12 and result["failures"] == []
    replayed = runner.invoke(app, ["replay", str(tmp_path / "m" / "game-00003.json")])
    assert replayed.exit_code == 0, replayed.output
    assert "ladder of 10:" in replayed.output and "result:" in replayed.output


def test_the_web_app_offers_it_and_its_ai_plays(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    ladder = next(g for g in meta["games"] if g["name"] == "ladder")
    assert {o["name"] for o in ladder["options"]} == {"players", "target", "calm", "label"}
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "strong"}]
    r = client.post("/api/games", json={"game": "ladder", "options": {"target": 6}, "seats": seats})
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    while (view := wait_for(client, gid, lambda v: v["status"] == "finished" or v["current_player"] == 0))[
        "status"
    ] == "active":
        answer = client.post(
            f"/api/games/{gid}/actions", json={"token": token, "ply": view["ply"], "move": "step 1"}
        )
        assert answer.status_code == 200, answer.text
    record = Record.from_json(client.get(f"/api/games/{gid}/record").json())
    state = record.replay()
    record.check_result(state)
    assert state.is_terminal() and any(m.player == 1 for m in record.moves)  # the AI moved


def test_the_arena_is_reproducible_and_in_one_process_and_in_workers(tmp_path: Path) -> None:
    game = load_game("ladder", players=3)
    first = run_match(game, ["random", "greedy", "mcts:iterations=10"], 6, seed=5)
    again = run_match(game, ["random", "greedy", "mcts:iterations=10"], 6, seed=5, workers=2)
    assert first.to_json() == again.to_json()
    assert [s.games for s in first.stats()] == [6, 6, 6]


def test_openspiel_plays_it() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from palaestra.adapters import openspiel as adapter

    game = adapter.load("ladder", players=3, target=5)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    import numpy as np

    rng = np.random.default_rng(3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert sorted(returns) == [-0.5, -0.5, 1.0]  # one winner of three (returns_from_ranks)
    assert returns == state.palaestra_state.returns() and abs(sum(returns)) < 1e-9


def test_pettingzoo_passes_its_api_test() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from palaestra.adapters.pettingzoo import env

    api_test(env(game="ladder", players=3), num_cycles=60)


# --- records and the rule ----------------------------------------------------------------------------
def test_replay_says_whether_the_draws_are_the_seeds(tmp_path: Path) -> None:
    arena = arena_game(tmp_path)
    path = tmp_path / "arena" / "game-00000.json"
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert f"draws: all {len(draws(arena))} are those of seed {arena.seed} by {CHANCE_RULE}" in out.output
    game = load_game("ladder", target=30)
    record = Record.start(game, seed=8)
    state = record.initial_state()
    record.apply(state, 1)
    ruled = ChanceSource.from_seed(8).draw(state)
    other = next(b for b in (0, 1, 2) if b != ruled)  # another legal draw: the record replays
    record.apply(state, other)
    record.save(path)
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert (
        "draws: not those of seed 8" in out.output and f"was bonus {other}, but the rule gives" in out.output
    )


def test_an_interrupted_game_draws_what_an_uninterrupted_one_draws(tmp_path: Path) -> None:
    """The draws depend on the seed and the ply only: quitting and resuming changes nothing (until
    issue 19 `play --resume` reseeded its generator with the number of moves)."""
    arena = arena_game(tmp_path, seed=23)
    moves = player_moves(arena)
    path = tmp_path / "g.json"
    first = runner.invoke(
        app, ["play", "ladder", "--seed", str(arena.seed), "--record", str(path)], input=f"{moves[0]}\nquit\n"
    )
    assert first.exit_code == 0 and "--resume" in first.output
    again = runner.invoke(app, ["play", "ladder", "--resume", str(path)], input="\n".join(moves[1:]) + "\n")
    assert again.exit_code == 0, again.output
    assert [m.move for m in Record.load(path).moves] == [m.move for m in arena.moves]


def test_a_record_of_no_named_rule_replays_and_continues_by_the_rule(tmp_path: Path) -> None:
    arena = arena_game(tmp_path, seed=31)
    doc = arena.to_json()
    del doc["chance_rule"]
    cut = next(i for i, m in enumerate(arena.moves) if i > 2 and m.player != CHANCE)
    doc["moves"], doc["result"], doc["ended"] = doc["moves"][:cut], None, None
    old = Record.from_json(doc)
    assert old.chance_rule is None and old.to_json() == doc  # read and written as it was
    assert old.replay().history == arena.replay(cut).history
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    out = runner.invoke(app, ["play", "ladder", "--resume", str(path)], input="step 1\nquit\n")
    assert out.exit_code == 0, out.output
    continued = Record.load(path)
    assert continued.chance_rule == CHANCE_RULE and continued.chance_rule_from == cut
    assert len(continued.moves) > cut and continued.moves[cut].move == "step 1"
    drawn, problem = check_draws(continued, ChanceSource.from_seed(arena.seed), cut)
    assert problem is None and drawn >= 1
