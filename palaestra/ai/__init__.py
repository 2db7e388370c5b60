"""AI agents and the arena. Agents talk to games only through the core protocol.

See docs/ai.md: ``make_agent("expert", seed=1)``, ``make_agent("mcts:iterations=500")``, and
:func:`palaestra.ai.arena.run_match`.
"""

from palaestra.ai.base import Agent, RandomAgent, make_agent, parse_spec, register_agent, split_specs
from palaestra.ai.greedy import GreedyAgent
from palaestra.ai.levels import LEVEL_NAMES, LevelAgent, level_spec
from palaestra.ai.mcts import MCTSAgent
from palaestra.ai.turn import TurnAgent

__all__ = [
    "LEVEL_NAMES",
    "Agent",
    "GreedyAgent",
    "LevelAgent",
    "MCTSAgent",
    "RandomAgent",
    "TurnAgent",
    "level_spec",
    "make_agent",
    "parse_spec",
    "register_agent",
    "split_specs",
]
