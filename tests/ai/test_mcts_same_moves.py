"""The moves each level and each MCTS setting chooses on fixed positions for a fixed seed.

Recorded before MCTS was restructured into injected parts (an ``Evaluator`` and a selection
policy, issue 32) and kept passing since: the restructuring changes no move. Each entry is the
action chosen at two consecutive decisions of the same agent (so the second may reuse the tree)
and the sorted visit counts of the first search's root children (for the MCTS agents), on
positions reached by random play from a fixed seed. Time budgets are replaced by iteration
budgets (``time=none``) so that the moves do not depend on the machine.

``python -m tests.ai.test_mcts_same_moves`` prints the table (to record it again, only where a
change of the moves is meant and said in its commit)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from palaestra.ai import make_agent
from palaestra.ai.levels import LevelAgent
from palaestra.ai.mcts import MCTSAgent
from palaestra.core.game import State
from palaestra.core.registry import load_game

#: (game, options, plies of random play before the position)
POSITIONS: list[tuple[str, dict[str, Any], int]] = [
    ("agamemnon", {}, 0),
    ("agamemnon", {}, 17),
    ("archimedes", {}, 9),
    ("archimedes", {"players": 3}, 12),
    ("athos", {}, 7),
]

LEVEL_SPECS = [
    "beginner",
    "casual",
    "strong",
    "expert:iterations=400,time=none",
]

#: MCTS settings that no level uses, each part of the search exercised at least once
MCTS_SPECS = [
    "mcts:iterations=120,rollout_depth=20",
    "mcts:iterations=120,rollout_depth=0,widen=1,order=eval,eval_cap=5",
    "mcts:iterations=120,rollout_depth=2,widen=0.7,widen_alpha=0.6",
    "mcts:iterations=80,rollout_depth=0,c=0.02,contempt=0.2",
    "mcts:iterations=60,rollout_depth=3,workers=2",
]

#: settings played on some games only: a game's named heuristic, and the rollouts to the end
#: (seconds in the games whose random games are long)
ONLY = {
    "mcts:iterations=100,rollout_depth=0,heuristic=outlook": ("agamemnon",),
    "mcts:iterations=120,rollout_depth=none,reuse=false": ("agamemnon",),
    "mcts:iterations=120,rollout=playout,margin_scale=4": ("agamemnon",),
    "mcts:iterations=120,rollout=playout,terminal=result,c=0.6": ("agamemnon",),
    "mcts:iterations=120,rollout_depth=4,epsilon=0.3": ("agamemnon", "archimedes"),
}

SEED = 11

pytestmark = pytest.mark.slow  # 56 searches: some 15 s in all


def position(game_name: str, options: dict[str, Any], plies: int) -> State:
    game = load_game(game_name, **options)
    state = game.new_initial_state(5)
    rng = random.Random(plies)
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        if done >= plies:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return state


def chosen(spec: str, state: State) -> list[Any]:
    """Two consecutive decisions of the agent of ``spec`` from ``state`` (random replies and
    chance between them), and the root visits of the first search."""
    agent = make_agent(spec, seed=SEED)
    state = state.clone()
    rng = random.Random(3)
    me = state.current_player
    first = agent.select_action(state)
    inner = agent.agent_for(state) if isinstance(agent, LevelAgent) else agent
    visits = (  # the eight highest visit counts of the root's children
        sorted((ch.visits for ch in inner.root.children.values()), reverse=True)[:8]
        if isinstance(inner, MCTSAgent) and inner.root is not None
        else None
    )
    state.apply_action(first)
    while not state.is_terminal() and state.current_player != me:
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    second = None if state.is_terminal() else agent.select_action(state)
    agent.close()
    return [first, second, visits]


def cases() -> list[tuple[str, int]]:
    out = []
    for index, (game_name, _, _) in enumerate(POSITIONS):
        for spec in [*LEVEL_SPECS, *MCTS_SPECS, *ONLY]:
            if game_name not in ONLY.get(spec, (game_name,)):
                continue
            if game_name == "athos" and spec.startswith("expert"):
                continue  # the turn planner: no MCTS, and seconds a plan
            out.append((spec, index))
    return out


EXPECTED: dict[str, list[Any]] = {
    "0 beginner": [227, 60, None],
    "0 casual": [222, 46, None],
    "0 strong": [222, 21, [16, 16, 15, 13, 13, 13, 12, 12]],
    "0 expert:iterations=400,time=none": [206, 27, [38, 36, 34, 23, 23, 23, 20, 18]],
    "0 mcts:iterations=120,rollout_depth=20": [209, 4, [6, 6, 5, 5, 5, 5, 5, 5]],
    "0 mcts:iterations=120,rollout_depth=0,widen=1,order=eval,eval_cap=5": [
        222,
        14,
        [14, 12, 11, 11, 11, 11, 11, 11],
    ],
    "0 mcts:iterations=120,rollout_depth=2,widen=0.7,widen_alpha=0.6": [
        222,
        4,
        [17, 11, 10, 10, 10, 9, 9, 9],
    ],
    "0 mcts:iterations=80,rollout_depth=0,c=0.02,contempt=0.2": [222, 14, [49, 1, 1, 1, 1, 1, 1, 1]],
    "0 mcts:iterations=60,rollout_depth=3,workers=2": [222, 4, [2, 2, 2, 2, 2, 2, 2, 2]],
    "0 mcts:iterations=100,rollout_depth=0,heuristic=outlook": [222, 14, [4, 4, 4, 4, 3, 3, 3, 3]],
    "0 mcts:iterations=120,rollout_depth=none,reuse=false": [213, 28, [6, 6, 6, 6, 5, 5, 5, 5]],
    "0 mcts:iterations=120,rollout=playout,margin_scale=4": [223, 22, [6, 6, 6, 6, 6, 6, 6, 5]],
    "0 mcts:iterations=120,rollout=playout,terminal=result,c=0.6": [217, 3, [14, 12, 12, 9, 9, 5, 5, 5]],
    "0 mcts:iterations=120,rollout_depth=4,epsilon=0.3": [198, 3, [6, 5, 4, 4, 4, 4, 4, 4]],
    "1 beginner": [186, 79, None],
    "1 casual": [90, 182, None],
    "1 strong": [90, 182, [69, 24, 24, 20, 17, 16, 15, 15]],
    "1 expert:iterations=400,time=none": [90, 182, [291, 26, 13, 12, 7, 7, 7, 6]],
    "1 mcts:iterations=120,rollout_depth=20": [90, 186, [17, 10, 9, 8, 8, 8, 8, 8]],
    "1 mcts:iterations=120,rollout_depth=0,widen=1,order=eval,eval_cap=5": [
        90,
        182,
        [38, 10, 10, 9, 9, 8, 8, 7],
    ],
    "1 mcts:iterations=120,rollout_depth=2,widen=0.7,widen_alpha=0.6": [
        90,
        182,
        [31, 11, 11, 10, 8, 7, 7, 7],
    ],
    "1 mcts:iterations=80,rollout_depth=0,c=0.02,contempt=0.2": [90, 182, [64, 1, 1, 1, 1, 1, 1, 1]],
    "1 mcts:iterations=60,rollout_depth=3,workers=2": [90, 182, [10, 4, 4, 4, 4, 4, 3, 3]],
    "1 mcts:iterations=100,rollout_depth=0,heuristic=outlook": [90, 182, [10, 7, 6, 6, 6, 6, 6, 6]],
    "1 mcts:iterations=120,rollout_depth=none,reuse=false": [70, 178, [20, 16, 15, 10, 6, 6, 6, 6]],
    "1 mcts:iterations=120,rollout=playout,margin_scale=4": [90, 172, [23, 13, 10, 9, 8, 8, 7, 6]],
    "1 mcts:iterations=120,rollout=playout,terminal=result,c=0.6": [90, 186, [59, 11, 7, 6, 5, 5, 5, 5]],
    "1 mcts:iterations=120,rollout_depth=4,epsilon=0.3": [90, 186, [22, 8, 8, 8, 7, 7, 6, 6]],
    "2 beginner": [8720, 8512, None],
    "2 casual": [9212, 7068, None],
    "2 strong": [9212, 7066, [251, 9, 7, 6, 5, 4, 4, 4]],
    "2 expert:iterations=400,time=none": [9212, 7066, [351, 9, 7, 6, 5, 4, 4, 4]],
    "2 mcts:iterations=120,rollout_depth=20": [9212, 8903, [10, 10, 10, 10, 9, 9, 9, 9]],
    "2 mcts:iterations=120,rollout_depth=0,widen=1,order=eval,eval_cap=5": [
        9212,
        7066,
        [12, 11, 11, 11, 11, 11, 11, 11],
    ],
    "2 mcts:iterations=120,rollout_depth=2,widen=0.7,widen_alpha=0.6": [
        7066,
        8708,
        [10, 10, 10, 10, 10, 9, 9, 9],
    ],
    "2 mcts:iterations=80,rollout_depth=0,c=0.02,contempt=0.2": [9212, 7068, [43, 6, 4, 4, 4, 3, 3, 3]],
    "2 mcts:iterations=60,rollout_depth=3,workers=2": [7066, 5596, [5, 5, 5, 5, 5, 5, 5, 5]],
    "2 mcts:iterations=120,rollout_depth=4,epsilon=0.3": [8720, 7734, [10, 10, 10, 9, 9, 9, 9, 9]],
    "3 beginner": [1106, 4867, None],
    "3 casual": [1108, 120, None],
    "3 strong": [1106, 4876, None],
    "3 expert:iterations=400,time=none": [1108, 120, [67, 63, 60, 58, 48, 45, 27, 7]],
    "3 mcts:iterations=120,rollout_depth=20": [509, 1065, [8, 8, 8, 8, 8, 8, 8, 8]],
    "3 mcts:iterations=120,rollout_depth=0,widen=1,order=eval,eval_cap=5": [
        1108,
        118,
        [11, 11, 11, 11, 11, 11, 11, 11],
    ],
    "3 mcts:iterations=120,rollout_depth=2,widen=0.7,widen_alpha=0.6": [
        1108,
        508,
        [10, 10, 10, 10, 10, 9, 9, 9],
    ],
    "3 mcts:iterations=80,rollout_depth=0,c=0.02,contempt=0.2": [1108, 120, [33, 21, 5, 4, 3, 3, 2, 1]],
    "3 mcts:iterations=60,rollout_depth=3,workers=2": [1108, 508, [4, 4, 4, 4, 4, 4, 4, 4]],
    "3 mcts:iterations=120,rollout_depth=4,epsilon=0.3": [509, 2827, [8, 8, 8, 8, 8, 8, 8, 8]],
    "4 beginner": [18209, 18138, None],
    "4 casual": [18209, 18138, None],
    "4 strong": [18205, 18210, None],
    "4 mcts:iterations=120,rollout_depth=20": [18199, 18095, [1, 1, 1, 1, 1, 1, 1, 1]],
    "4 mcts:iterations=120,rollout_depth=0,widen=1,order=eval,eval_cap=5": [
        18205,
        18095,
        [11, 11, 11, 11, 11, 11, 11, 11],
    ],
    "4 mcts:iterations=120,rollout_depth=2,widen=0.7,widen_alpha=0.6": [
        18114,
        18094,
        [10, 10, 10, 10, 10, 9, 9, 9],
    ],
    "4 mcts:iterations=80,rollout_depth=0,c=0.02,contempt=0.2": [18088, 18090, [1, 1, 1, 1, 1, 1, 1, 1]],
    "4 mcts:iterations=60,rollout_depth=3,workers=2": [18094, 18119, [1, 1, 1, 1, 1, 1, 1, 1]],
}


@pytest.mark.parametrize(("spec", "index"), cases())
def test_the_same_seed_chooses_the_same_moves(spec: str, index: int) -> None:
    game_name, options, plies = POSITIONS[index]
    assert chosen(spec, position(game_name, options, plies)) == EXPECTED[f"{index} {spec}"]


if __name__ == "__main__":
    for spec, index in cases():
        game_name, options, plies = POSITIONS[index]
        print(f"    {f'{index} {spec}'!r}: {chosen(spec, position(game_name, options, plies))!r},")
