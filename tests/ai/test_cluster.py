"""Tournaments on Ray (palaestra/ai/cluster.py): a match played as Ray tasks on a local cluster of
2 workers gives exactly the games and results of the same match in one process."""

from __future__ import annotations

import pytest

from palaestra.ai.arena import run_match
from palaestra.core.registry import load_game

pytestmark = pytest.mark.services

ray = pytest.importorskip("ray")  # the cluster extra; the dev extra installs it for the tests


def _games(result: object) -> list[dict[str, object]]:
    return [o.to_json() for o in result.outcomes]  # type: ignore[attr-defined]  # without timings


@pytest.mark.timeout(600)
def test_a_match_on_a_local_ray_cluster_equals_the_single_process_match() -> None:
    agents = ["mcts:iterations=20,rollout_depth=5", "greedy:epsilon=0.3"]
    setups = [("agamemnon", {}), ("archimedes", {"players": 3, "move_limit": 60})]
    for name, options in setups:
        game = load_game(name, **options)
        single = run_match(game, agents, 6, seed=17)
        seen: list[int] = []
        on_ray = run_match(
            game, agents, 6, seed=17, ray="local", workers=2, progress=lambda d, t, seen=seen: seen.append(d)
        )
        assert _games(on_ray) == _games(single)
        assert [s.to_json() for s in on_ray.stats()] == [s.to_json() for s in single.stats()]
        assert on_ray.failures == []
        assert seen == [0, 1, 2, 3, 4, 5, 6]
    assert not ray.is_initialized()  # the throwaway cluster is stopped after the match


def test_a_bare_ray_flag_means_a_local_cluster() -> None:
    from palaestra.cli import _bare_ray_flag

    assert _bare_ray_flag(["match", "agamemnon", "--ray"]) == ["match", "agamemnon", "--ray=local"]
    assert _bare_ray_flag(["match", "agamemnon", "--ray", "-n", "4"]) == [
        "match",
        "agamemnon",
        "--ray=local",
        "-n",
        "4",
    ]
    assert _bare_ray_flag(["match", "x", "--ray", "10.0.0.1:6379"]) == [
        "match",
        "x",
        "--ray",
        "10.0.0.1:6379",
    ]
