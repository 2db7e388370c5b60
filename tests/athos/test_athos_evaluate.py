"""The AI heuristic of Athos (``evaluate``, ``flip_distances``); the rules never use it."""

from __future__ import annotations

import heapq
import random

from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import FLIP_COST, RUBBLE, AthosState
from tests.athos.helpers import position


def plain_flip_distances(state: AthosState) -> list[float]:
    """Dijkstra from the summit: entering an open field or the summit costs 1, a rubble tile
    FLIP_COST + 1 (ATH-T5: flip, then step), a rubble tile under a stone is closed (ATH-T7)."""
    b = state.board
    inf = float("inf")
    dist = [inf] * b.size
    dist[b.summit] = 0
    heap = [(0, b.summit)]
    while heap:
        d, w = heapq.heappop(heap)
        if d > dist[w]:
            continue
        rubble = w < b.n and state.tile[w] == RUBBLE
        if rubble and state.stone[w] >= 0:
            continue
        step = FLIP_COST + 1 if rubble else 1
        for v in b.adj[w]:
            if d + step < dist[v]:
                dist[v] = d + step
                heapq.heappush(heap, (d + step, v))
    return dist


def test_flip_distances_match_a_plain_search() -> None:
    game = AthosGame()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for ply in range(400):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            if ply % 20 == 0:
                fd = state.flip_distances()
                ref = plain_flip_distances(state)
                assert [d if d < 1 << 20 else float("inf") for d in fd] == ref
                # never longer than the open path, where there is one
                assert all(f <= d for f, d in zip(fd, state.distances(), strict=True) if d >= 0)
                ev = state.evaluate()
                assert all(-1 < x < 1 for x in ev)


def test_rubble_counts_at_most_its_flip_and_a_stone_closes_it() -> None:
    bare = position(monks=[["i14"], ["D", "D", "D"]], arrivals=[0, 0])
    walled = position(
        monks=[["i14"], ["D", "D", "D"]],
        arrivals=[0, 0],
        tiles=[{"field": f} for f in ("h15", "j15")],
    )
    assert bare.flip_distances()[bare.board.field("i14")] == 3  # i14 h15 g16 summit
    # both fields above i14 are rubble: the monk flips one (4 points) or walks around
    d = walled.flip_distances()[walled.board.field("i14")]
    assert 3 < d <= 3 + FLIP_COST
    assert walled.evaluate()[0] < bare.evaluate()[0]
    stoned = position(
        monks=[["i14"], ["D", "D", "D"]],
        arrivals=[0, 0],
        tiles=[{"field": f} for f in ("h15", "j15")],
        stones=[{"field": "h15", "player": 1}, {"field": "j15", "player": 1}],
    )
    assert stoned.flip_distances()[stoned.board.field("i14")] >= d  # ATH-T7: never flipped again


def test_a_finished_side_is_ranked_by_the_points_it_kept() -> None:
    """ATH-E2: sides with all monks arrived are ranked by the points their finisher kept."""

    def finished(kept: int) -> AthosState:
        return position(
            monks=[[], ["g16", "i16", "k16"]],
            arrivals=[0, 0, 0],
            unused=[kept, None],
            finishers=[0],
            final_round=True,
            to_move=1,
        )

    many, few = finished(5), finished(1)
    assert many.evaluate()[0] > few.evaluate()[0] > 0
    assert many.evaluate()[1] < 0
