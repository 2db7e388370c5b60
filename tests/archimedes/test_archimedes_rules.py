"""Hand-built positions for every Archimedes ruling (ARC-S*, ARC-M*, ARC-E1)."""

from __future__ import annotations

from typing import Any

import pytest

import palaestra
from palaestra.core.errors import IllegalActionError
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState
from tests.archimedes.archimedes_reference import Ref


def game(players: int = 2, **options: Any) -> ArchimedesGame:
    g = palaestra.load_game("archimedes", players=players, **options)
    assert isinstance(g, ArchimedesGame)
    return g


def position(cubes: list[list[str]], to_move: int = 0, **extra: Any) -> ArchimedesState:
    doc = {"game": "archimedes", "cubes": cubes, "to_move": to_move, **extra}
    return game(len(cubes)).state_from_position(doc)


def moves(s: ArchimedesState) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def play(s: ArchimedesState, *texts: str) -> None:
    for t in texts:
        s.apply_action(s.string_to_action(t))


def why(s: ArchimedesState, text: str) -> str:
    return s.explain_illegal(s.string_to_action(text))


def dist(s: ArchimedesState, cell: str) -> int:
    return s.distance(s.game.board.cell(cell))


def check_against_reference(s: ArchimedesState) -> None:
    ref = Ref([s.cubes(p) for p in range(s.game.num_players)], s.current_player, s.game.revisit)
    assert sorted(moves(s)) == ref.moves()


# --- set-up --------------------------------------------------------------------------------------
def test_arc_s1_two_player_setup() -> None:
    s = game().new_initial_state()
    assert s.cubes(0) == ["a2", "a4", "a6", "a8"]
    assert s.cubes(1) == ["h2", "h4", "h6", "h8"]
    assert s.current_player == 0  # player 1 begins
    assert s.game.goal_sides == ("N", "S")
    assert s.game.player_name(0) == "player 1 (S)"


def test_arc_s2_three_player_setup_and_turn_order() -> None:
    s = game(3).new_initial_state()
    assert s.cubes(0) == ["a2", "a4", "a6", "a8"]
    assert s.cubes(1) == ["e15", "f13", "g11", "h9"]
    assert s.cubes(2) == ["e1", "f1", "g1", "h1"]
    assert s.game.goal_sides == ("N", "SW", "SE")
    order = []
    for _ in range(4):
        order.append(s.current_player)
        s.apply_action(s.legal_actions()[0])
    assert order == [0, 1, 2, 0]


# --- distance (ARC-M1) ---------------------------------------------------------------------------
def test_arc_m1_distance_counts_cubes_in_the_three_rows() -> None:
    s = game().new_initial_state()
    # a2: row a holds the four cubes of player 1; its other two rows are empty
    assert dist(s, "a2") == 4
    s3 = game(3).new_initial_state()
    # with three players the rows through a2 also hold h9 (row y) and e1 (row z): any colour counts
    assert dist(s3, "a2") == 6


def test_arc_m1_each_cube_counted_once() -> None:
    # a3 shares two rows with a2 (the same x and y): it counts once
    s = position([["a2", "a3", "e8", "c13"], ["h2", "h4", "h6", "h8"]])
    assert dist(s, "a2") == 2


def test_arc_m1_lone_cube_moves_one_step_and_is_not_another_cube() -> None:
    # e8 shares no row with any other cube: distance 1 (itself); its neighbours touch only e8
    # itself, which is not "another cube" (ARC-M3)
    s = position([["e8", "a4", "c12", "g2"], ["h5", "h6", "b6", "d2"]])
    assert dist(s, "e8") == 1
    assert [m for m in moves(s) if m.startswith("e8")] == ["e8-e7", "e8-e9", "e8-f7"]
    check_against_reference(s)


# --- paths (ARC-M2) --------------------------------------------------------------------------------
def test_arc_m2_exact_length_paths_that_turn() -> None:
    s = game().new_initial_state()
    assert moves(s) == ["a2-b4", "a2-c2", "a2-c4", "a8-b8", "a8-c10", "a8-c12"]
    b = s.game.board
    # c4 lies in none of the three rows through a2: the path a2-a1-b2-b3-c4 must turn
    a2, c4 = b.coords[b.cell("a2")], b.coords[b.cell("c4")]
    assert all(a2[k] != c4[k] for k in range(3))
    # b2 is two steps away: a move goes exactly the distance (4)
    assert "a2-b2" not in moves(s)
    assert "exactly 4 steps" in why(s, "a2-b2")
    assert why(s, "a2-e2") == "no path of exactly 4 steps from a2 reaches e2 (distance 4: ARC-M1, ARC-M2)"


def test_arc_m2_two_paths_to_one_cell_are_one_move() -> None:
    s = position([["e8", "a4", "c12", "g2"], ["h5", "h6", "b6", "d2"]])
    actions = s.legal_actions()
    assert len(actions) == len(set(actions))
    # e8 with distance 3 (add cubes to its rows): many paths, each end once
    t = position([["e8", "e2", "a1", "c12"], ["h5", "h6", "b6", "d2"]])
    assert dist(t, "e8") == 3
    ends = [m for m in moves(t) if m.startswith("e8-")]
    assert len(ends) == len(set(ends))
    check_against_reference(t)


def test_arc_m2_never_revisits_and_never_ends_on_start() -> None:
    # e8 with distance 2: the path e8-e7-e8 would end on the start
    s = position([["e8", "e2", "a4", "c12"], ["h5", "h6", "b6", "d2"]])
    assert dist(s, "e8") == 2
    assert "e8-e8" not in moves(s)
    assert why(s, "e8-e8") == "a move may not end on its start cell e8 (ARC-M2)"
    # distance 3 reaches no neighbour without revisiting (the smallest cycle has six cells)
    t = position([["e8", "e2", "a1", "c12"], ["h5", "h6", "b6", "d2"]])
    assert not {"e8-e7", "e8-e9", "e8-f7"} & set(moves(t))


def test_arc_m2_revisit_option() -> None:
    cubes = [["e8", "e2", "a1", "c12"], ["h5", "h6", "b6", "d2"]]
    off = position(cubes)
    on = game(revisit=True).state_from_position({"cubes": cubes, "revisit": True})
    assert on.game.revisit and not off.game.revisit
    # with revisits a walk e8-e7-e8-e9 of 3 steps ends on a neighbour
    assert {"e8-e7", "e8-e9", "e8-f7"} <= set(moves(on))
    assert set(moves(off)) < set(moves(on))
    assert "e8-e8" not in moves(on)
    check_against_reference(on)
    # at the start, a2 may now walk a2-a1-b2-b1-b2
    start = game(revisit=True).new_initial_state()
    assert "a2-b2" in moves(start)


# --- no touching (ARC-M3) ----------------------------------------------------------------------------
M4_CUBES = [["g4", "e4", "c9", "a2"], ["b2", "b6", "f12", "d15"]]
M3_CUBES = [["g4", "e4", "c9", "a2"], ["b2", "b6", "f12", "h6"]]


def test_arc_m3_free_cell_touching_another_cube() -> None:
    free = position(M4_CUBES)
    touching = position(M3_CUBES)  # d15 replaced by a cube on h6, next to h5
    assert dist(free, "g4") == dist(touching, "g4") == 3
    assert "g4-h5" in moves(free)
    assert "g4-h5" not in moves(touching)
    assert why(touching, "g4-h5") == "h5 touches the cube on h6 (ARC-M3)"
    check_against_reference(touching)


def test_arc_m3_every_entered_cell_must_be_free() -> None:
    s = game().new_initial_state()
    # a4 is hemmed in: a3 touches a2, a5 touches a6
    assert not [m for m in moves(s) if m.startswith("a4")]
    assert "a3 touches the cube on a2" in why(s, "a4-b4") or "a5 touches the cube on a6" in why(s, "a4-b4")
    # a2 may not pass through a3 (it touches a4)
    assert "a2-a3-b4-b3-b2: a3 touches the cube on a4" in why(s, "a2-b2")


def test_arc_m3_occupied_end() -> None:
    s = position([["e8", "e2", "a4", "c12"], ["h5", "h6", "b6", "d2"]])
    assert why(s, "e8-e2") == "e2 is taken by a cube of player 1 (S)"


# --- early stop (ARC-M4) -------------------------------------------------------------------------
def test_arc_m4_stop_early_on_a_goal_cell() -> None:
    s = position(M4_CUBES)
    assert dist(s, "g4") == 3
    # h4 and h2 are goal cells two steps from g4 (g4-h3-h4, g4-h3-h2): the cube may stop there
    assert {"g4-h4", "g4-h2"} <= set(moves(s))
    # h3 (one step) is no goal, g6 (two steps) is no goal: no stopping there
    assert "g4-h3" not in moves(s)
    assert why(s, "g4-g6") == "no path of exactly 3 steps from g4 reaches g6 (distance 3: ARC-M1, ARC-M2)"
    # a path may also run over a goal cell and go on: g4-h3-h4-h5
    assert "g4-h5" in moves(s)
    check_against_reference(s)
    play(s, "g4-h4")
    assert s.arrived() == [1, 0]


def test_arc_m4_only_own_goal_cells() -> None:
    # player 2 (goal side S) on b2 with distance 3: a2 is player 2's goal one... b2-a1-a2 is 2 steps
    s = position(M4_CUBES, to_move=1)
    assert dist(s, "b2") == 3
    assert "b2-a1" not in moves(s)  # a1 is on side SW, no goal of player 2


# --- arrived cubes (ARC-M5) ----------------------------------------------------------------------
M5_CUBES = [["h4", "g4", "e4", "c9"], ["b2", "b6", "f12", "d15"]]


def test_arc_m5_arrived_cube_stays_counts_and_blocks() -> None:
    s = position(M5_CUBES)
    assert s.arrived() == [1, 0]
    assert not [m for m in moves(s) if m.startswith("h4")]
    assert why(s, "h4-h3") == "the cube on h4 has arrived and may not move any more (ARC-M5)"
    # it counts in the rows: g4's distance is g4, e4 (row y), c9 (row z) and h4 (row y)
    assert dist(s, "g4") == 4
    # and it blocks: h3 and h5 touch it, so g4 never enters them
    ref = Ref([s.cubes(0), s.cubes(1)])
    assert "h3" not in ref.ends("g4") and "h5" not in ref.ends("g4")
    assert why(s, "g4-h5") == "h5 touches the cube on h4 (ARC-M3)"
    check_against_reference(s)


def test_arc_m5_arrived_cube_blocks_the_goal_row_for_later_cubes() -> None:
    # h5 touches h4 and h6: a cube coming from g6 cannot enter h5 while h4 is occupied
    s = position([["h4", "g6", "a4", "c12"], ["b2", "b6", "f12", "d15"]])
    assert "g6-h6" not in moves(s)


# --- passing (ARC-M6) ----------------------------------------------------------------------------
def test_arc_m6_blocked_player_passes() -> None:
    # player 2's cubes on h2..h8: h1 touches g2 and h9 touches g10, the rest is hemmed in
    s = position([["g2", "g10", "a2", "a8"], ["h2", "h4", "h6", "h8"]], to_move=1)
    assert moves(s) == ["pass"]
    check_against_reference(s)
    play(s, "pass")
    assert s.current_player == 0 and s.passes == 1 and not s.is_terminal()
    play(s, "a2-b1")
    assert s.passes == 0


def test_arc_m6_no_pass_while_a_move_exists() -> None:
    s = game().new_initial_state()
    assert "pass" not in moves(s)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="cannot pass"):
        s.apply_action(s.game.pass_action)
    assert s.to_json() == before


ALL_PASS_2 = [["h2", "h6", "h8", "a6"], ["a2", "a4", "a8", "h4"]]
ALL_PASS_3 = [["g10", "h4", "h8", "g6"], ["d1", "g2", "g11", "g4"], ["h5", "g1", "h3", "g8"]]


def test_arc_m6_all_pass_ends_the_game_two_players() -> None:
    # each player: three cubes home, the fourth hemmed in between cubes (a6, h4)
    s = position(ALL_PASS_2)
    assert moves(s) == ["pass"]
    play(s, "pass")
    assert moves(s) == ["pass"]
    play(s, "pass")
    assert s.is_terminal() and s.end_reason == "passes"
    assert s.ranks() == [0, 0] and s.returns() == [0.0, 0.0]
    assert "every player passed in a row" in s.result_text()
    assert s.legal_actions() == []


def test_arc_m6_all_pass_ranked_by_arrived_cubes_three_players() -> None:
    s = position(ALL_PASS_3)
    assert s.arrived() == [2, 1, 0]
    for _ in range(3):
        assert moves(s) == ["pass"]
        check_against_reference(s)
        play(s, "pass")
    assert s.is_terminal() and s.end_reason == "passes"
    assert s.ranks() == [0, 1, 2]
    assert s.returns() == [1.0, 0.0, -1.0]
    assert s.scores() == [2.0, 1.0, 0.0]


def test_arc_m6_position_with_pending_passes() -> None:
    s = position(ALL_PASS_2, to_move=1, passes=1)
    play(s, "pass")
    assert s.is_terminal()
    assert position(ALL_PASS_2, passes=2).is_terminal()


# --- three-player release (ARC-M7) ----------------------------------------------------------------
def test_arc_m7_third_cube_waits_for_an_arrival() -> None:
    s = game(3).new_initial_state()
    start = {"a2", "a4", "a6", "a8"}
    while sum(1 for c in s.cubes(0) if c not in start) < 2:
        assert s.current_player == 0
        leaving = [m for m in moves(s) if m[:2] in start and m.split("-")[1] not in start]
        play(s, leaving[0] if leaving else moves(s)[0])
        play(s, moves(s)[0])  # players 2 and 3 play any move
        play(s, moves(s)[0])
    # two cubes out, none home: the two on start cells may not move, though a path exists
    assert s.current_player == 0
    waiting = [c for c in s.cubes(0) if c in start]
    assert len(waiting) == 2
    assert not [m for m in moves(s) if m[:2] in waiting]
    b = s.game.board
    generator = s.game.move_generator
    paths = [generator.search_ends(b.cell(c), dist(s, c), s.free_cells(b.cell(c)), 0) for c in waiting]
    assert any(paths)  # but for ARC-M7 one of them could move
    check_against_reference(s)


def test_arc_m7_release_after_an_arrival_on_the_position_alone() -> None:
    locked = position([["c4", "c10", "a4", "a6"], ["e15", "f13", "g11", "h9"], ["e1", "f1", "g1", "h1"]])
    assert not [m for m in moves(locked) if m[:2] in ("a4", "a6")]
    assert "ARC-M7" in why(locked, "a4-a3")
    # the same cubes in a 2-player game: no restriction
    two = position([["c4", "c10", "a4", "a6"], ["h2", "h4", "h6", "h8"]])
    assert [m for m in moves(two) if m[:2] in ("a4", "a6")]
    # one cube home (h4): a third cube may leave its start cell
    released = position([["h4", "c10", "a4", "a6"], ["e15", "f13", "g11", "h9"], ["e1", "f1", "g1", "h1"]])
    assert [m for m in moves(released) if m[:2] in ("a4", "a6")]
    check_against_reference(released)
    # a cube that went back to a start cell counts as on it: two out (c4, c10), a2 and a4 wait
    back = position([["c4", "c10", "a2", "a4"], ["e15", "f13", "g11", "h9"], ["e1", "f1", "g1", "h1"]])
    assert not [m for m in moves(back) if m[:2] in ("a2", "a4")]
    # with only one cube out, a cube on a start cell may still leave
    one = position([["c4", "a2", "a6", "a8"], ["e15", "f13", "g11", "h9"], ["e1", "f1", "g1", "h1"]])
    assert [m for m in moves(one) if m[:2] in ("a2", "a8")]


# --- the win (ARC-E1) ------------------------------------------------------------------------------
def test_arc_e1_fourth_cube_home_wins_at_once() -> None:
    s = position([["h4", "h6", "h8", "g2"], ["a2", "a4", "a6", "g8"]])
    assert dist(s, "g2") == 2
    assert "g2-h2" in moves(s)
    play(s, "g2-h2")
    assert s.is_terminal() and s.end_reason == "home"
    assert s.returns() == [1.0, -1.0]
    assert s.scores() == [4.0, 3.0]  # a2 a4 a6 are player 2's goal cells
    assert s.result_text().startswith("player 1 (S) wins")
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply_action(0)


def test_arc_e1_three_players_win_mid_round() -> None:
    s = position([["c4", "c10", "a4", "a6"], ["a1", "b1", "c1", "e2"], ["f1", "g1", "h1", "e5"]], to_move=1)
    # player 2 (goal side SW) stops early on d1: e2-e1-d1
    assert "e2-d1" in moves(s)
    play(s, "e2-d1")
    assert s.is_terminal() and s.end_reason == "home"
    assert s.returns() == [-0.5, 1.0, -0.5]


def test_position_with_a_player_already_home_is_over() -> None:
    s = position([["h2", "h4", "h6", "h8"], ["a1", "b1", "c1", "d1"]], to_move=1)
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


# --- the software move limit -----------------------------------------------------------------------
def test_move_limit_ends_the_game_ranked_by_arrived_cubes() -> None:
    g = game(move_limit=3)
    assert g.max_game_length() == 3
    s = g.state_from_position({"cubes": M5_CUBES, "move_limit": 3})
    play(s, "c9-c5", "d15-d13")
    assert not s.is_terminal()
    play(s, "e4-c2")
    assert s.is_terminal() and s.end_reason == "limit"
    assert s.arrived() == [1, 0]
    assert s.returns() == [1.0, -1.0]  # player 1 has a cube home
    assert "move limit of 3 plies" in s.result_text()
