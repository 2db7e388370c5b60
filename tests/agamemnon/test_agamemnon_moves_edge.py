"""Agamemnon's typed moves at the edge (issue 32): ``Kind`` names the layout segments,
``AgamemnonGame.decode``/``encode`` turn every id into its move and back (chance outcomes at
chance nodes), and ``problem(move)`` is the question ``action_problem(id)`` asks at the edge."""

from __future__ import annotations

import random

import pytest

from palaestra.core.game import random_playout
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState
from palaestra.games.agamemnon.moves import CHANCE_KINDS, CHANCE_LAYOUT, Kind, Move

VARIANTS = [{}, {"loom": True}, {"oracle": True}, {"defying": True}]


def states(game: AgamemnonGame, seed: int) -> list[AgamemnonState]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal():
        random_playout(state, rng, 1)
        out.append(state.clone())
    return out


def test_the_kinds_are_the_segments_of_the_two_layouts() -> None:
    game = AgamemnonGame(loom=True)
    names = [s.name for s in game.layout] + [s.name for s in CHANCE_LAYOUT]
    assert names == [k.value for k in Kind]
    assert all(isinstance(s.name, Kind) for s in game.layout)


@pytest.mark.parametrize("loom", [False, True])
def test_decode_and_encode_are_inverse_over_every_id_and_chance_outcome(loom: bool) -> None:
    game = AgamemnonGame(loom=loom)
    for action in range(game.num_distinct_actions()):
        move = game.decode(action)
        assert isinstance(move, Move) and move.kind not in CHANCE_KINDS
        assert game.encode(move) == action
    for outcome in range(game.max_chance_outcomes()):
        move = game.decode(outcome, chance=True)
        assert move.kind in CHANCE_KINDS
        assert game.encode(move) == outcome
    assert game.decode(12) == Move(Kind.PLACE, tile=0, space=12)
    assert game.decode(12, chance=True) == Move(Kind.SETUP, setup=2)


@pytest.mark.parametrize("bad", [-1, 10**6, True, 1.0, "3", None])
def test_decode_refuses_what_is_no_id(bad: object) -> None:
    game = AgamemnonGame()
    with pytest.raises(ValueError, match="is not an action id of agamemnon"):
        game.decode(bad)
    with pytest.raises(ValueError, match="is not a chance outcome of agamemnon"):
        game.decode(bad if bad != 10**6 else 34, chance=True)


def test_encode_refuses_what_is_no_move() -> None:
    game = AgamemnonGame()
    for bad in (Move(Kind.PLACE, tile=0, space=99), Move(Kind.SWAP, pair=10**4), 5, "W2@12"):
        with pytest.raises(ValueError, match="is not a move of agamemnon"):
            game.encode(bad)  # type: ignore[arg-type]  # the wrong types on purpose


@pytest.mark.parametrize("options", VARIANTS, ids=str)
def test_problem_of_a_move_is_action_problem_of_its_id(options: dict[str, object]) -> None:
    """``action_problem`` decodes (a chance outcome at a chance node) and asks ``problem``; the
    legal moves are the decoded legal actions."""
    game = AgamemnonGame(**options)
    for state in states(game, 11)[::3]:
        chance = state.is_chance_node()
        size = game.max_chance_outcomes() if chance else game.num_distinct_actions()
        for action in range(size):
            assert state.problem(game.decode(action, chance)) == state.action_problem(action)
        moves = state.legal_moves()
        assert [game.encode(m) for m in moves] == state.legal_actions()
        assert all((m.kind in CHANCE_KINDS) == chance for m in moves)


def test_a_move_of_another_phase_is_not_possible_now() -> None:
    state = AgamemnonGame().new_initial_state()
    assert state.phase == "draw"
    assert state.problem(Move(Kind.PLACE, tile=0, space=3)) == (
        "A@3 is not possible now: orange's tile is being drawn (write 'draw CODE')"
    )
    assert state.action_problem(10**6) == "1000000 is not a chance outcome of agamemnon (0 to 33)"
