"""The registry of games: a name maps to the :class:`~palaestra.core.info.GameInfo` it declares.

Adding a game is its own folder under ``palaestra/games`` plus one line in :data:`_GAMES` (the
path of its ``GameInfo``), or a call to :func:`register_game` (a game living elsewhere, a test's
toy game). An entry is imported on first use, so a game that fails to import does not break the
others. An entry may also name a :class:`Game` class directly (``"module:Class"``); its info is
then the bare minimum (:func:`palaestra.core.info.info_from_class`).
"""

from __future__ import annotations

from palaestra.core.errors import OptionError
from palaestra.core.game import Game
from palaestra.core.info import GameInfo, import_target, info_from_class

#: name -> ``"module:INFO"`` (or ``"module:GameClass"``), or the info / class itself
_GAMES: dict[str, str | GameInfo | type[Game]] = {
    "agamemnon": "palaestra.games.agamemnon.info:INFO",
    "archimedes": "palaestra.games.archimedes.info:INFO",
    "athos": "palaestra.games.athos.info:INFO",
}
_INFOS: dict[tuple[str, int], GameInfo] = {}


def register_game(entry: GameInfo | type[Game] | str, *, replace: bool = False) -> str:
    """Register a game (its info, its class, or the path of either) and return its name.

    Registering the same entry twice is harmless; another game under a registered name is refused
    unless ``replace``."""
    if isinstance(entry, str):
        target = import_target(entry)
        name = str(target.name)
    else:
        name = entry.name
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
    return sorted(_GAMES)


def game_info(name: str) -> GameInfo:
    """The declared :class:`GameInfo` of the game registered under ``name``."""
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
