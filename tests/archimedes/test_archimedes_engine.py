"""Notation, action ids, positions, JSON, perft, views and heuristics of the Archimedes engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import palaestra
from palaestra.core.errors import IllegalActionError, NotationError, OptionError, PositionError, RecordError
from palaestra.core.perft import divide, perft
from palaestra.core.record import load_state_file
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState
from palaestra.games.archimedes.moves import PASS, Kind, Move
from tests.archimedes.archimedes_reference import Ref, ref_perft, start_cubes


def game(players: int = 2, **options: Any) -> ArchimedesGame:
    g = palaestra.load_game("archimedes", players=players, **options)
    assert isinstance(g, ArchimedesGame)
    return g


def position(doc: dict[str, Any]) -> ArchimedesState:
    return game().state_from_position({"game": "archimedes", **doc})


MID: dict[str, Any] = {"cubes": [["g4", "e4", "c9", "a2"], ["b2", "b6", "f12", "d15"]], "to_move": 1}


# --- action ids and notation ----------------------------------------------------------------------
def test_action_space() -> None:
    g = game()
    assert g.num_distinct_actions() == 96 * 96 + 1
    assert g.pass_action == 9216
    s = g.new_initial_state()
    assert s.string_to_action("a2-c4") == g.board.cell("a2") * 96 + g.board.cell("c4")
    assert s.string_to_action("pass") == 9216
    assert all(0 <= a < g.num_distinct_actions() for a in s.legal_actions())
    assert g.max_game_length() == 1000  # the default move limit


def test_notation_round_trip_and_lenient_spelling() -> None:
    s = game().new_initial_state()
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action(" A2 - C4 ") == s.string_to_action("a2-c4")
    assert s.string_to_action("PASS") == 9216
    assert s.action_to_string(9216) == "pass"


def test_moves_and_ids_meet_in_the_layout() -> None:
    """Every id decodes to a typed Move whose kind names its layout segment, and encodes back to
    itself; the ids are those of the records (``start * 96 + end``, then the pass)."""
    g = game()
    assert [s.name for s in g.layout] == [k.value for k in Kind]
    for a in range(g.num_distinct_actions()):
        move = g.decode(a)
        assert g.encode(move) == a and move.kind == g.layout.segment_of(a).name
    assert g.decode(9216) == PASS == Move(Kind.PASS, -1, -1)
    assert g.decode(g.board.cell("a2") * 96 + g.board.cell("c4")) == Move(
        Kind.MOVE, g.board.cell("a2"), g.board.cell("c4")
    )
    for bad_id in (-1, 9217, True, "1"):
        with pytest.raises(ValueError, match="not an action id of archimedes"):
            g.decode(bad_id)  # type: ignore[arg-type]
    for bad_move in (Move(Kind.MOVE, 96, 0), Move(Kind.MOVE, -1, 3), (Kind.MOVE, 1, 2), 5):
        with pytest.raises(ValueError, match="is not a move of archimedes"):
            g.encode(bad_move)  # type: ignore[arg-type]


def test_problem_takes_moves_and_action_problem_ids() -> None:
    """``problem(move)`` is the rules' question; ``action_problem(id)`` asks it at the edge."""
    s = game().new_initial_state()
    assert s.legal_moves() == [s.game.decode(a) for a in s.legal_actions()]
    assert all(s.problem(m) is None for m in s.legal_moves())
    c4_c5 = s.string_to_action("c4-c5")
    assert s.problem(s.game.decode(c4_c5)) == s.action_problem(c4_c5) == "there is no cube on c4"
    passing = s.problem(PASS)
    assert passing == s.action_problem(9216) and passing is not None and "(ARC-M6)" in passing
    off_board = s.problem(Move(Kind.MOVE, 200, 3))
    assert off_board is not None and off_board.endswith("start=200, end=3) is not a move of archimedes")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "write a move as START-END"),
        ("a2", "write a move as START-END"),
        ("a2-", "write a move as START-END"),
        ("a2 c4", "write a move as START-END"),
        ("a2-z9", "z9 is not a cell of the board (cells are a1..a9, b1..b11"),
        ("a10-a1", "a10 is not a cell"),
        ("e16-e1", "e16 is not a cell"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    s = game().new_initial_state()
    with pytest.raises(NotationError) as err:
        s.string_to_action(text)
    assert message in str(err.value)


def test_action_to_string_rejects_bad_ids() -> None:
    s = game().new_initial_state()
    for bad in (-1, 9217, True):
        with pytest.raises(IllegalActionError, match="not an archimedes action id"):
            s.action_to_string(bad)


def test_explain_illegal_messages() -> None:
    s = game().new_initial_state()
    assert s.explain_illegal(10**6) == "1000000 is not an action id of archimedes (0 to 9216)"
    assert s.explain_illegal("a2-c4") == "'a2-c4' is not an action id of archimedes (a whole number)"
    assert s.explain_illegal(s.string_to_action("c4-c5")) == "there is no cube on c4"
    assert s.explain_illegal(s.string_to_action("h2-g2")) == (
        "the cube on h2 belongs to player 2 (N); player 1 (S) is to move"
    )
    assert s.explain_illegal(s.string_to_action("a2-c4")) == "a2-c4 is legal"
    for bad in (10**6, "x", s.string_to_action("a4-b4"), 9216):
        before = s.to_json()
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)  # type: ignore[arg-type]
        assert s.to_json() == before


# --- perft (ARC-M1..M4 together) -------------------------------------------------------------------
@pytest.mark.parametrize(("depth", "leaves"), [(1, 6), (2, 38), (3, 362), (4, 3714)])
def test_perft_two_players(depth: int, leaves: int) -> None:
    assert perft(game().new_initial_state(), depth) == leaves


@pytest.mark.parametrize(("depth", "leaves"), [(1, 14), (2, 147), (3, 1230)])
def test_perft_three_players(depth: int, leaves: int) -> None:
    assert perft(game(3).new_initial_state(), depth) == leaves


@pytest.mark.parametrize(
    ("players", "revisit", "depth"), [(2, False, 4), (3, False, 3), (2, True, 3), (3, True, 2)]
)
def test_perft_matches_brute_force(players: int, revisit: bool, depth: int) -> None:
    s = game(players, revisit=revisit).new_initial_state()
    assert perft(s, depth) == ref_perft(Ref(start_cubes(players), revisit=revisit), depth)


def test_perft_from_a_position_and_divide() -> None:
    s = position(MID)
    parts = divide(s, 2)
    assert sum(n for _, n in parts) == perft(s, 2)
    assert [m for m, _ in parts] == [s.action_to_string(a) for a in s.legal_actions()]
    assert perft(s, 2) == ref_perft(Ref(MID["cubes"], to_move=1), 2)


def test_perft_counts_a_pass_as_a_move() -> None:
    s = position({"cubes": [["g2", "g10", "a2", "a8"], ["h2", "h4", "h6", "h8"]], "to_move": 1})
    assert perft(s, 1) == 1
    assert perft(s, 2) == len(
        game()
        .state_from_position({"cubes": [["g2", "g10", "a2", "a8"], ["h2", "h4", "h6", "h8"]], "to_move": 0})
        .legal_actions()
    )


# --- positions ------------------------------------------------------------------------------------
def test_position_round_trip() -> None:
    s = game(3, revisit=True).new_initial_state()
    for _ in range(5):
        s.apply_action(s.legal_actions()[-1])
    doc = s.to_position()
    assert doc["players"] == 3 and doc["revisit"] is True and doc["ply"] == 5
    t = game().state_from_position(json.loads(json.dumps(doc)))  # options come from the document
    assert t.game == s.game
    assert t.to_position() == doc
    assert t.legal_actions() == s.legal_actions()


def test_position_defaults_and_inferred_players() -> None:
    s = game().state_from_position({"game": "archimedes", "cubes": start_cubes(3)})
    assert s.game.num_players == 3 and s.current_player == 0 and s.ply == 0
    t = game().state_from_position({"cubes": start_cubes(2), "options": {"revisit": True}})
    assert t.game.revisit


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "a position is a JSON object"),
        ({"game": "athos", "cubes": []}, "this position is of 'athos'"),
        ({"cubes": "a2"}, "'cubes' is a list with one list of cell names per player"),
        ({"cubes": [["a2", "a4", "a6"], ["h2", "h4", "h6", "h8"]]}, "player 1 (S) has 3 cubes, not 4"),
        ({"cubes": [["a2", "a4", "a6", "z9"], ["h2", "h4", "h6", "h8"]]}, "player 1 (S): 'z9' is not a cell"),
        (
            {"cubes": [["a2", "a4", "a6", "a8"], ["h2", "h4", "h6", "a8"]]},
            "two cubes on a8 (player 1 (S) and player 2 (N))",
        ),
        (
            {"cubes": [["a2", "a4", "a6", "a8"], ["h2", "h4", "h6", "h8"]], "players": 3},
            "'cubes' has 2 lists, one per player: 3 are needed",
        ),
        ({"cubes": start_cubes(2), "players": 4}, "option 'players' is one of 2, 3"),
        ({"cubes": start_cubes(2), "to_move": 2}, "'to_move' is a player number from 0 to 1, not 2"),
        ({"cubes": start_cubes(2), "to_move": "1"}, "'to_move' is a whole number"),
        ({"cubes": start_cubes(2), "passes": 3}, "'passes' (passes in a row) is from 0 to 2"),
        (
            {"cubes": start_cubes(2), "to_move": 1, "passes": 1},
            "'passes' is 1, but player 1 (S) has a legal move here (a2-b4) and cannot have passed",
        ),
        ({"cubes": start_cubes(2), "ply": -1}, "'ply' is 0 or more"),
        ({"cubes": start_cubes(2), "cube": []}, "unknown field 'cube'"),
        ({"cubes": [["h2", "h4", "h6", "h8"], ["a2", "a4", "a6", "a8"]]}, "all have four cubes home"),
    ],
)
def test_bad_positions(doc: Any, message: str) -> None:
    with pytest.raises(PositionError) as err:
        game().state_from_position(doc)
    assert message in str(err.value)


def test_position_file_through_the_core(tmp_path: Path) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"game": "archimedes", "players": 3, "cubes": start_cubes(3)}))
    state, record = load_state_file(path)
    assert record is None
    assert isinstance(state, ArchimedesState) and state.game.num_players == 3
    assert perft(state, 1) == 14


# --- JSON --------------------------------------------------------------------------------------------
def test_json_round_trip_from_start_and_from_position() -> None:
    for s in (game().new_initial_state(seed=3), position(MID)):
        for _ in range(4):
            s.apply_action(s.legal_actions()[0])
        doc = json.loads(json.dumps(s.to_json()))
        t = s.game.state_from_json(doc)
        assert t == s
        assert t.history == s.history and t.to_position() == s.to_position()


def test_json_that_does_not_replay() -> None:
    s = game().new_initial_state()
    s.apply_action(s.legal_actions()[0])
    doc = s.to_json()
    doc["history"] = [9216]
    with pytest.raises(RecordError, match="action 1 of the saved state does not replay"):
        s.game.state_from_json(doc)
    doc = s.to_json()
    doc["position"]["to_move"] = 0
    with pytest.raises(RecordError, match="differs"):
        s.game.state_from_json(doc)
    with pytest.raises(RecordError, match="other options"):
        game(revisit=True).state_from_json(s.to_json())


def test_options() -> None:
    with pytest.raises(OptionError):
        game(4)
    with pytest.raises(OptionError):
        game(move_limit=0)
    names = [o.name for o in ArchimedesGame.OPTIONS]
    assert names == ["players", "revisit", "move_limit"]
    assert ArchimedesGame.OPTIONS[1].is_variant


def test_clone_is_independent() -> None:
    s = game().new_initial_state()
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.cubes(0) == ["a2", "a4", "a6", "a8"] and s.history == []
    assert c != s


def test_clone_copies_every_field() -> None:
    """``clone`` is written out field by field (speed): none may be forgotten or shared."""
    s = game(players=3).state_from_position(
        {
            "cubes": [["a2", "a4", "b3", "c5"], ["e15", "f13", "g11", "h9"], ["e1", "f1", "g1", "h1"]],
            "passes": 0,
        }
    )
    s.legal_actions()
    s.evaluate()
    s.apply_action(s.legal_actions()[0])
    s.legal_actions()
    c = s.clone()
    assert vars(c) == vars(s)
    assert c.history is not s.history and c._pos is not s._pos
    c.apply_action(c.legal_actions()[0])
    assert s.history != c.history


# --- views --------------------------------------------------------------------------------------------
def test_render() -> None:
    s = game().new_initial_state()
    text = s.render()
    lines = text.splitlines()
    assert lines[0].split() == ["NW", "N", "NE"] and lines[9].split() == ["SW", "S", "SE"]
    assert lines[1].split() == ["/\\", "2:4", "/\\", "2:4", "/\\", "2:4", "/\\", "2:4", "/\\"]
    assert lines[8].split() == ["\\/", "1:4", "\\/", "1:4", "\\/", "1:4", "\\/", "1:4", "\\/"]
    assert "a2 (distance 4)" in text and "to move: player 1 (S)" in text
    labelled = s.render(labels=True)
    assert "a1" in labelled and "d15" in labelled and "e1" in labelled.splitlines()[4]
    home = position({"cubes": [["h4", "g4", "e4", "c9"], ["b2", "b6", "f12", "d15"]]})
    assert "1:*" in home.render() and "h4 (home)" in home.render()


def test_observation_tensor_layout() -> None:
    g = game()
    assert g.observation_shape() == (7, 96)
    assert game(3).observation_shape() == (10, 96)
    s = g.new_initial_state()
    a2, h2, h4 = (g.board.cell(c) for c in ("a2", "h2", "h4"))
    for player in (0, 1):
        t = s.observation_tensor(player)
        assert len(t) == 7 * 96
        planes = [t[i * 96 : (i + 1) * 96] for i in range(7)]
        mine, theirs = (a2, h2) if player == 0 else (h2, a2)
        assert planes[0][mine] == 1.0 and planes[1][theirs] == 1.0 and planes[0][theirs] == 0.0
        assert planes[2][h4 if player == 0 else g.board.cell("a4")] == 1.0  # own goal cells
        assert planes[4][a2] == pytest.approx(4 / 12)
        assert planes[5] == [1.0 if player == 0 else 0.0] * 96  # is the observer to move?
        assert planes[6] == [0.0 if player == 0 else 1.0] * 96


def test_scores_and_details() -> None:
    s = position({"cubes": [["h4", "g4", "e4", "c9"], ["b2", "b6", "f12", "d15"]]})
    assert s.scores() == [1.0, 0.0]
    d = s.score_details()
    assert d["arrived"] == [1, 0]
    assert d["cubes"][0][0] == {"cell": "h4", "distance": 3, "arrived": True}
    assert d["to_move"] == 0 and d["ended"] is None


def test_evaluate() -> None:
    s = game().new_initial_state()
    v = s.evaluate()
    assert v == pytest.approx([0.0, 0.0])
    ahead = position({"cubes": [["h4", "g4", "e4", "c9"], ["b2", "b6", "f12", "d15"]]})
    v = ahead.evaluate()
    assert v[0] > 0 > v[1] and all(-1 <= x <= 1 for x in v)
    assert v[0] == pytest.approx(-v[1])
    won = position({"cubes": [["h2", "h4", "h6", "h8"], ["a1", "b1", "c1", "d1"]]})
    assert won.evaluate() == won.returns() == [1.0, -1.0]
    three = game(3).new_initial_state().evaluate()
    assert len(three) == 3 and all(-1 <= x <= 1 for x in three)


def test_registered() -> None:
    assert "archimedes" in palaestra.game_names()
    assert palaestra.load_game("archimedes").title == "Archimedes"
