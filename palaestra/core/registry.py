"""The registry of games: a name maps to the module path of its :class:`Game` class.

Games are imported on first use, so a game that fails to import does not break the others.
Adding a game is one line here plus its own folder under ``palaestra/games``.
"""

from __future__ import annotations

import importlib

from palaestra.core.errors import OptionError
from palaestra.core.game import Game

_GAMES: dict[str, str] = {
    "agamemnon": "palaestra.games.agamemnon:AgamemnonGame",
    "archimedes": "palaestra.games.archimedes:ArchimedesGame",
    "athos": "palaestra.games.athos:AthosGame",
}


def game_names() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered under ``name``."""
    try:
        target = _GAMES[name.lower()]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(game_names())})") from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"{target} is not a Game class")
    return cls


def load_game(name: str, **options: object) -> Game:
    """Make a game with its options: ``load_game("agamemnon", loom=True)``."""
    return game_class(name)(**options)
