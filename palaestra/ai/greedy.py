"""The greedy agent: one ply, judged by the game's own heuristic ``State.evaluate``."""

from __future__ import annotations

from palaestra.ai.base import Agent, register_agent
from palaestra.core.errors import OptionError
from palaestra.core.game import State


def expected_value(state: State, player: int, chance_depth: int = 1) -> float:
    """``state.evaluate()[player]``, averaged over chance outcomes when ``state`` is a chance node.

    Chance nodes that follow chance nodes are expanded too, up to ``chance_depth`` levels; deeper
    ones are judged by ``evaluate`` directly.
    """
    if state.is_terminal():
        return state.returns()[player]
    if state.is_chance_node() and chance_depth > 0:
        total = 0.0
        for outcome, p in state.chance_outcomes():
            if p <= 0.0:
                continue
            child = state.clone()
            child.apply_legal(outcome)
            total += p * expected_value(child, player, chance_depth - 1)
        return total
    return state.evaluate()[player]


def action_values(state: State, chance_depth: int = 1) -> list[tuple[int, float]]:
    """Every legal action with the mover's expected heuristic value one ply ahead."""
    player = state.current_player
    out = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_legal(action)
        out.append((action, expected_value(child, player, chance_depth)))
    return out


class GreedyAgent(Agent):
    """Plays the action whose resulting state ``evaluate`` likes best for the mover.

    ``epsilon``: probability of a uniformly random legal action instead (weaker, livelier play).
    ``noise``: uniform noise in ``[0, noise)`` added to each value (breaks near-ties at random).
    ``chance_depth``: how many consecutive chance nodes are averaged over exactly.
    Exact ties are broken at random with the agent's seeded generator.
    """

    name = "greedy"

    def __init__(
        self,
        seed: int | None = None,
        epsilon: float = 0.0,
        noise: float = 0.0,
        chance_depth: int = 1,
    ) -> None:
        super().__init__(seed)
        if not 0.0 <= epsilon <= 1.0:
            raise OptionError(f"greedy: epsilon is between 0 and 1, not {epsilon}")
        if noise < 0.0:
            raise OptionError(f"greedy: noise is 0 or more, not {noise}")
        self.epsilon = float(epsilon)
        self.noise = float(noise)
        self.chance_depth = int(chance_depth)

    def _values(self, state: State) -> list[tuple[int, float]]:
        values = action_values(state, self.chance_depth)
        if self.noise > 0.0:
            values = [(a, v + self.rng.random() * self.noise) for a, v in values]
        return values

    def select_action(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if self.epsilon > 0.0 and self.rng.random() < self.epsilon:
            return self.rng.choice(actions)
        values = self._values(state)
        best = max(v for _, v in values)
        return self.rng.choice([a for a, v in values if v == best])

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        values = action_values(state, self.chance_depth)
        values.sort(key=lambda av: -av[1])
        return values[:top]


register_agent("greedy", GreedyAgent)
