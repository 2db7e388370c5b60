"""The fast playout and the searched actions agree with the rules (issue 20).

* ``playout_scores`` (``_search.py``: the tiles still to place put on random free spaces at once)
  gives the same distribution of end scores as playing the game on through ``rules.py`` with
  random legal actions where every Warp declines its swap (AGA-T1, AGA-T2, AGA-T3, AGA-T4), in
  every variant, from the middle of a turn, a pending Warp and a set-aside included;
* ``search_actions`` leaves out only the placements that reach a position another order of the
  same two tiles reaches (AGA-T2), and every one of them is legal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.core.game import random_playout
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState
from palaestra.games.agamemnon.board import MAX_SPACES
from palaestra.games.agamemnon.moves import ASIDE_WARP, ASIDE_WEFT, NOSWAP
from palaestra.games.agamemnon.tiles import CODES

#: the variants and their rules versions (the playout has no rule of its own: all must agree)
VARIANTS = [
    {},
    {"loom": True, "setup": "II,IV,I"},
    {"oracle": True},
    {"defying": True},
    {"loom": True, "oracle": True},
]
#: critical value of the two-sample Kolmogorov-Smirnov statistic at the 0.01% level:
#: c(alpha) * sqrt((n + m) / (n * m)) with c(0.0001) = sqrt(-ln(0.00005) / 2)
KS_C = 2.2255


def declining_playout(state: AgamemnonState, rng: random.Random) -> list[float]:
    """The reference: the game played on through the rules, random legal actions, no Warp swap."""
    state = state.clone()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        elif state.phase == "warp":
            state.apply_action(NOSWAP)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.scores()


def ks_statistic(a: list[float], b: list[float]) -> float:
    """The largest gap between the empirical distribution functions of ``a`` and ``b``."""
    ca, cb = Counter(a), Counter(b)
    gap = fa = fb = 0.0
    for x in sorted(set(a) | set(b)):
        fa += ca[x] / len(a)
        fb += cb[x] / len(b)
        gap = max(gap, abs(fa - fb))
    return gap


def position(options: dict[str, object], tiles: int, seed: int, extra: int = 0) -> AgamemnonState:
    """A state of a random game once ``tiles`` tiles are placed, then ``extra`` random actions
    more (chance included; none past the end)."""
    rng = random.Random(seed)
    state = AgamemnonGame(**options).new_initial_state()
    while not state.is_terminal() and state.tiles_placed < tiles:
        random_playout(state, rng, 1)
    random_playout(state, rng, extra)
    return state


def assert_same_distribution(state: AgamemnonState, n: int = 600) -> None:
    fast_rng, slow_rng = random.Random(1), random.Random(2)
    fast = [state.playout_scores(fast_rng) for _ in range(n)]
    slow = [declining_playout(state, slow_rng) for _ in range(n)]
    limit = KS_C * (2 / n) ** 0.5
    for name, pick in (
        ("margin", lambda s: s[0] - s[1]),
        ("orange", lambda s: s[0]),
        ("black", lambda s: s[1]),
    ):
        gap = ks_statistic([pick(s) for s in fast], [pick(s) for s in slow])
        assert gap < limit, f"{name}: the distributions differ (KS {gap:.3f} >= {limit:.3f})"


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(map(str, o.values())) or "front")
@pytest.mark.parametrize(("tiles", "extra"), [(0, 2), (9, 1), (22, 0), (27, 1)])
def test_playout_scores_follow_the_rules(options: dict[str, object], tiles: int, extra: int) -> None:
    state = position(options, tiles, seed=tiles, extra=extra)
    assert not state.is_terminal()
    assert_same_distribution(state)


def find_state(options: dict[str, object], wanted: str) -> AgamemnonState:
    """A state with a Warp whose swap is pending (``warp``) or a weaver set aside (``aside``)."""
    rng = random.Random(5)
    for _ in range(500):
        state = AgamemnonGame(**options).new_initial_state()
        while not state.is_terminal():
            if wanted == "warp" and state.phase == "warp" and len(state.legal_actions()) > 1:
                return state
            if wanted == "aside" and state.aside and not state.is_chance_node():
                return state
            actions = state.legal_actions()
            asides = [a for a in actions if a in (ASIDE_WARP, ASIDE_WEFT)]
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(asides[0] if wanted == "aside" and asides else rng.choice(actions))
    raise AssertionError(f"no {wanted} state found")


@pytest.mark.parametrize("wanted", ["warp", "aside"])
def test_playout_from_a_pending_warp_or_a_set_aside_weaver(wanted: str) -> None:
    """AGA-T4: the pending Warp declines; AGA-T3: the set-aside weaver is still to be placed."""
    assert_same_distribution(find_state({}, wanted))


def test_a_finished_game_plays_out_to_its_own_scores() -> None:
    state = position({}, 30, seed=3)
    assert state.is_terminal()
    assert state.playout_scores(random.Random(0)) == state.scores()


def test_a_loom_game_before_its_set_up_plays_out_through_the_rules() -> None:
    state = AgamemnonGame(loom=True).new_initial_state()
    assert state.is_chance_node() and state.phase == "setup"
    scores = state.playout_scores(random.Random(4))
    assert len(scores) == 2 and 0 < scores[0] + scores[1] <= 66


@settings(max_examples=60)
@given(st.sampled_from(VARIANTS), st.integers(0, 30), st.integers(0, 3), st.integers(0, 10**6))
def test_playout_scores_are_possible_and_change_nothing(
    options: dict[str, object], tiles: int, extra: int, seed: int
) -> None:
    state = position(options, tiles, seed, extra)
    before = state.to_json()
    p0, p1 = state.playout_scores(random.Random(seed))
    assert state.to_json() == before
    assert p0 == int(p0) and p1 == int(p1) and p0 >= 0 and p1 >= 0
    assert p0 + p1 <= len(state.game.board.connections)
    # the same generator state gives the same playout
    assert state.playout_scores(random.Random(seed)) == [p0, p1]


def turn_ends(state: AgamemnonState, searched: bool) -> set[str]:
    """The positions that end the mover's turn (the next decision is another's or chance)."""
    mover = state.current_player
    ends: set[str] = set()
    stack = [state]
    while stack:
        node = stack.pop()
        for a in node.search_actions() if searched else node.legal_actions():
            child = node.clone()
            child.apply_action(a)
            if child.current_player == mover:
                stack.append(child)
            else:
                doc = child.to_json()
                del doc["history"]
                ends.add(repr(doc))
    return ends


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(18, 28), st.integers(0, 3), st.integers(0, 10**6))
def test_searched_actions_reach_every_end_of_the_turn(
    options: dict[str, object], tiles: int, extra: int, seed: int
) -> None:
    """AGA-T2: the two tiles of a turn in either order reach the same positions, so searching one
    order loses nothing."""
    state = position(options, tiles, seed, extra)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(seed)))
    if state.is_terminal():
        return
    searched = state.search_actions()
    assert searched and set(searched) <= set(state.legal_actions())
    assert turn_ends(state, searched=True) == turn_ends(state, searched=False)


def test_two_different_tiles_search_the_lower_code_only() -> None:
    rng = random.Random(8)
    state = position({}, 0, seed=0)
    while state.is_chance_node() or len(set(state.hand)) < 2:
        state = position({}, rng.randrange(1, 28), seed=rng.randrange(10**6), extra=2)
    low = min(CODES.index(code) for code in state.hand)
    placements = [a for a in state.search_actions() if a < NOSWAP]
    assert {a // MAX_SPACES for a in placements} == {low}
    assert len(placements) == len(state.legal_actions()) // 2
