"""Athos through the `palaestra` command (typer's CliRunner): play, replay, score, perft, match.

Covers playing on another board with ``--option board=FILE`` (and ``--board FILE``) end to end,
the variants on the command line (ATH-V1 teams, ATH-V2 handicap, ATH-V3 bare stone, player counts
of ATH-S1) and the errors a player sees for illegal entries.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from palaestra.cli import app
from palaestra.core.record import Record
from palaestra.games.athos import AthosGame
from palaestra.games.athos.board import BOARD_FILE

runner = CliRunner()


def narrow_board(tmp_path: Path) -> Path:
    """The shipped board with start field B touching h1 only (not j1) and row 2 all forest."""
    doc: dict[str, Any] = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    doc["name"] = "narrow B"
    doc["starts"]["B"] = ["h1"]
    for x in doc["fields"]:
        if x["row"] == 2:
            x["terrain"] = "forest"
    path = tmp_path / "narrow.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_option_board_plays_records_replays_and_scores_on_another_board(tmp_path: Path) -> None:
    board = narrow_board(tmp_path)
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "athos", "--option", f"board={board}", "--record", str(record)],
        input="B-j1\nB-h1\nh1-i2\nquit\n",
    )
    assert result.exit_code == 0, result.output
    # on this board B does not touch j1: a clear error, then the legal steps are played
    assert "not neighbours" in result.output
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert doc["options"]["board"] == str(board)
    assert [m["move"] for m in doc["moves"]] == ["B-h1", "h1-i2"]
    replay = runner.invoke(app, ["replay", str(record)])
    assert replay.exit_code == 0, replay.output
    assert "2 moves replayed" in replay.output and "movement points left: 4" in replay.output
    score = runner.invoke(app, ["score", str(record), "--json"])
    assert score.exit_code == 0, score.output
    detail = json.loads(score.output)
    assert detail["scores"] == [0.0, 0.0] and detail["arrived"] == [0, 0]
    # row 2 is forest on this board: i2 is shown with the forest letter and monk 1
    assert "f1" in replay.output


def test_option_board_and_board_flag_change_perft(tmp_path: Path) -> None:
    board = narrow_board(tmp_path)
    default = runner.invoke(app, ["perft", "athos", "--depth", "1", "--divide"])
    other = runner.invoke(app, ["perft", "athos", "--depth", "1", "--divide", "--option", f"board={board}"])
    flag = runner.invoke(app, ["perft", "athos", "--depth", "1", "--divide", "--board", str(board)])
    assert default.exit_code == other.exit_code == flag.exit_code == 0, other.output
    assert "B-j1: 1" in default.output and "B-j1" not in other.output
    assert other.output == flag.output
    # B-h1, B-A, B-C and end-move: four first moves on the narrow board
    assert other.output.strip().endswith("total: 4")


def test_broken_board_file_named_in_the_error(tmp_path: Path) -> None:
    doc = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    doc["terrains"][0] = "swamp"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(app, ["perft", "athos", "--depth", "1", "--option", f"board={bad}"])
    assert result.exit_code == 1
    assert "bad.json" in result.output and "unknown terrain 'meadow'" in result.output
    assert "Traceback" not in result.output


def test_illegal_entries_give_clear_errors(tmp_path: Path) -> None:
    entries = ["place k8", "flip k8", "end-turn", "B-x9", "hello", "B-h1", "h1-i2", "stone k8", "quit"]
    result = runner.invoke(
        app, ["play", "athos", "--record", str(tmp_path / "r.json")], input="\n".join(entries) + "\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    # in plain words, the ruling at hand (issue 21 finding 9)
    refusal = "This move is not allowed here. (place k8: end the movement first (end-move), then place tiles)"
    assert f"{refusal} [ATH-T8]" in out
    assert "flip k8: field k8 has no tile to flip" in out
    assert "end-turn: end the movement first" in out
    assert "'x9' is not a field of this board" in out
    assert "cannot read 'hello'" in out
    assert "stone k8: an Athos stone is used after the movement and before any tile is placed" in out
    assert "Traceback" not in out
    # the view: terrains, monks by player on the start fields, points, the phase
    assert "[B:11]" in out and "[D:222]" in out
    assert "movement points left: 4" in out
    assert "terrain: m meadow, f forest, o olive, h heath, v vine" in out


def test_play_variants_on_the_command_line(tmp_path: Path) -> None:
    # ATH-V1 needs 4 players: a clear error otherwise
    bad = runner.invoke(app, ["play", "athos", "--variant", "teams"], input="quit\n")
    assert bad.exit_code == 1 and "needs 4 players" in bad.output
    record = tmp_path / "teams.json"
    result = runner.invoke(
        app,
        [
            "play",
            "athos",
            "--players",
            "4",
            "--variant",
            "teams",
            "--variant",
            "bare_stone",
            "--record",
            str(record),
        ],
        input="end-move\nstone k8\nend-turn\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "red (A)" in result.output and "blue (D)" in result.output  # seats A, D, B, E
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert doc["options"]["teams"] is True and doc["options"]["bare_stone"] is True
    assert [m["move"] for m in doc["moves"]] == ["end-move", "stone k8", "end-turn"]
    # ATH-V2: who places and how many are options
    record2 = tmp_path / "handicap.json"
    result = runner.invoke(
        app,
        [
            "play",
            "athos",
            "--players",
            "3",
            "--option",
            "handicap_player=2",
            "--option",
            "handicap_tiles=2",
            "--record",
            str(record2),
        ],
        input="place k8 open\nplace m8\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "handicap (ATH-V2): green (E) places 2 more tile(s)" in result.output
    assert "round 1, red (A) to play, move phase" in result.output
    state = Record.load(record2).replay()
    assert state.current_player == 0 and state.to_position()["tiles"] == [
        {"field": "k8", "side": "open", "terrain": "meadow"},
        {"field": "m8", "side": "rubble", "terrain": "meadow"},
    ]


def test_replay_and_score_of_a_finished_game(tmp_path: Path) -> None:
    game = AthosGame(players=3, round_limit=4)
    rng = random.Random(5)
    state = game.new_initial_state()
    record = Record.start(game)
    while not state.is_terminal():
        record.apply(state, rng.choice(state.legal_actions()))
    path = tmp_path / "finished.json"
    record.save(path)
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "round limit of 4 (ATH-E3)" in replay.output
    score = runner.invoke(app, ["score", str(path), "--json"])
    assert score.exit_code == 0
    assert json.loads(score.output)["scores"] == state.scores()
    # a record with a tampered move is refused naming it
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["moves"][0]["move"] = "place k8"
    path.write_text(json.dumps(doc), encoding="utf-8")
    broken = runner.invoke(app, ["replay", str(path)])
    assert broken.exit_code == 1 and "place k8" in broken.output


def test_score_and_perft_of_a_position_file(tmp_path: Path) -> None:
    pos = {
        "game": "athos",
        "options": {"players": 2},
        "monks": [["g16", "B", "B"], ["D", "D", "D"]],
        "arrivals": [],
    }
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos), encoding="utf-8")
    score = runner.invoke(app, ["score", str(path)])
    assert score.exit_code == 0 and score.output.strip() == "red (B) 0, blue (D) 0"
    perft = runner.invoke(app, ["perft", "athos", "--depth", "1", "--divide", "--position", str(path)])
    assert perft.exit_code == 0, perft.output
    assert "g16-summit: 1" in perft.output


def test_match_of_random_agents() -> None:
    result = runner.invoke(
        app, ["match", "athos", "--agents", "random,random", "-n", "4", "-o", "round_limit=20", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "4 of 4 games" in result.output
