"""The memoised move generator (per-player memos on the game, for speed) gives exactly the moves of
the plain depth-first search, whatever the memos hold (ARC-M2, ARC-M3, ARC-M4, ARC-M5, ARC-M7)."""

from __future__ import annotations

import random

import pytest

import palaestra.games.archimedes.game as archimedes_game
from palaestra.ai.mcts import MCTSAgent
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState
from palaestra.games.archimedes.game import _bits


def plain_moves(s: ArchimedesState, player: int) -> list[int]:
    """The moves of ``player`` by the unmemoised search: every movable cube (ARC-M5, ARC-M7), its
    distance (ARC-M1), the cells it may enter (ARC-M3), the ends of its paths (ARC-M2, ARC-M4)."""
    g = s.game
    out = []
    for i in s._movable(player):
        c = s._pos[i]
        ends = s._ends(c, s.distance(c), s._free_for(i), g.goal_mask[player])
        out += [c * g.size + e for e in _bits(ends)]
    return sorted(out)


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


@pytest.mark.parametrize(("players", "revisit"), [(2, False), (3, False), (2, True), (3, True)])
def test_memoised_moves_equal_the_plain_search(players: int, revisit: bool) -> None:
    g = ArchimedesGame(players=players, revisit=revisit)
    for s in random_states(g, 60, players * 10 + revisit):
        for p in range(players):
            assert s._generate(p) == plain_moves(s, p)  # the memos are filled here
            assert s._generate(p) == plain_moves(s, p)  # and read here
            # evaluate() counts moves and finds the cubes that can move from _cube_moves
            found = s._cube_moves(p)
            assert sum(len(moves) for _, moves in found) == len(plain_moves(s, p))
            assert {c for c, _ in found} == {a // g.size for a in plain_moves(s, p)}


def test_memos_thinned_when_full_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    states = random_states(ArchimedesGame(players=3), 30, 5)
    expected = [[plain_moves(s, p) for p in range(3)] for s in states]
    monkeypatch.setattr(archimedes_game, "_MEMO_LIMIT", 7)
    g = ArchimedesGame(players=3)
    for s, moves in zip(states, expected, strict=True):
        t = g.state_from_position(s.to_position())
        assert [t._generate(p) for p in range(3)] == moves
        assert all(len(m) <= 7 for m in g._moves_memo)


def test_path_tables_equal_the_depth_first_search() -> None:
    """Moves of 3 to 7 steps come from tables of paths: their ends against ``_ends`` (ARC-M2, ARC-M3,
    ARC-M4: exact length, free cells, early stop on a goal cell)."""
    g = ArchimedesGame(players=3)
    s = g.new_initial_state()
    rng = random.Random(3)
    for _ in range(300):
        c = rng.randrange(g.size)
        steps = rng.randrange(3, 8)
        free = g.all_mask
        for _ in range(rng.randrange(0, 40)):
            free &= ~(1 << rng.randrange(g.size))
        player = rng.randrange(3)
        cells_of, end_of, early_cells, early_ends = g._path_table(c, steps, player)
        ends = 0
        for cells, end in zip(cells_of + early_cells, end_of + early_ends, strict=True):
            if cells & ~free == 0:
                ends |= end
        assert ends == s._ends(c, steps, free | 1 << c, g.goal_mask[player])


def test_evaluate_is_the_same_with_or_without_cached_moves() -> None:
    g = ArchimedesGame(players=3)
    for s in random_states(g, 20, 9):
        fresh = g.state_from_position(s.to_position())
        before = fresh.evaluate()  # mobility from the move counts
        fresh.legal_actions()
        assert fresh.evaluate() == before  # the mover's mobility from its cached legal actions


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
        assert other == g and not any(other._moves_memo) and not other._path_tables
        for s, legal in zip(states, expected, strict=True):
            assert other.state_from_position(s.to_position()).legal_actions() == legal
        assert any(other._moves_memo)
