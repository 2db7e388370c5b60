"""Agamemnon's ``apply_legal`` (the searches' fast path, no validation) against ``apply_action``."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.core.registry import load_game


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    options=st.sampled_from(
        [{}, {"loom": True}, {"oracle": True}, {"defying": True}, {"loom": True, "oracle": True}]
    ),
)
def test_apply_legal_reaches_the_same_positions_as_apply_action(seed: int, options: dict[str, bool]) -> None:
    game = load_game("agamemnon", **options)
    rng = random.Random(seed)
    checked = game.new_initial_state(seed)
    fast = game.new_initial_state(seed)
    while not checked.is_terminal():
        actions = (
            [a for a, _ in checked.chance_outcomes()] if checked.is_chance_node() else checked.legal_actions()
        )
        action = rng.choice(actions)
        checked.apply_action(action)
        fast.apply_legal(action)
        assert fast.to_json() == checked.to_json()
        assert fast.evaluate() == checked.evaluate()
    assert fast.is_terminal() and fast.returns() == checked.returns()
