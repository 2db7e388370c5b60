"""The `palaestra` command, driven on the test game ``nim`` through the core protocol only."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from palaestra.cli import app
from palaestra.core.record import Record

runner = CliRunner()


def test_help_on_every_command() -> None:
    for command in ("play", "replay", "score", "perft", "match", "serve", "games"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, result.output
        assert "Usage" in result.output


def test_hot_seat_game_with_a_bad_entry_then_a_win(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["play", "nim", "--option", "stones=3", "--record", str(path), "--seed", "1"],
        input="take 5\nmoves\ntake 2\ntake 1\n",
    )
    assert result.exit_code == 0, result.output
    assert "take 1 or 2" in result.output  # the bad entry was explained, then asked again
    assert "take 1  take 2" in result.output  # `moves`
    assert "player 1 wins" in result.output
    rec = Record.load(path)
    assert [m.move for m in rec.moves] == ["take 2", "take 1"]
    assert rec.result is not None and rec.result["returns"] == [-1.0, 1.0]


def test_quit_saves_and_resume_continues(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    first = runner.invoke(
        app, ["play", "nim", "-o", "stones=4", "--record", str(path)], input="take 1\nquit\n"
    )
    assert first.exit_code == 0, first.output
    assert "--resume" in first.output
    assert [m.move for m in Record.load(path).moves] == ["take 1"]
    second = runner.invoke(app, ["play", "nim", "--resume", str(path)], input="take 1\ntake 2\n")
    assert second.exit_code == 0, second.output
    assert "1 move replayed" in second.output and "player 0 wins" in second.output
    assert [m.move for m in Record.load(path).moves] == ["take 1", "take 1", "take 2"]


def test_end_of_input_saves_the_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "nim", "--record", str(path)], input="take 2\n")
    assert result.exit_code == 0
    assert [m.move for m in Record.load(path).moves] == ["take 2"]


def test_play_against_random_with_chance(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(
        app,
        [
            "play",
            "nim",
            "-v",
            "coin",
            "-o",
            "stones=5",
            "--vs",
            "random",
            "--record",
            str(path),
            "--seed",
            "4",
        ],
        input="take 1\n" * 5,
    )
    assert result.exit_code == 0, result.output
    rec = Record.load(path)
    assert rec.moves[0].player == -1 and rec.moves[0].move.startswith("first ")
    assert rec.players == ["you", "random"]
    assert rec.result is not None
    assert rec.replay().is_terminal()


def test_unknown_variant_and_game_are_clear_errors() -> None:
    result = runner.invoke(app, ["play", "nim", "--variant", "loom"])
    assert result.exit_code == 1 and "nim has no variant 'loom' (variants: coin)" in result.output
    result = runner.invoke(app, ["perft", "chess", "--depth", "1"])
    assert result.exit_code == 1 and "unknown game 'chess'" in result.output


def _finished_record(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    runner.invoke(app, ["play", "nim", "-o", "stones=3", "--record", str(path)], input="take 1\ntake 2\n")
    return path


def test_replay_prints_result_and_names_a_bad_move(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "2 moves replayed" in result.output and "result: player 1 wins" in result.output
    doc = json.loads(path.read_text())
    doc["moves"][1]["move"] = "take 9"
    path.write_text(json.dumps(doc))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "move 2 ('take 9') does not replay" in result.output


def test_score_of_a_record_and_of_a_position(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {"scores": [-1.0, 1.0]}
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"game": "nim", "pile": -2}))
    result = runner.invoke(app, ["score", str(pos)])
    assert result.exit_code == 1 and "'pile' is a whole number" in result.output


def test_perft_and_divide(tmp_path: Path) -> None:
    result = runner.invoke(app, ["perft", "nim", "--depth", "3", "-o", "stones=4"])
    assert result.exit_code == 0 and result.output.strip() == "5"
    result = runner.invoke(app, ["perft", "nim", "--depth", "3", "-o", "stones=4", "--divide"])
    assert "take 1: 3" in result.output and "take 2: 2" in result.output
    assert "total: 5" in result.output
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"game": "nim", "pile": 2}))
    result = runner.invoke(app, ["perft", "nim", "--depth", "2", "--position", str(pos)])
    assert result.output.strip() == "2"


def test_board_flag_plays_on_another_board_file(tmp_path: Path) -> None:
    import palaestra.games.athos as athos_pkg

    shipped = Path(athos_pkg.__file__).parent / "board.json"
    copy = tmp_path / "my-board.json"
    doc = json.loads(shipped.read_text())
    copy.write_text(json.dumps(doc))
    default = runner.invoke(app, ["perft", "athos", "--depth", "1"])
    other = runner.invoke(app, ["perft", "athos", "--depth", "1", "--board", str(copy)])
    assert default.exit_code == 0 and other.exit_code == 0, other.output
    assert other.output == default.output  # the same board, read from the given file
    # a broken board: one of the summit's fields removed from the field list
    doc["fields"] = [f for f in doc["fields"] if f"{chr(ord('a') + f['col'])}{f['row']}" != doc["summit"][0]]
    bad = tmp_path / "bad-board.json"
    bad.write_text(json.dumps(doc))
    broken = runner.invoke(app, ["perft", "athos", "--depth", "1", "--board", str(bad)])
    assert broken.exit_code == 1
    assert "bad-board.json" in broken.output and "summit" in broken.output
    missing = runner.invoke(app, ["play", "athos", "--board", str(tmp_path / "none.json")], input="quit\n")
    assert missing.exit_code == 1 and "cannot be read" in missing.output


def test_board_flag_is_refused_by_a_game_with_one_board() -> None:
    result = runner.invoke(app, ["perft", "nim", "--depth", "1", "--board", "x.json"])
    assert result.exit_code == 1
    assert "takes no --board" in result.output


def test_match_reads_agent_specs_with_several_parameters_and_shares_seats() -> None:
    # "greedy:epsilon=0.5,noise=0.01" is one spec; two agents share the three seats in turn
    result = runner.invoke(
        app,
        [
            "match",
            "archimedes",
            "--players",
            "3",
            "--agents",
            "greedy:epsilon=0.5,noise=0.01,random",
            "-n",
            "3",
            "--seed",
            "1",
            "-o",
            "move_limit=30",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["agents"] == ["greedy:epsilon=0.5,noise=0.01", "random"]
    assert doc["options"]["players"] == 3
    assert sum(s["games"] for s in doc["stats"]) == 9  # 3 games x 3 seats
    too_many = runner.invoke(app, ["match", "archimedes", "--agents", "random,random,random,random"])
    assert too_many.exit_code == 1 and "error:" in too_many.output


def test_games_and_play_help_speak_to_players() -> None:
    """Issue 30, finding 16: `palaestra games` showed ruling IDs, "RULINGS.md", a 600-character
    set-up line; `play --help` named agents (random, greedy, mcts) where the web offers levels."""
    listed = runner.invoke(app, ["games"], env={"COLUMNS": "80"})
    assert listed.exit_code == 0, listed.output
    out = listed.output
    assert not re.search(r"\b[A-Z]{3}-[A-Z]+\d", out), out
    assert "RULINGS" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Who begins" in out and "24 choices" in out
    helped = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "80"})
    text = " ".join(helped.output.split())
    assert "--vs LEVEL" in text and "beginner, casual, strong or expert" in text
    assert "greedy" not in text and "mcts" not in text
