"""The turn planner (``turn``): legal play on every game, seeds, whole-turn plans, replies, hints."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from palaestra_ladder.rules import LadderGame

from palaestra.ai import TurnAgent, make_agent
from palaestra.core.errors import OptionError
from palaestra.core.game import TERMINAL, Game
from palaestra.core.registry import load_game
from tests.ai.games import SmallGame, SmallState, TTTGame
from tests.ai.real import SETUPS, random_position, setup_id

# --- small games made for the planner -------------------------------------------------------------


class TwoStepGame(SmallGame):
    """Player 0 names two numbers 0-2 (one turn of two actions); then the game is over.

    ``evaluate`` after the first action favours 0 (0.5) over 1 (0.1) and 2 (0.0), but the only
    very good turn is 1 then 2 (0.9): greedy plays 0 first and ends with 0.2."""

    name = "twostep"
    title = "Two steps"
    players = 1


FINAL = {(0, 0): 0.2, (0, 1): 0.2, (0, 2): 0.2, (1, 0): -0.5, (1, 1): -0.5, (1, 2): 0.9}


class TwoStepState(SmallState):
    @property
    def current_player(self) -> int:
        return TERMINAL if len(self.history) >= 2 else 0

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1, 2]

    def _apply(self, action: int) -> None:
        pass

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0]
        return [FINAL.get((self.history[0], self.history[1]), -1.0)]

    def evaluate(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        if not self.history:
            return [0.0]
        return [(0.5, 0.1, 0.0)[self.history[0]]]

    def _to_dict(self) -> dict[str, Any]:
        return {"chosen": list(self.history)}  # the position is what was chosen


TwoStepGame.state_class = TwoStepState


class TrapGame(SmallGame):
    """Player 0 picks 0 or 1, then player 1 picks 0 or 1, then player 0 is to move again
    (the game ends after three actions). After 0 the position looks better for player 0 (0.6
    against 0.3), but player 1's reply 1 turns it into -0.8; after 1 the best reply leaves
    player 0 at 0.2."""

    name = "trap"
    title = "Trap"


class TrapState(SmallState):
    @property
    def current_player(self) -> int:
        n = len(self.history)
        return TERMINAL if n >= 3 else (0, 1, 0)[n]

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1]

    def _apply(self, action: int) -> None:
        pass

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        v = self._value()
        return [v, -v]

    def _value(self) -> float:
        h = self.history
        if len(h) == 1:
            return 0.6 if h[0] == 0 else 0.3
        after = {(0, 0): 0.5, (0, 1): -0.8, (1, 0): 0.4, (1, 1): 0.2}
        return after[(h[0], h[1])]

    def evaluate(self) -> list[float]:
        if not self.history:
            return [0.0, 0.0]
        v = self._value()
        return [v, -v]

    def _to_dict(self) -> dict[str, Any]:
        return {"chosen": list(self.history)}


TrapGame.state_class = TrapState


def play_out(game: Game, agent: TurnAgent, seed: int = 0) -> list[int]:
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        state.apply_action(agent.select_action(state))
    return list(state.history)


# --- plans ----------------------------------------------------------------------------------------


def test_plans_the_whole_turn_where_greedy_does_not() -> None:
    game = TwoStepGame()
    assert play_out(game, TurnAgent(seed=1, width=3)) == [1, 2]
    # width 1 is greedy, one turn at a time: it takes the better-looking first action
    assert play_out(game, TurnAgent(seed=1, width=1))[0] == 0
    greedy = make_agent("greedy", seed=1)
    state = game.new_initial_state(0)
    assert greedy.select_action(state) == 0


def test_follows_its_plan_and_replans_elsewhere() -> None:
    game = TwoStepGame()
    agent = TurnAgent(seed=1, width=3)
    state = game.new_initial_state(0)
    assert agent.select_action(state) == 1
    planned = agent.last
    state.apply_action(1)
    assert agent.select_action(state) == 2
    assert agent.last is planned  # no new search for the second action of the turn
    # a state the plan did not expect: the agent plans again (and still plays legally)
    other = game.new_initial_state(0)
    other.apply_action(0)
    assert agent.select_action(other) in (0, 1, 2)
    assert agent.last is not planned


def test_replies_avoid_the_trap() -> None:
    game = TrapGame()
    state = game.new_initial_state(0)
    assert TurnAgent(seed=1, width=2).select_action(state) == 0  # looks best, refuted by 1
    assert TurnAgent(seed=1, width=2, replies=2).select_action(state) == 1
    values = TurnAgent(seed=1, width=2, replies=2).analyse(state, top=2)
    assert [a for a, _ in values] == [1, 0]
    assert [v for _, v in values] == pytest.approx([0.2, -0.8])


def test_analyse_returns_sorted_legal_candidates() -> None:
    game = TwoStepGame()
    state = game.new_initial_state(0)
    hints = TurnAgent(seed=3, width=3).analyse(state, top=3)
    assert [a for a, _ in hints] == [1, 0, 2]
    assert hints[0][1] == pytest.approx(0.9)
    values = [v for _, v in hints]
    assert values == sorted(values, reverse=True)
    assert len(TurnAgent(seed=3, width=3).analyse(state, top=1)) == 1
    ttt = TTTGame().new_initial_state(0)
    hints = TurnAgent(seed=3, width=2).analyse(ttt, top=4)
    assert len(hints) == 4 and all(a in ttt.legal_actions() for a, _ in hints)
    assert [v for _, v in hints] == sorted((v for _, v in hints), reverse=True)


def test_three_players_and_one_action_turns() -> None:
    game = LadderGame(players=3, calm=True)
    agent = TurnAgent(seed=2, width=2, replies=2)
    state = game.new_initial_state(0)
    while not state.is_terminal():
        action = agent.select_action(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.slow
def test_seeds_reproduce() -> None:
    def game_actions(seed: int) -> list[int]:
        game = load_game("athos")
        state = game.new_initial_state(5)
        agents = [TurnAgent(seed=seed, width=2, cap=20), TurnAgent(seed=seed + 1, width=1)]
        while len(state.history) < 40 and not state.is_terminal():
            state.apply_action(agents[state.current_player].select_action(state))
        return list(state.history)

    assert game_actions(7) == game_actions(7)
    assert TurnAgent(seed=4, width=2).analyse(TTTGame().new_initial_state(0), 9) == TurnAgent(
        seed=4, width=2
    ).analyse(TTTGame().new_initial_state(0), 9)


def test_spec_and_bad_parameters() -> None:
    agent = make_agent("turn:width=3,replies=2,reply_width=2,cap=none", seed=1)
    assert isinstance(agent, TurnAgent)
    assert (agent.width, agent.replies, agent.reply_width, agent.cap) == (3, 2, 2, None)
    for spec in ("turn:width=0", "turn:replies=-1", "turn:cap=0", "turn:time=-1", "turn:bogus=1"):
        with pytest.raises(OptionError):
            make_agent(spec)


def test_time_safety_net_still_plays_legally() -> None:
    game = load_game("athos")
    state = game.new_initial_state(1)
    agent = TurnAgent(seed=1, width=8, replies=4, time=0.001)
    for _ in range(12):
        action = agent.select_action(state)
        assert action in state.legal_actions()
        state.apply_action(action)


# --- legal play on the real games -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), replies=st.sampled_from([0, 1]))
def test_plays_only_legal_actions_in_real_games(
    setup: tuple[str, dict[str, Any]], seed: int, replies: int
) -> None:
    game = load_game(setup[0], **setup[1])
    rng = random.Random(seed)
    state = random_position(game, rng, 150)
    if state is None:
        return
    agent = TurnAgent(seed=seed, width=2, replies=replies, cap=10, reply_cap=10)
    # a few consecutive actions: the first plans, the next ones follow the plan
    for _ in range(4):
        if state.is_terminal():
            break
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        if state.is_terminal():
            break
        before = state.to_json()
        action = agent.select_action(state)
        assert action in state.legal_actions()
        assert state.to_json() == before
        state.apply_action(action)
    if not state.is_terminal() and not state.is_chance_node():
        hints = agent.analyse(state, top=3)
        assert hints and all(a in state.legal_actions() for a, _ in hints)
