"""palaestra/games/agamemnon/heuristic.py: the ``outlook`` heuristic the expert searches with."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.ai import make_agent
from palaestra.ai.base import game_heuristic
from palaestra.core.errors import OptionError
from palaestra.core.registry import load_game
from palaestra.games.agamemnon._fast import WEFTS
from palaestra.games.agamemnon.heuristic import OUTLOOK_SCALE, outlook
from palaestra.games.agamemnon.rules import AgamemnonState


def _positions(seed: int, loom: bool) -> list[AgamemnonState]:
    game = load_game("agamemnon", loom=loom)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        assert isinstance(state, AgamemnonState)
        seen.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    seen.append(state)  # the end
    return seen


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), loom=st.booleans())
def test_outlook_is_zero_sum_in_range_and_the_result_at_the_end(seed: int, loom: bool) -> None:
    positions = _positions(seed, loom)
    for state in positions:
        v = outlook(state)
        assert len(v) == 2 and v[0] == -v[1] and -1.0 <= v[0] <= 1.0
    end = positions[-1]
    assert end.is_terminal() and outlook(end) == end.returns()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_board_with_no_free_space_left_is_judged_by_its_live_score(seed: int) -> None:
    # with no free space no string can be joined any more: every string counts in full for its
    # leader, so the value is the live score margin, squashed (Weft-only strings left out)
    for state in _positions(seed, False)[:-1]:
        if state.fast_position()[1][WEFTS]:
            break
        p0, p1 = state.scores()
        closed = state.clone()
        closed._free = []
        assert math.atanh(outlook(closed)[0]) * OUTLOOK_SCALE == pytest.approx(p0 - p1)


def test_the_expert_search_finds_the_heuristic_through_the_game() -> None:
    game = load_game("agamemnon")
    assert game_heuristic(game, "outlook") is outlook
    with pytest.raises(OptionError, match="no heuristic 'nope'"):
        game_heuristic(game, "nope")
    with pytest.raises(OptionError, match="archimedes has no heuristic"):
        game_heuristic(load_game("archimedes"), "outlook")
    state = _positions(3, False)[5]
    agent = make_agent("mcts:iterations=60,rollout_depth=0,heuristic=outlook", seed=1)
    assert agent.select_action(state) in state.legal_actions()
    root = agent.root  # type: ignore[attr-defined]
    # rollout_depth=0: every simulation adds one node and scores it at once with outlook, so the
    # root's value sum for player 0 is the sum of outlook over every other node of the tree
    assert root.visits == 60
    values = []
    stack = [(root, state.clone())]
    while stack:
        node, at = stack.pop()
        if node is not root:
            values.append(outlook(at)[0])
        for a, child in node.children.items():
            nxt = at.clone()
            nxt.apply_action(a)
            stack.append((child, nxt))
    assert len(values) == 60
    assert root.values[0] == pytest.approx(sum(values))
