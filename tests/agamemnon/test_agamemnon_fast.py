"""The engine's fast parts agree with the readable rules (issue 19).

* the bit-mask scoring of ``_fast.py`` (from scratch and the live score kept part by part) gives the
  points of the scoring as RULINGS.md words it (``scoring.py``: AGA-SC1..SC4, AGA-T4, AGA-T5) over
  thousands of random positions of every variant;
* ``legal_actions`` (a generator) is exactly the set of actions ``problem`` finds nothing against,
  over the whole action space, chance nodes included;
* ``clone`` copies every field; the typed moves round-trip through ids and notation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.core.errors import NotationError
from palaestra.core.game import random_playout
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState, _fast
from palaestra.games.agamemnon.moves import (
    ASIDE_WARP,
    ASIDE_WEFT,
    CHANCE_LAYOUT,
    NOSWAP,
    SETUP_START,
    STACK_START,
    SWAP_START,
    Move,
    decode,
    encode,
    format_move,
    parse_move,
)

VARIANTS = [
    {},
    {"loom": True},
    {"defying": True},
    {"loom": True, "defying": True},
    {"oracle": True},
    {"loom": True, "rules": "2026-11-23"},
]


def random_states(game: AgamemnonGame, games: int, seed: int) -> list[AgamemnonState]:
    """Every state of ``games`` random games (chance nodes included)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        out.append(state.clone())
        while not state.is_terminal():
            random_playout(state, rng, 1)
            out.append(state.clone())
    return out


def readable_points(state: AgamemnonState) -> tuple[int, int]:
    points = [0, 0]
    for string in state.strings_by_the_rules():
        if string.controller is not None:
            points[string.controller] += len(string.connections)
    return points[0], points[1]


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o) or "front")
def test_aga_sc1_to_sc4_fast_scoring_equals_the_readable_rules(options: dict[str, object]) -> None:
    game = AgamemnonGame(**options)
    states = [s for s in random_states(game, 16, 19) if s.phase != "setup"]
    assert len(states) > 500
    live = game.new_initial_state()  # a state whose live score is kept up to date along a game
    for state in states:
        expected = readable_points(state)
        maps, masks, _ = state.fast_position()
        assert maps is not None
        assert _fast.points(maps, masks, game.ends) == expected  # from scratch (finished games)
        assert tuple(state.scores()) == tuple(float(p) for p in expected)  # the live score
        if len(state.history) < len(live.history) or state.history[: len(live.history)] != live.history:
            live = game.state_from_json(state.to_json())
            live.scores()
        for action in state.history[len(live.history) :]:
            live.apply_action(action)
        assert tuple(live.scores()) == tuple(float(p) for p in expected)  # updated placement by placement


def test_aga_sc1_to_sc4_thousands_of_positions() -> None:
    """The sum over the variants above is in the thousands; here the front board alone, with a
    fresh game (empty strings cache) every few positions."""
    checked = 0
    for seed in range(40):
        game = AgamemnonGame(loom=seed % 2 == 1)
        for state in random_states(game, 1, seed):
            if state.phase != "setup":
                maps, masks, _ = state.fast_position()
                assert maps is not None
                assert _fast.points(maps, masks, game.ends) == readable_points(state)
                checked += 1
    assert checked > 2000


@pytest.mark.parametrize("options", [*VARIANTS, {"oracle": True, "loom": True}], ids=str)
def test_legal_actions_are_the_actions_without_a_problem(options: dict[str, object]) -> None:
    """Over the whole action space (and the chance outcomes): ``problem(a)`` is None exactly for
    the legal actions, and every other action gets a reason."""
    game = AgamemnonGame(**options)
    for state in random_states(game, 3, 7)[::2]:
        if state.is_chance_node():
            space = range(game.max_chance_outcomes())
            legal = [a for a, _ in state.chance_outcomes()]
        else:
            space = range(-1, game.num_distinct_actions() + 1)
            legal = state.legal_actions()
        assert [a for a in space if state.action_problem(a) is None] == legal
        assert all(state.is_legal(a) == (a in legal) for a in space)
        reasons = [state.action_problem(a) for a in space if a not in legal]
        assert all(isinstance(r, str) and r for r in reasons)


def test_clone_copies_every_field() -> None:
    """``clone`` is written out field by field (speed): none may be forgotten or shared."""
    game = AgamemnonGame(loom=True, oracle=True)
    for state in random_states(game, 2, 3)[::5]:
        state.scores()  # the live score, where there is one
        copy = state.clone()
        assert vars(copy) == vars(state)
        assert list(vars(copy)) == list(vars(state))  # the same order: CPython shares the keys
        for name, value in vars(state).items():
            if isinstance(value, list):
                assert getattr(copy, name) is not value, name


def test_action_ids_are_the_documented_ones() -> None:
    game = AgamemnonGame()
    assert (NOSWAP, ASIDE_WARP, ASIDE_WEFT, STACK_START, SWAP_START) == (330, 331, 332, 333, 336)
    assert game.layout.encode("place", 6, 12) == 6 * 33 + 12
    assert (CHANCE_LAYOUT.size, SETUP_START) == (34, 10)


@pytest.mark.parametrize("loom", [False, True])
def test_every_action_round_trips_through_its_move_and_notation(loom: bool) -> None:
    game = AgamemnonGame(loom=loom)
    board = game.board
    for action in range(game.num_distinct_actions()):
        move = decode(action, game.layout)
        assert encode(move, game.layout) == action
        if move.space < board.num_spaces:  # the ids hold 33 spaces; the front board has 32
            assert parse_move(format_move(move, board), board) == move
    for outcome in range(game.max_chance_outcomes()):
        move = decode(outcome, game.layout, chance=True)
        assert encode(move, game.layout) == outcome
        assert parse_move(format_move(move, board), board) == move
    assert parse_move(" w2 @ 12 ", board) == Move("place", tile=6, space=12)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30) | st.from_regex(r"(swap|stack|aside|draw|setup)? ?[\w@, -]{0,12}"))
def test_parse_move_reads_a_move_or_says_why_not(text: str) -> None:
    board = AgamemnonGame(loom=True).board
    try:
        move = parse_move(text, board)
    except NotationError as err:
        assert str(err)
    else:
        assert isinstance(move, Move) and parse_move(format_move(move, board), board) == move
