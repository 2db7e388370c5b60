"""The registry of games: a name maps to the :class:`~palaestra.core.info.GameInfo` it declares.

Games are plug-ins. A distribution declares its games as entry points of the group
``palaestra.games`` (:data:`GROUP`), one per game, the name of the game pointing at its info::

    [project.entry-points."palaestra.games"]
    mygame = "mygames.mygame.info:INFO"

Palaestra's own three games are declared in its ``pyproject.toml`` the same way; a fourth game is
a separate package that declares its entry point and is installed beside Palaestra (docs/core.md,
"Adding a game"). The entry points are read once, on first use (their metadata only: nothing is
imported), and an entry is imported on first use of its game, so a game that fails to import
does not break the others. :func:`register_game` adds a game living elsewhere for the time of a
process (a test's toy game); a registered game wins over an entry point of the same name.

A source checkout run without being installed, or installed before its ``pyproject.toml``
declared the entry points, has no metadata for its own games: they are then found by their
folders (each package ``palaestra/games/NAME`` with an ``info`` module declaring ``INFO``).

An entry (an entry point's value, or what :func:`register_game` is given) may also name a
:class:`Game` class directly (``"module:Class"``); its info is then the bare minimum
(:func:`palaestra.core.info.info_from_class`).
"""

from __future__ import annotations

import logging
import pkgutil
from importlib.metadata import entry_points

from palaestra.core.errors import OptionError
from palaestra.core.game import Game
from palaestra.core.info import GameInfo, import_target, info_from_class

log = logging.getLogger("palaestra")

#: the entry-point group of games
GROUP = "palaestra.games"
#: the distribution whose games are found by their folders when its metadata declares none
OWN_DISTRIBUTION = "palaestra"

Entry = str | GameInfo | type[Game]
#: name -> ``"module:INFO"`` (or ``"module:GameClass"``), or the info / class itself: the games
#: registered in this process (:func:`register_game`) and, once read, the entry points
_GAMES: dict[str, Entry] = {}
#: whether the entry points have been read into :data:`_GAMES`
_discovered = False
_INFOS: dict[tuple[str, int], GameInfo] = {}


def plugin_entries() -> dict[str, str]:
    """The games the installed distributions declare: name -> the entry point's value.

    Two distributions declaring one name: the first found wins, and the other is logged. Without
    any entry point of Palaestra's own distribution, the packages of ``palaestra/games`` are its
    games (see the module docstring)."""
    found: dict[str, str] = {}
    own = False
    for point in entry_points(group=GROUP):
        name = point.name.lower()
        own = own or (point.dist is not None and point.dist.name == OWN_DISTRIBUTION)
        if name in found and found[name] != point.value:
            log.warning("game %r is declared twice: %s is used, %s is not", name, found[name], point.value)
            continue
        found[name] = point.value
    if not own:
        import palaestra.games

        for module in pkgutil.iter_modules(palaestra.games.__path__):
            if module.ispkg:
                found.setdefault(module.name, f"palaestra.games.{module.name}.info:INFO")
    return found


def _discover() -> None:
    """Read the entry points into :data:`_GAMES` once (a registered game keeps its name)."""
    global _discovered
    if not _discovered:
        _discovered = True
        for name, value in plugin_entries().items():
            _GAMES.setdefault(name, value)


def register_game(entry: GameInfo | type[Game] | str, *, replace: bool = False) -> str:
    """Register a game (its info, its class, or the path of either) and return its name.

    Registering the same entry twice is harmless; another game under a registered name is refused
    unless ``replace``."""
    if isinstance(entry, str):
        target = import_target(entry)
        name = str(target.name)
    else:
        name = entry.name
    _discover()
    known = _GAMES.get(name)
    if known is not None and known != entry and not replace:
        raise OptionError(f"a game {name!r} is registered already")
    _GAMES[name] = entry
    return name


def unregister_game(name: str) -> None:
    """Forget a game (tests register toy games for a while)."""
    _GAMES.pop(name, None)


def game_names() -> list[str]:
    """Names of the registered games, sorted."""
    _discover()
    return sorted(_GAMES)


def game_info(name: str) -> GameInfo:
    """The declared :class:`GameInfo` of the game registered under ``name``."""
    _discover()
    try:
        entry = _GAMES[name.lower()]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(game_names())})") from None
    key = (name.lower(), id(entry))
    cached = _INFOS.get(key)
    if cached is not None:
        return cached
    target = import_target(entry) if isinstance(entry, str) else entry
    if isinstance(target, GameInfo):
        info = target
    elif isinstance(target, type) and issubclass(target, Game):
        info = info_from_class(target)
    else:
        raise TypeError(f"{entry!r} is neither a GameInfo nor a Game class")
    if info.name != name.lower():
        raise TypeError(f"the game registered as {name!r} calls itself {info.name!r}")
    _INFOS[key] = info
    return info


def game_infos() -> list[GameInfo]:
    """The infos of the games that import, in menu order (``menu_rank``, then name)."""
    out = []
    for name in game_names():
        try:
            out.append(game_info(name))
        except (ImportError, AttributeError, TypeError, ValueError):
            continue
    return sorted(out, key=lambda i: (i.menu_rank, i.name))


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered under ``name``."""
    return game_info(name).game_class()


def load_game(name: str, **options: object) -> Game:
    """Make a game with its options: ``load_game("nim", stones=9)``."""
    return game_class(name)(**options)
