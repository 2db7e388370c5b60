"""MCTS with playouts (``rollout=playout``) and the searched actions (``State.search_actions``),
issue 20: the leaf value comes from ``State.playout_scores`` as a graded margin, and the tree tries
only the actions a game says a search needs."""

from __future__ import annotations

import math
import random

import pytest
from palaestra_ladder.rules import LadderGame

from palaestra.ai import make_agent
from palaestra.ai.evaluators import PlayoutEvaluator, margin_values
from palaestra.ai.mcts import MCTSAgent, MCTSSettings
from palaestra.core.errors import OptionError
from palaestra.core.game import random_playout

from .games import DuelGame, DuelState, WideGame, WideState


class FixedPlayoutDuel(DuelState):
    """Duel whose playouts always end with seat 1 at 4.5 points (seat 0 keeps its number + 1)."""

    def playout_scores(self, rng: random.Random) -> list[float]:
        own = float(self.history[0] + 1) if self.history else 1.0
        return [own, 4.5]


class FixedDuelGame(DuelGame):
    pass


FixedDuelGame.state_class = FixedPlayoutDuel


def test_margin_values_grade_the_sign_of_the_result() -> None:
    assert margin_values([10.0, 4.0], 6.0) == pytest.approx([math.tanh(1.0), -math.tanh(1.0)])
    assert margin_values([3.0, 3.0], 6.0) == [0.0, 0.0]
    # more players: each against the best of the others
    values = margin_values([5.0, 9.0, 2.0], 2.0)
    assert values == pytest.approx([math.tanh(-2.0), math.tanh(2.0), math.tanh(-3.5)])


@pytest.mark.parametrize(("name", "value"), [("win_share", 0.5), ("margin_spread", 1.0), ("turn_time", 3.0)])
def test_the_removed_settings_say_so(name: str, value: float) -> None:
    """Issue 32: settings that no level used and that measured no gain were removed; a spec that
    still names one is told so, not that the parameter never existed."""
    with pytest.raises(OptionError, match=f"mcts: {name} .* was removed: it measured no gain"):
        MCTSSettings.parse({name: value})


def test_each_leaf_is_valued_by_the_games_playout() -> None:
    state = FixedDuelGame().new_initial_state()
    agent = MCTSAgent(seed=0, iterations=10, rollout="playout", margin_scale=3.0)
    assert agent.select_action(state) == 9
    assert agent.root is not None
    for action, child in agent.root.children.items():
        assert child.visits == 1
        assert child.mean(0) == pytest.approx(math.tanh((action + 1 - 4.5) / 3.0))
        assert child.mean(1) == pytest.approx(-child.mean(0))


@pytest.mark.parametrize("terminal", ["margin", "result"])
def test_a_finished_game_in_the_tree_is_valued_by_its_result_or_its_margin(terminal: str) -> None:
    state = DuelGame().new_initial_state()
    state.apply_action(3)  # seat 0 has 4 points; seat 1's number is its points, and the game ends
    agent = MCTSAgent(seed=0, iterations=10, rollout="playout", margin_scale=6.0, terminal=terminal)
    chosen = agent.select_action(state)
    # by the margin the widest win; by the result any win will do
    assert chosen == 9 if terminal == "margin" else chosen > 4
    assert agent.root is not None
    for b, child in agent.root.children.items():
        assert child.visits == 1
        if terminal == "result":  # won 1, drawn 0, lost -1, whatever the margin
            assert child.mean(1) == (b > 4) - (b < 4)
        else:
            assert child.mean(1) == pytest.approx(math.tanh((b - 4) / 6.0))


def test_the_default_playout_plays_the_game_on_at_random() -> None:
    state = LadderGame(players=3, target=7).new_initial_state()
    rng_a, rng_b = random.Random(3), random.Random(3)
    copy = state.clone()
    random_playout(copy, rng_b)
    assert state.playout_scores(rng_a) == copy.scores()
    assert state.history == []  # the playout is played on a copy


def test_playouts_find_the_last_rungs_for_three_players() -> None:
    state = LadderGame(players=3, target=4, calm=True).new_initial_state()
    for a in (2, 2, 1):  # player 0 on rung 2 and to move: step 2 wins, step 1 lets player 1 win
        state.apply_action(a)
    agent = MCTSAgent(seed=0, iterations=400, rollout="playout")
    assert agent.select_action(state) == 2


class EvenWide(WideState):
    """Wide whose search needs only the even numbers (as if the odd ones only reordered a turn)."""

    def search_actions(self) -> list[int]:
        return [a for a in self.legal_actions() if a % 2 == 0]


class EvenWideGame(WideGame):
    pass


EvenWideGame.state_class = EvenWide


@pytest.mark.parametrize("rollout", ["random", "playout"])
def test_the_tree_tries_only_the_searched_actions(rollout: str) -> None:
    state = EvenWideGame(width=2, choices=12).new_initial_state()
    agent = MCTSAgent(seed=1, iterations=300, rollout=rollout)
    action = agent.select_action(state)
    assert action % 2 == 0
    assert agent.root is not None
    assert set(agent.root.children) == set(range(0, 12, 2))
    for child in agent.root.children.values():
        assert all(a % 2 == 0 for a in child.children)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"rollout": "heavy"}, "rollout is random or playout, not 'heavy'"),
        ({"margin_scale": 0}, "margin_scale is a number above 0, not 0"),
        ({"margin_scale": "wide"}, "margin_scale is a number above 0"),
        ({"terminal": "score"}, "terminal is margin or result, not 'score'"),
    ],
)
def test_bad_playout_settings_are_named(params: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        MCTSSettings.parse(params)


def test_playout_settings_from_a_spec() -> None:
    agent = make_agent("mcts:rollout=playout,margin_scale=4,iterations=5", seed=0)
    assert isinstance(agent, MCTSAgent)
    assert agent.settings.rollout == "playout" and agent.settings.margin_scale == 4.0
    assert isinstance(agent.evaluator, PlayoutEvaluator) and agent.evaluator.scale == 4.0
