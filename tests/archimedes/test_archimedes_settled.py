"""Settled results: positions where no cube can arrive any more (ARC-M3, ARC-M5), so that the
ranking by cubes home (ARC-M6, the move limit) is certain before the game ends; adjudicated by
records, the arena and the web app (``State.settled_result``)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import palaestra
from palaestra.cli import app
from palaestra.core.errors import RecordError
from palaestra.core.outcome import Termination
from palaestra.core.record import Record
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState
from tests.archimedes.settled_game import MOVES, SETTLED_AFTER


def position(cubes: list[list[str]], **doc: Any) -> ArchimedesState:
    g = palaestra.load_game("archimedes", players=len(cubes))
    assert isinstance(g, ArchimedesGame)
    return g.state_from_position({"game": "archimedes", "cubes": cubes, **doc})


def test_each_player_cut_off_from_its_goal_cells_settles_the_game() -> None:
    # ARC-M3/ARC-M5: player 2's h4 is hemmed in between player 1's arrived h2 and h6 and takes
    # player 1's last goal cell; player 2's last goal cell a6 lies between its arrived a4 and a8:
    # its rim neighbours a5 and a7 touch them, so no cube can ever enter it
    s = position([["h2", "f4", "h8", "h6"], ["a4", "h4", "a8", "a2"]])
    assert s.can_arrive() == [False, False]
    assert s.settled_result() == (
        [0.0, 0.0],
        "draw (settled: no cube can reach a goal cell any more; cubes home 3-3)",
    )
    assert s.dead_position()  # settled is dead, and more: nothing can change the ranking
    # the rules play on: player 1's f4 still moves about (player 2 only passes)
    assert not s.is_terminal() and s.legal_actions() != [s.game.pass_action]


def test_a_cube_that_can_still_reach_an_open_goal_cell_keeps_the_game_open() -> None:
    # player 2 has only a4 and a8 home: a3 touches a4, but a1 is free, so its cube on d5 may
    # yet arrive on a2 (nobody can win: its h4 is hemmed in; the ranking can still change)
    s = position([["h2", "f4", "h8", "h6"], ["a4", "h4", "a8", "d5"]])
    assert s.can_arrive() == [False, True]
    assert s.dead_position() and s.settled_result() is None
    start = palaestra.load_game("archimedes").new_initial_state()
    assert start.can_arrive() == [True, True] and start.settled_result() is None


def test_three_players_each_cut_off() -> None:
    # each player's fourth cube is hemmed in on another player's last goal cell (ARC-S2 sides):
    # player 1's b11 between player 3's a9 and c13, player 2's h4 between player 1's h2 and h6,
    # player 3's b1 between player 2's a1 and c1
    cubes = [["h2", "h6", "h8", "b11"], ["a1", "c1", "d1", "h4"], ["a9", "c13", "d15", "b1"]]
    s = position(cubes)
    assert s.can_arrive() == [False, False, False]
    settled = s.settled_result()
    assert settled is not None and settled[0] == [0.0, 0.0, 0.0] and "cubes home 3-3-3" in settled[1]
    cubes[1][2] = "e5"  # player 2's third cube not home: it can still reach d1
    open_ = position(cubes)
    assert open_.can_arrive() == [False, True, False] and open_.settled_result() is None


def test_a_finished_game_has_no_settled_result() -> None:
    s = position([["h2", "h4", "h6", "g9"], ["a2", "a4", "a6", "b8"]])
    s.apply_action(s.string_to_action("g9-h8"))  # ARC-E1: four cubes home
    assert s.is_terminal() and s.settled_result() is None


def test_real_game_settles_at_the_move_it_did_and_stays_settled() -> None:
    rec = Record.start(palaestra.load_game("archimedes"), ["strong", "casual"], 3002)
    state = rec.initial_state()
    for i, move in enumerate(MOVES, start=1):
        assert rec.result is None, f"settled early, at move {i - 1}"
        rec.apply(state, state.string_to_action(move))
    assert len(rec.moves) == SETTLED_AFTER
    assert rec.over and rec.result is not None
    assert rec.outcome is not None and rec.outcome.termination is Termination.ADJUDICATION
    assert rec.result["termination"] == "adjudication" and rec.result["returns"] == [0.0, 0.0]
    assert rec.result["scores"] == [3.0, 3.0] and "cubes home 3-3" in rec.result["text"]
    assert not state.is_terminal()
    # played on (as the rules allow), the result stays what was settled, up to the move limit
    rng = random.Random(5)
    while not state.is_terminal():
        assert state.settled_result() is not None
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns() == [0.0, 0.0] and state.arrived() == [3, 3]
    assert state.end_reason == "limit"


def test_settled_records_replay_and_are_checked(tmp_path: Path) -> None:
    g = palaestra.load_game("archimedes")
    rec = Record.start(g, ["a", "b"], 1)
    state = rec.initial_state()
    for move in MOVES:
        rec.apply(state, state.string_to_action(move))
    path = tmp_path / "settled.json"
    rec.save(path)
    loaded = Record.load(path)
    replayed = loaded.replay()
    loaded.check_result(replayed)  # the settled position gives the stated returns
    assert loaded.result == rec.result
    # the CLI shows the adjudicated result; `play --resume` knows the game is over
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert "47 moves replayed" in out.output and "result: draw (settled" in out.output
    out = CliRunner().invoke(app, ["play", "archimedes", "--resume", str(path)], input="quit\n")
    assert out.exit_code == 0, out.output
    assert "game over: draw (settled" in out.output
    # a record that says so wrongly is refused
    wrong = Record.load(path)
    assert wrong.outcome is not None
    wrong.outcome = dataclasses.replace(wrong.outcome, returns=(1.0, -1.0))
    with pytest.raises(RecordError, match=r"states returns \[1.0, -1.0\], the settled position gives"):
        wrong.check_result(wrong.replay())
    early = Record.load(path)
    early.moves = early.moves[:-1]  # before g10-h8 player 1 could still arrive on h8
    with pytest.raises(RecordError, match="settled result, but after its moves the game is open"):
        early.check_result(early.replay())


def test_terminal_play_ends_a_settled_game(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    moves = "\n".join(MOVES) + "\n"
    out = CliRunner().invoke(app, ["play", "archimedes", "--record", str(path), "--seed", "1"], input=moves)
    assert out.exit_code == 0, out.output
    assert "game over: draw (settled: no cube can reach a goal cell any more; cubes home 3-3)" in out.output
    rec = Record.load(path)
    assert (
        len(rec.moves) == SETTLED_AFTER
        and rec.outcome is not None
        and rec.outcome.termination is Termination.ADJUDICATION
    )


def test_adjudication_can_be_left_out() -> None:
    rec = Record.start(palaestra.load_game("archimedes"), ["a", "b"], 1)
    state = rec.initial_state()
    for move in MOVES:
        rec.apply(state, state.string_to_action(move), adjudicate=False)
    assert rec.result is None and state.settled_result() is not None
    rec.finish_if_over(state)  # without adjudicate: still open
    assert rec.result is None
    rec.finish_if_over(state, adjudicate=True)
    assert rec.outcome is not None and rec.outcome.termination is Termination.ADJUDICATION


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_settled_is_sound_in_random_games(players: int) -> None:
    # random play: a player found unable to arrive (can_arrive False) stays so and never brings
    # another cube home; once settled, the game stays settled with the same returns and ends
    # with them (ARC-M6 or the move limit, both ranked by cubes home)
    g = palaestra.load_game("archimedes", players=players, move_limit=400 if players == 2 else 300)
    rng = random.Random(45 if players == 2 else 43)
    cut_games = settled_games = 0
    for seed in range(30 if players == 2 else 16):
        s = g.new_initial_state(seed)
        assert isinstance(s, ArchimedesState)
        cut = [False] * players
        home_when_cut = [0] * players
        settled: list[float] | None = None
        while not s.is_terminal():
            can = s.can_arrive()
            home = s.arrived()
            for p in range(players):
                assert not (cut[p] and can[p]), "a player cut off from its goal cells got back"
                if cut[p]:
                    assert home[p] == home_when_cut[p], "a player cut off brought a cube home"
                elif not can[p]:
                    cut[p], home_when_cut[p] = True, home[p]
            result = s.settled_result()
            assert (result is not None) == (not any(can))
            if settled is not None:
                assert result is not None and result[0] == settled
            elif result is not None:
                settled = result[0]
            s.apply_action(rng.choice(s.legal_actions()))
        cut_games += any(cut)
        if settled is not None:
            settled_games += 1
            assert s.returns() == settled and s.end_reason != "home"
    assert cut_games > 0
    assert settled_games > 0 or players == 3  # random 3-player games seldom settle


@pytest.mark.slow
@given(st.integers(0, 2**100 - 1), st.integers(0, 2**100 - 1), st.integers(0, 2**100 - 1), st.integers(2, 3))
@settings(max_examples=200, deadline=None)
def test_reaches_stops_early_but_agrees_with_the_whole_flood(
    seeds: int, allowed: int, target: int, players: int
) -> None:
    # ARC-M5: can_arrive asks only whether the region of a player's cubes holds a goal cell
    from palaestra.games.archimedes.heuristic import flood, reaches

    g = palaestra.load_game("archimedes", players=players)
    assert isinstance(g, ArchimedesGame)
    board = g.board
    allowed &= board.all_mask
    seeds &= allowed
    target &= board.all_mask
    assert reaches(seeds, allowed, board.neighbours, target) == bool(
        flood(seeds, allowed, board.neighbours) & target
    )
