"""Hand-built positions for each Athos ruling (IDs of RULINGS.md in every test name)."""

from __future__ import annotations

import pytest

from palaestra.core.errors import IllegalActionError, NotationError
from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import MOVE, OPEN, OVER, PLACE, RELOCATED, RUBBLE, STONE, AthosState

from .helpers import cut_off_monks, play, position

# Row 13 of the shipped board is crossed by every path from the lower rows to the summit
# (its two other hexes are cliffs): f13 h13 (vine) l13 n13 (heath) r13 t13 (vine).
ROW13 = ["f13", "h13", "l13", "n13", "r13", "t13"]


def rubble(*fields: str) -> list[dict[str, str]]:
    return [{"field": f, "side": "rubble"} for f in fields]


def tile_on(s: AthosState, name: str) -> int:
    return s.tile[s.board.field(name)]


def legal_strings(s: AthosState) -> set[str]:
    return {s.action_to_string(a) for a in s.legal_actions()}


# --- set-up ---------------------------------------------------------------------------------------
def test_ath_b3_supply_monks_and_stones() -> None:
    s = AthosGame(players=4).new_initial_state()
    assert s.supply == [16] * 5
    assert [len(m) for m in s.monks] == [3, 3, 3, 3]
    assert s.stones_left == [2, 2, 2, 2]


@pytest.mark.parametrize(("players", "starts"), [(2, "BD"), (3, "ACE"), (4, "ABDE")])
def test_ath_s1_start_fields_by_player_count(players: int, starts: str) -> None:
    g = AthosGame(players=players)
    s = g.new_initial_state()
    assert [g.board.names[m[0]] for m in s.monks] == list(starts)
    assert all(len(set(m)) == 1 for m in s.monks)  # all three monks on their start field


def test_ath_s2_seat_order_left_to_right_and_settable() -> None:
    g = AthosGame(players=3)
    assert g.seats == "ACE"
    s = g.new_initial_state()
    assert s.current_player == 0 and g.player_name(0).endswith("(A)")
    play(s, "end-move", "end-turn")
    assert s.current_player == 1
    g2 = AthosGame(players=2, order="DB")
    assert g2.player_name(0).endswith("(D)")
    assert g2.new_initial_state().monks[0][0] == g2.board.field("D")
    with pytest.raises(Exception, match="order"):
        AthosGame(players=2, order="AB")


# --- movement -------------------------------------------------------------------------------------
def test_ath_t1_six_points_split_among_monks_and_lapse() -> None:
    s = AthosGame().new_initial_state()
    assert s.points == 6
    play(s, "B-h1", "h1-i2", "B-j1", "B-A", "A-d1", "d1-e2")
    assert s.points == 0
    assert legal_strings(s) == {"end-move"}
    play(s, "end-move", "end-turn")
    assert s.points == 6 and s.current_player == 1
    play(s, "D-p1", "end-move", "end-turn")
    assert s.points == 6  # unused points of the last turn lapsed


def test_ath_t2_rubble_blocks_open_tile_does_not() -> None:
    s = position(
        monks=[["B", "B", "h1"], ["D", "D", "D"]],
        tiles=[
            {"field": "i2", "side": "rubble"},
            {"field": "g2", "side": "open"},
        ],
    )
    assert "h1-i2" not in legal_strings(s)
    assert "holds rubble" in s.explain_illegal(s.string_to_action("h1-i2"))
    assert "h1-g2" in legal_strings(s)
    play(s, "h1-g2")  # an open tile is an ordinary field


def test_ath_t3_pass_through_costs_one_and_end_move_refused_on_a_double() -> None:
    s = position(monks=[["B", "h1", "j1"], ["D", "D", "D"]])
    play(s, "h1-j1")  # onto a monk: allowed while moving, costs 1
    assert s.points == 5
    assert "end-move" not in legal_strings(s)
    with pytest.raises(IllegalActionError, match="two monks"):
        s.apply_action(s.string_to_action("end-move"))
    play(s, "j1-k2")
    assert s.points == 4 and "end-move" in legal_strings(s)


def test_ath_t3_no_step_that_leaves_an_unresolvable_double() -> None:
    # h1 monk with 1 point left: stepping onto j1 (occupied) would leave two monks on j1
    s = position(monks=[["B", "h1", "j1"], ["D", "D", "D"]], points=1)
    assert "h1-j1" not in legal_strings(s)
    assert "ATH-T3" in s.explain_illegal(s.string_to_action("h1-j1"))
    s2 = position(monks=[["B", "h1", "j1"], ["D", "D", "D"]], points=2)
    assert "h1-j1" in legal_strings(s2)


def test_ath_t3_several_doubled_fields_while_moving_resolved_before_the_end() -> None:
    # only the end of the movement counts: two fields may hold two monks at once meanwhile
    s = position(monks=[["B", "h1", "m2"], ["j1", "n3", "D"]])
    play(s, "h1-j1", "m2-n3")  # j1 and n3 both hold a red and a blue monk
    assert s.crowded_fields() == [s.board.field("j1"), s.board.field("n3")]
    assert "end-move" not in legal_strings(s)
    assert "j1, n3 holds two monks" in s.explain_illegal(s.string_to_action("end-move"))
    play(s, "j1-k2", "n3-o4")
    assert "end-move" in legal_strings(s)


def test_ath_t3_a_step_onto_a_monk_may_count_on_an_arrival_bonus_still_to_come() -> None:
    # u14 touches only t13, s14 and t15; s14 and t15 are rubble; blue stands on t13 and u14
    s = position(monks=[["u12", "o16", "B"], ["t13", "u14", "D"]], tiles=rubble("s14", "t15"), points=3)
    play(s, "u12-t13")  # 2 points left; back to u12 is always possible
    assert "t13-u14" in legal_strings(s)
    play(s, "t13-u14")  # 1 point left, and u14 is two steps from any free field ...
    assert "end-move" not in legal_strings(s)
    # ... so the last point may only go to the arrival that brings 3 more (ATH-T6)
    assert {m for m in legal_strings(s)} == {"o16-summit"}
    assert "ATH-T3" in s.explain_illegal(s.string_to_action("B-h1"))
    play(s, "o16-summit", "u14-t13", "t13-u12", "end-move")
    assert s.unused[0] == 1
    # without a monk beside the summit the same step is refused
    s2 = position(monks=[["u12", "B", "B"], ["t13", "u14", "D"]], tiles=rubble("s14", "t15"), points=3)
    play(s2, "u12-t13")
    assert "t13-u14" not in legal_strings(s2)
    assert "could not be separated" in s2.explain_illegal(s2.string_to_action("t13-u14"))


def test_ath_t3_flip_with_a_double_pending_must_leave_a_way_out() -> None:
    s3 = position(
        monks=[["B", "B", "h1"], ["j1", "D", "D"]],
        tiles=rubble("i2", "k2", "l1"),
        points=5,
    )
    # j1 can be left only for h1 or B; with 4 points left after the step that is possible
    play(s3, "h1-j1")
    assert "end-move" not in legal_strings(s3)
    assert {m for m in legal_strings(s3) if m.startswith("j1-")} == {"j1-h1", "j1-B"}
    # a flip would spend the last 4 points and leave two monks on j1
    assert "flip i2" not in legal_strings(s3)
    assert "ATH-T3" in s3.explain_illegal(s3.string_to_action("flip i2"))
    play(s3, "j1-h1")
    assert "end-move" in legal_strings(s3)


def test_ath_t4_start_fields_entered_and_crossed() -> None:
    s = AthosGame().new_initial_state()
    play(s, "B-C", "C-D", "D-E", "E-v1")  # own, the opponent's and free start fields: one point each
    assert s.points == 2
    assert s.board.names[s.monks[0][-1]] == "v1"


def test_ath_t5_flip_costs_four_not_under_monk_or_stone() -> None:
    s = position(
        monks=[["B", "B", "k2"], ["D", "D", "D"]],
        tiles=[
            {"field": "k2", "side": "open"},
            {"field": "m2", "side": "rubble"},
            {"field": "o2", "side": "rubble"},
        ],
        stones=[{"field": "o2", "player": 1}],
        stones_left=[2, 1],
    )
    assert "flip m2" in legal_strings(s)
    assert "flip k2" not in legal_strings(s)
    assert "monk stands" in s.explain_illegal(s.string_to_action("flip k2"))
    assert "protects" in s.explain_illegal(s.string_to_action("flip o2"))
    play(s, "flip m2")
    assert s.points == 2 and tile_on(s, "m2") == OPEN
    assert "flip m2" not in legal_strings(s)
    assert "costs 4" in s.explain_illegal(s.string_to_action("flip m2"))
    # open to rubble again with enough points (several flips are allowed)
    # (8 points: a monk arrived this turn with the first arrival's 3 bonus points, ATH-T6; the
    # loader refuses more points than a turn can have)
    s2 = position(
        monks=[["B", "B"], ["D", "D", "D"]], arrivals=[0], points=8, tiles=[{"field": "m2", "side": "open"}]
    )
    play(s2, "flip m2", "flip m2")
    assert tile_on(s2, "m2") == OPEN and s2.points == 0


# --- arrival --------------------------------------------------------------------------------------
def test_ath_t6_bonus_table_across_players() -> None:
    g = AthosGame(players=3)
    s = position(g, monks=[["g16", "i16", "k16"], ["m16", "o16", "D"], ["q16", "E", "E"]])
    play(s, "g16-summit")
    assert s.points == 5 + 3  # 1st arrival: 3
    play(s, "i16-summit")
    assert s.points == 7 + 3  # 2nd arrival: 3
    play(s, "end-move", "end-turn")
    play(s, "m16-summit")
    assert s.points == 5 + 2  # 3rd arrival: 2 (another player)
    play(s, "o16-summit")
    assert s.points == 6 + 2  # 4th: 2
    play(s, "end-move", "end-turn")
    play(s, "q16-summit")
    assert s.points == 5 + 1  # 5th: 1 (a third player)
    assert s.arrivals == [0, 0, 1, 1, 2]
    play(s, "end-move", "end-turn")
    play(s, "k16-summit")
    assert s.points == 5  # 6th: none
    assert s.scores() == [3.0, 2.0, 1.0]


def test_ath_t6_bonus_lapses_with_the_movement_phase() -> None:
    s = position(monks=[["g16", "B", "B"], ["D", "D", "D"]])
    play(s, "g16-summit", "end-move")
    assert s.unused[0] == 8
    play(s, "end-turn", "end-move", "end-turn")
    assert s.points == 6


# --- the path rule ----------------------------------------------------------------------------------
def test_ath_p1_placement_may_not_seal_the_last_corridor() -> None:
    s = position(
        monks=[["B", "B", "B"], ["D", "D", "D"]],
        tiles=rubble(*ROW13[:-1]),
        phase="stone",
        points=0,
    )
    assert "place t13" not in legal_strings(s)
    assert "ATH-P1" in s.explain_illegal(s.string_to_action("place t13"))
    with pytest.raises(IllegalActionError, match="cut a monk off"):
        s.apply_action(s.string_to_action("place t13"))
    assert "place s14" in legal_strings(s)  # above the wall: harmless


def test_ath_p1_sealing_allowed_when_no_monk_is_cut_off() -> None:
    # every monk in play is above row 13: the wall may close (start fields need no path)
    s = position(
        monks=[["n15", "o14"], ["p15", "s14", "u14"]],
        arrivals=[0],
        tiles=rubble(*ROW13[:-1]),
        phase="place",
        points=0,
    )
    assert "place t13" in legal_strings(s)
    play(s, "place t13")
    assert cut_off_monks(s) == []


def test_ath_p1_flip_to_rubble_may_not_seal() -> None:
    s = position(
        monks=[["B", "B", "B"], ["D", "D", "D"]],
        tiles=[*rubble(*ROW13[:-1]), {"field": "t13", "side": "open"}, {"field": "d1", "side": "open"}],
    )
    assert "flip t13" not in legal_strings(s)
    assert "ATH-P1" in s.explain_illegal(s.string_to_action("flip t13"))
    assert "flip d1" in legal_strings(s)


def test_ath_p1_relocation_may_not_seal_but_may_shift_the_gap() -> None:
    s = position(
        monks=[["B", "B", "B"], ["D", "D", "D"]],
        tiles=rubble(*ROW13[:-1], "k8"),
        phase="stone",
        points=0,
    )
    moves = legal_strings(s)
    assert "relocate k8>t13" not in moves  # would seal the last corridor
    assert "ATH-P1" in s.explain_illegal(s.string_to_action("relocate k8>t13"))
    assert "relocate l13>t13" in moves  # opens l13 while closing t13
    play(s, "relocate l13>t13")
    assert tile_on(s, "l13") == 0 and tile_on(s, "t13") == RUBBLE
    assert cut_off_monks(s) == []


def test_ath_p1_path_may_cross_start_fields() -> None:
    # B's monks stand on B; everything in front of A..E is rubble except in front of E (t1, v1)
    front = ["d1", "f1", "h1", "j1", "l1", "n1", "p1", "r1"]
    s = position(monks=[["B", "B", "B"], ["D", "D", "D"]], tiles=rubble(*front[:-1]), phase="stone", points=0)
    assert cut_off_monks(s) == []  # B reaches the mountain over C, D, E
    assert "place r1" in legal_strings(s)
    play(s, "place r1", "place t1")
    assert "place v1" not in legal_strings(s)  # v1 is now the only way up for everybody
    assert "ATH-P1" in s.explain_illegal(s.string_to_action("place v1"))


# --- Athos stone ------------------------------------------------------------------------------------
def test_ath_t7_relocation_keeps_side_any_terrain_then_stone() -> None:
    s = position(
        monks=[["B", "B", "B"], ["D", "D", "D"]],
        tiles=[{"field": "m2", "side": "open"}, {"field": "k8", "side": "rubble"}],
        phase="stone",
        points=0,
    )
    play(s, "relocate m2>e14")  # a heath tile onto a vine field, open side kept
    assert tile_on(s, "e14") == OPEN and s.phase == RELOCATED
    assert s.tile_terrain[s.board.field("e14")] == s.board.terrains.index("heath")
    assert legal_strings(s) == {"stone e14", "stone k8"}  # the stone must be put now
    play(s, "stone e14")
    assert s.stones_left[0] == 1 and s.phase == PLACE
    assert "stone k8" not in legal_strings(s)  # once per turn
    play(s, "end-turn", "end-move")
    assert "relocate e14>e12" not in legal_strings(s)  # protected: never relocated ...
    assert "protects" in s.explain_illegal(s.string_to_action("relocate e14>e12"))


@pytest.mark.slow
def test_ath_t7_stone_protects_tile_with_a_monk_and_twice_per_game() -> None:
    s = position(
        monks=[["B", "B", "k2"], ["D", "D", "D"]],
        tiles=[{"field": "k2", "side": "open"}],
        phase="stone",
        points=0,
        stones=[{"field": "k2", "player": 0}],
        stones_left=[1, 2],
    )
    # the only tile holds a monk and a stone: no relocation possible; the stone may still go on it
    # (ATH-T7 as amended 2026-11-25: "auf jedes beliebige Geländekärtchen"; the rulings of 2026-11-23
    # refused a second stone)
    assert legal_strings(s) == {"end-turn", "stone k2"} | {
        f"place {s.board.names[f]}" for f in range(s.board.n) if s.board.names[f] != "k2"
    }
    s2 = position(
        monks=[["B", "B", "k2"], ["D", "D", "D"]],
        tiles=[{"field": "k2", "side": "open"}, {"field": "m2", "side": "rubble"}],
        phase="stone",
        points=0,
    )
    # a relocation is possible (m2), so the stone cannot go straight onto k2
    assert "stone k2" not in legal_strings(s2)
    assert "first relocate" in s2.explain_illegal(s2.string_to_action("stone k2"))
    s3 = position(
        monks=[["B", "B", "k2"], ["D", "D", "D"]],
        tiles=[{"field": "k2", "side": "open"}],
        phase="stone",
        points=0,
    )
    # no tile can be relocated (a monk stands on the only one): (a) is skipped
    assert "stone k2" in legal_strings(s3)
    play(s3, "stone k2")
    assert s3.stone[s3.board.field("k2")] == 0
    s4 = position(
        monks=[["B", "B", "B"], ["D", "D", "D"]],
        tiles=rubble("k8"),
        phase="stone",
        points=0,
        stones_left=[0, 2],
        stones=[],
    )
    assert not any(m.startswith(("relocate", "stone")) for m in legal_strings(s4))
    assert "no Athos stone left" in s4.explain_illegal(s4.string_to_action("relocate k8>m8"))


# --- placement --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "total", "per"), [(2, 8, 2), (3, 5, 2), (4, 4, 1)])
def test_ath_t8_placement_limits(players: int, total: int, per: int) -> None:
    g = AthosGame(players=players)
    s = g.new_initial_state()
    play(s, "end-move")
    by_terrain: dict[int, list[str]] = {}
    for f in range(s.board.n):
        if s.board.rows[f] > 5:
            by_terrain.setdefault(s.board.terrain[f], []).append(s.board.names[f])
    placed = 0
    for t in range(5):
        for name in by_terrain[t][:per]:
            if placed < total:
                play(s, f"place {name}")
                assert tile_on(s, name) == RUBBLE
                placed += 1
        extra = by_terrain[t][per]
        if placed < total:
            assert "per terrain" in s.explain_illegal(s.string_to_action(f"place {extra}"))
    assert placed == total
    assert f"{total} tiles per turn" in s.explain_illegal(s.string_to_action(f"place {by_terrain[4][-1]}"))
    assert legal_strings(s) == {"end-turn"}


def test_ath_t8_tiles_go_on_free_fields_rubble_side_up_and_run_out() -> None:
    s = position(
        monks=[["B", "B", "k2"], ["D", "D", "D"]],
        phase="stone",
        points=0,
        tiles=[
            {"field": f, "side": "rubble", "terrain": "forest"}
            for f in [
                "h3",
                "j3",
                "p3",
                "r3",
                "g4",
                "i4",
                "q4",
                "s4",
                "i2",
                "q2",
                "h9",
                "j9",
                "p9",
                "r9",
                "g10",
                "i10",
            ]
        ],
    )
    assert s.supply[s.board.terrains.index("forest")] == 0
    assert "used up" in s.explain_illegal(s.string_to_action("place q10"))
    assert "monk stands" in s.explain_illegal(s.string_to_action("place k2"))
    assert "already holds" in s.explain_illegal(s.string_to_action("place h3"))
    assert "rubble side up" in s.explain_illegal(s.string_to_action("place m2 open"))
    with pytest.raises(NotationError, match="start field"):
        s.string_to_action("place B")


def test_ath_t9_turn_ends_with_placement_phase_even_without_tiles() -> None:
    s = AthosGame().new_initial_state()
    play(s, "end-move")
    assert s.phase == STONE and "end-turn" in legal_strings(s)
    play(s, "end-turn")
    assert s.current_player == 1 and s.phase == MOVE
    assert "end-turn" not in legal_strings(s)  # movement first


# --- end of the game ----------------------------------------------------------------------------------
def test_ath_e1_round_is_finished_after_a_third_monk() -> None:
    s = position(monks=[["g16"], ["D", "D", "D"]], arrivals=[0, 0])
    play(s, "g16-summit", "end-move", "end-turn")
    assert not s.is_terminal() and s.current_player == 1 and s.final_round
    assert s.returns() == [0.0, 0.0]
    play(s, "D-p1", "end-move", "end-turn")
    assert s.is_terminal() and s.phase == OVER
    assert s.returns() == [1.0, -1.0]
    assert s.result_text() == "red (B) wins"


def test_ath_e1_e2_last_seat_completing_ends_at_once_with_tie_break() -> None:
    # both complete in the same round: the most unused points in the final movement phase wins
    s = position(monks=[["h15"], ["i16"]], arrivals=[0, 0, 1, 1])
    play(s, "h15-g16", "g16-summit")  # 5th arrival: +1 -> 5 left
    assert s.points == 5
    play(s, "end-move", "end-turn", "i16-summit")  # 6th: no bonus -> 5 left
    play(s, "end-move")
    assert s.unused == [5, 5]
    play(s, "end-turn")
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.0]  # equal: the win is shared
    assert "share the win" in s.result_text()


def test_ath_e2_tie_break_by_unused_points_including_bonus() -> None:
    s = position(monks=[["g16"], ["j15"]], arrivals=[0, 0, 1, 1])
    play(s, "g16-summit", "end-move", "end-turn")  # 6 - 1 + 1 = 6 unused
    play(s, "j15-i16", "i16-summit", "end-move", "end-turn")  # 6 - 2 = 4 unused
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_ath_e3_round_limit_ranks_by_arrivals_then_distance() -> None:
    g = AthosGame(players=3, round_limit=1)
    s = position(g, monks=[["B", "B", "B"], ["g16", "D"], ["i16", "E"]], arrivals=[1, 2])
    play(s, "end-move", "end-turn", "end-move", "end-turn")
    assert not s.is_terminal()
    play(s, "E-v1", "end-move", "end-turn")
    assert s.is_terminal()
    # players 1 and 2 have one arrival each; player 2 is one step nearer (v1 instead of E)
    assert s.side_ranks() == [2, 1, 0]
    assert s.returns() == [-1.0, 0.0, 1.0]
    assert "round limit" in s.result_text()


# --- variants ---------------------------------------------------------------------------------------
def test_ath_v1_teams_seats_adb_e_and_six_monks_to_win() -> None:
    g = AthosGame(players=4, teams=True)
    assert g.seats == "ADBE" and g.max_tiles == 4 and g.max_per_terrain == 1
    s = position(g, monks=[[], ["D", "D", "D"], ["g16"], ["E", "E", "E"]], arrivals=[0, 0, 0, 2, 2])
    assert s.scores() == [5.0, 0.0, 5.0, 0.0]
    play(s, "end-move", "end-turn")  # A has no monk left but still takes turns
    play(s, "end-move", "end-turn")
    play(s, "g16-summit", "end-move", "end-turn")
    assert s.final_round and not s.is_terminal()
    play(s, "end-move", "end-turn")
    assert s.is_terminal()
    assert s.returns() == pytest.approx([2 / 3, -2 / 3, 2 / 3, -2 / 3])  # returns_from_ranks
    assert s.result_text() == "red (A) and green (B) win"
    with pytest.raises(Exception, match="4 players"):
        AthosGame(players=2, teams=True)


def test_ath_v2_handicap_placements_before_the_first_turn() -> None:
    g = AthosGame(players=2, handicap_player=1, handicap_tiles=2)
    s = g.new_initial_state()
    assert s.current_player == 1 and s.phase != MOVE
    moves = legal_strings(s)
    assert "place k8 open" in moves and "place k8" in moves
    play(s, "place k8 open", "place m8")
    assert tile_on(s, "k8") == OPEN and tile_on(s, "m8") == RUBBLE
    assert s.current_player == 0 and s.phase == MOVE and s.round == 1
    with pytest.raises(Exception, match="at least 2"):
        AthosGame(handicap_player=0, handicap_tiles=1)
    with pytest.raises(Exception, match="handicap_player"):
        AthosGame(handicap_tiles=3)


def test_ath_v2_handicap_obeys_the_path_rule() -> None:
    g = AthosGame(players=2, handicap_player=0, handicap_tiles=3)
    s = position(g, phase="handicap", handicap_left=1, tiles=rubble(*ROW13[:-1]))
    assert "place t13" not in legal_strings(s)
    assert "place t13 open" in legal_strings(s)


def test_ath_v3_bare_stone_keeps_tiles_off() -> None:
    g = AthosGame(bare_stone=True)
    s = position(g, phase="stone", points=0)
    assert "stone k8" in legal_strings(s)  # no tile on the board at all
    play(s, "stone k8")
    assert "place k8" not in legal_strings(s)
    assert "Athos stone stands" in s.explain_illegal(s.string_to_action("place k8"))
    s2 = position(
        g,
        phase="stone",
        points=0,
        tiles=rubble("m8"),
        stones=[{"field": "k8", "player": 1}],
        stones_left=[2, 1],
    )
    assert "relocate m8>k8" not in legal_strings(s2)
    s3 = position(AthosGame(), phase="stone", points=0)
    assert not any(m.startswith("stone") for m in legal_strings(s3))
