"""How a game ended: an :class:`Outcome`, whose :class:`Termination` says why.

An outcome is the returns of every player (``returns_from_ranks``'s scale), the game's scores at
the end, the engine's sentence (English, for records and tooltips: what people read comes from
the termination, in their language) and the termination: the rules ended the game, its move
limit did, it was adjudicated (its result could no longer change), a seat resigned, ran out of
time, left a real-time game and the win was claimed from it, or the game was aborted before
every seat moved. Where a seat ended it, ``seat`` names it (``claimed_by``: the seat that claimed
the win from a seat that left).

In a record the outcome is its ``result`` (docs/formats.md)::

    {"termination": "resignation", "seat": 1, "returns": [1.0, -1.0], "scores": [3, 2],
     "text": "orange resigned"}

Records written before the termination existed (record format 1) said it with flags
(``"settled": true``, ``"resigned": SEAT``, ``"timeout": SEAT``, ``"aborted": true``,
``"claimed": SEAT``) or only in the sentence; :meth:`Outcome.from_json` reads those too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core.errors import RecordError
from palaestra.core.game import State, is_int, returns_from_ranks
from palaestra.core.termination import Termination

__all__ = ["LEGACY_TEXTS", "Outcome", "Termination"]


#: the end of the engine's sentence a seat's ending wrote (after the seat's name)
_WHY = {
    Termination.RESIGNATION: "resigned",
    Termination.TIME: "ran out of time",
    Termination.ABANDONMENT: "left the game",
    Termination.ABORT: "aborted the game",
}


@dataclass(frozen=True)
class Outcome:
    """How a game ended (see the module docstring)."""

    termination: Termination
    returns: tuple[float, ...]
    scores: tuple[float, ...] = ()
    text: str = ""
    seat: int | None = None
    claimed_by: int | None = None

    # --- made by the one way to finish a game --------------------------------------------------
    @classmethod
    def of_state(cls, state: State, adjudicate: bool = True) -> Outcome | None:
        """The end of ``state``: by its rules (or move limit, as the game says), with
        ``adjudicate`` its settled result when that can no longer change; else ``None``."""
        if state.is_terminal():
            ended, scores = _floats(state.returns()), _floats(state.scores())
            return cls(state.termination(), ended, scores, state.result_text())
        if adjudicate and (settled := state.settled_result()) is not None:
            returns, text = settled
            return cls(Termination.ADJUDICATION, _floats(returns), _floats(state.scores()), text)
        return None

    @classmethod
    def by(cls, state: State, seat: int, termination: Termination, claimed_by: int | None = None) -> Outcome:
        """A game ended by ``seat``: it resigned, ran out of time or left (it ranks last, the
        others share first place), or it aborted the game (every return 0)."""
        if not termination.by_seat:
            raise ValueError(f"{termination} is not ended by a seat")
        n = state.game.num_players
        if termination is Termination.ABORT:
            returns = _floats([0.0] * n)
        else:
            returns = _floats(returns_from_ranks([1 if p == seat else 0 for p in range(n)]))
        text = f"{state.game.player_name(seat)} {_WHY[termination]}"
        return cls(termination, returns, _floats(state.scores()), text, seat, claimed_by)

    # --- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "termination": self.termination.value,
            "returns": list(self.returns),
            "scores": list(self.scores),
            "text": self.text,
        }
        if self.seat is not None:
            doc["seat"] = self.seat
        if self.claimed_by is not None:
            doc["claimed_by"] = self.claimed_by
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Outcome:
        """An outcome from a record's ``result``, of either format (the module docstring); a
        document that is none raises :class:`RecordError` saying why."""
        if not isinstance(doc, Mapping):
            raise RecordError("'result' is a JSON object or null")
        returns = doc.get("returns")
        if not isinstance(returns, list) or not all(_number(x) for x in returns):
            raise RecordError("the record's result has no list of numbers in 'returns'")
        scores = doc.get("scores", [])
        if not isinstance(scores, list) or not all(_number(x) for x in scores):
            raise RecordError("the record's result has a 'scores' that is not a list of numbers")
        text = doc.get("text", "")
        if not isinstance(text, str):
            raise RecordError("the record's result has a 'text' that is not text")
        if "termination" in doc:
            try:
                termination = Termination(doc["termination"])
            except ValueError:
                known = ", ".join(t.value for t in Termination)
                raise RecordError(f"the record's result has an unknown termination ({known})") from None
            seat, claimed = doc.get("seat"), doc.get("claimed_by")
        else:
            termination, seat, claimed = _legacy(doc, text, returns)
        for name, value in (("seat", seat), ("claimed_by", claimed)):
            if value is not None and not (is_int(value) and 0 <= value < max(len(returns), 1)):
                raise RecordError(f"the record's result has a '{name}' that is not a seat")
        if seat is not None and not termination.by_seat:
            what = termination.value
            raise RecordError(
                f"the record's result says {what}: no seat ended the game, 'seat' is out of place"
            )
        return cls(termination, _floats(returns), _floats(scores), text, seat, claimed)


def _number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _floats(values: Sequence[float]) -> tuple[float, ...]:
    return tuple(float(x) for x in values)


#: the sentences of records of format 1 that said why only in words: their ending -> termination
LEGACY_TEXTS: tuple[tuple[str, Termination], ...] = (
    (" resigned", Termination.RESIGNATION),
    (" ran out of time", Termination.TIME),
    (" left the game", Termination.ABANDONMENT),
    (" aborted the game", Termination.ABORT),
)


def _legacy(doc: Mapping[str, Any], text: str, returns: list[float]) -> tuple[Termination, Any, Any]:
    """The termination, seat and claimer of a result of record format 1: from its flags, else
    from the known sentences (the seat: the one with the single lowest return; the abort's stays
    unknown), else the rules (the move limit where the sentence says so)."""
    if doc.get("settled") is True:
        return Termination.ADJUDICATION, None, None
    if doc.get("aborted") is True:
        return Termination.ABORT, None, None
    if is_int(doc.get("timeout")):
        return Termination.TIME, doc["timeout"], None
    if is_int(doc.get("resigned")):
        claimed = doc.get("claimed")
        if is_int(claimed):
            return Termination.ABANDONMENT, doc["resigned"], claimed
        return Termination.RESIGNATION, doc["resigned"], None
    for ending, termination in LEGACY_TEXTS:
        if text.endswith(ending):
            low = min(returns, default=0.0)
            last = [p for p, r in enumerate(returns) if r == low]
            seat = last[0] if len(last) == 1 and termination is not Termination.ABORT else None
            return termination, seat, None
    if "move limit" in text:
        return Termination.MOVE_LIMIT, None, None
    return Termination.RULES, None, None
