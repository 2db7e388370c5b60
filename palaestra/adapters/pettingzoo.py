"""Palaestra's games as PettingZoo AEC environments.

::

    from palaestra.adapters.pettingzoo import env

    e = env(game="NAME", **options)               # any game of the registry, with its options
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = e.action_space(agent).sample(mask)
        e.step(action)

One generic environment (:class:`PalaestraEnv`) serves every game; it talks to the game only
through the core protocol. What it maps:

* **Agents.** ``player_0`` ... ``player_{n-1}``, one per seat; the agent to act is the game's
  ``current_player`` (turn order is the game's, not round-robin).
* **Actions.** ``Discrete(game.num_distinct_actions())``: the game's own action ids (its notation
  is ``env.unwrapped.state.action_to_string(a)``). An illegal action raises
  :class:`~palaestra.core.errors.IllegalActionError` and changes nothing.
* **Observations.** A dict: ``"observation"`` is the game's ``observation_tensor(player)`` as a
  float32 array of ``game.observation_shape()``, ``"action_mask"`` an int8 array of
  ``num_distinct_actions`` with 1 on the legal actions of the agent to act (all zeros for the
  others and at the end).
* **Chance.** Chance nodes (a tile drawn, a set-up drawn at random) never reach the
  agents: the environment draws them by Palaestra's one chance-seeding rule
  (palaestra/core/chance.py) from the game's seed, so ``reset(seed=S)`` draws what
  ``palaestra play --seed S``, the web app and the arena draw for the same actions; ``reset()``
  without a seed takes the next game's seed from a generator seeded by the last ``reset(seed)``.
* **The end.** The game is played by the core driver (palaestra/core/driver.py), so it ends as
  in every other way of playing it (:func:`palaestra.core.finish.advance`): by its rules, or
  where its result can no longer change (adjudicated, ``State.settled_result``). Each agent's
  ``info`` then holds ``"termination"``, the outcome's ``Termination`` (``"rules"``,
  ``"move_limit"``, ``"adjudication"``); ``env.unwrapped.outcome`` is the whole outcome.
* **Rewards.** 0 until the end, then the outcome's returns (1 win, -1 loss, 0 draw; more
  players: ``returns_from_ranks``); every agent is terminated at the end.
* **Rendering.** ``render_mode="ansi"`` returns the game's text view (``State.render``),
  ``"human"`` prints it after every step.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from palaestra.core.chance import ChanceSource
from palaestra.core.driver import Driver
from palaestra.core.game import Game, State
from palaestra.core.outcome import Outcome
from palaestra.core.registry import game_info, load_game

Observation = dict[str, NDArray[Any]]


def agent_name(player: int) -> str:
    """The PettingZoo agent of a seat: 0 -> ``player_0``."""
    return f"player_{player}"


class PalaestraEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment playing one Palaestra game (see the module docs)."""

    #: the render modes: ``"ansi"`` returns the text view, ``"human"`` prints it
    RENDER_MODES: ClassVar[tuple[str, ...]] = ("human", "ansi")

    def __init__(self, game: str | Game, render_mode: str | None = None, **options: object) -> None:
        super().__init__()
        if isinstance(game, Game):
            if options:
                raise ValueError("give options either in the Game or as keywords, not both")
            self.game = game
        else:
            self.game = load_game(game, **options)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(self.RENDER_MODES)}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": list(self.RENDER_MODES),
            "name": f"palaestra_{self.game.name}_v0",
            "is_parallelizable": False,
        }

        n = self.game.num_players
        self.possible_agents: list[str] = [agent_name(p) for p in range(n)]
        self.agent_ids = {a: p for p, a in enumerate(self.possible_agents)}
        num_actions = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_shape())
        low, high = game_info(self.game.name).observation_bounds  # every value lies in [low, high]
        self._shape = shape
        self._num_actions = num_actions
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(num_actions) for a in self.possible_agents
        }

        self._rng = random.Random()
        self._driver = Driver(self.game.new_initial_state(), ChanceSource.from_seed(None))
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    # --- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- the AEC loop -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the chance draws (and the action spaces' sampling)."""
        if seed is not None:
            self._rng = random.Random(seed)
            for p, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + p)
        else:  # the next game of a seeded sequence (or a fresh one): its seed from the generator
            seed = self._rng.randrange(2**31)
        self._driver = Driver(self.game.new_initial_state(seed), ChanceSource.from_seed(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._resolve_chance()
        self._after_move(self.possible_agents[0])

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for the agent to act; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        self._driver.play(int(action))
        self._resolve_chance()
        self._after_move(agent)
        if self.render_mode == "human":
            self.render()

    @property
    def state(self) -> State:
        """The game's state (the driver's)."""
        return self._driver.state

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (``None``: it goes on)."""
        return self._driver.result

    def _resolve_chance(self) -> None:
        # the driver draws chance by the one rule; it has no seats, so it stops at a player
        while not self._driver.over and self._driver.step() is not None:
            pass

    def _after_move(self, mover: str) -> None:
        """Set rewards, terminations and the next agent after a move (or a reset)."""
        self._clear_rewards()
        outcome = self._driver.result
        if outcome is not None:
            for p, value in enumerate(outcome.returns):
                self.rewards[self.possible_agents[p]] = float(value)
                self.infos[self.possible_agents[p]] = {"termination": outcome.termination.value}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            following = (self.agent_ids[mover] + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[following]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> Observation:
        player = self.agent_ids[agent]
        observation = np.asarray(self.state.observation_tensor(player), dtype=np.float32)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if not self._driver.over and self.state.current_player == player:
            mask[self.state.legal_actions()] = 1
        return {"observation": observation.reshape(self._shape), "action_mask": mask}

    # --- views ------------------------------------------------------------------------------
    def render(self) -> str | None:
        """The position as text: returned for ``"ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self.state.render()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


# PettingZoo's name for the unwrapped environment class
raw_env = PalaestraEnv


def env(game: str | Game, render_mode: str | None = None, **options: object) -> Any:
    """The AEC environment of a game (``env(game=NAME, **options)``), wrapped in PettingZoo's
    order-enforcing wrapper (``reset`` before ``step``, ...); ``.unwrapped`` is the
    :class:`PalaestraEnv`."""
    return wrappers.OrderEnforcingWrapper(PalaestraEnv(game, render_mode=render_mode, **options))
