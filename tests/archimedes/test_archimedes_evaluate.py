"""The Archimedes heuristic ``evaluate()``: range, symmetry, terminal values, and the goal cells
that arrived cubes close for good (ARC-M3, ARC-M5: a rim goal cell is entered only through its
rim neighbours, which no cube may enter next to an arrived cube)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import palaestra
from palaestra.ai.greedy import GreedyAgent
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState
from palaestra.games.archimedes.heuristic import goal_plans


def game(players: int = 2) -> ArchimedesGame:
    g = palaestra.load_game("archimedes", players=players)
    assert isinstance(g, ArchimedesGame)
    return g


def position(cubes: list[list[str]], to_move: int = 0, **doc: Any) -> ArchimedesState:
    players = len(cubes)
    return game(players).state_from_position(
        {"game": "archimedes", "cubes": cubes, "to_move": to_move, **doc}
    )


def cells(g: ArchimedesGame, *names: str) -> int:
    return sum(1 << g.board.cell(n) for n in names)


# --- the goal plan: which goal cells stay open (ARC-M3, ARC-M5) ----------------------------------
def test_plan_outer_goal_cells_close_the_one_between() -> None:
    g = game()
    plan = goal_plans(g)[0]
    assert plan.table[0] == (4, g.goal_mask[0])
    # h2 and h8 home: h4 and h6 each lie between an arrived cube and the other, one of them is lost
    cap, good = plan.table[cells(g, "h2", "h8")]
    assert cap == 3 and good == cells(g, "h4", "h6")
    # h2 h4 h8 home: h6 is entered only through h5 (next to h4) or h7 (next to h8): closed
    assert plan.table[cells(g, "h2", "h4", "h8")] == (3, 0)
    assert plan.table[cells(g, "h2", "h6")] == (3, cells(g, "h8"))
    # h4 h6 h8 home: h2 is still entered through the corner h1
    assert plan.table[cells(g, "h4", "h6", "h8")] == (4, cells(g, "h2"))
    # from h4 alone, filling h2 or h6 next keeps all four reachable, h8 does not
    assert plan.table[cells(g, "h4")] == (4, cells(g, "h2", "h6"))


@pytest.mark.parametrize("players", [2, 3])
def test_plan_every_side_alike(players: int) -> None:
    g = game(players)
    for p in range(players):
        table = goal_plans(g)[p].table
        assert len(table) == 16
        assert table[0][0] == 4
        assert sorted(cap for cap, _ in table.values()).count(3) == 5
        assert all(good & ~g.goal_mask[p] == 0 for _, good in table.values())


# --- the heuristic ---------------------------------------------------------------------------------
def test_closed_goal_is_worse_than_open_one() -> None:
    # the same three cubes home and the fourth on the same cell; only which goal is left differs
    closed = position([["h2", "h4", "h8", "e8"], ["b2", "b6", "c9", "d15"]])
    open_ = position([["h4", "h6", "h8", "e8"], ["b2", "b6", "c9", "d15"]])
    assert open_.evaluate()[0] > closed.evaluate()[0] + 0.2
    # closing a goal for good is worse than having one cube fewer home
    fewer = position([["h4", "h6", "g4", "e8"], ["b2", "b6", "c9", "d15"]])
    assert fewer.evaluate()[0] > closed.evaluate()[0]


def test_more_arrived_cubes_is_better() -> None:
    base = [["g4", "e4", "c9", "e8"], ["b2", "b6", "f12", "d15"]]
    v0 = position(base).evaluate()
    one = position([["h4", "e4", "c9", "e8"], base[1]]).evaluate()
    two = position([["h4", "h6", "c9", "e8"], base[1]]).evaluate()
    assert two[0] > one[0] > v0[0]
    assert two[1] < one[1] < v0[1]


def test_last_goal_cell_held_by_a_start_cube() -> None:
    # player 1's last goal cell h2 is player 2's start cell, still held by its cube (ARC-S1): the
    # goal stays open (the cube may leave) and the heuristic stays in range
    g = game()
    held = position([["h4", "h8", "h6", "g2"], ["h2", "a4", "a6", "a8"]])
    assert goal_plans(g)[0].table[cells(g, "h4", "h6", "h8")] == (4, cells(g, "h2"))
    v = held.evaluate()
    assert all(-1.0 <= x <= 1.0 for x in v) and v[0] > 0


def best_move(s: ArchimedesState) -> str:
    values = dict(GreedyAgent(seed=1)._values(s))
    return s.action_to_string(max(values, key=lambda a: values[a]))


def test_greedy_fills_goal_cells_in_a_good_order() -> None:
    # h4 home; from g8 the cube can stop on h6 (all four goal cells stay open) or on h8 (then h6,
    # between h4 and h8, can never be entered: at most three cubes arrive)
    s = position([["h4", "g8", "c4", "c9"], ["b2", "b6", "d8", "d15"]])
    assert {"g8-h6", "g8-h8"} <= {s.action_to_string(a) for a in s.legal_actions()}
    assert best_move(s) == "g8-h6"
    # from g10 the only arrival is on h8: greedy rather moves on
    s = position([["h4", "g10", "c4", "c9"], ["b2", "b6", "d8", "d15"]])
    assert "g10-h8" in {s.action_to_string(a) for a in s.legal_actions()}
    assert best_move(s) != "g10-h8"
    closing = s.clone()
    closing.apply_action(s.string_to_action("g10-h8"))
    assert closing.evaluate()[0] < s.evaluate()[0]


def test_range_symmetry_determinism_and_terminal() -> None:
    rng = random.Random(7)
    for players in (2, 3):
        g = game(players)
        for seed in range(6):
            s = g.new_initial_state(seed)
            for _ in range(rng.randrange(0, 120)):
                if s.is_terminal():
                    break
                s.apply_action(rng.choice(s.legal_actions()))
            before = s.to_position()
            v = s.evaluate()
            assert len(v) == players and all(-1.0 <= x <= 1.0 for x in v)
            assert s.evaluate() == v and s.to_position() == before
            if players == 2:
                assert v[0] == pytest.approx(-v[1])
            if s.is_terminal():
                assert v == s.returns()


def test_terminal_is_returns() -> None:
    won = position([["h2", "h4", "h6", "h8"], ["a1", "b1", "c1", "d1"]])
    assert won.is_terminal() and won.evaluate() == won.returns() == [1.0, -1.0]
    limit = position([["h2", "h4", "h8", "e8"], ["a2", "a4", "b1", "c1"]], move_limit=5, ply=5)
    assert limit.is_terminal() and limit.evaluate() == limit.returns()
    assert limit.returns()[0] > limit.returns()[1]


# --- cubes hemmed in for good (ARC-M3, ARC-M5) ---------------------------------------------------
def names(g: ArchimedesGame, mask: int) -> set[str]:
    return {g.board.names[c] for c in range(g.board.size) if mask >> c & 1}


def test_cubes_between_arrived_cubes_are_hemmed_in_for_good() -> None:
    # positions from expert-random games that ran to the move limit: player 2's start cubes on h4
    # and h6 (player 1's goal cells), player 1 home on h2 and h8. h4 leaves only through h3
    # (touches the arrived h2) or h5 (touches h6), h6 through h5 or h7 (touches h8): the two
    # hem each other in, although neither touches an arrived cube alone
    g = game()
    s = position([["h2", "e8", "g2", "h8"], ["a2", "h4", "h6", "f4"]])
    assert names(g, s.hemmed_in()) == {"h4", "h6"}
    # player 1's start cubes on a4 and a6, between player 2's arrived a2 and a8
    s = position([["e12", "a4", "a6", "h4"], ["a2", "a8", "e10", "b4"]])
    assert names(g, s.hemmed_in()) == {"a4", "a6"}
    # only h2 home: h6 can still leave through h7, and then h4 through h5
    s = position([["h2", "e8", "g2", "c9"], ["a2", "h4", "h6", "f4"]])
    assert s.hemmed_in() == 0
    # no legal move now is not hemmed in for good: player 2's h1, h4 and h6 are blocked by
    # player 1's g3, which can move away
    s = position([["g3", "f6", "g9", "h8"], ["h1", "h4", "h6", "a8"]], to_move=1)
    assert s.legal_actions() == [g.pass_action]
    assert s.hemmed_in() == 0


def test_a_goal_cell_held_by_a_hemmed_in_cube_is_closed() -> None:
    g = game()
    plan = goal_plans(g)[0]
    block = g.block_mask
    closed = block[g.board.cell("h4")] | block[g.board.cell("h6")]
    assert plan.entry(cells(g, "h2", "h8"), closed) == (2, 0)
    assert plan.entry(cells(g, "h2"), closed) == (2, cells(g, "h8"))
    assert plan.entry(0, 0) == plan.table[0]
    # player 1 (h2, h8 home) can fill neither h4 nor h6 and player 2 (a2 home) can never bring
    # its h4 and h6 home: nobody can win, the move limit will rank both at two cubes home. Player
    # 1's lead today (two cubes home to one) counts for little
    stuck = position([["h2", "e8", "g2", "h8"], ["a2", "h4", "h6", "f4"]])
    v = stuck.evaluate()
    assert 0 < v[0] < 0.2
    # the same lead (h6 and h8 home: h4 and h2 can still be filled) while player 1 can still win
    ahead = position([["h6", "e8", "g2", "h8"], ["a2", "d4", "d8", "f4"]])
    assert ahead.hemmed_in() == 0
    assert ahead.evaluate()[0] > v[0]


def test_own_hemmed_in_cubes_cannot_arrive() -> None:
    # player 1's a4 and a6 can never leave its start side: at most two of its cubes arrive
    g = game()
    s = position([["e12", "a4", "a6", "h4"], ["a2", "a8", "e10", "b4"]])
    lost = position([["e12", "c4", "a6", "h4"], ["a2", "a8", "e10", "b4"]])
    assert names(g, lost.hemmed_in()) == set()
    assert s.evaluate()[0] < lost.evaluate()[0]


def test_greedy_does_not_arrive_beside_a_cube_it_would_hem_in() -> None:
    # h2 home, player 2's start cubes still on h4 and h6: arriving on h8 hems both in for good
    # (at most two of player 1's cubes could ever arrive), so greedy moves elsewhere
    s = position([["h2", "g10", "c4", "c9"], ["h4", "h6", "d8", "d15"]])
    assert "g10-h8" in {s.action_to_string(a) for a in s.legal_actions()}
    after = s.clone()
    after.apply_action(s.string_to_action("g10-h8"))
    assert after.hemmed_in() != 0
    assert best_move(s) != "g10-h8"


def test_a_cube_that_cannot_move_on_a_goal_cell_counts_against_that_goal() -> None:
    # player 1's g3 keeps player 2's cubes on h1, h4, h6 from moving (player 2 passes): moving
    # g3 away lets them leave player 1's goal cells, and greedy does so
    s = position([["g3", "f6", "g9", "h8"], ["h1", "h4", "h6", "a8"]])
    assert best_move(s).startswith("g3-")


@pytest.mark.slow
def test_hemmed_in_cubes_never_move_again() -> None:
    # random play from many starts: a cube found hemmed in stays on its cell for the rest of the
    # game and never starts a legal move
    for players in (2, 3):
        g = game(players)
        rng = random.Random(players)
        found = 0
        for seed in range(60):
            s = g.new_initial_state(seed)
            stuck = 0
            for _ in range(400):
                if s.is_terminal():
                    break
                now = s.hemmed_in()
                assert now & stuck == stuck  # once hemmed in, always hemmed in
                stuck = now
                found += bool(stuck)
                assert s.occupied() & stuck == stuck
                starts = {a // g.size for a in s.legal_actions() if a != g.pass_action}
                assert not any(stuck >> c & 1 for c in starts)
                s.apply_action(rng.choice(s.legal_actions()))
        assert found > 0


def test_a_passing_players_cube_beside_two_goal_cells_counts_against_them() -> None:
    # player 2's last cube on h7 touches player 1's last goal cells h6 and h8 (ARC-M3: neither
    # can be entered) and cannot move while player 1's g9 stays (player 2 passes, ARC-M6). If
    # player 1 keeps g9 there, the game runs to the move limit; greedy moves g9 and lets it out
    s = position([["h2", "f6", "g9", "h4"], ["a2", "h7", "a8", "a6"]], passes=0)
    waiting = s.clone()
    waiting.apply_action(s.string_to_action("f6-e6"))
    assert waiting.legal_actions() == [waiting.game.pass_action]
    move = best_move(s)
    assert move.startswith("g9-")
    after = s.clone()
    after.apply_action(s.string_to_action(move))
    assert after.legal_actions() != [after.game.pass_action]
    # the two held cells (0.12 each) cost player 1 more than g9 gains by staying near h6/h8
    assert waiting.evaluate()[0] < after.evaluate()[0]


def test_dead_position_when_nobody_can_bring_four_cubes_home() -> None:
    # ARC-E1 needs four cubes home: player 1's a6 is hemmed in between player 2's arrived a4 and
    # a8, player 2's h4 between player 1's h2 and h6; neither can win, only the limit decides
    dead = position([["h2", "h6", "h8", "a6"], ["a2", "a4", "a8", "h4"]])
    assert dead.dead_position()
    assert not game().new_initial_state().dead_position()
    # player 1 can no longer win (h4 between its h2 and h6 is closed: ARC-M3), player 2 can
    one = position([["h2", "h6", "c4", "c9"], ["a2", "a4", "d8", "d15"]])
    assert not one.dead_position()
    both = position([["h2", "h6", "c4", "c9"], ["a2", "a6", "d8", "d15"]])
    assert not both.hemmed_in() and both.dead_position()
    live = position([["h2", "h4", "c4", "c9"], ["a2", "a4", "d8", "d15"]])
    assert not live.dead_position()


@pytest.mark.slow
def test_a_dead_position_stays_dead_and_nobody_wins_by_arc_e1() -> None:
    # random games: once dead_position() holds it holds to the end, and the game then never ends
    # with four cubes home (ARC-E1); also with 3 players
    for players in (2, 3):
        g = palaestra.load_game("archimedes", players=players, move_limit=400)
        rng = random.Random(11 + players)
        dead_games = 0
        for seed in range(40):
            s = g.new_initial_state(seed)
            dead = False
            while not s.is_terminal():
                now = s.dead_position()
                assert now or not dead
                dead = now
                s.apply_action(rng.choice(s.legal_actions()))
            assert not s.dead_position()  # over: nothing left to decide
            if dead:
                dead_games += 1
                assert s.end_reason != "home"
        assert dead_games > 0
