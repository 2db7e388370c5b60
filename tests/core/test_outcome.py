"""How a game ended: ``Outcome`` and its ``Termination`` (issue 32), and the records of format 1
that said it with flags or in words only (they still load, mapped)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from palaestra_ladder.rules import LadderGame

import palaestra
from palaestra.core.errors import RecordError
from palaestra.core.outcome import Outcome, Termination
from palaestra.core.record import FORMAT, Record

#: results of record format 1 (as the web app, the arena and the CLI wrote them) -> what they mean
LEGACY: list[tuple[dict[str, Any], Termination, int | None, int | None]] = [
    ({"returns": [1.0, -1.0], "text": "player 1 resigned", "resigned": 1}, Termination.RESIGNATION, 1, None),
    ({"returns": [-1.0, 1.0], "text": "player 0 ran out of time", "timeout": 0}, Termination.TIME, 0, None),
    (
        {"returns": [1.0, -1.0], "text": "player 1 left the game", "resigned": 1, "claimed": 0},
        Termination.ABANDONMENT,
        1,
        0,
    ),
    (
        {"returns": [0.0, 0.0], "text": "player 0 aborted the game", "aborted": True},
        Termination.ABORT,
        None,
        None,
    ),
    (
        {"returns": [0.0, 0.0], "text": "draw (settled: no cube can arrive)", "settled": True},
        Termination.ADJUDICATION,
        None,
        None,
    ),
    ({"returns": [1.0, -1.0], "text": "player 0 wins"}, Termination.RULES, None, None),
    # the words alone (no flag): the known sentences
    ({"returns": [-1.0, 1.0], "text": "red resigned"}, Termination.RESIGNATION, 0, None),
    ({"returns": [1.0, -1.0], "text": "blue ran out of time"}, Termination.TIME, 1, None),
    ({"returns": [0.0, 0.0], "text": "red aborted the game"}, Termination.ABORT, None, None),
    (
        {"returns": [0.0, 0.0], "text": "draw: the move limit of 1000 plies was reached"},
        Termination.MOVE_LIMIT,
        None,
        None,
    ),
]


@pytest.mark.parametrize(("doc", "termination", "seat", "claimed_by"), LEGACY)
def test_results_of_format_1_are_read_by_their_flags_or_words(
    doc: dict[str, Any], termination: Termination, seat: int | None, claimed_by: int | None
) -> None:
    outcome = Outcome.from_json(doc)
    assert (outcome.termination, outcome.seat, outcome.claimed_by) == (termination, seat, claimed_by)
    assert list(outcome.returns) == doc["returns"] and outcome.text == doc["text"]
    # written again in today's shape, which reads back the same
    again = outcome.to_json()
    assert again["termination"] == termination.value and "resigned" not in again and "settled" not in again
    assert Outcome.from_json(again) == outcome


def test_a_record_of_format_1_loads_checks_and_is_written_in_format_2() -> None:
    game = palaestra.load_game("nim", stones=5)
    record = Record.start(game, ["ann", "bob"], seed=1)
    record.apply(record.initial_state(), 1)
    old = {**record.to_json(), "format": 1}
    old["result"] = {"returns": [1.0, -1.0], "scores": [4, 0], "text": "player 1 resigned", "resigned": 1}
    loaded = Record.from_json(old)
    loaded.check_result(loaded.replay())
    assert loaded.outcome == Outcome(Termination.RESIGNATION, (1.0, -1.0), (4.0, 0.0), "player 1 resigned", 1)
    doc = loaded.to_json()
    assert doc["format"] == FORMAT == 2
    assert doc["result"] == {
        "termination": "resignation",
        "returns": [1.0, -1.0],
        "scores": [4.0, 0.0],
        "text": "player 1 resigned",
        "seat": 1,
    }


def test_the_outcomes_of_a_seat_rank_it_last_or_call_the_game_off() -> None:
    state = LadderGame(players=3).new_initial_state(1)
    resigned = Outcome.by(state, 1, Termination.RESIGNATION)
    assert state.game.num_players == 3 and resigned.returns == (0.5, -1.0, 0.5) and resigned.seat == 1
    assert Outcome.by(state, 2, Termination.ABORT).returns == (0.0, 0.0, 0.0)
    claimed = Outcome.by(state, 0, Termination.ABANDONMENT, claimed_by=2)
    assert (
        claimed.text == f"{state.game.player_name(0)} left the game" and claimed.to_json()["claimed_by"] == 2
    )
    with pytest.raises(ValueError, match="rules is not ended by a seat"):
        Outcome.by(state, 0, Termination.RULES)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"termination": "agreement", "returns": [0.0, 0.0]}, "unknown termination"),
        ({"termination": "rules", "returns": [1.0, -1.0], "seat": 0}, "rules: no seat ended the game"),
        ({"termination": "time", "returns": [1.0, -1.0], "seat": 2}, "'seat' that is not a seat"),
        ({"termination": "rules", "returns": [1.0, True]}, "no list of numbers"),
        ({"termination": "rules", "returns": [], "text": 3}, "'text' that is not text"),
        ([1, 2], "a JSON object or null"),
    ],
)
def test_bad_results_are_refused_with_the_reason(doc: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Outcome.from_json(doc)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
KEYS = (
    "termination",
    "returns",
    "scores",
    "text",
    "seat",
    "claimed_by",
    "resigned",
    "timeout",
    "aborted",
    "settled",
    "claimed",
)
TERMS = st.sampled_from([t.value for t in Termination])


@given(
    st.dictionaries(
        st.sampled_from(KEYS),
        st.one_of(JSON, TERMS, st.lists(st.floats(-1, 1), max_size=3), st.integers(0, 3)),
        max_size=7,
    )
)
def test_any_json_is_an_outcome_or_a_record_error(doc: dict[str, object]) -> None:
    """A record's result is outside input: an Outcome that reads back the same, or a RecordError."""
    try:
        outcome = Outcome.from_json(doc)
    except RecordError:
        return
    assert isinstance(outcome.termination, Termination)
    assert Outcome.from_json(outcome.to_json()) == outcome
