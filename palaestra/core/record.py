"""Game records: a JSON document with every action of a game, chance outcomes included.

Format 2 (documented in docs/formats.md)::

    {"format": 2, "game": "nim", "options": {"stones": 9}, "players": ["ann", "random"],
     "seed": 42, "started": "2026-11-23T09:00:00+00:00", "ended": null,
     "moves": [{"player": -1, "move": "first 0", "at": "2026-11-23T09:00:01+00:00"}, ...],
     "result": null}

``moves`` holds the actions in the game's notation (``State.action_to_string``), with the player
who made each one (-1 for chance). ``result`` is filled in when the game ends: the game's
:class:`~palaestra.core.outcome.Outcome`, ``{"termination": "rules", "returns": [...],
"scores": [...], "text": "orange wins"}``, whose ``termination`` says why it ended (the rules,
the move limit, adjudication, a resignation, time, a seat that left, an abort) and ``seat`` which
seat ended it. Records of format 1 said why with flags (``"settled"``, ``"resigned"``,
``"timeout"``, ``"aborted"``, ``"claimed"``) or in the sentence only; they read all the same.
``"chance_rule"`` names the chance-seeding rule its draws follow (:mod:`palaestra.core.chance`;
absent in records written before rules were named, which replay all the same).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from palaestra.core.chance import CHANCE_RULE
from palaestra.core.errors import PalaestraError, PositionError, RecordError
from palaestra.core.finish import advance
from palaestra.core.game import RULES_ORIGINAL, Game, State, is_int
from palaestra.core.outcome import Outcome, Termination
from palaestra.core.registry import load_game

FORMAT = 2
#: the formats this version reads (1: the result said why the game ended with flags, docs/formats.md)
READS = (1, 2)


def now() -> str:
    """The current time as an ISO 8601 string in UTC."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Move:
    player: int
    move: str
    at: str | None = None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"player": self.player, "move": self.move}
        if self.at is not None:
            doc["at"] = self.at
        return doc


@dataclass
class Record:
    """A game record. Build one with :meth:`start`, add actions with :meth:`apply`."""

    game: str
    options: dict[str, Any]
    players: list[str]
    seed: int | None = None
    moves: list[Move] = field(default_factory=list)
    #: how the game ended (``None``: not yet); its JSON is the record's ``result``
    outcome: Outcome | None = None
    started: str | None = None
    ended: str | None = None
    #: the chance-seeding rule its draws follow (:mod:`palaestra.core.chance`); ``None``: a record
    #: written before rules were named (its draws replay all the same: they are stored)
    chance_rule: str | None = None
    #: set when a record of another rule was continued: the draws from this move on follow
    #: ``chance_rule``, the ones before it the older rule
    chance_rule_from: int | None = None

    # --- building ----------------------------------------------------------------------------
    @classmethod
    def start(cls, game: Game, players: list[str] | None = None, seed: int | None = None) -> Record:
        names = players or [game.player_name(p) for p in range(game.num_players)]
        options = {k: v for k, v in game.options.items() if v is not None}
        return cls(game.name, options, list(names), seed, started=now(), chance_rule=CHANCE_RULE)

    def continue_drawing(self) -> None:
        """Before more actions are added to a record of another (or no named) chance rule: the
        draws from here on follow the current rule, and the record says from which move."""
        if self.chance_rule == CHANCE_RULE:
            return
        if self.moves:
            self.chance_rule_from = len(self.moves)
        self.chance_rule = CHANCE_RULE

    def make_game(self) -> Game:
        """The record's game. A record of a game with a ``rules`` option that names no version was
        written before the versions existed: it replays by the original rulings (docs/formats.md)."""
        try:
            game = load_game(self.game, **self.options)
            if "rules" in game.options and "rules" not in self.options:
                game = load_game(self.game, **self.options, rules=RULES_ORIGINAL)
            return game
        except PalaestraError as err:
            raise RecordError(f"the record's game cannot be set up: {err}") from None

    def initial_state(self) -> State:
        return self.make_game().new_initial_state(self.seed)

    def apply(self, state: State, action: int, adjudicate: bool = True) -> None:
        """Apply ``action`` to ``state`` and write it down (nothing is written if it is illegal);
        then end the record if the game is over, or (``adjudicate``) if its result is settled:
        the one way a game moves on, :func:`palaestra.core.finish.advance`."""
        advance(state, action, self, adjudicate)

    def write_move(self, player: int, text: str) -> None:
        """Write down an action already applied (``player`` -1 for chance), in notation."""
        self.moves.append(Move(player, text, now()))

    def finish_if_over(self, state: State, adjudicate: bool = False) -> None:
        """Write the outcome when the game is over, or, with ``adjudicate``, when its result can
        no longer change (``State.settled_result``: the game ends there, adjudicated)."""
        if self.outcome is None and (outcome := Outcome.of_state(state, adjudicate)) is not None:
            self.finish(outcome)

    def finish(self, outcome: Outcome) -> None:
        """Write the outcome (once) and the time the game ended."""
        if self.outcome is not None:
            return
        self.outcome = outcome
        self.ended = now()

    @property
    def result(self) -> dict[str, Any] | None:
        """The outcome as the record's JSON ``result`` (a new dict each time), ``None`` before the end."""
        return None if self.outcome is None else self.outcome.to_json()

    @property
    def over(self) -> bool:
        """Whether the game of this record has ended (by its rules, settled or resigned)."""
        return self.outcome is not None

    # --- replaying ---------------------------------------------------------------------------
    def replay(self, upto: int | None = None) -> State:
        """Re-apply every move (or the first ``upto``), checking each; returns the state reached.

        A move that does not read or is not legal raises :class:`RecordError` naming it.
        """
        state = self.initial_state()
        for index, move in enumerate(self.moves[:upto]):
            where = f"move {index + 1} ({move.move!r})"
            if state.is_terminal():
                raise RecordError(f"{where}: the game was already over")
            if move.player != state.current_player:
                raise RecordError(
                    f"{where}: it was {_who(state.game, state.current_player)}'s turn, "
                    f"not {_who(state.game, move.player)}'s"
                )
            try:
                state.apply_action(state.string_to_action(move.move))
            except PalaestraError as err:
                raise RecordError(f"{where} does not replay: {err}") from None
        return state

    def check_result(self, state: State) -> None:
        """Raise :class:`RecordError` if the stated outcome disagrees with the replayed state.

        A game that is not over after its moves may still have an outcome: an adjudicated one (the
        state's ``settled_result()`` must give the same returns), one a seat ended by resigning,
        running out of time or leaving (that seat last, the others sharing first place), or an
        abort (some seat made no move, every return is 0)."""
        if self.outcome is None:
            return
        stated = list(self.outcome.returns)
        expected, how = self._expected_returns(state, self.outcome)
        if stated != [float(x) for x in expected]:
            raise RecordError(f"the record states returns {stated}, {how} {[float(x) for x in expected]}")

    def _expected_returns(self, state: State, outcome: Outcome) -> tuple[list[float], str]:
        """The returns the outcome must state after the record's moves (``state``), and what gives
        them: the end of the game, or the way the outcome says it ended early."""
        if state.is_terminal():
            return list(state.returns()), "the moves give"
        termination = outcome.termination
        if termination is Termination.ADJUDICATION:
            settled = state.settled_result()
            if settled is None:
                raise RecordError("the record states a settled result, but after its moves the game is open")
            return list(settled[0]), "the settled position gives"
        if termination is Termination.ABORT:
            n = state.game.num_players
            moved = {m.player for m in self.moves}
            if all(p in moved for p in range(n)):
                raise RecordError("the record states an abort, but every seat has moved")
            return [0.0] * n, "an abort gives"
        if termination.by_seat and outcome.seat is not None and outcome.seat < state.game.num_players:
            ended = Outcome.by(state, outcome.seat, termination)
            what = {Termination.RESIGNATION: "resignation", Termination.TIME: "loss on time"}.get(
                termination, "leaving"
            )
            return list(ended.returns), f"the {what} of {state.game.player_name(outcome.seat)} gives"
        raise RecordError("the record states a result but the game is not over after its moves")

    # --- JSON --------------------------------------------------------------------------------
    def to_json(self, moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The record as JSON; ``moves``: the documents of its moves, if the caller has them
        already (the web app keeps them between the changes of a long game)."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "players": list(self.players),
            "seed": self.seed,
            "started": self.started,
            "ended": self.ended,
            "moves": [m.to_json() for m in self.moves] if moves is None else moves,
            "result": self.result,
        }
        if self.chance_rule is not None:
            doc["chance_rule"] = self.chance_rule
        if self.chance_rule_from is not None:
            doc["chance_rule_from"] = self.chance_rule_from
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        if not isinstance(doc, Mapping):
            raise RecordError("a record is a JSON object")
        if doc.get("format") not in READS or isinstance(doc.get("format"), bool):
            reads = " and ".join(str(f) for f in READS)
            raise RecordError(f"unknown record format {doc.get('format')!r} (this version reads {reads})")
        game = _field(doc, "game", str, "a record names its game in 'game'")
        options = doc.get("options", {})
        if not isinstance(options, Mapping):
            raise RecordError("'options' is a JSON object")
        players = _field(doc, "players", list, "'players' is a list of names", [])
        if not all(isinstance(p, str) for p in players):
            raise RecordError("'players' is a list of names")
        seed = doc.get("seed")
        if seed is not None and not is_int(seed):
            raise RecordError("'seed' is a whole number or null")
        moves = [_move_from_json(i, m) for i, m in enumerate(_field(doc, "moves", list, "'moves' is a list"))]
        result = doc.get("result")
        outcome = None if result is None else Outcome.from_json(result)
        rule_from = doc.get("chance_rule_from")
        return cls(
            game,
            dict(options),
            list(players),
            seed,
            moves,
            outcome,
            _text(doc, "started"),
            _text(doc, "ended"),
            _text(doc, "chance_rule"),
            rule_from if is_int(rule_from) and rule_from >= 0 else None,
        )

    def save(self, path: str | Path) -> None:
        """Write the record atomically (a crash never leaves half a file)."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> Record:
        return cls.from_json(read_json(path))


_T = TypeVar("_T")


def _field(doc: Mapping[str, Any], key: str, kind: type[_T], message: str, default: Any = None) -> _T:
    """``doc[key]`` if it is a ``kind`` (or absent with a ``default``), else a :class:`RecordError`."""
    value = doc.get(key, default)
    if not isinstance(value, kind):
        raise RecordError(message)
    return value


def _text(doc: Mapping[str, Any], key: str) -> str | None:
    value = doc.get(key)
    return value if isinstance(value, str) else None


def _move_from_json(index: int, m: Any) -> Move:
    if not isinstance(m, Mapping) or not isinstance(m.get("move"), str) or not is_int(m.get("player")):
        raise RecordError(f"move {index + 1} is not of the form {{'player': 0, 'move': '...'}}")
    at = m.get("at")
    return Move(m["player"], m["move"], at if isinstance(at, str) else None)


def _who(game: Game, player: int) -> str:
    return "chance" if player < 0 else game.player_name(player)


def read_json(path: str | Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path} is not valid JSON (line {err.lineno}: {err.msg})") from None


def write_json_atomic(path: str | Path, doc: Any) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_state_file(path: str | Path) -> tuple[State, Record | None]:
    """Read a record (replayed) or a position document; returns the state and the record if any."""
    doc = read_json(path)
    if isinstance(doc, Mapping) and "moves" in doc:
        record = Record.from_json(doc)
        state = record.replay()
        record.check_result(state)
        return state, record
    if not isinstance(doc, Mapping) or not isinstance(doc.get("game"), str):
        raise PositionError(f"{path} is neither a record nor a position (no 'game' field)")
    options = doc.get("options", {})
    if not isinstance(options, Mapping):
        raise PositionError("'options' is a JSON object")
    game = load_game(doc["game"], **options)
    return game.state_from_position(doc), None
