"""Property tests: random playouts, legality, replays and round-trips (hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import palaestra
from palaestra.core.errors import IllegalActionError
from palaestra.core.record import Record
from palaestra.games.archimedes import ArchimedesGame, ArchimedesState
from tests.archimedes.archimedes_reference import Ref

pytestmark = pytest.mark.slow

SETTINGS = settings(max_examples=12, deadline=None)
games = st.builds(
    lambda players, revisit, limit: palaestra.load_game(
        "archimedes", players=players, revisit=revisit, move_limit=limit
    ),
    st.sampled_from([2, 3]),
    st.booleans(),
    st.integers(min_value=20, max_value=160),
)


def _home_cells(s: ArchimedesState) -> list[set[str]]:
    g = s.game
    return [{c for c in s.cubes(p) if g.goal_mask[p] >> g.board.cell(c) & 1} for p in range(g.num_players)]


@SETTINGS
@given(games, st.integers(min_value=0, max_value=2**32 - 1))
def test_random_playout_is_legal_and_ends(g: ArchimedesGame, seed: int) -> None:
    rng = random.Random(seed)
    s = g.new_initial_state(seed)
    home = _home_cells(s)
    while not s.is_terminal():
        actions = s.legal_actions()
        assert actions == sorted(set(actions)) and actions
        if s.ply % 7 == 0:  # the naive reference is slow: check every seventh position
            ref = Ref([s.cubes(p) for p in range(g.num_players)], s.current_player, g.revisit)
            assert sorted(s.action_to_string(a) for a in actions) == ref.moves()
        s.apply_action(rng.choice(actions))
        now = _home_cells(s)
        assert all(home[p] <= now[p] for p in range(g.num_players))  # ARC-M5: arrived cubes stay
        home = now
    assert s.end_reason in ("home", "passes", "limit")
    assert s.ply <= g.max_game_length()
    if s.end_reason == "limit":
        assert s.ply == g.move_limit
    assert all(-1 <= r <= 1 for r in s.returns()) and abs(sum(s.returns())) < 1e-9
    assert s.legal_actions() == []


@SETTINGS
@given(games, st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=0, max_value=60))
def test_legal_actions_are_legal_and_every_other_action_is_rejected(
    g: ArchimedesGame, seed: int, plies: int
) -> None:
    rng = random.Random(seed)
    s = g.new_initial_state()
    for _ in range(plies):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    legal = set(s.legal_actions())
    for a in legal:
        assert s.is_legal(a)
        child = s.clone()
        child.apply_action(a)
        assert child.history[-1] == a
    before = s.to_json()
    others = {rng.randrange(g.num_distinct_actions()) for _ in range(40)} | {g.pass_action}
    # moves of the player's own cubes to every cell are the likeliest near misses
    own = [g.board.cell(c) for c in s.cubes(s.current_player)] if not s.is_terminal() else []
    others |= {c * g.size + e for c in own for e in range(g.size)}
    for a in others - legal:
        try:
            s.apply_action(a)
        except IllegalActionError as err:
            assert str(err)
        else:
            raise AssertionError(f"{s.action_to_string(a)} was accepted")
        assert s.to_json() == before
        if not s.is_terminal():
            assert s.explain_illegal(a) != f"{s.action_to_string(a)} is legal"


@SETTINGS
@given(games, st.integers(min_value=0, max_value=2**32 - 1))
def test_record_replay_and_round_trips(g: ArchimedesGame, seed: int) -> None:
    rng = random.Random(seed)
    s = g.new_initial_state(seed)
    record = Record.start(g, seed=seed)
    while not s.is_terminal() and s.ply < 80:
        record.apply(s, rng.choice(s.legal_actions()))
        if s.ply % 20 == 0:
            t = g.state_from_json(json.loads(json.dumps(s.to_json())))
            assert t == s
            p = g.state_from_position(json.loads(json.dumps(s.to_position())))
            assert p.to_position() == s.to_position() and p.legal_actions() == s.legal_actions()
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    replayed = again.replay()
    assert replayed.to_position() == s.to_position()
    assert replayed.history == s.history
    again.check_result(replayed)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([2, 3]),
    st.booleans(),
    st.lists(st.integers(min_value=0, max_value=95), min_size=12, max_size=12, unique=True),
    st.integers(min_value=0, max_value=2),
)
def test_random_positions_match_the_reference(
    players: int, revisit: bool, cells: list[int], to_move: int
) -> None:
    """ARC-M1..M5 and ARC-M7 on arbitrary placements (touching cubes, cubes home, cubes on start
    cells), compared with the naive generator."""
    g = palaestra.load_game("archimedes", players=players, revisit=revisit)
    assert isinstance(g, ArchimedesGame)
    names = [g.board.names[c] for c in cells[: 4 * players]]
    cubes = [names[4 * p : 4 * p + 4] for p in range(players)]
    if any(all(g.goal_mask[p] >> g.board.cell(c) & 1 for c in cubes[p]) for p in range(players)):
        return  # a player already home: the position is over
    s = g.state_from_position({"cubes": cubes, "to_move": to_move % players})
    ref = Ref(cubes, to_move % players, revisit)
    assert sorted(s.action_to_string(a) for a in s.legal_actions()) == ref.moves()
