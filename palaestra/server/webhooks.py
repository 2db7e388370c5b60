"""Optional per-game hooks of the web app, in the game's own ``web/`` package.

A game may ship ``palaestra/games/NAME/web/view.py`` (next to its ``board.js``) with:

- ``web_data(game) -> dict``: static data its board renderer needs that the protocol does not
  carry (Athos: the hex map of the board file in use, terrains, tile limits). It goes into every
  game VIEW as ``web`` and is computed once per set of options.
- ``can_undo(before, action, after) -> bool``: may the player who played ``action`` (taking
  ``before`` to ``after``) take it back? The server asks this only when the last move of the
  record is the requesting seat's own and that seat is still to move; without the hook nothing can
  be undone.

Hooks talk to the game through the core protocol (and the game's public methods); a hook that
fails is logged and treated as absent, so a broken renderer helper never breaks a game.
"""

from __future__ import annotations

import importlib
import logging
from types import ModuleType
from typing import Any

from palaestra.core.game import Game, State
from palaestra.core.registry import game_class

log = logging.getLogger("palaestra.server")

_modules: dict[str, ModuleType | None] = {}
_data: dict[tuple[str, str], dict[str, Any] | None] = {}


def web_module(game_name: str) -> ModuleType | None:
    """The game's ``web.view`` module, or None if it has none."""
    if game_name in _modules:
        return _modules[game_name]
    module: ModuleType | None = None
    try:
        cls = game_class(game_name)
        base = importlib.import_module(cls.__module__)
        package = base.__name__ if hasattr(base, "__path__") else base.__name__.rpartition(".")[0]
        module = importlib.import_module(f"{package}.web.view")
    except ModuleNotFoundError:
        module = None
    except Exception:
        log.exception("the web hooks of %s do not load", game_name)
        module = None
    _modules[game_name] = module
    return module


def web_data(game: Game) -> dict[str, Any] | None:
    """The renderer's static data for this game and these options (cached)."""
    key = (game.name, repr(sorted(game.options.items(), key=lambda kv: kv[0])))
    if key in _data:
        return _data[key]
    module = web_module(game.name)
    data: dict[str, Any] | None = None
    hook = getattr(module, "web_data", None)
    if hook is not None:
        try:
            data = hook(game)
        except Exception:
            log.exception("web_data of %s failed", game.name)
            data = None
    _data[key] = data
    return data


def can_undo(before: State, action: int, after: State) -> bool:
    """May ``action`` (from ``before`` to ``after``) be taken back by the player who played it?"""
    module = web_module(before.game.name)
    hook = getattr(module, "can_undo", None)
    if hook is None:
        return False
    try:
        return bool(hook(before, action, after))
    except Exception:
        log.exception("can_undo of %s failed", before.game.name)
        return False
