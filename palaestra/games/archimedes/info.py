"""What Archimedes declares to the rest of Palaestra (:class:`~palaestra.core.info.GameInfo`).

A light module: it names the rules' module without importing it. The AI levels are those measured
in docs/ai.md.
"""

from __future__ import annotations

from palaestra.core.info import GameInfo, WebAssets

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
    web=WebAssets(
        renderer="board.js",
        catalogue="i18n.{lang}.json",
        option_texts={
            "players": ("Players", "2 or 3 players"),
            "revisit": (
                "Revisit cells",
                "a cube's path may pass a cell more than once (never ending where it started)",
            ),
            "move_limit": (
                "Move limit",
                "the game ends after this many moves (passes included); then whoever has more cubes home "
                "wins (equal counts share)",
            ),
        },
        rules="palaestra.games.archimedes.web.rules_page:RULES",
        examples="palaestra.games.archimedes.web.rules_examples:examples",
        lessons="palaestra.games.archimedes.web.lessons:COURSE",
    ),
    menu_rank=3,
    # the AI levels' ratings per pool: benchmarks/rating_anchors.py, strength measured 2026-11-27
    ai_ratings={
        "archimedes-2": {
            "random": 539.0,
            "beginner": 947.0,
            "casual": 1500.0,
            "strong": 1663.0,
            "expert": 1991.0,
        },
        "archimedes-3": {
            "random": 703.0,
            "beginner": 1251.0,
            "casual": 1500.0,
            "strong": 1755.0,
            "expert": 2014.0,
        },
    },
)
