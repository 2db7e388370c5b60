"""The searches of the server as plain functions of picklable arguments (issue 31, item 2).

The search pool (palaestra/server/service/pool.py) runs them in a child process of its own when
``search_processes`` is on (the default): pure-Python searches hold the GIL, and in the server's
process they starve its event loop. A child rebuilds the position (:func:`position`) and
keeps what must live from move to move there:

- the agents of AI seats, by ``(game id, seat, session token)``, so that a seat's agent keeps its
  random state (and whatever else it keeps) from move to move, as in the arena; the session token
  is new for each copy of a game loaded in memory (a game loaded again gets new agents, as with
  threads). At most :data:`MAX_AGENTS` agents are kept, the ones used last: a game whose agent was
  dropped gets a new one (seeded the same way) at its next move;
- the games (their rules and tables) by class and options.

A game's searches always go to the same child, one at a time (the pool's affinity).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from palaestra.ai.base import Agent
from palaestra.core.game import Game, State

AgentFactory = Callable[[str, int | None], Agent]
#: a state sent to a child: its game's class and ``State.to_json()``
Position = tuple[type[Game], Mapping[str, Any]]
#: agents of AI seats kept in one child (some KB to some MB each, with a kept search tree)
MAX_AGENTS = 256
#: games (rules, tables) kept in one child
MAX_GAMES = 32

_agents: OrderedDict[tuple[str, int, str], Agent] = OrderedDict()
_games: OrderedDict[str, Game] = OrderedDict()


def start_child(nice: int) -> None:
    """The initializer of a search child: lower its priority below the server's event loop."""
    if nice > 0:
        with contextlib.suppress(OSError):  # not allowed here: the child runs at the server's priority
            os.nice(nice)


def played_spec(level: str, game: Game) -> str:
    """The agent spec a level plays in ``game``, resolved in the server's process: a child knows
    the games of the registry as imported, not those registered at run time (a plug-in's, a
    test's), whose declared levels (``GameInfo.levels``) would fall back to the generic ones."""
    from palaestra.ai.levels import LEVELS, level_spec

    return level_spec(level, game.name, game.num_players) if level in LEVELS else level


def position(state: State) -> Position:
    """What a child needs to rebuild ``state``: its game's class (pickled by name: games
    registered at run time, the tests', are known there too) and ``state.to_json()``."""
    return type(state.game), state.to_json()


def rebuild(position: Position) -> State:
    """The state of :func:`position`, its game made once per child."""
    cls, doc = position
    options = doc.get("options", {})
    key = json.dumps([cls.__module__, cls.__qualname__, options], sort_keys=True)
    game = _games.get(key)
    if game is None:
        game = cls(**options)
        _games[key] = game
        while len(_games) > MAX_GAMES:
            _games.popitem(last=False)
    else:
        _games.move_to_end(key)
    return game.state_from_json(doc)


def agent_move(key: tuple[str, int, str], level: str, seed: int | None, where: Position) -> int:
    """The move of the AI seat ``key`` (game id, seat, session token) in the position ``where``: its
    agent (made by ``make_agent(level, seed)`` at the seat's first move here) chooses it."""
    agent = _agents.get(key)
    if agent is None:
        from palaestra.ai import make_agent

        agent = make_agent(level, seed)
        _agents[key] = agent
        while len(_agents) > MAX_AGENTS:
            _, dropped = _agents.popitem(last=False)
            dropped.close()
    else:
        _agents.move_to_end(key)
    return agent.select_action(rebuild(where))


def hint(factory: AgentFactory, level: str, seed: int, where: Position, top: int) -> list[tuple[int, float]]:
    """The ``top`` moves of a new ``level`` agent in the position ``where``, with their values."""
    return factory(level, seed).analyse(rebuild(where), top)


def analyse_move(factory: AgentFactory, where: Position, spec: str, seed: int) -> list[tuple[int, float]]:
    """A new ``spec`` agent's values of all the moves (at most 50) of the position ``where``,
    best first: the AI's view of a finished game's move."""
    state = rebuild(where)
    return factory(spec, seed).analyse(state, min(len(state.legal_actions()), 50))
