"""Agamemnon through the `palaestra` command (typer's CliRunner): score, play, replay, match, perft.

Scores of the hand-built position are worked out from the rules (AGA-SC1..SC4); the front-board
facts used: strength 0-4 4-9 8-9 9-11 29-30 30-31, force 1-5, leadership 2-4 4-8.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from palaestra.cli import app
from palaestra.core.record import Record
from palaestra.games.agamemnon import AgamemnonGame

runner = CliRunner()


def write(tmp_path: Path, doc: dict[str, Any], name: str = "position.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def branch_position() -> dict[str, Any]:
    # orange W3 on 4, black W2 on 9: the strength string {0-4, 4-9, 8-9, 9-11} branches at 9
    return {
        "game": "agamemnon",
        "board": "front",
        "tiles": [{"space": 4, "player": 0, "tile": "W3"}, {"space": 9, "player": 1, "tile": "W2"}],
        "to_move": 1,
    }


def test_aga_sc4_score_json_lists_every_string_with_kind_connections_controller(tmp_path: Path) -> None:
    path = write(tmp_path, branch_position())
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert set(doc) == {"scores", "strings"}
    assert doc["scores"] == [4.0, 0.0]  # orange: 3 spears against 2 on the four strength connections
    for string in doc["strings"]:
        assert set(string) == {"kind", "connections", "controller"}
        assert string["kind"] in ("strength", "force", "leadership")
        assert string["controller"] in (0, 1, None)
        assert all(len(c) == 2 and c[0] < c[1] for c in string["connections"])
    by_conn = {tuple(c): s for s in doc["strings"] for c in s["connections"]}
    assert len(by_conn) == 49  # every connection in exactly one string
    branch = by_conn[(4, 9)]
    assert branch["kind"] == "strength" and branch["controller"] == 0
    assert sorted(branch["connections"]) == [[0, 4], [4, 9], [8, 9], [9, 11]]
    assert by_conn[(2, 4)]["kind"] == "leadership" and by_conn[(2, 4)]["controller"] is None
    assert by_conn[(4, 8)] is by_conn[(2, 4)]  # one leadership string through the tile on 4
    assert by_conn[(29, 30)]["controller"] is None and by_conn[(29, 30)]["connections"] == [[29, 30]]
    text = runner.invoke(app, ["score", str(path)])
    assert text.exit_code == 0 and text.output.strip() == "orange 4, black 0"


def test_score_json_on_the_loom_omits_empty_connections(tmp_path: Path) -> None:
    doc = {
        "game": "agamemnon",
        "board": "loom",
        "options": {"setup": "I,II,III"},
        "tiles": [{"space": 0, "player": 0, "tile": "A"}],
        "to_move": 1,
    }
    result = runner.invoke(app, ["score", str(write(tmp_path, doc)), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    conns = [c for s in out["strings"] for c in s["connections"]]
    assert len(conns) == 66 - 15  # class IV (15 connections) is empty and belongs to no string
    assert [31 in c for c in conns].count(True) == 0  # 31 is out of play with IV empty
    # orange A on 0: strength 0-1 (I), force 0-2 (II); 0-4 is empty (IV)
    assert out["scores"] == [2.0, 0.0]


def test_a_bad_position_file_gives_a_clear_error(tmp_path: Path) -> None:
    doc = branch_position()
    doc["tiles"].append({"space": 4, "player": 1, "tile": "A"})
    result = runner.invoke(app, ["score", str(write(tmp_path, doc)), "--json"])
    assert result.exit_code == 1
    assert "space 4 already holds tile 1" in result.output
    assert "Traceback" not in result.output


def test_aga_v3_a_whole_hot_seat_game_then_replay_and_score(tmp_path: Path) -> None:
    # Defying the gods has no chance: the moves can be worked out in advance (first legal move)
    game = AgamemnonGame(defying=True)
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        action = state.legal_actions()[-1]
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "agamemnon", "--variant", "defying", "--record", str(path), "--seed", "5"],
        input="Z9@1\nmoves\n" + "\n".join(moves) + "\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "unknown tile 'Z9'" in result.output  # a bad entry is explained and asked again
    assert "WEFT@31" in result.output  # `moves` listed the legal moves
    assert f"game over: {state.result_text()}" in result.output
    rec = Record.load(path)
    assert [m.move for m in rec.moves] == moves
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert f"result: {state.result_text()}" in replayed.output
    assert "Game over after 30 tiles" in replayed.output
    scored = runner.invoke(app, ["score", str(path), "--json"])
    assert scored.exit_code == 0
    assert json.loads(scored.output) == json.loads(json.dumps(state.score_details()))


def test_play_against_random_shows_the_drawn_tiles_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "vs.json"
    first = runner.invoke(
        app,
        ["play", "agamemnon", "--vs", "random", "--seed", "1", "--record", str(path)],
        input="moves\nquit\n",
    )
    assert first.exit_code == 0, first.output
    assert "drawn:" in first.output and "to draw:" in first.output and "Score: orange 0" in first.output
    rec = Record.load(path)
    assert [m.move.split()[0] for m in rec.moves] == ["draw"]  # orange's first tile, drawn
    drawn = rec.moves[0].move.split()[1]
    second = runner.invoke(
        app, ["play", "agamemnon", "--vs", "random", "--resume", str(path)], input=f"{drawn}@0\nquit\n"
    )
    assert second.exit_code == 0, second.output
    assert "1 move replayed" in second.output
    moves = [m.move for m in Record.load(path).moves]
    assert moves[1] == f"{drawn}@0"
    assert moves[2].startswith("draw ")  # black's tiles are drawn, then the random agent placed them
    assert "black (random):" in second.output


def test_variants_and_options_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "loom.json"
    result = runner.invoke(
        app,
        [
            "play", "agamemnon", "--variant", "loom", "--variant", "oracle",
            "--option", "setup=II,IV,I", "--option", "first=1", "--record", str(path),
        ],
        input="stack leaders\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "loom board (set-up II,IV,I)" in result.output and "oracle" in result.output
    rec = Record.load(path)
    assert rec.options["loom"] is True and rec.options["setup"] == "II,IV,I"
    assert rec.options["first"] == 1
    assert rec.moves[0].move == "stack leaders" and rec.moves[0].player == 1
    bad = runner.invoke(app, ["play", "agamemnon", "-o", "loom=off", "-o", "setup=I,II,III"], input="quit\n")
    assert bad.exit_code == 1 and "needs the loom variant" in bad.output
    unknown = runner.invoke(app, ["play", "agamemnon", "--variant", "weave"], input="quit\n")
    assert unknown.exit_code == 1 and "no variant 'weave'" in unknown.output


def test_match_random_against_random(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["match", "agamemnon", "--agents", "random,random", "-n", "10", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert "10 of 10 games" in result.output or '"games"' in result.output


def test_perft_counts_defying_placements() -> None:
    result = runner.invoke(app, ["perft", "agamemnon", "--variant", "defying", "--depth", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(10 * 32)  # ten kinds of tile on 32 free spaces


def test_a_record_that_does_not_replay_names_the_first_bad_move(tmp_path: Path) -> None:
    game = AgamemnonGame(defying=True)
    state = game.new_initial_state()
    rec = Record.start(game, seed=1)
    for move in ("C@12", "A@0", "W1@1"):
        rec.apply(state, state.string_to_action(move))
    path = tmp_path / "bad.json"
    rec.save(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["moves"][2]["move"] = "W1@12"  # black's second tile onto orange's C
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "W1@12" in result.output and "space 12 is taken" in result.output
    assert "Traceback" not in result.output
