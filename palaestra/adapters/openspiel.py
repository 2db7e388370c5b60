"""Palaestra's games as OpenSpiel games (``pyspiel``).

Importing this module registers every game of Palaestra's registry with
``pyspiel.register_game`` under the name ``palaestra_<game>``::

    import pyspiel
    import palaestra.adapters.openspiel  # registers palaestra_NAME for every game NAME

    game = pyspiel.load_game("palaestra_NAME", {"OPTION": VALUE})
    state = game.new_initial_state()

One generic adapter (:class:`SpielGame` / :class:`SpielState`) serves every game: it talks to the
game only through the core protocol (``palaestra.core.game``), so a game needs nothing of its own
to be an OpenSpiel game. What the adapter maps:

* **Parameters.** Every :class:`~palaestra.core.game.Option` of the game is an OpenSpiel game
  parameter of the same name and kind (bool, int, str). An option whose default is ``None`` ("not
  set", for example a set-up drawn at random) has the parameter default ``-1`` (int) or ``""``
  (str), which means "not set". In game strings (``str(game)``, serialised states) the characters
  ``% , = ( )`` of a text value are written ``%25 %2C %3D %28 %29``
  (``palaestra_NAME(setup=I%2CII%2CIII,...)``), and a text that OpenSpiel would read as a
  number or a bool has its first character escaped; a text parameter is read with every ``%XX``
  decoded, so both forms are accepted.
* **Game type.** Sequential, perfect information, terminal rewards, zero-sum (returns come from
  ``returns_from_ranks``: they sum to 0 for any player count), utilities in [-1, 1]. Chance mode is
  *explicit stochastic* when the game has chance outcomes (``max_chance_outcomes() > 0``),
  *deterministic* otherwise. The player count range is the one the game declares
  (``GameInfo.player_counts``).
* **Actions.** The game's own integer ids, with ``action_to_string`` in the game's notation;
  chance outcomes are the game's chance ids.
* **Observations.** ``observation_tensor`` is the game's ``observation_tensor(player)`` (shape
  ``observation_shape()``) and ``observation_string`` its ``observation_string(player)``; the
  information-state string (perfect recall) is the action history.
* **Serialisation.** ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` (and
  pickling) work; the Palaestra state travels as its game, options, seed and action history and is
  rebuilt by replaying the history (every action checked again).

The Palaestra state under an OpenSpiel state is ``state.palaestra_state`` (Palaestra's agents and
tools take it as it is).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from palaestra.core.errors import OptionError
from palaestra.core.game import Game, Option, State
from palaestra.core.info import GameInfo, info_from_class
from palaestra.core.registry import game_class, game_names
from palaestra.core.registry import game_info as declared_info

#: prefix of the OpenSpiel names of Palaestra's games
PREFIX = "palaestra_"
#: parameter value meaning "not set" for an int option whose default is ``None``
UNSET_INT = -1
#: parameter value meaning "not set" for a str option whose default is ``None``
UNSET_STR = ""

ParamValue = bool | int | str


#: characters a text parameter cannot carry in an OpenSpiel game string (``name(key=value,...)``),
#: written as %XX there; ``%`` itself is escaped so that this is reversible
_SPECIAL = "%,=()"
_NUMBER_CHARS = set("+-0123456789.")
_ESCAPED = re.compile("%([0-9A-Fa-f]{2})")


def escape_text(value: str) -> str:
    """A text option value as an OpenSpiel string parameter: ``I,II,III`` -> ``I%2CII%2CIII``.

    OpenSpiel reads a game string's ``12`` as a number and ``true`` as a bool: such a text gets
    its first character escaped (``%312``) so that it stays a text.
    """
    out = "".join(f"%{ord(c):02X}" if c in _SPECIAL else c for c in value)
    if value and (set(value) <= _NUMBER_CHARS or value.lower() in ("true", "false")):
        out = f"%{ord(value[0]):02X}" + out[1:]
    return out


def unescape_text(value: str) -> str:
    """The inverse of :func:`escape_text` (every ``%XX`` is read as an escape)."""
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), value)


def spiel_name(name: str) -> str:
    """The OpenSpiel name of a Palaestra game: ``NAME`` -> ``palaestra_NAME``."""
    return PREFIX + name


def _unset_value(option: Option) -> ParamValue:
    if option.kind is int:
        return UNSET_INT
    if option.kind in (str, dict):
        return UNSET_STR
    raise TypeError(f"option {option.name!r}: a {option.kind.__name__} option needs a default")


def parameter_specification(game_cls: type[Game]) -> dict[str, ParamValue]:
    """OpenSpiel parameters (name -> default) for the options of a game class."""
    spec: dict[str, ParamValue] = {}
    for option in game_cls.OPTIONS:
        if option.kind not in (bool, int, str, dict):
            raise TypeError(f"option {option.name!r} has a kind OpenSpiel cannot carry")
        if option.default is None:
            unset = _unset_value(option)
            if option.choices is not None:
                clash = unset in option.choices
            else:  # a number "unset" needs a minimum above it; any text but "" is a real value
                clash = option.kind is int and (option.minimum is None or option.minimum <= UNSET_INT)
            if clash:
                raise TypeError(f"option {option.name!r}: {unset!r} would be a real value, not 'unset'")
            spec[option.name] = unset
        elif isinstance(option.default, str):
            spec[option.name] = escape_text(option.default)
        elif isinstance(option.default, bool | int):
            spec[option.name] = option.default
    return spec


def options_from_parameters(game_cls: type[Game], params: Mapping[str, Any]) -> dict[str, object]:
    """Palaestra options from OpenSpiel parameters (the "unset" values dropped)."""
    declared = {o.name: o for o in game_cls.OPTIONS}
    options: dict[str, object] = {}
    for key, value in params.items():
        option = declared.get(key)
        if option is None:
            options[key] = value  # unknown: the game raises OptionError naming its options
        elif option.default is None and value == _unset_value(option) and not isinstance(value, bool):
            continue
        elif option.kind is str:
            # OpenSpiel reads a game string's "12" as a number: a text option takes it back as text
            options[key] = unescape_text(value) if isinstance(value, str) else str(value)
        elif option.kind is dict and isinstance(value, str):
            # a document travels as its JSON text; a shipped document's name as the name
            text = unescape_text(value)
            options[key] = json.loads(text) if text.startswith("{") else text
        else:
            options[key] = value
    return options


def parameters_from_options(game: Game) -> dict[str, ParamValue]:
    """OpenSpiel parameters describing a Palaestra game's options (every option present)."""
    params = parameter_specification(type(game))
    for key, value in game.options.items():
        if isinstance(value, dict):  # a document (Option kind dict) as its JSON text
            params[key] = escape_text(json.dumps(value, separators=(",", ":"), sort_keys=True))
        elif isinstance(value, str):
            params[key] = escape_text(value)
        elif value is not None:
            params[key] = value
    return params


def _declared(game_cls: type[Game]) -> GameInfo:
    """What the game declares: its registered info, or the bare info of an unregistered class."""
    try:
        info = declared_info(game_cls.name)
    except OptionError:
        return info_from_class(game_cls)
    return info if info.game_class() is game_cls else info_from_class(game_cls)


def game_type(
    game_cls: type[Game], game: Game | None = None, info: GameInfo | None = None
) -> pyspiel.GameType:
    """The OpenSpiel game type of a Palaestra game (of its defaults, or of ``game``); the player
    count range is the one the game declares (``GameInfo.player_counts``)."""
    sample = game if game is not None else game_cls()
    counts = (info or _declared(game_cls)).player_counts
    low, high = min(counts), max(counts)
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if sample.max_chance_outcomes() > 0
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=spiel_name(game_cls.name),
        long_name=f"Palaestra {game_cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(game_cls),
    )


def game_info(game: Game) -> pyspiel.GameInfo:
    """The OpenSpiel game info (sizes and utilities) of a Palaestra game."""
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=game.max_chance_outcomes(),
        num_players=game.num_players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=game.max_game_length(),
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game wrapping one Palaestra game with its options.

    :func:`register` makes one subclass per Palaestra game (``game_cls`` set) and registers it.
    """

    #: the Palaestra game class this OpenSpiel game class plays, and what it declares
    game_cls: type[Game]
    info: GameInfo

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_cls = type(self).game_cls
        game = game_cls(**options_from_parameters(game_cls, params or {}))
        super().__init__(
            game_type(game_cls, game, type(self).info), game_info(game), parameters_from_options(game)
        )
        self._palaestra_game = game

    @property
    def palaestra_game(self) -> Game:
        """The Palaestra game (with its options) this OpenSpiel game plays."""
        game: Game | None = self.__dict__.get("_palaestra_game")
        if game is None:  # an unpickled game: OpenSpiel restored only its parameters
            game_cls = type(self).game_cls
            game = game_cls(**options_from_parameters(game_cls, self.get_parameters()))
            self._palaestra_game = game
        return game

    def new_initial_state(self, state: object = None) -> SpielState:
        """A new game; OpenSpiel's struct/JSON initial states are not supported."""
        if state is not None:
            raise ValueError("Palaestra games start from their initial state only")
        return SpielState(self, self.palaestra_game.new_initial_state())

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> Any:
        """The observer OpenSpiel uses for observation tensors and strings."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return Observer(self.palaestra_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _StateBox:
    """Holds the Palaestra state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and serialises it by pickling
    them: this box copies with the game's own fast ``clone`` and pickles as game, options, seed
    and history (rebuilt by replaying the history).
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, object]) -> _StateBox:
        return _StateBox(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        options = {k: v for k, v in game.options.items() if v is not None}
        return (_rebuild_box, (type(game), options, self.state.seed, list(self.state.history)))


def _rebuild_box(
    game_cls: type[Game], options: dict[str, object], seed: int | None, history: list[int]
) -> _StateBox:
    state = game_cls(**options).new_initial_state(seed)
    for action in history:
        state.apply_action(action)
    return _StateBox(state)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a Palaestra state."""

    def __init__(self, game: SpielGame, state: State) -> None:
        super().__init__(game)
        self._box = _StateBox(state)

    @property
    def palaestra_state(self) -> State:
        """The Palaestra state under this OpenSpiel state (shared, not a copy)."""
        return self._box.state

    def current_player(self) -> int:
        # CHANCE (-1) and TERMINAL (-4) have OpenSpiel's values
        return self._box.state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self._box.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted(self._box.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        self._box.state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._box.state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._box.state.returns()]

    def __str__(self) -> str:
        return self._box.state.render()


class Observer:
    """OpenSpiel's PyObserver for a Palaestra game: the game's observation tensor and string."""

    def __init__(self, game: Game, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {dict(params)}")
        shape = game.observation_shape()
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = state.palaestra_state.observation_tensor(player)

    def string_from(self, state: SpielState, player: int) -> str:
        return state.palaestra_state.observation_string(player)


#: the OpenSpiel game class made for each registered Palaestra game, by OpenSpiel name
SPIEL_GAMES: dict[str, type[SpielGame]] = {}


def register(game: type[Game] | GameInfo) -> type[SpielGame]:
    """Register a Palaestra game (its class or its :class:`GameInfo`) with OpenSpiel as
    ``palaestra_<name>`` (once).

    Registers a class, not a closure, the way OpenSpiel's own Python games do: OpenSpiel keeps the
    creator until the interpreter has shut down, and a class outlives that quietly.
    """
    info = game if isinstance(game, GameInfo) else _declared(game)
    game_cls = info.game_class()
    name = spiel_name(game_cls.name)
    known = SPIEL_GAMES.get(name)
    if known is not None and known.game_cls is game_cls:
        return known
    if name in pyspiel.registered_names():
        raise ValueError(f"OpenSpiel already has a game named {name!r}")
    spiel_cls = type(
        f"{game_cls.__name__}Spiel",
        (SpielGame,),
        {"game_cls": game_cls, "info": info, "__module__": __name__},
    )
    pyspiel.register_game(game_type(game_cls, info=info), spiel_cls)
    SPIEL_GAMES[name] = spiel_cls
    globals()[spiel_cls.__name__] = spiel_cls  # picklable by name
    return spiel_cls


def load(name: str, **options: object) -> SpielGame:
    """``pyspiel.load_game`` for a Palaestra game by its Palaestra name and options."""
    cls = game_class(name)
    register(declared_info(name))
    loaded: SpielGame = pyspiel.load_game(spiel_name(cls.name), dict(options))
    return loaded


#: OpenSpiel names of the registry's games registered by this module
REGISTERED: list[str] = []
#: games of the registry that could not be registered, with the reason (a game that fails to
#: import does not keep the others from OpenSpiel)
UNAVAILABLE: dict[str, str] = {}

for _name in game_names():
    try:
        register(declared_info(_name))
    except (ImportError, AttributeError, TypeError) as _err:
        UNAVAILABLE[_name] = f"{type(_err).__name__}: {_err}"
    else:
        REGISTERED.append(spiel_name(_name))
