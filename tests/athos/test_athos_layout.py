"""The ``layout`` option (palaestra/games/athos/layout.py): the board as data (ATH-B2), a shipped
board's name or a board document, never a path. The document parser faces hostile input here
(hypothesis): it answers with a Board or a clear OptionError/BoardFileError, never anything else,
and a board it accepts can be played on."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.core.errors import BoardFileError, OptionError, PalaestraError
from palaestra.core.game import DOCUMENT_BYTES
from palaestra.core.record import Record
from palaestra.core.registry import load_game
from palaestra.games.athos import AthosGame
from palaestra.games.athos.board import BOARD_FILE, board_from_dict

TERRAINS = ["meadow", "forest", "olive", "heath", "vine"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)


def shipped() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    return doc


def test_ath_b2_the_shipped_board_by_name_and_as_a_document_is_the_same_board() -> None:
    default = AthosGame()
    named = AthosGame(layout="standard")
    document = AthosGame(layout=shipped())
    for game in (named, document):
        assert game.board.names == default.board.names and game.board.adj == default.board.adj
    assert isinstance(document.options["layout"], dict)


def test_ath_b2_a_document_board_is_played_recorded_and_replayed_without_a_file() -> None:
    doc = shipped()
    doc["starts"]["B"] = ["h1"]  # B touches h1 only: B-j1 is no move on this board
    game = load_game("athos", layout=doc)
    state = game.new_initial_state(3)
    assert "B-j1" not in {state.action_to_string(a) for a in state.legal_actions()}
    record = Record.start(game, ["a", "b"], 3)
    for move in ("B-h1", "h1-i2"):
        record.apply(state, state.string_to_action(move))
    text = json.dumps(record.to_json())
    assert str(BOARD_FILE) not in text and "h1" in text  # the document itself, no path
    replayed = Record.from_json(json.loads(text)).replay()
    assert replayed.to_json() == state.to_json()


@pytest.mark.parametrize(
    "value, message",
    [
        ("/etc/passwd", "one of standard or a document"),
        ("board.json", "one of standard or a document"),
        (7, "a document"),
        ([shipped()], "a document"),
        ({"format": 2}, "unknown format 2"),
        ({**shipped(), "terrains": TERRAINS[:4]}, "Athos has 5"),
        ({**shipped(), "summit": []}, "ATH-B1 wants 7"),
        ({**shipped(), "fields": [{"col": 1, "row": 1, "terrain": "meadow"}] * 2000}, "bytes, at most"),
    ],
)
def test_ath_b2_bad_layouts_are_refused_naming_the_problem(value: Any, message: str) -> None:
    with pytest.raises(PalaestraError, match=message):
        load_game("athos", layout=value)


def test_a_file_and_a_layout_together_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(shipped()), encoding="utf-8")
    with pytest.raises(OptionError, match="not both"):
        load_game("athos", board=str(path), layout="standard")


def test_the_size_bound_is_the_option_s_own() -> None:
    fields = shipped()["fields"]
    big = {**shipped(), "padding": "x" * DOCUMENT_BYTES}
    assert len(json.dumps(fields)) < DOCUMENT_BYTES
    with pytest.raises(OptionError, match="bytes, at most"):
        load_game("athos", layout=big)


@SETTINGS
@given(value=json_values)
def test_hostile_layout_values_get_a_clear_error_or_a_board(value: Any) -> None:
    try:
        game = load_game("athos", layout=value)
    except (OptionError, BoardFileError) as err:
        assert str(err)
        return
    assert game.board.n > 0


@pytest.mark.slow
@SETTINGS
@given(
    path=st.lists(
        st.sampled_from(["fields", "starts", "summit", "terrains", 0, 3, "A", "col", "row", "terrain"])
    ),
    replacement=json_values,
)
def test_a_shipped_board_with_one_part_replaced_by_anything_is_refused_or_playable(
    path: list[Any], replacement: Any
) -> None:
    doc: Any = shipped()
    target = doc
    for step in path[:-1]:
        nxt = target.get(step) if isinstance(target, dict) else None
        if isinstance(step, int) and isinstance(target, list) and step < len(target):
            nxt = target[step]
        if not isinstance(nxt, dict | list):
            break
        target = nxt
    last = path[-1] if path else "name"
    if isinstance(target, dict):
        target[str(last)] = replacement
    elif isinstance(target, list) and isinstance(last, int) and last < len(target):
        target[last] = replacement
    try:
        board_from_dict(json.loads(json.dumps(doc)), "hostile")
    except BoardFileError as err:
        assert "hostile" in str(err)
        return
    try:
        game = load_game("athos", layout=doc)
    except OptionError as err:  # valid to the board reader, but no JSON (an infinite number)
        assert "JSON" in str(err)
        return
    assert game.new_initial_state(1).legal_actions()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_any_board_the_parser_accepts_can_be_played(seed: int, players: int) -> None:
    """Random small boards (a few rows of random fields, start and summit fields drawn): the parser
    refuses them with BoardFileError or the game plays random moves on them without failing."""
    rng = random.Random(seed)
    fields = [
        {"col": c, "row": r, "terrain": rng.choice(TERRAINS)}
        for r in range(1, rng.randint(2, 6) + 1)
        for c in range(26)
        if (c + r) % 2 == 0 and rng.random() < 0.5
    ]
    rows = [f["row"] for f in fields] or [1]
    bottom = [f"{chr(97 + f['col'])}{f['row']}" for f in fields if f["row"] == min(rows)]
    top = [f"{chr(97 + f['col'])}{f['row']}" for f in fields if f["row"] >= max(rows) - 1]
    doc = {
        "format": 1,
        "terrains": TERRAINS,
        "fields": fields,
        "starts": {s: rng.sample(bottom, min(len(bottom), rng.randint(1, 2))) for s in "ABCDE"},
        "summit": rng.sample(top, min(7, len(top))),
    }
    try:
        game = load_game("athos", layout=doc, players=players)
    except (BoardFileError, OptionError):
        return
    state = game.new_initial_state(seed)
    for _ in range(200):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.render() and state.to_json()
