"""Scoring on hand-built positions, worked out by hand from the rules (AGA-SC1..SC4, AGA-T4, AGA-T5),
and cross-checked against a naive reference implementation on random positions.

Front-board facts used below (agamemnon-boards.txt): strength 0-1 0-4 4-9 8-9 9-11 3-7 13-15 29-30
30-31; force 1-5 2-6 6-11 11-14 5-8 8-13 13-14; leadership 2-3 2-4 3-6 4-8 11-12.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.core.game import random_playout, sample_outcome
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState, _fast
from palaestra.games.agamemnon.tiles import SPEARS


def position(tiles: list[tuple[int, int, str]], **fields: Any) -> AgamemnonState:
    game = AgamemnonGame()
    doc: dict[str, Any] = {
        "game": "agamemnon",
        "board": fields.pop("board", "front"),
        "tiles": [{"space": s, "player": p, "tile": t} for s, p, t in tiles],
    }
    doc.update(fields)
    return game.state_from_position(doc)


def string_of(state: AgamemnonState, a: int, b: int) -> dict[str, Any]:
    """The string (score_details entry) holding connection a-b."""
    for string in state.score_details()["strings"]:
        if [a, b] in string["connections"]:
            return dict(string)
    raise AssertionError(f"no string holds {a}-{b}")


# --- AGA-SC1 strings: joined through tiled spaces, cut by empty spaces --------------------------------


def test_aga_sc1_a_string_runs_through_tiles_and_branches() -> None:
    # orange W3 on 4, black W2 on 9: the strength string {0-4, 4-9, 8-9, 9-11} branches at 9
    state = position([(4, 0, "W3"), (9, 1, "W2")], to_move=1)
    s = string_of(state, 4, 9)
    assert s["kind"] == "strength"
    assert sorted(s["connections"]) == [[0, 4], [4, 9], [8, 9], [9, 11]]
    assert s["controller"] == 0  # 3 spears against 2
    # the leadership connections at 4 (2-4, 4-8) form a string with no leader: nobody controls it
    assert string_of(state, 2, 4)["controller"] is None
    assert state.scores() == [4.0, 0.0]


def test_aga_sc1_an_empty_space_cuts_a_string() -> None:
    # orange W1 on 1, black W2 on 4, space 0 empty: 0-1 and 0-4 are different strings
    state = position([(1, 0, "W1"), (4, 1, "W2")], to_move=1)
    assert string_of(state, 0, 1)["connections"] == [[0, 1]]
    assert string_of(state, 0, 1)["controller"] == 0
    assert sorted(string_of(state, 0, 4)["connections"]) == [[0, 4], [4, 9]]
    assert string_of(state, 0, 4)["controller"] == 1
    # strength: orange 1 (0-1), black 2 (0-4, 4-9); force 1-5: orange 1
    assert state.scores() == [2.0, 2.0]


def test_aga_sc1_a_tile_on_the_empty_space_joins_the_strings() -> None:
    # the same, with an orange W1 on 0 (and a black W1 far away on 30): {0-1, 0-4, 4-9} with
    # 2 spears each side is tied
    state = position([(1, 0, "W1"), (4, 1, "W2"), (0, 0, "W1"), (30, 1, "W1")], to_move=0)
    s = string_of(state, 0, 1)
    assert sorted(s["connections"]) == [[0, 1], [0, 4], [4, 9]]
    assert s["controller"] is None
    assert state.scores() == [1.0, 2.0]  # force 1-5 orange; strength 29-30 30-31 black


# --- AGA-T5 Weft ----------------------------------------------------------------------------------


def test_aga_t5_a_weft_cuts_the_strings_through_its_space() -> None:
    # as above but the tile on 0 is an orange Weft: 0-1 (orange W1) and {0-4, 4-9} (black W2) split
    state = position([(1, 0, "W1"), (4, 1, "W2"), (0, 0, "WEFT"), (30, 1, "W1")], to_move=0)
    assert string_of(state, 0, 1)["connections"] == [[0, 1]]
    assert string_of(state, 0, 1)["controller"] == 0
    assert sorted(string_of(state, 0, 4)["connections"]) == [[0, 4], [4, 9]]
    assert string_of(state, 0, 4)["controller"] == 1  # the Weft has no spears
    # strength: 0-1 orange 1, {0-4, 4-9} black 2, {29-30, 30-31} black 2; force 1-5 orange 1
    assert state.scores() == [2.0, 4.0]


def test_aga_t5_a_weft_counts_as_one_tile_for_the_force_of_each_string_it_ends() -> None:
    # black Weft on 6 cuts force 2-6 from {6-11, 11-14}; orange W1 on 2, black W1 on 11, orange W2 on 30
    state = position([(2, 0, "W1"), (30, 0, "W2"), (6, 1, "WEFT"), (11, 1, "W1")], to_move=0)
    assert string_of(state, 2, 6)["connections"] == [[2, 6]]
    assert string_of(state, 2, 6)["controller"] is None  # orange W1 against the black Weft
    assert sorted(string_of(state, 6, 11)["connections"]) == [[6, 11], [11, 14]]
    assert string_of(state, 6, 11)["controller"] == 1  # W1 + Weft against nothing
    # strength: 9-11 black 1; 29-30 30-31 orange 2. force: black 2. leadership: no leaders.
    assert state.scores() == [2.0, 3.0]


def test_aga_t5_a_weft_alone_controls_a_force_connection_to_an_empty_space() -> None:
    state = position([(2, 0, "W1"), (30, 0, "W2"), (6, 1, "WEFT"), (0, 1, "W1")], to_move=0)
    assert string_of(state, 6, 11) == {"kind": "force", "connections": [[6, 11]], "controller": 1}
    # strength: 0-1 0-4 black 2; 29-30 30-31 orange 2. force: 2-6 tied, 6-11 black 1
    assert state.scores() == [2.0, 3.0]


# --- AGA-SC2, AGA-SC3 control --------------------------------------------------------------------


def test_aga_sc2_aga_sc3_strength_force_and_leadership_down_the_ranks() -> None:
    # leadership string {2-3, 2-4, 3-6, 4-8}: orange A and C, black A and B: A = A, then B beats C
    state = position([(2, 0, "A"), (4, 0, "C"), (3, 1, "A"), (8, 1, "B")], to_move=0)
    lead = string_of(state, 2, 4)
    assert sorted(lead["connections"]) == [[2, 3], [2, 4], [3, 6], [4, 8]]
    assert lead["controller"] == 1
    assert string_of(state, 0, 4)["controller"] == 0  # strength {0-4, 4-9}: C has 4 spears
    assert string_of(state, 3, 7)["controller"] == 1  # strength 3-7: black A, 1 spear
    assert string_of(state, 8, 9)["controller"] == 1  # strength 8-9: black B, 3 spears
    assert string_of(state, 2, 6)["controller"] == 0  # force 2-6: one orange tile
    assert sorted(string_of(state, 5, 8)["connections"]) == [[5, 8], [8, 13]]  # force, black
    # orange: strength 2 + force 1; black: leadership 4 + strength 1 + 1 + force 2
    assert state.scores() == [3.0, 8.0]


def test_aga_sc3_a_side_that_still_has_a_leader_wins_leadership() -> None:
    # orange A and C against black A alone: after the As, orange still has a leader
    state = position([(2, 0, "A"), (4, 0, "C"), (3, 1, "A"), (8, 1, "W1")], to_move=0)
    assert string_of(state, 2, 4)["controller"] == 0
    # orange: leadership 4 + strength 0-4 4-9 (2) + force 2-6 (1); black: 3-7, 8-9, 5-8 8-13
    assert state.scores() == [7.0, 4.0]


def test_aga_sc3_equal_leaders_control_nothing() -> None:
    state = position([(2, 0, "A"), (4, 0, "W1"), (3, 1, "A"), (8, 1, "W1")], to_move=0)
    assert string_of(state, 2, 4)["controller"] is None


def test_aga_sc3_force_counts_tiles_not_spears() -> None:
    # force {5-8, 8-13, 13-14, 1-5}: orange W1 on 5 and WARP on 13 (2 tiles) against black C on 8
    state = position([(5, 0, "W1"), (13, 0, "WARP"), (8, 1, "C"), (30, 1, "W1")], to_move=0)
    s = string_of(state, 5, 8)
    assert sorted(s["connections"]) == [[1, 5], [5, 8], [8, 13], [13, 14]]
    assert s["controller"] == 0


def test_aga_sc4_points_are_connections_of_controlled_strings() -> None:
    state = position([(4, 0, "W3"), (9, 1, "W2")], to_move=1)
    details = state.score_details()
    total = [0, 0]
    for s in details["strings"]:
        if s["controller"] is not None:
            total[s["controller"]] += len(s["connections"])
    assert details["scores"] == [float(x) for x in total] == state.scores()
    # every connection lies in exactly one string
    conns = sorted(tuple(c) for s in details["strings"] for c in s["connections"])
    assert len(conns) == 49 and len(set(conns)) == 49


# --- AGA-T4 Warp swaps -------------------------------------------------------------------------


def test_aga_t4_warp_swap_changes_the_strings_and_the_score() -> None:
    # orange W3 on 9, black B on 8, black W1 on 13; orange has just placed a Warp on 4
    state = position([(9, 0, "W3"), (4, 0, "WARP"), (8, 1, "B"), (13, 1, "W1")], to_move=0, warp=4)
    assert state.phase == "warp" and state.current_player == 0
    # before: strength {0-4,4-9,8-9,9-11} tied 3:3, 13-15 black; force {5-8,8-13,13-14} black;
    # leadership {2-4, 4-8} black B
    assert state.scores() == [0.0, 6.0]
    swaps = [state.action_to_string(a) for a in state.legal_actions()]
    # every pair of connections at 4 of different kinds (0-4 S, 2-4 L, 4-8 L, 4-9 S)
    assert swaps == ["noswap", "swap 0-4 2-4", "swap 0-4 4-8", "swap 2-4 4-9", "swap 4-8 4-9"]
    state.apply_action(state.string_to_action("swap 4-8 0-4"))
    kinds = {(a, b): k for a, b, k in state.connection_kinds()}
    assert kinds[(0, 4)] == "leadership" and kinds[(4, 8)] == "strength"
    # now leadership at 4 is {0-4, 2-4} without leaders: black loses 2
    assert state.scores() == [0.0, 4.0]
    assert state.phase == "draw"  # orange's second tile of the turn is drawn next


def test_aga_t4_a_swap_of_two_equal_kinds_is_not_offered() -> None:
    state = position([(9, 0, "W3"), (4, 0, "WARP"), (8, 1, "B"), (13, 1, "W1")], to_move=0, warp=4)
    action = state.string_to_action("swap 0-4 4-9")  # both strength
    assert action not in state.legal_actions()
    assert "changes nothing" in state.explain_illegal(action)
    far = state.string_to_action("swap 13-15 13-14")
    assert "must both touch space 4" in state.explain_illegal(far)


def test_aga_t4_aga_v1_loom_warp_moves_a_string_tile_onto_an_empty_connection() -> None:
    # loom, set-up I,II,III (IV empty): orange A on 0, orange Warp on 4, black B on 1, black W1 on 30
    state = position(
        [(0, 0, "A"), (4, 0, "WARP"), (1, 1, "B"), (30, 1, "W1")],
        board="loom",
        options={"setup": "I,II,III"},
        to_move=0,
        warp=4,
    )
    assert state.out_of_play == 31
    # 0 and 4 touch only through the empty 0-4: no string joins them (AGA-SC4: empty scores nothing)
    assert all(s["kind"] != "empty" for s in state.score_details()["strings"])
    # before: strength 0-1 black (B 3 > A 1), force 0-2 orange, 1-5 black, leadership {1-4, 4-8} black
    assert state.scores() == [1.0, 4.0]
    swap = state.string_to_action("swap 0-4 1-4")
    assert swap in state.legal_actions()
    state.apply_action(swap)
    kinds = {(a, b): k for a, b, k in state.connection_kinds()}
    assert kinds[(0, 4)] == "leadership" and kinds[(1, 4)] == "empty"
    # after: leadership {0-4, 4-8} with orange A: orange 2
    assert string_of(state, 0, 4)["controller"] == 0
    assert state.scores() == [3.0, 2.0]


def test_aga_sc4_empty_loom_connections_score_nothing_at_the_end() -> None:
    game = AgamemnonGame(loom=True, setup="II,III,IV")
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            actions = state.legal_actions()
            # never swap, so the 19 class-I connections stay empty
            state.apply_action(actions[0] if state.phase == "warp" else rng.choice(actions))
    strings = state.score_details()["strings"]
    assert {s["kind"] for s in strings} <= {"strength", "force", "leadership"}
    assert sum(len(s["connections"]) for s in strings) == 66 - 19
    assert sum(state.scores()) <= 66 - 19


# --- AGA-SC4 result ------------------------------------------------------------------------------


def _random_final(game: AgamemnonGame, seed: int) -> AgamemnonState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    random_playout(state, rng)
    return state


def test_aga_sc4_most_points_wins_and_equal_points_is_a_draw() -> None:
    game = AgamemnonGame()
    seen = set()
    for seed in range(300):
        state = _random_final(game, seed)
        p0, p1 = state.scores()
        expected = [1.0, -1.0] if p0 > p1 else [-1.0, 1.0] if p1 > p0 else [0.0, 0.0]
        assert state.returns() == expected
        assert state.evaluate() == expected
        seen.add(tuple(expected))
        if len(seen) == 3:
            break
    assert len(seen) == 3, "300 random games gave no draw"
    draw = next(s for s in (_random_final(game, x) for x in range(300)) if s.returns() == [0.0, 0.0])
    assert draw.result_text() == "draw"


def test_returns_are_zero_and_evaluate_in_range_before_the_end() -> None:
    state = position([(2, 0, "A"), (4, 0, "C"), (3, 1, "A"), (8, 1, "B")], to_move=0)
    assert state.returns() == [0.0, 0.0]
    v = state.evaluate()
    assert -1.0 < v[0] < 0.0 and v[1] == -v[0]  # black leads 8 to 3


# --- cross-check against a naive reference ---------------------------------------------------------


def reference_strings(state: AgamemnonState) -> list[tuple[int, tuple[int, ...], int | None]]:
    """AGA-SC1..SC3 written the slow, obvious way: union connections of a kind meeting at a tile."""
    board = state.game.board
    kinds = [("strength", "force", "leadership", "empty").index(k) for _, _, k in state.connection_kinds()]
    tiles = {s: state.tile_at(s) for s in range(board.num_spaces) if state.tile_at(s) is not None}
    parent = list(range(board.num_connections))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for s, (_, code) in tiles.items():  # type: ignore[misc]
        if code == "WEFT":
            continue
        for i in board.incident[s]:
            for j in board.incident[s]:
                if kinds[i] == kinds[j] != 3:
                    parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for c in range(board.num_connections):
        if kinds[c] != 3:
            groups.setdefault(find(c), []).append(c)
    codes = ("A", "B", "C", "D", "E", "W1", "W2", "W3", "WARP", "WEFT")
    out = []
    for group in groups.values():
        k = kinds[group[0]]
        spaces = {x for c in group for x in board.connections[c] if x in tiles}
        by = [[codes.index(tiles[x][1]) for x in spaces if tiles[x][0] == p] for p in (0, 1)]  # type: ignore[index]
        if k == 0:
            v = [sum(SPEARS[c] for c in cs) for cs in by]
        elif k == 1:
            v = [len(cs) for cs in by]
        else:
            ranks = [sorted(c for c in cs if c < 5) for cs in by]
            v = [0, 0]
            for i in range(5):
                x = ranks[0][i] if i < len(ranks[0]) else 99
                y = ranks[1][i] if i < len(ranks[1]) else 99
                if x != y:
                    v = [1, 0] if x < y else [0, 1]
                    break
        ctrl = None if v[0] == v[1] else (0 if v[0] > v[1] else 1)
        out.append((k, tuple(sorted(group)), ctrl))
    return sorted(out, key=lambda t: (t[0], t[1]))


def engine_strings(state: AgamemnonState) -> list[tuple[int, tuple[int, ...], int | None]]:
    board = state.game.board
    out = []
    for s in state.score_details()["strings"]:
        k = ("strength", "force", "leadership").index(s["kind"])
        conns = tuple(sorted(board.conn_id[(a, b)] for a, b in s["connections"]))
        out.append((k, conns, s["controller"]))
    return sorted(out, key=lambda t: (t[0], t[1]))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), loom=st.booleans(), defying=st.booleans())
def test_aga_sc1_to_sc4_engine_agrees_with_the_reference_along_random_games(
    seed: int, loom: bool, defying: bool
) -> None:
    game = AgamemnonGame(loom=loom, defying=defying)
    rng = random.Random(seed)
    state = game.new_initial_state()
    fresh_every = rng.randrange(1, 6)
    step = 0
    while not state.is_terminal():
        random_playout(state, rng, 1)
        if state.phase == "setup":
            continue
        step += 1
        ref = reference_strings(state)
        assert engine_strings(state) == ref
        points = [0.0, 0.0]
        for _, conns, ctrl in ref:
            if ctrl is not None:
                points[ctrl] += len(conns)
        # the incremental live score (kept up to date since the first request) ...
        assert state.scores() == points
        # ... equals a fresh computation, and the flood fill used for finished games
        if step % fresh_every == 0:
            clone = state.clone()
            clone._live = None
            assert clone.scores() == points
            assert clone.evaluate() == pytest.approx(state.evaluate())
            assert state._maps is not None
            assert [float(x) for x in _fast.points(state._maps, state._masks, game.ends)] == points


# --- AGA-SC3 leadership further down the ranks ------------------------------------------------------
# leadership string {14-18, 14-19, 16-19, 18-20, 18-23} (six spaces); other strings used below:
# strength {12-16, 16-17} and {19-24}; force {11-14, 13-14}, {19-21}, {15-20, 20-25}, {23-24, 23-25}


def _six_leaders(black_on_23: str) -> AgamemnonState:
    tiles = [(14, 0, "A"), (16, 1, "A"), (19, 1, "B"), (18, 0, "B"), (20, 0, "D"), (23, 1, black_on_23)]
    return position(tiles, to_move=1)


def test_aga_sc3_leadership_equal_twice_then_the_third_rank_decides() -> None:
    # A = A, B = B, then black's C outranks orange's D
    state = _six_leaders("C")
    lead = string_of(state, 14, 18)
    assert sorted(lead["connections"]) == [[14, 18], [14, 19], [16, 19], [18, 20], [18, 23]]
    assert lead["controller"] == 1
    # orange: force 11-14 13-14, 15-20 20-25 (4); black: strength 12-16 16-17, 19-24 (3),
    # force 19-21, 23-24 23-25 (3), leadership 5
    assert state.scores() == [4.0, 11.0]


def test_aga_sc3_the_third_rank_decides_the_other_way() -> None:
    # A = A, B = B, then orange's D outranks black's E
    state = _six_leaders("E")
    assert string_of(state, 14, 18)["controller"] == 0
    assert state.scores() == [9.0, 6.0]


def test_aga_sc3_leaders_equal_on_every_rank_control_nothing() -> None:
    state = _six_leaders("D")  # A, B, D on both sides
    assert string_of(state, 14, 18)["controller"] is None
    assert state.scores() == [4.0, 6.0]


# --- AGA-T4 / AGA-B2 (amended 2026-11-25): the loom's out-of-play space ---------------------------


def test_aga_t4_aga_b2_a_warp_beside_the_out_of_play_space_moves_no_tile_onto_its_connections() -> None:
    # loom I,II,III: IV is empty, 31 out of play. At 30: 26-30 L, 30-32 L, 28-30 and 30-31 empty.
    # Until 2026-11-25 a Warp here could move a leadership tile onto 30-31, where it scored.
    state = position(
        [(26, 0, "A"), (0, 1, "W1"), (1, 1, "W1"), (30, 0, "WARP")],
        board="loom",
        options={"setup": "I,II,III"},
        to_move=0,
        warp=30,
    )
    assert state.out_of_play == 31
    # orange: leadership {26-30, 30-32} 2, force {21-26, 24-26, 26-27} 3; black: strength 0-1,
    # force 0-2 and 1-5
    assert state.scores() == [5.0, 3.0]
    swaps = [state.action_to_string(a) for a in state.legal_actions()]
    assert swaps == ["noswap", "swap 26-30 28-30", "swap 28-30 30-32"]  # 28-30: class IV
    both_empty = state.string_to_action("swap 28-30 30-31")
    assert "both connections are empty" in state.explain_illegal(both_empty)
    beside = state.string_to_action("swap 30-32 30-31")
    assert "30-31 touches the out-of-play space 31 (AGA-B2)" in state.explain_illegal(beside)
    state.apply_action(state.string_to_action("swap 30-32 28-30"))
    lead = string_of(state, 26, 30)
    assert sorted(lead["connections"]) == [[26, 30], [28, 30]] and lead["controller"] == 0
    assert state.scores() == [5.0, 3.0]
    # the space stays out of play: no tile may go there
    state.apply_action(state.string_to_action("draw W2"))
    assert state.explain_illegal(state.string_to_action("W2@31")) == "space 31 is out of play"


def test_aga_sc1_to_sc4_the_strings_cache_gives_the_same_scores_when_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The from-scratch score caches the strings of each part of the board per game; a tiny limit
    (cleared all the time) and a shared cache over Warp swaps still give the reference scores."""
    monkeypatch.setattr(_fast, "MEMO_LIMIT", 3)
    for loom in (False, True):
        game = AgamemnonGame(loom=loom)
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                random_playout(state, rng, 1)
                if state._maps is None:
                    continue
                points = [0, 0]
                for _, conns, ctrl in reference_strings(state):
                    if ctrl is not None:
                        points[ctrl] += len(conns)
                assert list(_fast.points(state._maps, state._masks, game.ends)) == points
            assert len(game.strings_memo) <= 3
