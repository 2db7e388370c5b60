"""What Ladder declares (a light module: it does not import the rules)."""

from __future__ import annotations

from palaestra.core.info import GameInfo, WebAssets

INFO = GameInfo(
    name="ladder",
    title="Ladder",
    game="palaestra_ladder.rules:LadderGame",
    player_counts=(2, 3),
    players_option="players",
    observation_bounds=(0.0, 40.0),
    levels={"strong": "mcts:iterations=40,rollout_depth=4"},
    web=WebAssets(renderer=None),
    menu_rank=1000,
)
