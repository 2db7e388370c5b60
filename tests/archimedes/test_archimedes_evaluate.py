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
from palaestra.games.archimedes.game import _goal_plan


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
    plan = _goal_plan(g, 0)
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
        table = _goal_plan(g, p).table
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
    assert _goal_plan(g, 0).table[cells(g, "h4", "h6", "h8")] == (4, cells(g, "h2"))
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
