"""AI agents and the arena. Agents talk to games only through the core protocol."""

from palaestra.ai.base import Agent, RandomAgent, make_agent

__all__ = ["Agent", "RandomAgent", "make_agent"]
