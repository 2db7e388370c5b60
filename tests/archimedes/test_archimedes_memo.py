"""The fast move generator (``_fast.py``: per-player memos and path tables on the game) gives exactly
the moves of the readable rules (``rules.py``: ``problem`` and ``moves_by_the_rules``), whatever the
memos hold (ARC-M1, ARC-M2, ARC-M3, ARC-M4, ARC-M5, ARC-M6, ARC-M7)."""

from __future__ import annotations

import random

import pytest

import palaestra.games.archimedes._fast as fast
from palaestra.ai.mcts import MCTSAgent
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState


def plain_moves(s: ArchimedesState, player: int) -> list[int]:
    """The moves of ``player`` by the readable rules: the same position with ``player`` to move."""
    t = s.game.state_from_position({**s.to_position(), "to_move": player, "passes": 0})
    return t.moves_by_the_rules()


def random_states(g: ArchimedesGame, count: int, seed: int) -> list[ArchimedesState]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = g.new_initial_state()
        for _ in range(rng.randrange(0, 90)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("players", "revisit"), [(2, False), (3, False), (2, True), (3, True)])
def test_memoised_moves_equal_the_plain_search(players: int, revisit: bool) -> None:
    g = ArchimedesGame(players=players, revisit=revisit)
    for s in random_states(g, 60, players * 10 + revisit):
        for p in range(players):
            assert s.moves_of(p) == plain_moves(s, p)  # the memos are filled here
            assert s.moves_of(p) == plain_moves(s, p)  # and read here
            # evaluate() counts moves and finds the cubes that can move from _cube_moves
            found = s.cube_moves(p)
            assert sum(len(moves) for _, moves in found) == len(plain_moves(s, p))
            assert {c for c, _ in found} == {a // g.size for a in plain_moves(s, p)}


def test_memos_thinned_when_full_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    states = random_states(ArchimedesGame(players=3), 30, 5)
    expected = [[plain_moves(s, p) for p in range(3)] for s in states]
    monkeypatch.setattr(fast, "MEMO_LIMIT", 7)
    g = ArchimedesGame(players=3)
    for s, moves in zip(states, expected, strict=True):
        t = g.state_from_position(s.to_position())
        assert [t.moves_of(p) for p in range(3)] == moves
        assert all(len(m) <= 7 for m in g.move_generator.memos)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "revisit"), [(2, False), (3, False), (2, True), (3, True)])
def test_legal_actions_are_the_actions_without_a_problem(players: int, revisit: bool) -> None:
    """Over the whole action space: ``action_problem(a)`` (``problem`` of its move) is None exactly
    for the legal actions, the pass included (ARC-M6), and every other action gets a reason."""
    g = ArchimedesGame(players=players, revisit=revisit)
    for s in random_states(g, 25, 100 + players * 10 + revisit):
        legal = s.legal_actions()
        assert [a for a in range(g.num_distinct_actions()) if s.action_problem(a) is None] == legal
        assert s.moves_by_the_rules() == ([] if legal == [g.pass_action] else legal)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "revisit"), [(2, False), (3, False), (2, True), (3, True)])
def test_fast_generator_equals_the_rules_over_many_positions(players: int, revisit: bool) -> None:
    """Thousands of positions of random games: the fast generator's legal actions are the moves
    the readable rules give (with the pass when there are none)."""
    g = ArchimedesGame(players=players, revisit=revisit)
    rng = random.Random(players * 2 + revisit)
    checked = 0
    while checked < 1000:
        s = g.new_initial_state()
        while not s.is_terminal() and checked < 1000:
            legal = s.legal_actions()
            assert legal == (s.moves_by_the_rules() or [g.pass_action])
            checked += 1
            s.apply_action(rng.choice(legal))


def test_path_tables_equal_the_depth_first_search() -> None:
    """Moves of 3 to 7 steps come from tables of paths: their ends against ``_ends`` (ARC-M2, ARC-M3,
    ARC-M4: exact length, free cells, early stop on a goal cell)."""
    g = ArchimedesGame(players=3)
    rng = random.Random(3)
    for _ in range(300):
        c = rng.randrange(g.size)
        steps = rng.randrange(3, 8)
        free = g.all_mask
        for _ in range(rng.randrange(0, 40)):
            free &= ~(1 << rng.randrange(g.size))
        player = rng.randrange(3)
        cells_of, end_of, early_cells, early_ends = g.move_generator.path_table(c, steps, player)
        ends = 0
        for cells, end in zip(cells_of + early_cells, end_of + early_ends, strict=True):
            if cells & ~free == 0:
                ends |= end
        assert ends == g.move_generator.search_ends(c, steps, free | 1 << c, g.goal_mask[player])


def test_evaluate_is_the_same_with_or_without_cached_moves() -> None:
    g = ArchimedesGame(players=3)
    for s in random_states(g, 20, 9):
        fresh = g.state_from_position(s.to_position())
        before = fresh.evaluate()  # mobility from the move counts
        fresh.legal_actions()
        assert fresh.evaluate() == before  # the mover's mobility from its cached legal actions


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_mcts_plays_the_same_with_cold_or_warm_memos(players: int) -> None:
    """Reproducibility with a seed does not depend on what the game's memos hold."""
    warm = ArchimedesGame(players=players)
    for s in random_states(warm, 5, 1):  # fill the memos with other positions
        MCTSAgent(seed=7, iterations=60, rollout_depth=8).select_action(s)
    position = random_states(ArchimedesGame(players=players), 1, 42)[0].to_position()
    moves = []
    for g in (ArchimedesGame(players=players), warm):
        s = g.state_from_position(position)
        agent = MCTSAgent(seed=3, iterations=150, rollout_depth=8)
        moves.append([agent.select_action(s), agent.root.visits if agent.root else 0])
    assert moves[0] == moves[1]


def test_a_game_pickles_and_copies_without_its_memos() -> None:
    """The arena sends games to worker processes (pickle): the memos stay behind, rebuilt empty."""
    import copy
    import pickle

    g = ArchimedesGame(players=3)
    states = random_states(g, 10, 4)
    expected = [s.legal_actions() for s in states]
    for other in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert other == g and not any(other.move_generator.memos) and not other.move_generator.path_tables
        for s, legal in zip(states, expected, strict=True):
            assert other.state_from_position(s.to_position()).legal_actions() == legal
        assert any(other.move_generator.memos)
