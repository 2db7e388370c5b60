"""What a game declares about itself: :class:`GameInfo`.

Everything outside ``palaestra/games`` (the AI levels, the command line, the web app, the
terminal, the research adapters) learns a game's facts from its ``GameInfo`` and the core protocol,
never from its name. A game declares its info in a light module of its own folder
(``palaestra/games/NAME/info.py``, which must not import the rules: the registry reads every info
to list the games), and its package declares it as an entry point of the group
``palaestra.games`` (:mod:`palaestra.core.registry`, docs/core.md "Adding a game")::

    INFO = GameInfo(
        name="nim",
        title="Nim",
        game="mygames.nim:NimGame",            # imported on first use
        player_counts=(2,),
        levels={"strong": "mcts:iterations=100"},
    )
    register_game(INFO)                         # or an entry point of its package

The options schema is the game class's ``OPTIONS`` (:meth:`GameInfo.options`); the observation
shape is ``Game.observation_shape()`` (it may depend on the options, e.g. a board file), its bounds
are declared here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palaestra.core.game import Game, Option, State
    from palaestra.core.lessons import Course
    from palaestra.core.rules_page import Example, RulesPages


def import_target(target: str) -> Any:
    """The object named ``"package.module:attribute"`` (imported now)."""
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"{target!r} is not of the form 'package.module:attribute'")
    return getattr(importlib.import_module(module_name), attribute)


@dataclass(frozen=True)
class CliFlag:
    """A command-line flag of its own for one game option (``palaestra play NAME --FLAG VALUE``).

    ``path=True``: the value names a file on the player's machine; the command line passes it on
    as an absolute path. Options that name files are declared ``server=False`` (the web app refuses
    them), so such a flag is the command line's only way to them besides ``--option``.
    """

    flag: str
    option: str
    metavar: str = "VALUE"
    help: str = ""
    path: bool = False


@dataclass(frozen=True)
class WebAssets:
    """The files of a game's ``web/`` folder the browser loads, and its view hook.

    Files are named relative to the game's ``web/`` folder, Python objects as
    ``"module:attribute"``:

    - ``renderer``: the ES module that draws the board (``board.js``); ``stylesheet``: a CSS file of
      the game's own (loaded with the renderer); ``view``: a function ``game -> dict`` with static
      data the renderer needs that the protocol does not carry (a board map), sent with every view
      as ``web``.
    - ``catalogue``: the game's own translations of its web texts, a file name with ``{lang}``
      (``"i18n.{lang}.json"``): the texts of its renderer and ``option_texts``, keyed by the
      English text, as the app's own catalogues.
    - ``option_texts``: per option a label and an explanation for players, in English (no ruling
      IDs); an option not listed shows its name and its ``help``.
    - ``rules``: the rules page's text, a :data:`~palaestra.core.rules_page.RulesPages`;
      ``examples``: a function ``() -> list[Example]``, the rulebook's figures
      (:mod:`palaestra.core.rules_page`).
    - ``lessons``: the course "Learn to play", a :class:`~palaestra.core.lessons.Course`
      (:mod:`palaestra.core.lessons`).
    """

    renderer: str | None = "board.js"
    stylesheet: str | None = None
    view: str | None = None
    catalogue: str | None = None
    option_texts: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    rules: str | None = None
    examples: str | None = None
    lessons: str | None = None


@dataclass(frozen=True)
class TerminalView:
    """How ``palaestra play`` fits the game's text board on a small terminal.

    ``compact``: ``"module:function"``, a function ``(text, width) -> (shown, info)`` of the
    game's own (default: the board up to its first blank line, then the status lines);
    ``details``: prefixes of status lines that the generic compaction moves to ``info``.
    """

    compact: str | None = None
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """The declared facts of a game (see the module docstring).

    - ``name``: the registry name (the game class's ``name``); ``title``: the display name.
    - ``game``: the :class:`~palaestra.core.game.Game` subclass or its ``"module:Class"`` path.
    - ``player_counts``: the numbers of players the game is played with; ``players_option``: the
      option that sets it (``None``: the count is fixed, or set by other options).
    - ``observation_bounds``: every value of ``observation_tensor`` lies in ``[low, high]``.
    - ``levels``: the agent spec per AI level (``"strong"``) or level and player count
      (``"strong/3"``); a level the game does not name plays the generic spec (docs/ai.md).
    - ``cli_flags``: options the command line offers as flags of their own.
    - ``web``, ``terminal``: the views (:class:`WebAssets`, :class:`TerminalView`).
    - ``menu_rank``: where the game stands in menus (lower first, then by name).
    - ``take_back``: ``"module:function"``, the undo policy ``(state, action) -> bool`` behind
      :meth:`State.can_take_back` for a game class that does not override that method.
    - ``team_options``: the options that set up the game's team game (one whose ``Game.teams()``
      is not ``None``), if it has one; the ratings keep a pool of its own for it.
    - ``ai_ratings``: per rating pool of the game (its id, :mod:`palaestra.server.service.ratings`)
      the fixed shown rating of each AI level there, as ``benchmarks/rating_anchors.py`` prints
      them from the measured strength of the game's levels (docs/accounts.md); a pool without them
      has no anchors.
    """

    name: str
    title: str
    game: str | type[Game]
    player_counts: tuple[int, ...] = (2,)
    players_option: str | None = None
    observation_bounds: tuple[float, float] = (0.0, 1.0)
    levels: Mapping[str, str] = field(default_factory=dict)
    cli_flags: tuple[CliFlag, ...] = ()
    web: WebAssets = field(default_factory=WebAssets)
    terminal: TerminalView = field(default_factory=TerminalView)
    menu_rank: int = 100
    take_back: str | None = None
    team_options: Mapping[str, object] | None = None
    ai_ratings: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.lower() or not self.name.isidentifier():
            raise ValueError(f"a game name is a lower-case identifier, not {self.name!r}")
        if not self.player_counts or any(n < 1 for n in self.player_counts):
            raise ValueError(f"{self.name}: player_counts lists at least one count of 1 or more")
        low, high = self.observation_bounds
        if not low <= high:
            raise ValueError(f"{self.name}: observation_bounds is (low, high) with low <= high")
        flags = [f.flag for f in self.cli_flags]
        if len(set(flags)) != len(flags):
            raise ValueError(f"{self.name}: a command-line flag is declared twice")

    # --- the game class --------------------------------------------------------------------------
    def game_class(self) -> type[Game]:
        """The game's :class:`Game` subclass (imported on first use)."""
        from palaestra.core.game import Game

        cls = import_target(self.game) if isinstance(self.game, str) else self.game
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise TypeError(f"{self.game} is not a Game class")
        if cls.name != self.name:
            raise TypeError(f"{cls.__name__} is named {cls.name!r}, its info {self.name!r}")
        return cls

    def options(self) -> tuple[Option, ...]:
        """The options schema: the game class's declared ``OPTIONS``."""
        return self.game_class().OPTIONS

    def options_for_players(self, count: int) -> dict[str, object]:
        """The options that set up a game of ``count`` players (``{}`` where the count is fixed)."""
        if count not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            from palaestra.core.errors import OptionError

            raise OptionError(f"{self.title} is for {counts} players, not {count}")
        if self.players_option is None:
            return {}
        return {self.players_option: count}

    # --- declared behaviour ----------------------------------------------------------------------
    def level_spec(self, level: str, num_players: int) -> str | None:
        """The game's agent spec for an AI level (``None``: the game names none)."""
        return self.levels.get(f"{level}/{num_players}", self.levels.get(level))

    def take_back_policy(self) -> Callable[[State, int], bool] | None:
        """The declared undo policy, if any (see :meth:`State.can_take_back`)."""
        if self.take_back is None:
            return None
        policy: Callable[[State, int], bool] = import_target(self.take_back)
        return policy

    def web_view(self) -> Callable[[Game], dict[str, Any]] | None:
        """The web view hook (``WebAssets.view``), if any."""
        if self.web.view is None:
            return None
        hook: Callable[[Game], dict[str, Any]] = import_target(self.web.view)
        return hook

    def rules_pages(self) -> RulesPages | None:
        """The rules page's text per language (``WebAssets.rules``), if the game has one."""
        if self.web.rules is None:
            return None
        pages: RulesPages = import_target(self.web.rules)
        return pages

    def rules_examples(self) -> list[Example]:
        """The rules page's figures (``WebAssets.examples``), in page order; none by default."""
        if self.web.examples is None:
            return []
        build: Callable[[], list[Example]] = import_target(self.web.examples)
        return sorted(build(), key=lambda e: e.after)

    def lessons(self) -> Course | None:
        """The course "Learn to play" (``WebAssets.lessons``), if the game has one."""
        if self.web.lessons is None:
            return None
        course: Course = import_target(self.web.lessons)
        return course

    def terminal_compact(self) -> Callable[[str, int], tuple[list[str], list[str]]] | None:
        """The game's own terminal compaction (``TerminalView.compact``), if any."""
        if self.terminal.compact is None:
            return None
        compact: Callable[[str, int], tuple[list[str], list[str]]] = import_target(self.terminal.compact)
        return compact


def info_from_class(cls: type[Game]) -> GameInfo:
    """The info of a game class registered without one: the player count of a game with the
    default options, nothing else declared."""
    return GameInfo(cls.name, cls.title, cls, player_counts=(cls().num_players,))
