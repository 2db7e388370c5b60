"""The PettingZoo adapter (palaestra.adapters.pettingzoo), on the toy game Ladder
(tests/fourth/ladder/) and on the real games."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")  # the research extra; CI installs it

from gymnasium import spaces
from palaestra_ladder.rules import LadderGame
from pettingzoo import AECEnv
from pettingzoo.test import api_test, render_test, seed_test

from palaestra.adapters.pettingzoo import PalaestraEnv, env
from palaestra.core.errors import IllegalActionError
from palaestra.core.registry import load_game

from .variants import REAL_GAMES, combinations, ids, richest

#: the warnings PettingZoo's api_test gives every environment with dict observations (its own
#: classic games are on a list that silences them)
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)

LADDER_COMBINATIONS = [{"players": players, "calm": calm} for players in (2, 3) for calm in (False, True)]
REAL_COMBINATIONS = [(name, options) for name in REAL_GAMES for options in combinations(name)]


def run_api_test(environment: Any, num_cycles: int) -> None:
    """PettingZoo's api_test; fails on any warning but the dict-observation ones."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(environment, num_cycles=num_cycles)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)]
    assert unexpected == []


def play_random(environment: Any, seed: int) -> tuple[list[Any], dict[str, float]]:
    """Play one game with masked random actions; the observations seen and the final rewards."""
    environment.reset(seed=seed)
    seen = []
    totals: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        seen.append((agent, observation["observation"].tolist(), observation["action_mask"].tolist()))
        if termination or truncation:
            action = None
        else:
            action = environment.action_space(agent).sample(observation["action_mask"])
        environment.step(action)
    return seen, totals


# --- the test game ---------------------------------------------------------------------------


@pytest.mark.parametrize("options", LADDER_COMBINATIONS, ids=ids)
def test_api_test_on_the_test_game(options: dict[str, Any]) -> None:
    run_api_test(env(game="ladder", **options), num_cycles=100)


def test_seed_and_render_tests_on_the_test_game() -> None:
    seed_test(lambda: env(game="ladder", players=3, target=15), num_cycles=100)
    render_test(lambda render_mode=None: env(game="ladder", render_mode=render_mode))


def test_spaces_and_agents() -> None:
    e = env(game="ladder", players=3, target=6)
    raw = e.unwrapped
    assert isinstance(raw, PalaestraEnv) and isinstance(raw, AECEnv)
    assert raw.possible_agents == ["player_0", "player_1", "player_2"]
    assert raw.metadata["name"] == "palaestra_ladder_v0"
    space = e.observation_space("player_1")
    assert isinstance(space, spaces.Dict)
    assert space["observation"].shape == (3 + 3,)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (3,)
    assert e.action_space("player_2") == spaces.Discrete(3)


def test_observation_and_mask_follow_the_game() -> None:
    e = env(game="ladder", target=4, calm=True)
    e.reset(seed=0)
    assert e.agent_selection == "player_0"
    observation = e.observe("player_0")
    np.testing.assert_array_equal(observation["observation"], e.unwrapped.state.observation_tensor(0))
    assert observation["action_mask"].tolist() == [0, 1, 1]
    assert e.observe("player_1")["action_mask"].tolist() == [0, 0, 0]  # not to move
    e.step(np.int64(2))
    assert e.agent_selection == "player_1"
    assert e.unwrapped.state.rungs == [2, 0]


def test_chance_is_resolved_inside_and_seeded() -> None:
    a = env(game="ladder", players=3, target=12)
    b = env(game="ladder", players=3, target=12)
    seen_a, totals_a = play_random(a, seed=5)
    seen_b, totals_b = play_random(b, seed=5)
    assert seen_a == seen_b and totals_a == totals_b  # same seed, same game
    history = a.unwrapped.state.history
    # bonuses (chance) were drawn, and no agent was ever asked at a chance node
    assert len(history) > len([s for s in seen_a if sum(s[2]) > 0])
    assert sorted(totals_a.values()) == [-0.5, -0.5, 1.0]
    seen_c, _ = play_random(a, seed=6)
    assert seen_c != seen_a or a.unwrapped.state.history != history


def test_rewards_are_the_returns_at_the_end() -> None:
    e = env(game="ladder", target=3, calm=True)
    e.reset(seed=1)
    e.step(1)  # player 0: rung 1
    e.step(2)  # player 1: rung 2
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0}
    e.step(1)  # player 0: rung 2
    e.step(1)  # player 1 reaches 3 and wins
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert e.last()[1] in (-1.0, 1.0)
    for agent in e.agent_iter():
        _, reward, termination, _, _ = e.last()
        assert termination
        assert reward == (1.0 if agent == "player_1" else -1.0)
        e.step(None)
    assert e.agents == []


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env(game="ladder")
    e.reset(seed=0)
    with pytest.raises(IllegalActionError):
        e.step(0)
    assert e.unwrapped.state.history == []
    assert e.agent_selection == "player_0"


def test_render_text(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(game="ladder", render_mode="ansi", label="demo")
    e.reset(seed=0)
    assert e.render() == "demo: ladder of 10: red 0  blue 0"
    human = env(game="ladder", render_mode="human", calm=True)
    human.reset(seed=0)
    human.step(1)
    assert "ladder of 10: red 1  blue 0" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        env(game="ladder", render_mode="rgb_array")


def test_a_game_object_can_be_given() -> None:
    e = env(game=LadderGame(players=3))
    assert e.unwrapped.game == LadderGame(players=3)
    with pytest.raises(ValueError, match="not both"):
        env(game=LadderGame(), players=3)


# --- the real games ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"), REAL_COMBINATIONS, ids=[f"{n}-{ids(o)}" for n, o in REAL_COMBINATIONS]
)
def test_api_test_on_every_game_and_variant(name: str, options: dict[str, Any]) -> None:
    if "unavailable" in options:
        pytest.fail(f"{name} cannot be loaded: {options['unavailable']}")
    e = env(game=name, **options)
    assert e.unwrapped.game == load_game(name, **options)
    run_api_test(e, num_cycles=60)


@pytest.mark.parametrize("name", REAL_GAMES)
def test_every_game_plays_to_the_end_with_returns(name: str) -> None:
    options = combinations(name)[0]
    if "unavailable" in options:
        pytest.fail(f"{name} cannot be loaded: {options['unavailable']}")
    e = env(game=name, render_mode="ansi", **options)
    _, totals = play_random(e, seed=3)
    state = e.unwrapped.state
    assert state.is_terminal()
    assert totals == {f"player_{p}": r for p, r in enumerate(state.returns())}
    assert isinstance(e.render(), str) and e.render() == state.render()


@pytest.mark.parametrize("name", REAL_GAMES)
def test_seed_and_render_tests_on_every_game(name: str) -> None:
    options = richest(name)  # every variant on, the most players
    if "unavailable" in options:
        pytest.fail(f"{name} cannot be loaded: {options['unavailable']}")
    seed_test(lambda: env(game=name, **options), num_cycles=40)
    render_test(lambda render_mode=None: env(game=name, render_mode=render_mode, **options))


@pytest.mark.parametrize("name", REAL_GAMES)
def test_observations_stay_in_the_declared_bounds_over_whole_games(name: str) -> None:
    # full-length random games (no short limits), every variant on and every variant off
    from palaestra.core.game import random_playout

    from .variants import SHORT_GAME

    for options in (combinations(name)[0], richest(name)):
        if "unavailable" in options:
            pytest.fail(f"{name} cannot be loaded: {options['unavailable']}")
        full = {k: v for k, v in options.items() if k not in SHORT_GAME}
        e = env(game=name, **full)
        space = e.observation_space("player_0")["observation"]
        game = e.unwrapped.game
        rng = random.Random(0)
        state = game.new_initial_state()
        step = 0
        while True:
            if step % 7 == 0 or state.is_terminal():
                for player in range(game.num_players):
                    observation = np.asarray(state.observation_tensor(player), dtype=np.float32)
                    assert space.contains(observation.reshape(space.shape)), (name, full, step)
            if state.is_terminal():
                break
            random_playout(state, rng, 1)
            step += 1
