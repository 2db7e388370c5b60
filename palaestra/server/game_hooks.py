"""What a game declares for the web app beyond the core protocol, read from its ``GameInfo``.

- ``web_data(game) -> dict``: the game's view hook (``WebAssets.view``): static data its board
  renderer needs that the protocol does not carry (the map of the board file in use). It goes into
  every game VIEW as ``web`` and is computed once per set of options.
- ``can_undo(before, action)``: may the player who played ``action`` take it back?
  ``State.can_take_back`` (the game's declared ``take_back`` policy). The server asks this only
  when the last move of the record is the requesting seat's own and that seat is still to move;
  ``has_undo(name)``: whether the game declares a policy at all (the UI's Undo button).

A hook that fails is logged and treated as absent, so a broken renderer helper never breaks a game.
"""

from __future__ import annotations

import logging
from typing import Any

from palaestra.core.errors import PalaestraError
from palaestra.core.game import Game, State
from palaestra.core.registry import game_info

log = logging.getLogger("palaestra.server")

_data: dict[tuple[str, str], dict[str, Any] | None] = {}


def web_data(game: Game) -> dict[str, Any] | None:
    """The renderer's static data for this game and these options (cached)."""
    key = (game.name, repr(sorted(game.options.items(), key=lambda kv: kv[0])))
    if key in _data:
        return _data[key]
    data: dict[str, Any] | None = None
    try:
        hook = game_info(game.name).web_view()
        data = hook(game) if hook is not None else None
    except Exception:
        log.exception("the web view of %s failed", game.name)
        data = None
    _data[key] = data
    return data


def has_undo(game_name: str) -> bool:
    """Whether the game declares an undo policy (``GameInfo.take_back``)."""
    try:
        return game_info(game_name).take_back is not None
    except PalaestraError:
        return False


def can_undo(before: State, action: int) -> bool:
    """May ``action``, played in ``before``, be taken back by the player who played it?"""
    try:
        return before.can_take_back(action)
    except Exception:
        log.exception("can_take_back of %s failed", before.game.name)
        return False
