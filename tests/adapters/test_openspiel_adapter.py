"""The OpenSpiel adapter (palaestra.adapters.openspiel), on the toy game Ladder
(tests/fourth/ladder/) and on the real games."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the research extra; CI installs it

from open_spiel.python.algorithms import mcts  # noqa: E402
from palaestra_ladder.info import INFO as LADDER_INFO  # noqa: E402
from palaestra_ladder.rules import LadderGame  # noqa: E402

from palaestra.adapters import openspiel as adapter  # noqa: E402
from palaestra.ai import make_agent  # noqa: E402
from palaestra.core.errors import IllegalActionError, OptionError  # noqa: E402
from palaestra.core.game import Game  # noqa: E402
from palaestra.core.registry import game_class, load_game  # noqa: E402

from .variants import REAL_GAMES, combinations, ids, player_counts  # noqa: E402

adapter.register(LADDER_INFO)

MCTS_SHORT_GAME = {"round_limit": 1, "move_limit": 30}
LADDER_COMBINATIONS = [
    {"players": players, "calm": calm, **extra}
    for players in (2, 3)
    for calm in (False, True)
    for extra in ({}, {"label": "x", "target": 9})
]
REAL_COMBINATIONS = [(name, options) for name in REAL_GAMES for options in combinations(name)]


def load(name: str, options: dict[str, Any]) -> Any:
    if "unavailable" in options:
        pytest.fail(f"{name} cannot be loaded: {options['unavailable']}")
    return pyspiel.load_game(adapter.spiel_name(name), options)


# --- registration and game type ---------------------------------------------------------------


def test_the_three_games_are_registered() -> None:
    assert adapter.UNAVAILABLE == {}
    three = {"palaestra_agamemnon", "palaestra_archimedes", "palaestra_athos"}
    # (the toy game 'ladder' joins the list if the module was first imported during a test)
    assert three <= set(adapter.REGISTERED) <= three | {"palaestra_ladder"}
    for name in adapter.REGISTERED:
        assert name in pyspiel.registered_names()


def test_registering_twice_is_harmless_and_a_clash_is_refused() -> None:
    assert adapter.register(LadderGame) is adapter.SPIEL_GAMES["palaestra_ladder"]

    class OtherLadder(LadderGame):
        pass

    with pytest.raises(ValueError, match="already has a game named 'palaestra_ladder'"):
        adapter.register(OtherLadder)


def test_game_type_of_a_deterministic_and_a_chance_match_up() -> None:
    plain = pyspiel.load_game("palaestra_ladder", {"calm": True})
    kind = plain.get_type()
    assert kind.short_name == "palaestra_ladder"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 3)
    assert kind.provides_observation_tensor and kind.provides_observation_string
    dice = pyspiel.load_game("palaestra_ladder")
    assert dice.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert dice.max_chance_outcomes() == 3
    assert (plain.min_utility(), plain.max_utility(), plain.utility_sum()) == (-1.0, 1.0, 0.0)


def test_parameters_are_the_options() -> None:
    assert adapter.parameter_specification(LadderGame) == {
        "players": 2,
        "target": 10,
        "calm": False,
        "label": "",  # default None: "" means not set
    }
    game = pyspiel.load_game("palaestra_ladder", {"players": 3, "target": 7, "label": "club"})
    assert game.num_players() == 3
    assert game.palaestra_game == LadderGame(players=3, target=7, label="club")
    assert game.num_distinct_actions() == 3
    assert game.max_game_length() == 2 * 7 * 3
    assert game.observation_tensor_shape() == [3 + 3]
    assert str(game) == "palaestra_ladder(calm=False,label=club,players=3,target=7)"
    # the unset value maps back to None
    assert pyspiel.load_game("palaestra_ladder").palaestra_game.options["label"] is None


def test_bad_parameters_give_the_games_own_errors() -> None:
    with pytest.raises(OptionError, match="at most 3"):
        pyspiel.load_game("palaestra_ladder", {"players": 4})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'speed'"):
        pyspiel.load_game("palaestra_ladder", {"speed": 2})


def test_load_by_palaestra_name() -> None:
    game = adapter.load("ladder", players=3, calm=True)
    assert game.get_type().short_name == "palaestra_ladder"
    assert game.palaestra_game == LadderGame(players=3, calm=True)


# --- states -----------------------------------------------------------------------------------


def test_state_follows_the_palaestra_state() -> None:
    game = pyspiel.load_game("palaestra_ladder", {"target": 4})
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == [1, 2]
    assert [state.action_to_string(0, a) for a in (1, 2)] == ["step 1", "step 2"]
    state.apply_action(2)
    assert state.is_chance_node()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.25), (2, 0.25)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "bonus 1"
    state.apply_action(1)
    assert state.palaestra_state.rungs == [3, 0]
    assert str(state) == "ladder of 4: red 3  blue 0"
    assert state.observation_string(1) == "blue sees: ladder of 4: red 3  blue 0"
    np.testing.assert_array_equal(state.observation_tensor(1), state.palaestra_state.observation_tensor(1))
    assert state.information_state_string(0) == state.history_str()
    state.apply_action(1)  # player 1 climbs one rung, no bonus
    state.apply_action(0)
    assert state.current_player() == 0
    state.apply_action(1)  # player 0 reaches 4
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.history() == [2, 1, 1, 0, 1]


def test_illegal_actions_are_refused() -> None:
    state = pyspiel.load_game("palaestra_ladder").new_initial_state()
    with pytest.raises(IllegalActionError):
        state.palaestra_state.apply_action(0)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(0)
    assert state.history() == []


def test_clone_is_independent() -> None:
    state = pyspiel.load_game("palaestra_ladder").new_initial_state()
    state.apply_action(1)
    copy = state.clone()
    copy.apply_action(2)
    assert state.history() == [1] and copy.history() == [1, 2]
    assert state.palaestra_state.rungs == [1, 0] and copy.palaestra_state.rungs == [3, 0]
    assert copy.palaestra_state is not state.palaestra_state


def test_serialize_and_pickle_round_trip() -> None:
    game = pyspiel.load_game("palaestra_ladder", {"players": 3, "label": "a b"})
    state = game.new_initial_state()
    for action in (2, 1, 1, 0):
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.palaestra_state == state.palaestra_state
    state3 = pickle.loads(pickle.dumps(state))
    assert state3.history() == state.history()
    assert state3.palaestra_state.to_json() == state.palaestra_state.to_json()


# --- OpenSpiel's conformance test ---------------------------------------------------------------


@pytest.mark.parametrize("options", LADDER_COMBINATIONS, ids=ids)
def test_random_sim_test_on_the_test_game(options: dict[str, Any]) -> None:
    game = pyspiel.load_game("palaestra_ladder", options)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "options"), REAL_COMBINATIONS, ids=[f"{n}-{ids(o)}" for n, o in REAL_COMBINATIONS]
)
def test_random_sim_test_on_every_game_and_variant(name: str, options: dict[str, Any]) -> None:
    game = load(name, options)
    assert game.palaestra_game == load_game(name, **options)
    kind = game.get_type()
    chance = game.palaestra_game.max_chance_outcomes() > 0
    assert (kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC) == chance
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_agamemnon_is_explicit_stochastic_and_the_others_deterministic() -> None:
    expected = {
        "agamemnon": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        "archimedes": pyspiel.GameType.ChanceMode.DETERMINISTIC,
        "athos": pyspiel.GameType.ChanceMode.DETERMINISTIC,
    }
    for name, mode in expected.items():
        assert pyspiel.load_game(adapter.spiel_name(name)).get_type().chance_mode == mode


def test_player_counts_and_parameters_of_the_real_games() -> None:
    for name in REAL_GAMES:
        cls: type[Game] = game_class(name)
        kind = pyspiel.load_game(adapter.spiel_name(name)).get_type()
        assert set(kind.parameter_specification) == {o.name for o in cls.OPTIONS}
        counts = player_counts(cls)
        assert (kind.min_num_players, kind.max_num_players) == (min(counts), max(counts))
        for players in counts:
            loaded = pyspiel.load_game(adapter.spiel_name(name), {"players": players})
            assert loaded.num_players() == players


# --- OpenSpiel's MCTS plays through the adapter --------------------------------------------------


def play_mcts_vs_random(game: Any, mcts_seat: int, seed: int) -> list[float]:
    """One complete game: OpenSpiel's MCTSBot in ``mcts_seat``, Palaestra's random agent elsewhere.

    Budgets are tiny (4 simulations, rollouts cut after 30 actions): the point is that OpenSpiel's
    search runs through the adapter to the end of real games, not how well it plays."""
    rng = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed), max_length=30
    )
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=np.random.RandomState(seed)
    )
    opponent = make_agent("random", seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.palaestra_state.sample_chance(rng))
        elif state.current_player() == mcts_seat:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(opponent.select_action(state.palaestra_state))
    returns: list[float] = state.returns()
    return returns


def test_mcts_plays_the_test_game() -> None:
    game = pyspiel.load_game("palaestra_ladder", {"players": 3, "target": 6})
    for seat in range(3):
        returns = play_mcts_vs_random(game, seat, seed=seat)
        assert sorted(returns) == [-0.5, -0.5, 1.0]


def test_mcts_wins_the_test_game_it_can_solve() -> None:
    # a calm ladder of 4 for two: the first player wins by climbing 2 twice; after a first step
    # of 1 the second player gets there first (2 and 2)
    game = pyspiel.load_game("palaestra_ladder", {"target": 4, "calm": True})
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=200,
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0)),
        random_state=np.random.RandomState(0),
        solve=True,
    )
    assert bot.step(game.new_initial_state()) == 2


@pytest.mark.parametrize("name", REAL_GAMES)
def test_mcts_plays_every_game_against_the_random_agent(name: str) -> None:
    options = combinations(name)[0]
    # shorter still than the random simulations: MCTS rolls out to the end at every simulation
    options.update({k: v for k, v in MCTS_SHORT_GAME.items() if k in options})
    game = load(name, {k: v for k, v in options.items() if k != "players"})
    for seat, seed in ((0, 1), (1, 2)):
        returns = play_mcts_vs_random(game, seat, seed)
        assert len(returns) == game.num_players()
        assert sum(returns) == pytest.approx(0.0)
        assert all(-1.0 <= r <= 1.0 for r in returns)


# --- text parameters in game strings ---------------------------------------------------------


@pytest.mark.parametrize("label", ["a,b", "x=(y)", "100%", "12", "-1.5", "true", "plain"])
def test_text_options_survive_the_game_string(label: str) -> None:
    game = pyspiel.load_game("palaestra_ladder", {"label": label})
    assert game.palaestra_game.options["label"] == label
    again = pyspiel.load_game(str(game))  # OpenSpiel parses the game string back
    assert again.palaestra_game == game.palaestra_game
    state = game.new_initial_state()
    state.apply_action(2)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2.palaestra_game.options["label"] == label
    assert str(state2) == str(state)


def test_escape_round_trip() -> None:
    for text in ("I,II,III", "a%2Cb", "(=)", "", "12", "False", "x%"):
        assert adapter.unescape_text(adapter.escape_text(text)) == text
    assert adapter.escape_text("I,II,III") == "I%2CII%2CIII"
    assert adapter.escape_text("12") == "%312"
    assert adapter.escape_text("plain text") == "plain text"


def test_agamemnon_set_up_in_the_game_string() -> None:
    # AGA-B2: a loom set-up is three classes, written with commas ("I,II,III")
    setup = "I,II,III"
    game = pyspiel.load_game("palaestra_agamemnon", {"loom": True, "setup": setup})
    assert "setup=I%2CII%2CIII" in str(game)
    assert pyspiel.load_game(str(game)).palaestra_game.options["setup"] == setup
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


# --- other OpenSpiel entry points ------------------------------------------------------------------


def test_game_pickles() -> None:
    game = pyspiel.load_game("palaestra_ladder", {"players": 3, "label": "a,b"})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert again.palaestra_game == game.palaestra_game
    assert again.new_initial_state().palaestra_state.game == game.palaestra_game


def test_openspiel_rl_environment_plays_through_the_adapter() -> None:
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment("palaestra_ladder", players=3, target=5)
    rng = random.Random(0)
    step = environment.reset()
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        assert player in (0, 1, 2)  # chance is sampled inside the environment
        # without an information-state tensor the environment observes the observation tensor
        assert len(step.observations["info_state"][player]) == 3 + 3
        step = environment.step([rng.choice(step.observations["legal_actions"][player])])
        moves += 1
    assert sorted(step.rewards) == [-0.5, -0.5, 1.0]
    assert moves >= 2


def test_unset_values_must_not_be_real_values() -> None:
    from palaestra.core.game import Option

    class Unbounded(LadderGame):
        name = "unbounded"
        OPTIONS = (*LadderGame.OPTIONS, Option("offset", int, None, "any whole number"))

    with pytest.raises(TypeError, match="'offset': -1 would be a real value"):
        adapter.parameter_specification(Unbounded)

    class Bounded(LadderGame):
        name = "bounded"
        OPTIONS = (*LadderGame.OPTIONS, Option("offset", int, None, "a seat", minimum=0, maximum=3))

    assert adapter.parameter_specification(Bounded)["offset"] == -1
    assert adapter.options_from_parameters(Bounded, {"offset": -1}) == {}
    assert adapter.options_from_parameters(Bounded, {"offset": 2}) == {"offset": 2}
