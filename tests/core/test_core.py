"""The core protocol: options, registry, errors, records, perft, returns."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import palaestra
from palaestra.core.errors import IllegalActionError, OptionError, RecordError
from palaestra.core.game import (
    CHANCE,
    TERMINAL,
    Option,
    is_int,
    random_playout,
    returns_from_ranks,
    sample_outcome,
    set_bits,
)
from palaestra.core.outcome import Outcome, Termination
from palaestra.core.perft import divide, perft
from palaestra.core.record import Record, load_state_file


def test_load_game_through_registry_with_options() -> None:
    game = palaestra.load_game("nim", stones=5)
    assert game.options == {"stones": 5, "players": 2, "coin": False}
    assert game.new_initial_state().render() == "pile: ooooo (5)"


def test_unknown_game_and_option_give_clear_messages() -> None:
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        palaestra.load_game("chess")
    with pytest.raises(OptionError, match="nim has no option 'colour'"):
        palaestra.load_game("nim", colour="red")
    with pytest.raises(OptionError, match="at most 50"):
        palaestra.load_game("nim", stones=51)
    with pytest.raises(OptionError, match="whole number"):
        palaestra.load_game("nim", stones="many")
    with pytest.raises(OptionError, match="one of 2"):
        palaestra.load_game("nim", players=3)


def test_option_parses_command_line_strings() -> None:
    flag = Option("loom", bool, False, "")
    assert flag.parse("yes") is True and flag.parse("off") is False
    with pytest.raises(OptionError):
        flag.parse("maybe")
    assert Option("n", int, 1, "").parse("12") == 12
    assert palaestra.load_game("nim", stones="3", coin="true").options["coin"] is True


def test_illegal_action_changes_nothing_and_explains() -> None:
    state = palaestra.load_game("nim", stones=1).new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="only 1 stone left"):
        state.apply_action(2)
    with pytest.raises(IllegalActionError):
        state.apply_action(True)  # a bool is not an action id
    assert state.to_json() == before
    state.apply_action(1)
    assert state.current_player == TERMINAL
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(1)


def test_problem_is_none_for_a_legal_action_and_a_reason_otherwise() -> None:
    """The default ``problem`` hook knows only ``legal_actions``; ``explain_illegal`` reads it."""
    state = palaestra.load_game("nim", stones=3).new_initial_state()
    assert [a for a in range(5) if state.problem(a) is None] == state.legal_actions() == [1, 2]
    assert state.problem(4) == "take 4 is not a legal move now"
    assert state.explain_illegal(1) == "take 1 is legal"
    assert state.explain_illegal("1") == "'1' is not an action id of nim (a whole number)"
    assert state.explain_illegal(True) == "True is not an action id of nim (a whole number)"
    state.apply_action(2)
    state.apply_action(1)
    assert state.problem(1) == state.explain_illegal(1) == "the game is over"


def test_is_int_refuses_bools_and_set_bits_lists_bits_lowest_first() -> None:
    assert [is_int(v) for v in (0, -3, 2**70, True, False, 1.0, "1", None)] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    assert set_bits(0) == []
    assert set_bits(0b1011_0000_0001) == [0, 8, 9, 11]
    assert set_bits(1 << 95 | 1 << 3) == [3, 95]


def test_chance_nodes_and_sampling_are_deterministic() -> None:
    game = palaestra.load_game("nim", coin=True)
    state = game.new_initial_state(seed=3)
    assert state.current_player == CHANCE and state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    first = [game.new_initial_state(seed=3).sample_chance() for _ in range(3)]
    assert len(set(first)) == 1
    seen = {game.new_initial_state(seed=s).sample_chance() for s in range(40)}
    assert seen == {0, 1}
    rng = random.Random(1)
    counts = [0, 0]
    for _ in range(2000):
        counts[sample_outcome([(0, 0.25), (1, 0.75)], rng)] += 1
    assert 350 < counts[0] < 650


def test_random_playout_plays_legal_actions_and_chance_to_the_end_or_a_ply_count() -> None:
    game = palaestra.load_game("nim", stones=20, coin=True)
    state = game.new_initial_state(seed=1)
    assert state.is_chance_node()  # the coin: who begins
    assert random_playout(state, random.Random(5), 1) == 1 and not state.is_chance_node()
    assert random_playout(state, random.Random(6), 2) == 2 and len(state.history) == 3
    done = random_playout(state, random.Random(5))
    assert state.is_terminal() and len(state.history) == 3 + done
    assert random_playout(state, random.Random(5)) == 0 and random_playout(state, random.Random(5), 4) == 0
    # the same generator gives the same game, and it replays through apply_action
    again = game.new_initial_state(seed=1)
    random_playout(again, random.Random(5), 1)
    random_playout(again, random.Random(6), 2)
    random_playout(again, random.Random(5))
    assert again.history == state.history
    replay = game.new_initial_state(seed=1)
    for action in state.history:
        replay.apply_action(action)
    assert replay.to_json() == state.to_json()


def test_returns_from_ranks() -> None:
    assert returns_from_ranks([0, 1]) == [1.0, -1.0]
    assert returns_from_ranks([0, 0]) == [0.0, 0.0]
    assert returns_from_ranks([0, 0, 1]) == [0.5, 0.5, -1.0]
    assert returns_from_ranks([1, 0, 2, 3]) == pytest.approx([1 / 3, 1.0, -1 / 3, -1.0])
    assert sum(returns_from_ranks([2, 0, 1, 1])) == pytest.approx(0)


def test_json_round_trip_and_equality() -> None:
    game = palaestra.load_game("nim", stones=6, coin=True)
    state = game.new_initial_state(seed=9)
    for a in (1, 2, 1):
        state.apply_action(a)
    doc = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(doc)
    assert again == state and again.history == [1, 2, 1]
    with pytest.raises(RecordError, match="other options"):
        palaestra.load_game("nim", stones=5, coin=True).state_from_json(doc)
    with pytest.raises(RecordError, match="not 'nim'"):
        game.state_from_json({**doc, "game": "athos"})


def test_clone_is_independent() -> None:
    state = palaestra.load_game("nim").new_initial_state()
    copy = state.clone()
    copy.apply_action(2)
    assert state.pile == 7 and copy.pile == 5 and state.history == []


def test_record_replays_and_names_the_first_bad_move(tmp_path: Path) -> None:
    game = palaestra.load_game("nim", stones=4, coin=True)
    record = Record.start(game, ["ann", "bob"], seed=5)
    state = record.initial_state()
    while not state.is_terminal():
        action = state.sample_chance() if state.is_chance_node() else state.legal_actions()[-1]
        record.apply(state, action)
    assert record.result is not None and record.ended is not None
    path = tmp_path / "game.json"
    record.save(path)
    loaded = Record.load(path)
    assert loaded.to_json() == record.to_json()
    replayed = loaded.replay()
    assert replayed == state
    loaded.check_result(replayed)

    doc = record.to_json()
    doc["moves"][2]["move"] = "take 3"
    with pytest.raises(RecordError, match=r"move 3 \('take 3'\) does not replay: take 1 or 2"):
        Record.from_json(doc).replay()
    doc["moves"][2]["move"] = "grab"
    with pytest.raises(RecordError, match=r"move 3 .* cannot read 'grab'"):
        Record.from_json(doc).replay()
    doc = record.to_json()
    doc["moves"][1]["player"] = 1 - doc["moves"][1]["player"]
    with pytest.raises(RecordError, match=r"move 2 .*turn"):
        Record.from_json(doc).replay()
    doc = record.to_json()
    doc["result"]["returns"] = list(reversed(doc["result"]["returns"]))
    rec = Record.from_json(doc)
    with pytest.raises(RecordError, match="states returns"):
        rec.check_result(rec.replay())


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "a record is a JSON object"),
        ({"format": 3}, "unknown record format 3 .this version reads 1 and 2."),
        ({"format": 1, "game": 3}, "names its game"),
        ({"format": 1, "game": "nim", "moves": "x"}, "'moves' is a list"),
        ({"format": 1, "game": "nim", "moves": [{"move": 1}]}, "move 1 is not of the form"),
        ({"format": 1, "game": "nim", "seed": "x", "moves": []}, "'seed' is a whole number"),
        ({"format": 1, "game": "nim", "players": [1], "moves": []}, "'players' is a list of names"),
    ],
)
def test_malformed_records_are_rejected(doc: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_json(doc)


def test_record_of_unknown_game_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="cannot be set up: unknown game"):
        Record.from_json({"format": 1, "game": "go", "moves": []}).replay()


def test_load_state_file_reads_records_and_positions(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text(json.dumps({"game": "nim", "pile": 3, "to_move": 1}))
    state, rec = load_state_file(tmp_path / "p.json")
    assert rec is None and state.render() == "pile: ooo (3)" and state.current_player == 1
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_state_file(tmp_path / "bad.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_state_file(tmp_path / "missing.json")


def test_perft_counts_leaves_and_divide_splits_them() -> None:
    state = palaestra.load_game("nim", stones=4).new_initial_state()
    # 4 -> {3, 2}; 3 -> {2, 1}; 2 -> {1, 0}; 1 -> {0}. Depth 2 leaves: 2, 1, 1, 0.
    # Depth 3: 2 has two moves, each 1 has one, the finished 0 counts as one leaf: 5.
    assert [perft(state, d) for d in range(4)] == [1, 2, 4, 5]
    assert divide(state, 3) == [("take 1", 3), ("take 2", 2)]
    coin = palaestra.load_game("nim", stones=4, coin=True).new_initial_state()
    assert perft(coin, 2) == 2 * 4


@pytest.mark.parametrize("name", ["archimedes", "athos", "agamemnon"])
def test_apply_legal_does_what_apply_action_does(name: str) -> None:
    # the searches' shortcut: same state and history as apply_action, for games that keep the
    # core's apply_action (validation skipped) and for one that overrides it (Agamemnon)
    rng = random.Random(5)
    a = palaestra.load_game(name).new_initial_state(3)
    b = a.clone()
    for _ in range(40):
        if a.is_terminal():
            break
        action = a.sample_chance(rng) if a.is_chance_node() else rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_legal(action)
        assert b.history == a.history
        assert b.to_json() == a.to_json()


def test_dead_position_is_false_unless_a_game_knows_better() -> None:
    # the core's default: a game without the notion never reports a dead position, nor a settled
    # result (a game whose result is certain before its end: Archimedes, tests/archimedes)
    state = palaestra.load_game("nim", stones=2).new_initial_state()
    assert state.dead_position() is False and state.settled_result() is None
    state.apply_action(2)
    assert state.is_terminal() and state.dead_position() is False and state.settled_result() is None


def test_resigned_records_replay_and_are_checked() -> None:
    # the web app ends a game by resignation: the record's result names the seat, which ranks
    # last; the game itself is not over after the moves, and the record still checks
    game = palaestra.load_game("nim", stones=5)
    record = Record.start(game, ["ann", "bob"], seed=1)
    state = record.initial_state()
    record.apply(state, 1)
    record.outcome = Outcome.by(state, 1, Termination.RESIGNATION)
    assert record.outcome.returns == (1.0, -1.0) and record.outcome.text == "player 1 resigned"
    record.check_result(record.replay())
    record.outcome = dataclasses.replace(record.outcome, returns=(-1.0, 1.0))
    with pytest.raises(RecordError, match=r"states returns \[-1.0, 1.0\], the resignation of player 1 gives"):
        record.check_result(record.replay())
    record.outcome = Outcome(Termination.RULES, (0.0, 0.0), text="agreed")  # no rule ends the game here
    with pytest.raises(RecordError, match="states a result but the game is not over"):
        record.check_result(record.replay())
    with pytest.raises(RecordError, match="no list of numbers in 'returns'"):
        Outcome.from_json({"returns": "x", "termination": "resignation", "seat": 0})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
RECORD_KEYS = (
    "format",
    "game",
    "options",
    "players",
    "seed",
    "moves",
    "result",
    "started",
    "ended",
    "chance_rule",
    "chance_rule_from",
)


@pytest.mark.slow
@given(st.dictionaries(st.sampled_from(RECORD_KEYS), JSON, max_size=8), st.booleans())
def test_any_json_is_a_record_or_a_record_error(doc: dict[str, object], valid_format: bool) -> None:
    """Records are outside input (issue 19 rewrote the reader): a Record whose JSON reads back the
    same, or a RecordError; nothing else."""
    if valid_format:
        doc = {**doc, "format": 1}
    try:
        rec = Record.from_json(doc)
    except RecordError:
        return
    assert isinstance(rec.game, str) and all(isinstance(p, str) for p in rec.players)
    assert rec.seed is None or is_int(rec.seed)
    assert Record.from_json(rec.to_json()) == rec
