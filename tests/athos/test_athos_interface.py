"""Notation, explanations, positions, JSON, render, observation and evaluation of Athos."""

from __future__ import annotations

from typing import Any

import pytest

from palaestra.core.errors import IllegalActionError, NotationError, OptionError, PositionError
from palaestra.core.registry import load_game
from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import OPEN, RUBBLE

from .helpers import play, position


def test_registry_and_facts() -> None:
    g = load_game("athos", players=3)
    assert isinstance(g, AthosGame) and g.num_players == 3
    n = g.board.n
    # steps, flips, end-move, relocations, stones, placements, open placements, end-turn, and the
    # handicap tiles of another terrain than the field's (ATH-V2 as amended 2026-11-25)
    terrains = len(g.board.terrains)
    assert g.num_distinct_actions() == len(g.board.edges) + n + 1 + n * n + n + n + n + 1 + 2 * terrains * n
    assert g.observation_shape() == (14 * (n + 6) + 37,)
    assert g.max_game_length() == 150 * 3 * 26


def test_every_action_id_round_trips_through_the_notation() -> None:
    g = AthosGame()
    s = g.new_initial_state()
    texts = set()
    for a in range(g.num_distinct_actions()):
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a
        texts.add(text)
    assert len(texts) == g.num_distinct_actions()
    assert s.string_to_action("B-H1") == s.string_to_action("b-h1")
    assert s.string_to_action("relocate k8 m8") == s.string_to_action("relocate k8>m8")
    assert s.string_to_action("place k8 rubble") == s.string_to_action("place k8")
    assert s.string_to_action("g16-S") == s.string_to_action("g16-summit")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello", "cannot read"),
        ("flip zz9", "not a field"),
        ("k8-m12", "not neighbours"),
        ("place k8 sideways", "'rubble' or 'open'"),
        ("relocate k8", "relocate g7>h9"),
        ("stone A", "start field"),
    ],
)
def test_bad_notation_raises_helpful_errors(text: str, message: str) -> None:
    s = AthosGame().new_initial_state()
    with pytest.raises(NotationError, match=message):
        s.string_to_action(text)


def test_explain_illegal_is_precise() -> None:
    s = position(
        monks=[["B", "B", "h1"], ["D", "D", "D"]],
        tiles=[{"field": "i2", "side": "rubble"}],
    )
    assert s.explain_illegal(s.string_to_action("h1-i2")) == "h1-i2: field i2 holds rubble (ATH-T2)"
    assert "no monk of yours" in s.explain_illegal(s.string_to_action("p1-q2"))
    assert "end the movement first" in s.explain_illegal(s.string_to_action("place k8"))
    assert "not an action" in s.explain_illegal(-1)
    assert "is legal" in s.explain_illegal(s.string_to_action("end-move"))
    play(s, "end-move", "place k8", "place m8")
    msg = s.explain_illegal(s.string_to_action("place k6"))
    assert msg == "place k6: only 2 tiles per terrain per turn (meadow, ATH-T8)"
    assert "before any tile is placed" in s.explain_illegal(s.string_to_action("relocate k8>k6"))
    with pytest.raises(IllegalActionError, match="per terrain"):
        s.apply_action(s.string_to_action("place k6"))


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="4 players"):
        AthosGame(players=3, teams=True)
    with pytest.raises(OptionError, match="seat from 0 to 1"):
        AthosGame(handicap_player=2, handicap_tiles=3)
    with pytest.raises(OptionError, match="handicap_tiles"):
        AthosGame(handicap_player=1)
    with pytest.raises(OptionError):
        AthosGame(players=5)
    with pytest.raises(OptionError, match="alternates teams"):
        AthosGame(players=4, teams=True, order="ABDE")
    g = AthosGame(players=4, teams=True, bare_stone=True, handicap_player=3, handicap_tiles=2, round_limit=9)
    assert g.team_variant and g.bare_stone and g.handicap_tiles == 2 and g.round_limit == 9
    assert AthosGame(handicap_tiles=0).handicap_tiles == 0


def test_position_round_trip_and_options_in_the_document() -> None:
    s = position(
        monks=[["B", "h1", "k2"], ["D", "D", "p1"]],
        tiles=[{"field": "m2", "side": "open"}, {"field": "k8", "side": "rubble", "terrain": "vine"}],
        stones=[{"field": "k8", "player": 1}],
        stones_left=[2, 1],
        points=4,
        round=3,
        to_move=1,
        unused=[2, 6],
    )
    doc = s.to_position()
    assert doc["tiles"][0] == {"field": "m2", "side": "open", "terrain": "heath"}
    assert doc["monks"][0] == ["h1", "k2", "B"]
    again = AthosGame().state_from_position(doc)
    assert again.to_position() == doc
    assert again.tile[again.board.field("k8")] == RUBBLE and again.tile[again.board.field("m2")] == OPEN
    assert again.supply[again.board.terrains.index("vine")] == 15
    other = AthosGame().state_from_position({**doc, "options": {"players": 2, "round_limit": 5}})
    assert other.game.round_limit == 5


def bad(**fields: Any) -> str:
    with pytest.raises(PositionError) as info:
        position(**fields)
    return str(info.value)


def test_positions_are_validated() -> None:
    assert "not a field" in bad(tiles=[{"field": "zz1"}])
    assert "two tiles" in bad(tiles=[{"field": "k8"}, {"field": "k8"}])
    assert "stands on rubble" in bad(monks=[["k8", "B", "B"], ["D", "D", "D"]], tiles=[{"field": "k8"}])
    assert "a player has 3" in bad(monks=[["B", "B"], ["D", "D", "D"]])
    assert "only 16" in bad(
        tiles=[
            {"field": f, "terrain": "vine"}
            for f in [
                "e12",
                "g12",
                "s12",
                "u12",
                "f13",
                "h13",
                "r13",
                "t13",
                "e14",
                "g14",
                "i14",
                "q14",
                "s14",
                "u14",
                "h15",
                "r15",
                "k8",
            ]
        ]
    )
    assert "no open path" in bad(tiles=[{"field": f} for f in ["f13", "h13", "l13", "n13", "r13", "t13"]])
    assert "phase" in bad(phase="dancing")
    assert "more than one monk" in bad(monks=[["k2", "k2", "B"], ["D", "D", "D"]], phase="place")
    assert "no tile" in bad(stones=[{"field": "k8", "player": 0}])
    assert "a player has 2" in bad(
        tiles=[{"field": "k8"}], stones=[{"field": "k8", "player": 0}], stones_left=[2, 2]
    )
    assert "0 to 1" in bad(to_move=2)
    assert "at most 8" in bad(
        phase="place", placed={"meadow": 2, "forest": 2, "olive": 2, "heath": 2, "vine": 2}
    )
    # ATH-T3: monks may share a field only during the mover's movement, if they can be spread out
    assert "cannot be separated" in bad(monks=[["k2", "k2", "B"], ["D", "D", "D"]], points=0)
    assert "none of the player to move" in bad(monks=[["B", "B", "B"], ["k2", "k2", "D"]], points=3)
    shared = position(monks=[["k2", "k2", "B"], ["D", "D", "D"]], points=1)
    assert shared.crowded_fields() == [shared.board.field("k2")] and "end-move" not in {
        shared.action_to_string(a) for a in shared.legal_actions()
    }
    # booleans are not numbers
    assert "0 to 2" in bad(phase="place", placed={"vine": True})
    assert "finishers" in bad(finishers=[True])
    assert "whole numbers" in bad(stones_left=[True, 2])


def test_render_shows_board_monks_tiles_points_and_labels() -> None:
    s = position(
        monks=[["B", "h1", "k2"], ["D", "D", "p1"]],
        tiles=[{"field": "m2", "side": "open"}, {"field": "k8", "side": "rubble"}],
        stones=[{"field": "k8", "player": 1}],
        stones_left=[2, 1],
        points=4,
        arrivals=[],
    )
    text = s.render()
    assert "m#*" in text  # k8: meadow field, rubble tile, Athos stone
    assert "h.." in text  # m2: heath field with an open tile
    assert "h1 " in text or "h1" in text
    assert "movement points left: 4" in text
    assert "[B:1]" in text and "[D:22]" in text
    labelled = s.render(labels=True)
    assert " 16 " in labelled and "  1 " in labelled
    play(s, "end-move", "place k6")
    assert "tiles placed this turn: 1 of 8" in s.render() and "meadow 1" in s.render()


def test_render_of_teams_and_handicap() -> None:
    # ATH-V1: each player's team and each team's arrivals; ATH-V2: who places how many
    g = AthosGame(players=4, teams=True, handicap_player=1, handicap_tiles=2)
    s = position(g, monks=[[], ["D", "D", "D"], ["g16"], ["E", "E", "E"]], arrivals=[0, 0, 0, 2, 2])
    text = s.render()
    assert "1 = red (A), team A+B: 3 arrived, 2 stones" in text
    assert "2 = blue (D), team D+E: 0 arrived, 2 stones" in text
    assert "team A+B: 5 of 6 arrived; team D+E: 0 of 6 arrived" in text
    assert "summit: 1 1 1 3 3" in text
    h = g.new_initial_state().render()
    assert "handicap (ATH-V2): blue (D) places 2 more tile(s)" in h


def test_observation_tensor_layout() -> None:
    s = position(monks=[["B", "h1", "k2"], ["D", "D", "p1"]], tiles=[{"field": "k8", "side": "rubble"}])
    size = s.board.size
    obs = s.observation_tensor(0)
    k8 = s.board.field("k8")
    assert obs[7 * size + k8] == 1.0  # rubble plane
    assert obs[10 * size + s.board.field("h1")] == pytest.approx(1 / 3)  # own monks
    assert obs[11 * size + s.board.field("D")] == pytest.approx(2 / 3)  # next player's monks
    obs1 = s.observation_tensor(1)
    assert obs1[10 * size + s.board.field("D")] == pytest.approx(2 / 3)
    assert obs[14 * size + 0] == 1.0 and obs1[14 * size + 1] == 1.0  # who is to move, relative


def test_evaluate_prefers_monks_nearer_the_summit() -> None:
    s = position(monks=[["g16", "i16", "k16"], ["D", "D", "D"]])
    e = s.evaluate()
    assert e[0] > 0 > e[1]
    assert all(-1 <= x <= 1 for x in e)
    s2 = position(monks=[["B", "B", "B"], ["D", "D", "D"]])
    assert s2.evaluate() == [0.0, 0.0]  # symmetric board, symmetric seats
