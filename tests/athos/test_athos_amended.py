"""The Athos rulings amended or added on 2026-11-25 (issue 16): ATH-T7 (a stone on a stone),
ATH-T10 (a step that leaves no legal end of the movement), ATH-E4 (ranks below the winners),
ATH-V1 (the tie-break and turns of a team), ATH-V2 (handicap tiles of any terrain), ATH-V3 (monks
on a bare stone). The rulings of 2026-11-23 stay available (option ``rules``) for old records."""

from __future__ import annotations

from typing import Any

import pytest

from palaestra.core.errors import PositionError, RecordError
from palaestra.core.game import RULES_ORIGINAL
from palaestra.core.record import Record
from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import MOVE, OPEN, PLACE, STONE, AthosState

from .helpers import play, position

OLD = {"rules": RULES_ORIGINAL}


def legal(s: AthosState) -> set[str]:
    return {s.action_to_string(a) for a in s.legal_actions()}


# --- ATH-T7: the stone may go on a tile that already carries one --------------------------------


def stoned(**options: Any) -> AthosState:
    # the only tile (k2, open) holds a monk of player 0 and player 0's first stone: nothing can be
    # relocated, so the second stone goes straight on a tile
    return position(
        AthosGame(**options),
        options=options,
        monks=[["B", "B", "k2"], ["D", "D", "D"]],
        tiles=[{"field": "k2", "side": "open"}],
        phase="stone",
        points=0,
        stones=[{"field": "k2", "player": 0}],
        stones_left=[1, 2],
    )


def test_ath_t7_the_stone_may_go_on_a_tile_that_already_carries_one() -> None:
    s = stoned()
    assert "stone k2" in legal(s)
    play(s, "stone k2")
    assert s.phase == PLACE and s.stones_left == [0, 2]
    k2 = s.board.field("k2")
    assert s.stone[k2] == 0 and s.stacked == [(k2, 0)]
    doc = s.to_position()
    assert doc["stones"] == [{"field": "k2", "player": 0}, {"field": "k2", "player": 0}]
    again = s.game.state_from_position(doc)
    assert again.to_position() == doc and again.stones_left == [0, 2]
    assert s.game.state_from_json(s.to_json()).to_position() == doc
    # it adds no protection: the tile stays unflippable, as with one stone
    assert s.tile[k2] == OPEN


def test_ath_t7_the_rulings_of_2026_11_23_allowed_one_stone_per_tile() -> None:
    s = stoned(**OLD)
    assert "stone k2" not in legal(s)
    assert "already stands on k2" in s.explain_illegal(s.string_to_action("stone k2"))
    with pytest.raises(PositionError, match="two stones on k2"):
        position(
            AthosGame(**OLD),
            options=OLD,
            tiles=[{"field": "k2", "side": "open"}],
            stones=[{"field": "k2", "player": 0}, {"field": "k2", "player": 1}],
        )


# --- ATH-T10: a step after which the movement could not end legally is refused ----------------------


def test_ath_t10_a_step_that_leaves_no_legal_end_of_the_movement_is_refused_saying_why() -> None:
    # player 0's monks on k2 and m2 (neighbours), one point left: k2-m2 would leave two monks on m2
    # with no point to separate them (ATH-T3)
    s = position(monks=[["B", "k2", "m2"], ["D", "D", "D"]], phase="move", points=1)
    step = s.string_to_action("k2-m2")
    assert step not in s.legal_actions() and not s.is_legal(step)
    assert s.explain_illegal(step) == (
        "k2-m2: after this step the monks on m2 could not be separated with the points left, and no "
        "ordinary field may hold two monks when the movement ends (ATH-T3)"
    )
    # with two points left the step is fine: the second point moves a monk on
    s2 = position(monks=[["B", "k2", "m2"], ["D", "D", "D"]], phase="move", points=2)
    play(s2, "k2-m2")
    assert "end-move" not in legal(s2) and s2.legal_actions()


# --- ATH-E4: the places below the winners ------------------------------------------------------------


def finished_3p(**options: Any) -> AthosState:
    # 3 players: A (seat 0) and C (seat 1) both brought in all three monks this round, A with 2
    # points left, C with 5: C wins (ATH-E2); A has three monks in, E none
    return position(
        AthosGame(players=3, **options),
        options={"players": 3, **options},
        round=20,
        to_move=2,
        phase="over",
        monks=[[], [], ["E", "E", "E"]],
        arrivals=[0, 0, 1, 1, 1, 0],
        unused=[2, 5, 3],
    )


def test_ath_e4_a_loser_with_three_monks_in_ranks_above_one_with_none() -> None:
    s = finished_3p()
    assert s.finishers == [1, 0]
    assert s.side_ranks() == [1, 0, 2]
    assert s.returns() == [0.0, 1.0, -1.0]
    assert s.result_text() == "blue (C) wins"


def test_ath_e4_below_the_winner_equal_arrivals_are_ranked_by_the_distance_sum() -> None:
    # 4 players: A finished and wins; B, D, E have one monk in each; D's two are next to the summit
    # (distance sum 2), B's and E's on their start fields (34 each): D second, B and E share third
    s = position(
        AthosGame(players=4),
        options={"players": 4},
        round=20,
        to_move=3,
        phase="over",
        monks=[[], ["B", "B"], ["s16", "q16"], ["E", "E"]],
        arrivals=[0, 0, 1, 2, 3, 0],
        unused=[1, 0, 0, 0],
    )
    assert s.score_details()["distances"] == [0, 34, 2, 34]
    assert s.side_ranks() == [0, 2, 1, 2]
    assert s.returns() == pytest.approx([1.0, -2 / 3, 1 / 3, -2 / 3])
    assert AthosGame(players=4, **OLD).state_from_position(
        {**s.to_position(), "options": {"players": 4, **OLD}}
    ).returns() == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])


def test_ath_e4_the_rulings_of_2026_11_23_let_every_loser_share_the_next_rank() -> None:
    s = finished_3p(**OLD)
    assert s.returns() == [-0.5, 1.0, -0.5]
    # a record that names no rules version predates them and is scored by them
    record = Record.start(AthosGame(players=3))
    del record.options["rules"]
    assert record.make_game().options["rules"] == RULES_ORIGINAL


# --- ATH-V1: the tie-break and the turns of a team ---------------------------------------------------


TEAM_END = {
    "round": 30,
    "phase": "move",
    "to_move": 3,
    "monks": [[], [], [], ["s16"]],
    # A (seat 0), D (1), B (2): three each; E (3) two: B's third arrival completed A+B
    "arrivals": [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3],
    "unused": [2, 4, 5, 3],
}


def test_ath_v1_the_tie_break_counts_the_points_of_the_player_who_completed_the_team() -> None:
    game = AthosGame(players=4, teams=True)
    s = position(game, options={"players": 4, "teams": True}, **TEAM_END)
    assert s.finishers == [2]  # B's arrival completed A+B, not A's (issue 16)
    play(s, "s16-summit", "end-move", "end-turn")
    # E brings in D+E's last monk with 6 - 1 = 5 points left; B had kept 5: the teams share the win
    assert s.finishers == [2, 3] and s.unused == [2, 4, 5, 5]
    assert s.returns() == [0.0, 0.0, 0.0, 0.0]
    assert s.result_text() == "red (A) and green (B) and blue (D) and yellow (E) share the win"
    with pytest.raises(PositionError, match="completed"):
        position(game, options={"players": 4, "teams": True}, finishers=[0], **TEAM_END)


def test_ath_v1_a_player_whose_monks_have_all_arrived_keeps_taking_turns() -> None:
    game = AthosGame(players=4, teams=True)
    s = position(
        game,
        options={"players": 4, "teams": True},
        round=12,
        to_move=0,
        phase="move",
        monks=[[], ["D", "D", "D"], ["B", "B", "B"], ["E", "E", "E"]],
        arrivals=[0, 0, 0],
        tiles=[{"field": "k8", "side": "rubble"}],
    )
    assert s.current_player == 0 and s.phase == MOVE
    assert legal(s) == {"flip k8", "end-move"}  # no monk to move; a flip for 4 of the 6 points
    play(s, "flip k8", "end-move")
    assert s.phase == STONE and s.unused[0] == 2
    assert "stone k8" in legal(s) or any(m.startswith("relocate") for m in legal(s))
    assert any(m.startswith("place ") for m in legal(s))
    play(s, "end-turn")
    assert s.current_player == 1


# --- ATH-V2: handicap tiles on any free field, whatever the terrain -------------------------------------


def test_ath_v2_a_handicap_tile_may_be_of_another_terrain_than_its_field() -> None:
    options = {"handicap_player": 0, "handicap_tiles": 2}
    s = AthosGame(**options).new_initial_state()
    b = s.board
    m8 = b.field("m8")
    assert b.terrains[b.terrain[m8]] == "meadow"
    moves = legal(s)
    assert {"place m8", "place m8 open", "place m8 forest", "place m8 open vine"} <= moves
    assert "place m8 meadow" not in moves  # that one is written 'place m8'
    play(s, "place m8 open forest")
    assert s.tile[m8] == OPEN and b.terrains[s.tile_terrain[m8]] == "forest"
    assert s.supply == [16, 15, 16, 16, 16]
    assert s.to_position()["tiles"] == [{"field": "m8", "side": "open", "terrain": "forest"}]
    again = s.game.state_from_json(s.to_json())
    assert again.tile_terrain[m8] == s.tile_terrain[m8] and again.legal_actions() == s.legal_actions()
    # outside the handicap, tiles go on fields of their own terrain (ATH-T8)
    play(s, "place k8 vine")
    assert s.phase == MOVE
    play(s, "end-move")
    refused = s.explain_illegal(s.string_to_action("place k2 forest"))
    assert "own terrain (ATH-T8)" in refused


def test_ath_v2_a_field_whose_terrain_is_used_up_still_takes_a_handicap_tile() -> None:
    options = {"handicap_player": 1, "handicap_tiles": 3}
    game = AthosGame(**options)
    b = game.board
    meadows = [b.names[f] for f in b.fields_of_terrain[b.terrains.index("meadow")]]
    free_meadow = meadows[16]
    tiles = [{"field": x, "side": "open"} for x in meadows[:16]]
    s = position(game, options=options, phase="handicap", to_move=1, handicap_left=3, tiles=tiles)
    moves = legal(s)
    assert f"place {free_meadow}" not in moves and f"place {free_meadow} forest" in moves
    old = position(
        AthosGame(**options, **OLD),
        options={**options, **OLD},
        phase="handicap",
        to_move=1,
        handicap_left=3,
        tiles=tiles,
    )
    assert not any(m.startswith(f"place {free_meadow}") for m in legal(old))
    assert "rulings of 2026-11-23" in old.explain_illegal(old.string_to_action(f"place {free_meadow} forest"))


# --- ATH-V3: monks may enter and cross a bare-stone field ------------------------------------------


def test_ath_v3_monks_enter_and_cross_a_bare_stone_field() -> None:
    options = {"bare_stone": True}
    s = position(
        AthosGame(**options),
        options=options,
        phase="move",
        stones=[{"field": "h1", "player": 1}],
        stones_left=[2, 1],
    )
    play(s, "B-h1")
    h1 = s.board.field("h1")
    assert s.stone[h1] == 1 and h1 in s.monks[0]
    assert "h1-i2" in legal(s)
    play(s, "h1-i2")
    assert h1 not in s.monks[0] and s.path_rule_holds()
    # and a monk may stay on it: the stone keeps tiles off the field, not monks
    play(s, "B-h1", "end-move")
    assert s.phase == STONE and h1 in s.monks[0]


# --- records of games played by the rulings of 2026-11-23 ---------------------------------------------


def race_record(rules: str) -> Record:
    """A 3-player game: A and C race their monks to the summit, E never moves (A wins; C has monks
    in, E none), written as a record; ``end-turn`` after every movement."""
    game = AthosGame(players=3, rules=rules)
    record = Record.start(game, seed=0)
    s = game.new_initial_state()
    b = game.board
    while not s.is_terminal():
        legal = s.legal_actions()
        choice = game.action_space.encode("end_turn" if s.phase != MOVE else "end_move")
        if s.phase == MOVE and s.seat != 2:
            dist = s.distances()
            for a in legal:
                if a in game.action_space["step"]:
                    u, v = b.edges[a]
                    if dist[v] < dist[u] and (v >= b.n or not s.occupants[v]):
                        choice = a
                        break
        record.apply(s, choice)
    return record


def test_ath_e4_an_old_record_keeps_its_result_by_the_rulings_it_was_played_under() -> None:
    record = race_record(RULES_ORIGINAL)
    assert record.result is not None and record.result["returns"] == [1.0, -0.5, -0.5]
    doc = record.to_json()
    del doc["options"]["rules"]  # written before the rules versions existed
    old = Record.from_json(doc)
    state = old.replay()
    old.check_result(state)  # the result it had
    assert state.score_details()["arrived"][1] > 0 == state.score_details()["arrived"][2]
    # by the amended ATH-E4 the same game ranks C above E
    old.options["rules"] = "2026-11-25"
    with pytest.raises(RecordError, match=r"states returns \[1.0, -0.5, -0.5\].*\[1.0, 0.0, -1.0\]"):
        old.check_result(old.replay())
    assert race_record("2026-11-25").result["returns"] == [1.0, 0.0, -1.0]  # type: ignore[index]
