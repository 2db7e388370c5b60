"""The fast module (_fast.py) against the readable rules, over thousands of random positions.

_fast.py answers ATH-P1 (may this field become rubble? may this rubble tile be relocated there?)
with a cut-vertex search, a local ring test and cached components, for the predicates of the
rules (tiles.py, movement.py). Here every answer is compared with the plain meaning of the rule:
apply the change to a copy of the position and walk from the summit
(``AthosState.path_rule_holds``, one breadth-first walk); the steps allowed while monks share a
field (the fast separation search, ATH-T3, ATH-T10) with a literal search of the movement
(test_athos_movement.Reference); and ``legal_actions()`` with :meth:`AthosState.action_problem`
(``problem()`` of each decoded move) over the whole action space.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from palaestra.games.athos import AthosGame, _fast
from palaestra.games.athos.game import MOVE, NONE, RUBBLE, AthosState

from .test_athos_movement import Reference
from .test_athos_pathrule import dense_position

CONFIGS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "teams": True, "bare_stone": True},
    {"players": 2, "handicap_player": 0, "handicap_tiles": 6, "bare_stone": True},
]


def random_states(count: int, seed: int) -> Iterator[AthosState]:
    """``count`` states met in random games (every player count and variant), and crowded
    positions with many tiles (a quarter of them), each with its caches empty."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        game = AthosGame(round_limit=40, **CONFIGS[made % len(CONFIGS)])  # type: ignore[arg-type]
        if made % 4 == 3:
            phase = rng.choice(["move", "stone", "place"])
            state = game.state_from_position(dense_position(game, rng, phase))
            made += 1
            yield state
            continue
        state = game.new_initial_state()
        while not state.is_terminal() and made < count:
            if rng.random() < 0.05:
                copy = state.clone()
                copy._position_changed()
                made += 1
                yield copy
            state.apply_action(rng.choice(state.legal_actions()))


def rubble_keeps_paths(state: AthosState, f: int) -> bool:
    """ATH-P1 by its meaning: rubble on ``f`` (a free field or an open tile), then a walk."""
    after = state.clone()
    after._set_tile(f, RUBBLE, max(after.tile_terrain[f], 0))
    after._position_changed()
    return after.path_rule_holds()


def relocation_keeps_paths(state: AthosState, f: int, g: int) -> bool:
    """ATH-P1 by its meaning: the rubble tile on ``f`` moved to ``g``, then a walk."""
    after = state.clone()
    after._set_tile(g, after.tile[f], after.tile_terrain[f])
    after._set_tile(f, NONE, -1)
    after._position_changed()
    return after.path_rule_holds()


@pytest.mark.slow
def test_ath_p1_fast_answers_match_a_walk_after_the_change() -> None:
    """2,000 positions: whether rubble on a field cuts a monk off (without any cache, with the
    search made, and by the critical set), and whether a relocation of rubble does."""
    checked = refused = relocations = 0
    for state in random_states(2000, seed=1):
        rng = random.Random(len(state.history) + state.round)
        b = state.board
        free = [f for f in b.ordinary if not state.occupants[f] and state.tile[f] != RUBBLE]
        sample = rng.sample(free, min(5, len(free)))
        fresh = state.clone()
        fresh._position_changed()
        batch = _fast.rubble_refused_among(fresh, sample)  # the batch the rules ask, no cache
        assert batch == [f for f in sample if not rubble_keeps_paths(state, f)]
        for f in sample:
            expected = rubble_keeps_paths(state, f)
            fresh = state.clone()
            fresh._position_changed()
            assert _fast.rubble_allowed(fresh, f) == expected  # local test, or one search
            if _fast.locally_safe(state, f):
                assert expected  # the local test never allows what cuts a monk off
            assert (f not in _fast.critical_fields(state)) == expected
            assert _fast.rubble_allowed(state, f) == expected  # from the critical set
            checked += 1
            refused += not expected
        rubble = [f for f in state.tiled_fields() if state.tile[f] == RUBBLE]
        targets = [g for g in b.ordinary if state.free(g)]
        if rubble and targets:
            for _ in range(2):
                f, g = rng.choice(rubble), rng.choice(targets)
                assert _fast.relocation_allowed(state, f, g) == relocation_keeps_paths(state, f, g)
                relocations += 1
    assert checked > 9000 and refused > 100 and relocations > 2000


@pytest.mark.slow
def test_ath_t10_steps_while_monks_share_a_field_match_a_literal_search() -> None:
    """Every state of random games where the mover's monks share a field (ATH-T3): a step is
    offered exactly when a literal search of the rules (test_athos_movement.Reference, no
    shortcut of the fast search) still finds a legal end of the movement after it (ATH-T10)."""
    rng = random.Random(4)
    states = checked = refused = 0
    for players in (2, 3, 4):
        for _ in range(5):
            game = AthosGame(players=players, round_limit=25)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.phase == MOVE and state.crowded:
                    reference = Reference(state)
                    legal = {state.action_to_string(a) for a in state.legal_actions()}
                    for name, after in reference.moves(reference.key(state)):
                        if not name.startswith("flip"):  # flips: test_athos_movement.py
                            can_end = bool(reference.ends(after))
                            assert (name in legal) == can_end, (state.to_position(), name)
                            checked += 1
                            refused += not can_end
                    states += 1
                state.apply_action(rng.choice(state.legal_actions()))
    assert states > 150 and refused > 500


@pytest.mark.slow
def test_legal_actions_are_the_actions_problem_allows_over_the_whole_action_space() -> None:
    """On 80 positions of every phase, ``legal_actions()`` lists exactly the ids for which
    ``action_problem()`` (``problem()`` of the decoded move: the one statement of the rules)
    finds nothing wrong."""
    phases = set()
    for state in random_states(80, seed=2):
        allowed = [a for a in range(state.game.num_distinct_actions()) if state.action_problem(a) is None]
        assert state.legal_actions() == allowed
        phases.add(state.phase)
    assert len(phases) >= 4


def test_clone_copies_every_field_and_shares_nothing_mutable() -> None:
    """clone() is written out field by field (speed): it must copy every field the constructor
    makes, in the same order (CPython's shared-key layout), and share no list that play changes."""
    game = AthosGame(players=3, bare_stone=True)
    state = game.new_initial_state(seed=7)
    rng = random.Random(3)
    for _ in range(400):
        state.apply_action(rng.choice(state.legal_actions()))
    state.legal_actions()  # fill the caches
    _fast.critical_fields(state)
    copy = state.clone()
    assert list(vars(copy)) == list(vars(game.new_initial_state()))
    assert list(vars(copy)) == list(vars(state))
    shared = {"game", "board", "_cut", "_critical_fields", "_distances", "_tiled"}  # never changed in place
    for name, value in vars(state).items():
        if name == "_relocation_parts":  # a cache the copy starts empty
            assert vars(copy)[name] == {}
            continue
        assert vars(copy)[name] == value, name
        if isinstance(value, list | dict) and name not in shared:
            assert vars(copy)[name] is not value, name
    before = state.to_json()
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert state.to_json() == before and copy.to_json() != before
