"""The game protocol every Palaestra game implements.

The shape follows OpenSpiel's Python games (one ``Game`` and one ``State`` class per game) with a
smaller surface:

* A :class:`Game` holds the options of one match-up (variants, player count, board) and makes
  states: ``new_initial_state(seed)``, ``state_from_json(doc)``, ``state_from_position(doc)``.
* A :class:`State` is one position plus its history. Actions are integers (stable ids of the
  game's action space, ``0 <= a < game.num_distinct_actions()``); each game documents a readable
  notation for them (``action_to_string`` / ``string_to_action``).
* Chance (drawing a tile, dealing a set-up) is an explicit chance node: ``current_player`` is
  :data:`CHANCE`, ``chance_outcomes()`` lists ``(action, probability)`` pairs, and the outcome is
  applied with ``apply_action`` like any other action. A state holds no random generator: drivers
  sample outcomes (``sample_chance``), records store them, replays re-apply them.

A game is pure rules: no I/O, no printing, no global state.
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeGuard

from palaestra.core.chance import ChanceSource
from palaestra.core.errors import IllegalActionError, OptionError, PositionError, RecordError
from palaestra.core.termination import Termination

#: ``current_player`` at a chance node (same value as OpenSpiel's kChancePlayerId).
CHANCE = -1
#: ``current_player`` once the game is over (same value as OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

OptionValue = bool | int | str | dict[str, Any]
#: the largest document option (``Option(kind=dict)``) a game takes unless it says otherwise
DOCUMENT_BYTES = 64 * 1024


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (an ``int`` and not a ``bool``, which Python counts as
    one): the check every reader of outside input (JSON, action ids) needs."""
    return isinstance(value, int) and not isinstance(value, bool)


def set_bits(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, lowest first (games keep sets of cells as masks)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Option:
    """One option of a game: a variant switch, the player count, a board file, ...

    ``kind`` is ``bool``, ``int``, ``str`` or ``dict``. Boolean options are *variants* (``--variant
    NAME`` on the command line). ``choices`` restricts the values; ``minimum``/``maximum`` bound ints.
    A ``dict`` option is a *document*: a JSON object the game validates itself (a board, ...), or
    one of ``choices``, the names of the documents the game ships; it is data, never a path, so the
    web app passes it through, and a record holds it, so the game replays anywhere. A document is
    at most ``maximum`` bytes as compact JSON (default :data:`DOCUMENT_BYTES`).
    ``None`` as default means "not set" (for example a board file or a set-up drawn at random).
    ``server=False`` marks an option that names something on the machine (a file): the command
    line may use it, the web app refuses it (a request must never make the server open a file).
    """

    name: str
    kind: type
    default: OptionValue | None
    help: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    server: bool = True

    @property
    def is_variant(self) -> bool:
        return self.kind is bool

    def parse(self, value: object) -> OptionValue | None:
        """Check ``value`` (a Python value or a string from the command line) and return it typed."""
        if value is None:
            if self.default is None:
                return None
            raise OptionError(f"option {self.name!r} needs a value")
        if self.kind is dict:
            return self._document_or_name(value)
        if self.kind is bool:
            parsed: OptionValue = self._flag(value)
        elif self.kind is int:
            parsed = self._number(value)
        else:
            if not isinstance(value, str):
                raise OptionError(f"option {self.name!r} is a text, not {value!r}")
            parsed = value
        if self.choices is not None and parsed not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} is one of {allowed}, not {parsed!r}")
        return parsed

    def _flag(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
            return True
        if isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"option {self.name!r} is on or off, not {value!r}")

    def _number(self, value: object) -> int:
        if isinstance(value, bool):
            raise OptionError(f"option {self.name!r} is a whole number, not {value!r}")
        try:
            number: int = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise OptionError(f"option {self.name!r} is a whole number, not {value!r}") from None
        if self.minimum is not None and number < self.minimum:
            raise OptionError(f"option {self.name!r} is at least {self.minimum}, not {number}")
        if self.maximum is not None and number > self.maximum:
            raise OptionError(f"option {self.name!r} is at most {self.maximum}, not {number}")
        return number

    def _document_or_name(self, value: object) -> OptionValue:
        """A document option: one of the shipped names (``choices``) or a JSON object."""
        if not isinstance(value, str):
            return self._document(value)
        if self.choices is not None and value in self.choices:
            return value
        allowed = " or ".join(str(c) for c in self.choices or ())
        named = f"one of {allowed} or " if allowed else ""
        raise OptionError(f"option {self.name!r} is {named}a document (a JSON object), not {value!r:.80}")

    def _document(self, value: object) -> dict[str, Any]:
        """A document option's JSON object, as plain JSON data (a copy), within its size bound."""
        if not isinstance(value, Mapping):
            raise OptionError(f"option {self.name!r} is a document (a JSON object), not {value!r:.80}")
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            size = len(text.encode("utf-8"))
        except (TypeError, ValueError, RecursionError) as err:
            raise OptionError(f"option {self.name!r} is not a JSON document: {err}") from None
        limit = self.maximum if self.maximum is not None else DOCUMENT_BYTES
        if size > limit:
            raise OptionError(f"option {self.name!r}: the document has {size} bytes, at most {limit}")
        doc: dict[str, Any] = json.loads(text)
        return doc


#: The versions of RULINGS.md, named by the date of their amendment, oldest first. A game whose
#: rules an amendment changed declares :func:`rules_option`; a record names the version it was
#: played under in that option, and one that names none predates the versions (docs/formats.md).
RULES_VERSIONS = ("2026-11-23", "2026-11-25")
RULES_ORIGINAL, RULES_CURRENT = RULES_VERSIONS[0], RULES_VERSIONS[-1]


def rules_option() -> Option:
    """The ``rules`` option: the version of RULINGS.md a game is played by (default the current)."""
    return Option(
        "rules",
        str,
        RULES_CURRENT,
        "the version of RULINGS.md to play by (an older one replays the records of its games)",
        choices=RULES_VERSIONS,
    )


def parse_options(
    game_name: str, declared: Sequence[Option], given: Mapping[str, object]
) -> dict[str, OptionValue | None]:
    """Validate ``given`` against the declared options and fill in the defaults."""
    by_name = {o.name: o for o in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"{game_name} has no option {unknown[0]!r} (options: {known})")
    result: dict[str, OptionValue | None] = {}
    for option in declared:
        if option.name in given:
            result[option.name] = option.parse(given[option.name])
        else:
            result[option.name] = option.default
    return result


def returns_from_ranks(ranks: Sequence[int]) -> list[float]:
    """Turn final ranks (0 = best; equal ranks share) into returns in [-1, 1] that sum to zero.

    A player's return is (players it beats - players it loses to) / (players - 1): with two players
    a win is 1, a loss -1 and a draw 0.
    """
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for r in ranks:
        beats = sum(1 for other in ranks if other > r)
        loses = sum(1 for other in ranks if other < r)
        out.append((beats - loses) / (n - 1))
    return out


def outcome_text(game: Game, returns: Sequence[float]) -> str:
    """``draw``, ``NAME wins`` or ``NAME and NAME share the win``: who has the best return."""
    best = max(returns)
    winners = [game.player_name(p) for p, v in enumerate(returns) if v == best]
    if len(winners) == len(returns):
        return "draw"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return " and ".join(winners) + " share the win"


def sample_outcome(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """Pick one outcome of a chance node with its probability."""
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return action
    return outcomes[-1][0]


def random_playout(state: State, rng: random.Random, plies: int | None = None) -> int:
    """Play ``state`` on in place with uniformly random legal actions, chance outcomes drawn with
    their probabilities: ``plies`` actions (chance outcomes count), or to the end when ``None``;
    stops early at the end of the game. Returns the number of actions applied."""
    done = 0
    while not state.is_terminal() and (plies is None or done < plies):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return done


class Game(ABC):
    """A game with its options fixed. Create it with ``palaestra.load_game(name, **options)``."""

    #: registry name, e.g. ``"nim"``
    name: ClassVar[str]
    #: display name, e.g. ``"Nim"``
    title: ClassVar[str]
    #: the options this game accepts
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: object) -> None:
        self.options: dict[str, OptionValue | None] = parse_options(self.name, self.OPTIONS, options)

    # --- facts of the game -------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of players of this match-up."""

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the action space: every player action id is below this."""

    def max_chance_outcomes(self) -> int:
        """Size of the chance-outcome space (0 for games without chance)."""
        return 0

    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance outcomes included) of one game."""

    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of ``State.observation_tensor``."""

    # --- moves and their ids: palaestra.core.move ---------------------------------------------
    def decode(self, action: int) -> Any:
        """The typed move of action id ``action`` (the game's ``Move``, through its one
        ``ActionLayout``); ``ValueError`` for an id outside the action space. The default, for a
        game without typed moves: the id is the move."""
        if not is_int(action) or not 0 <= action < self.num_distinct_actions():
            raise ValueError(
                f"{action!r} is not an action id of {self.name} (0 to {self.num_distinct_actions() - 1})"
            )
        return action

    def encode(self, move: Any) -> int:
        """The action id of a move (the inverse of :meth:`decode`)."""
        if not is_int(move):
            raise ValueError(f"{move!r} is not a move of {self.name}")
        return move

    def player_name(self, player: int) -> str:
        """Display name of a seat (a colour, a start field ...)."""
        return f"player {player}"

    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The seats that play together, one tuple of seats per team (every seat in exactly one),
        where this match-up is a team game that a team wins or loses as one; ``None`` (the
        default): every seat plays for itself. Ratings rate such a game as one of teams."""
        return None

    # --- making states -----------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """The start of a game. ``seed`` is kept with the state for ``sample_chance``."""

    def state_from_json(self, doc: Mapping[str, Any]) -> State:
        """Rebuild a state written by :meth:`State.to_json` (same game, same options)."""
        if not isinstance(doc, Mapping):
            raise RecordError("a saved state is a JSON object")
        if doc.get("game") != self.name:
            raise RecordError(f"this saved state is of {doc.get('game')!r}, not {self.name!r}")
        options = doc.get("options", {})
        if not isinstance(options, Mapping):
            raise RecordError("'options' of a saved state is a JSON object")
        if parse_options(self.name, self.OPTIONS, options) != self.options:
            raise RecordError("this saved state was made with other options")
        return self._state_from_dict(doc)

    @abstractmethod
    def _state_from_dict(self, doc: Mapping[str, Any]) -> State:
        """Game part of :meth:`state_from_json`; ``doc`` already checked for game and options."""

    def state_from_position(self, doc: Mapping[str, Any]) -> State:
        """A state from a position document (the game's documented position format)."""
        raise PositionError(f"{self.title} has no position format")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.options) == (other.name, other.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted((k, str(v)) for k, v in self.options.items()))))

    def __repr__(self) -> str:
        set_options = {k: v for k, v in self.options.items() if v is not None}
        return f"{type(self).__name__}({set_options})"


class State(ABC):
    """One position of a game, with the history of actions that led to it."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        #: every action applied so far, chance outcomes included
        self.history: list[int] = []

    # --- whose turn --------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    # --- actions ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal actions, sorted; at a chance node the possible outcomes; [] at the end."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node; [] elsewhere."""
        return []

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises :class:`IllegalActionError` and changes nothing."""
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if not (type(action) is int or is_int(action)) or not self.is_legal(action):  # int first: speed
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self.history.append(action)

    def apply_legal(self, action: int) -> None:
        """Apply an action taken from this very state's ``legal_actions()`` or
        ``chance_outcomes()`` (searches). Where the game keeps this ``apply_action`` (validate,
        ``_apply``, append to ``history``) the validation is skipped, which changes nothing but
        the time (``is_legal`` may have to generate the moves); a game that overrides
        ``apply_action`` is called through it."""
        if type(self).apply_action is State.apply_action:
            self._apply(action)
            self.history.append(action)
        else:
            self.apply_action(action)

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal (does not touch ``history``)."""

    def problem(self, move: Any) -> str | None:
        """Why ``move`` (the game's typed ``Move``, :mod:`palaestra.core.move`) cannot be played
        now, as a sentence for a person that cites the ruling, or ``None`` when it is legal: the
        one place a game states its legality rules (in its ``rules.py``, composing one predicate
        per ruling). ``legal_actions`` is derived from the same predicates. The default knows only
        ``legal_actions()``."""
        if self.is_terminal():
            return "the game is over"
        try:
            action = self.game.encode(move)
        except ValueError:
            return f"{move!r} is not a move of {self.game.name}"
        if action in self.legal_actions():
            return None
        try:
            text = self.action_to_string(action)
        except Exception:  # any bad id just gets the generic message
            text = repr(action)
        return f"{text} is not a legal move now"

    def action_problem(self, action: object) -> str | None:
        """:meth:`problem` at the edge, for an action id from outside (a record, a client, a
        search): an id that is no action of the game is said so; else its move's problem."""
        try:
            move = self.move_of(action)  # type: ignore[arg-type]  # checked by decode
        except ValueError as exc:
            return str(exc)
        return self.rules_problem(move)

    def rules_problem(self, move: Any) -> str | None:
        """:meth:`problem` of a move known to be one of the game's (decoded from an id): a game
        whose ``problem`` first checks that a move from outside is well formed skips that check
        here (replays and every id from a client are asked so). The default: ``problem``."""
        return self.problem(move)

    def move_of(self, action: int) -> Any:
        """The move of action id ``action`` here: ``game.decode``, or for a game whose chance
        outcomes are numbered on their own (as OpenSpiel lets them) the chance outcome's at a
        chance node; ``ValueError`` for an id outside the space."""
        return self.game.decode(action)

    def legal_moves(self) -> list[Any]:
        """The legal moves, as the game's typed moves, in the order of ``legal_actions()``."""
        move_of = self.move_of
        return [move_of(a) for a in self.legal_actions()]

    def can_take_back(self, action: int) -> bool:
        """May the player who plays ``action`` here take it back afterwards, as long as nobody
        else has acted since and that player is still to move (the web app's undo)? Asked of the
        state *before* the action. The default is the game's declared policy
        (``GameInfo.take_back``), and without one False: games with chance or hidden information
        must not allow it (the player would undo a draw they have seen)."""
        from palaestra.core.registry import game_info

        try:
            policy = game_info(self.game.name).take_back_policy()
        except OptionError:  # a game class used without registering it declares nothing
            return False
        return policy is not None and bool(policy(self, action))

    def explain_illegal(self, action: object) -> str:
        """Why ``action`` is not legal here, for a person: :meth:`problem`, or that it is legal."""
        if not is_int(action):
            return f"{action!r} is not an action id of {self.game.name} (a whole number)"
        reason = self.action_problem(action)
        return f"{self.action_to_string(action)} is legal" if reason is None else reason

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action in the game's notation (chance outcomes included)."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse the game's notation; raises :class:`NotationError` for text it cannot read.

        It may also raise :class:`IllegalActionError` when the text is readable but names an
        action that cannot be played here.
        """

    def sample_chance(self, rng: random.Random | None = None) -> int:
        """Sample a chance outcome: from ``rng``, or by the one chance-seeding rule from the
        state's seed and the ply (:mod:`palaestra.core.chance`, as every driver draws)."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("this is not a chance node")
        if rng is None:
            rng = ChanceSource.from_seed(self.seed).rng(len(self.history))
        return sample_outcome(outcomes, rng)

    # --- results -----------------------------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """One number per player at the end (1 win, -1 loss, 0 draw; see ``returns_from_ranks``),
        zeros before the end."""

    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own live score, one number per player (points, pieces home ...)."""

    def dead_position(self) -> bool:
        """True when the game is not over but no player can reach the game's own winning condition
        any more, whatever is played (as a dead position in chess): only a software end such as
        the move limit will decide it. Agents may avoid steering into one (MCTS ``contempt``).
        The default: False; games where it can happen override it with a sound test."""
        return False

    def settled_result(self) -> tuple[list[float], str] | None:
        """``(returns, sentence)`` when the game is not over but its result is: no sequence of legal
        actions can change the returns it will end with, and only a software end such as a move
        limit is left to reach. ``None`` otherwise. The rules do not end the game there; the
        arena, the web app and ``palaestra play`` adjudicate it (as chess ends a dead position),
        and the record says so (``"settled": true``, docs/formats.md). The default: None; games
        where it can happen override it with a sound test (never a result that could change)."""
        return None

    def playout_scores(self, rng: random.Random) -> list[float]:
        """``scores()`` at the end of one *playout* from here: the game played on to its end with
        uniformly random legal actions, chance outcomes drawn with their probabilities (MCTS
        ``rollout=playout``, docs/ai.md). This default plays it out on a copy
        (:func:`random_playout`). A game may compute it faster, without the intermediate states,
        where its end position has a simpler distribution; it documents the playout it computes
        and its tests check the distribution against the moves played out. At the end: ``scores()``."""
        state = self.clone()
        random_playout(state, rng)
        return state.scores()

    def search_actions(self) -> list[int]:
        """The actions a search needs to try here: ``legal_actions()`` less the actions that only
        reach the same positions in another order (the same tiles of one turn placed the other way
        round), so that every position the legal actions reach stays reachable. Every one is legal.
        The default: ``legal_actions()``; a game overrides it where its turns have such orders."""
        return self.legal_actions()

    def evaluate(self) -> list[float]:
        """A heuristic value per player in [-1, 1], comparable to ``returns()`` (used by the AI:
        greedy agents and guided rollouts). At the end it is ``returns()``. Games override with
        their own knowledge; this default knows nothing and says 0 for everyone."""
        if self.is_terminal():
            return self.returns()
        return [0.0] * self.game.num_players

    def score_details(self) -> dict[str, Any]:
        """The live score as JSON (``palaestra score --json``); games add their own detail."""
        return {"scores": self.scores()}

    def result_text(self) -> str:
        """A sentence on the result of a finished game."""
        if not self.is_terminal():
            return "the game is not over"
        return outcome_text(self.game, self.returns())

    def termination(self) -> Termination:
        """Why a finished game ended: by its rules (the default), or by its move limit, where a
        game has one and says so (``Termination.MOVE_LIMIT``)."""
        return Termination.RULES

    # --- views -------------------------------------------------------------------------------
    @abstractmethod
    def render(self, labels: bool = False) -> str:
        """The position as text for the terminal; ``labels`` adds the names of the spaces."""

    @abstractmethod
    def observation_tensor(self, player: int) -> list[float]:
        """A flat vector of ``game.observation_shape()`` describing the state for ``player``."""

    def observation_string(self, player: int) -> str:
        return self.render()

    # --- serialisation -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The state as JSON: game, options, seed, history and the game's own fields."""
        doc: dict[str, Any] = {
            "game": self.game.name,
            "options": {k: v for k, v in self.game.options.items() if v is not None},
            "seed": self.seed,
            "history": list(self.history),
        }
        doc.update(self._to_dict())
        return doc

    @abstractmethod
    def _to_dict(self) -> dict[str, Any]:
        """The game's own fields of :meth:`to_json` (the full position, not only the history)."""

    def to_position(self) -> dict[str, Any]:
        """The position without its history, in the game's documented position format."""
        raise PositionError(f"{self.game.title} has no position format")

    def clone(self) -> State:
        """An independent copy. Games override with a faster copy where it pays."""
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return self.render()
