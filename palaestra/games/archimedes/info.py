"""What Archimedes declares to the rest of Palaestra (:class:`~palaestra.core.info.GameInfo`).

A light module: it names the rules' module without importing it. The AI levels are those measured
in docs/ai.md.
"""

from __future__ import annotations

from palaestra.core.info import GameInfo

INFO = GameInfo(
    name="archimedes",
    title="Archimedes",
    game="palaestra.games.archimedes.game:ArchimedesGame",
    player_counts=(2, 3),
    players_option="players",
    observation_bounds=(0.0, 1.0),
    levels={
        "casual/3": "greedy:epsilon=0.25",
        "strong": "mcts:iterations=300,rollout_depth=0,c=0.02",
        "strong/3": "greedy:noise=0.02",
        "expert": "mcts:time=9,iterations=3000,rollout_depth=0,c=0.02,contempt=0.2",
        "expert/3": "mcts:time=9,iterations=6000,rollout_depth=0,c=0.02,contempt=0.2",
    },
    menu_rank=3,
)
