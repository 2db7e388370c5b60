"""OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) as an arena agent.

``openspiel-mcts[:simulations=N,time=S,uct_c=C,rollouts=R,solve=B]`` plays through
Palaestra's OpenSpiel adapter (:mod:`palaestra.adapters.openspiel`, the ``research`` extra): the
position is wrapped as an OpenSpiel state and OpenSpiel's unchanged ``MCTSBot`` searches it with
its ``RandomRolloutEvaluator`` (``R`` random games to the end per leaf, default 1) and UCT
constant ``C`` (default 2, OpenSpiel's example setting). It is a program nobody here wrote, so
strength against it is a yardstick for our own agents (docs/ai.md).

Budget: ``simulations`` (default 1000 when no ``time`` is given) and/or ``time``, seconds of
*CPU time of the searching thread* per decision (``time.thread_time``: on a shared machine wall
time would give it whatever the other processes leave). The search stops at whichever comes
first; the time is checked before each simulation, by stopping OpenSpiel's loop from the hook it
calls at the start of every simulation (``_apply_tree_policy``), so every finished simulation
counts and the tree is OpenSpiel's own. ``agent.last_simulations`` is the number of simulations
the last search made. With a ``time`` budget, play depends on the machine.
"""

from __future__ import annotations

from time import thread_time
from typing import Any

from palaestra.ai.base import Agent, register_agent
from palaestra.core.errors import OptionError
from palaestra.core.game import Game, State


class _OutOfTime(Exception):
    """Raised at the start of a simulation once the budget is spent (the tree stays whole)."""


def _bot_class() -> Any:
    from open_spiel.python.algorithms import mcts

    class TimedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]
        """``MCTSBot`` that also stops after ``cpu_budget`` seconds of thread CPU time."""

        cpu_budget: float | None = None
        _deadline = 0.0
        _root: Any = None

        def mcts_search(self, state: Any) -> Any:
            self._deadline = thread_time() + self.cpu_budget if self.cpu_budget is not None else 0.0
            self._root = None
            try:
                return super().mcts_search(state)
            except _OutOfTime:
                return self._root

        def _apply_tree_policy(self, root: Any, state: Any) -> Any:
            self._root = root
            if self.cpu_budget is not None and root.explore_count > 0 and thread_time() >= self._deadline:
                raise _OutOfTime
            return super()._apply_tree_policy(root, state)

    return TimedMCTSBot


class OpenSpielMCTSAgent(Agent):
    """OpenSpiel's ``MCTSBot`` with random rollouts, searching through the OpenSpiel adapter."""

    name = "openspiel-mcts"

    def __init__(
        self,
        seed: int | None = None,
        simulations: int | None = None,
        time: float | None = None,
        uct_c: float = 2.0,
        rollouts: int = 1,
        solve: bool = True,
    ) -> None:
        super().__init__(seed)
        if simulations is None and time is None:
            simulations = 1000
        if simulations is not None and (not isinstance(simulations, int) or simulations < 1):
            raise OptionError(
                f"openspiel-mcts: simulations is a whole number of at least 1, not {simulations}"
            )
        if time is not None and not (isinstance(time, int | float) and time > 0):
            raise OptionError(f"openspiel-mcts: time is a number of CPU seconds above 0, not {time}")
        if not isinstance(rollouts, int) or rollouts < 1:
            raise OptionError(f"openspiel-mcts: rollouts is a whole number of at least 1, not {rollouts}")
        if not uct_c > 0:
            raise OptionError(f"openspiel-mcts: uct_c is above 0, not {uct_c}")
        try:
            import numpy  # noqa: F401
            import pyspiel  # noqa: F401
        except ImportError as err:  # pragma: no cover - the research extra is missing
            raise OptionError("openspiel-mcts needs OpenSpiel: pip install 'palaestra[research]'") from err
        self.simulations = simulations
        self.time = float(time) if time is not None else None
        self.uct_c = float(uct_c)
        self.rollouts = rollouts
        self.solve = bool(solve)
        self.last_simulations = 0
        self.last_seconds = 0.0  # CPU seconds of the last search
        self._bot: Any = None
        self._spiel: Any = None
        self._for: Game | None = None

    def reset(self) -> None:
        super().reset()
        self._bot = None  # a new random state from the seed

    def _bot_for(self, game: Game) -> tuple[Any, Any]:
        if self._bot is None or self._for is not game:
            import numpy as np
            from open_spiel.python.algorithms import mcts

            from palaestra.adapters.openspiel import parameters_from_options, register

            spiel_cls = register(type(game))
            self._spiel = spiel_cls(parameters_from_options(game))
            rng = np.random.RandomState(self.rng.randrange(2**32))
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=rng)
            bot = _bot_class()(
                self._spiel,
                uct_c=self.uct_c,
                max_simulations=self.simulations if self.simulations is not None else 10**9,
                evaluator=evaluator,
                solve=self.solve,
                random_state=rng,
            )
            bot.cpu_budget = self.time
            self._bot = bot
            self._for = game
        return self._bot, self._spiel

    def select_action(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            self.last_simulations = 0
            return actions[0]
        from palaestra.adapters.openspiel import SpielState

        bot, spiel = self._bot_for(state.game)
        start = thread_time()
        root = bot.mcts_search(SpielState(spiel, state.clone()))
        self.last_seconds = thread_time() - start
        self.last_simulations = int(root.explore_count)
        return int(root.best_child().action)

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        """The most visited actions with their mean value for the mover (OpenSpiel's statistics)."""
        from palaestra.adapters.openspiel import SpielState

        bot, spiel = self._bot_for(state.game)
        root = bot.mcts_search(SpielState(spiel, state.clone()))
        ranked = sorted(root.children, key=lambda c: (-c.explore_count, -c.total_reward))
        return [
            (int(c.action), c.total_reward / c.explore_count if c.explore_count else 0.0)
            for c in ranked[:top]
        ]


register_agent("openspiel-mcts", OpenSpielMCTSAgent)
