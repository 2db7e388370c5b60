"""What Agamemnon declares to the rest of Palaestra (:class:`~palaestra.core.info.GameInfo`).

A light module: it names the rules' module without importing it. The observation tensor counts
tiles of a kind in the hand, set aside and in named stacks: at most 3, the largest supply of one
tile code (AGA-C1). The AI levels are the generic ones but the expert: UCT whose every leaf is
judged by one playout to the end of the game (``State.playout_scores``, drawn at once by
``_search.py``) valued by its point margin, a finished game by its result, exploration 0.6, with
0.36 s of CPU time a decision (the late decisions, whose playouts are cheaper, get more
iterations), chosen by the probes of docs/ai.md (*Agamemnon against OpenSpiel's MCTSBot*).
"""

from __future__ import annotations

from palaestra.core.info import GameInfo, TerminalView, WebAssets

INFO = GameInfo(
    name="agamemnon",
    title="Agamemnon",
    game="palaestra.games.agamemnon.game:AgamemnonGame",
    player_counts=(2,),
    players_option="players",
    observation_bounds=(0.0, 3.0),
    levels={"expert": "mcts:time=0.36,clock=cpu,iterations=none,rollout=playout,c=0.6,terminal=result"},
    terminal=TerminalView(compact="palaestra.games.agamemnon.terminal:compact"),
    web=WebAssets(
        renderer="board.js",
        catalogue="i18n.{lang}.json",
        option_texts={
            "players": ("Players", "Agamemnon is for 2 players"),
            "loom": ("Loom", "play on the loom side of the board"),
            "oracle": (
                "Oracle",
                "before each draw, name the stack to draw from: leaders, weavers (Warp and Weft) or warriors",
            ),
            "defying": ("Defying the gods", "no drawing: your tiles lie open and you choose which to place"),
            "setup": (
                "Loom set-up",
                "which class the strings of strength, force and leadership have on the loom (at random "
                "unless you choose)",
            ),
            "first": ("Who begins", "the player who places the first tile"),
            "rules": ("Rules edition", "keep the newest; an older edition is for replaying old games"),
        },
        rules="palaestra.games.agamemnon.web.rules_page:RULES",
        examples="palaestra.games.agamemnon.web.rules_examples:examples",
        lessons="palaestra.games.agamemnon.web.lessons:COURSE",
    ),
    menu_rank=1,
    # the AI levels' ratings per pool: benchmarks/rating_anchors.py, strength measured 2026-11-27
    ai_ratings={
        "agamemnon": {
            "random": 749.0,
            "beginner": 1169.0,
            "casual": 1500.0,
            "strong": 1683.0,
            "expert": 2086.0,
        },
    },
)
