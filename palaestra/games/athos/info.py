"""What Athos declares to the rest of Palaestra (:class:`~palaestra.core.info.GameInfo`).

A light module: it names the rules' module without importing it (the registry reads every info to
list the games). The AI levels are those measured in docs/ai.md.
"""

from __future__ import annotations

from palaestra.core.info import CliFlag, GameInfo, TerminalView, WebAssets

_TURN_PLANNER = "turn:width=5,replies=4,cap=100,reply_cap=100,time=6"

INFO = GameInfo(
    name="athos",
    title="Athos",
    game="palaestra.games.athos.game:AthosGame",
    player_counts=(2, 3, 4),
    players_option="players",
    observation_bounds=(0.0, 1.0),
    levels={
        "casual": "greedy:epsilon=0.15",
        "casual/3": "greedy:epsilon=0.25",
        "strong": "greedy",
        "expert": "turn:width=3,replies=3,cap=100,reply_cap=100,time=6",
        "expert/3": _TURN_PLANNER,
        "expert/4": _TURN_PLANNER,
    },
    cli_flags=(
        CliFlag("board", "board", metavar="FILE", help="Play on this board file (ATH-B2).", path=True),
    ),
    web=WebAssets(
        renderer="board.js",
        stylesheet="board.css",
        view="palaestra.games.athos.web.view:web_data",
        catalogue="i18n.{lang}.json",
        option_texts={
            "players": ("Players", "2 to 4 players"),
            "teams": ("Teams", "4 players: A and B play together against D and E"),
            "handicap_player": (
                "Head start for",
                "a player who places some tiles before the game begins, to even out the strengths",
            ),
            "handicap_tiles": ("Head-start tiles", "how many tiles that player places first (at least 2)"),
            "bare_stone": (
                "Stone on a bare field",
                "an Athos stone may also be put on a free field without a tile",
            ),
            "round_limit": ("Round limit", "the game ends after this many rounds"),
            "order": ("Seat order", "the start fields that play, in playing order (e.g. DB or ECA)"),
            "rules": ("Rules edition", "keep the newest; an older edition is for replaying old games"),
            "board": ("Board", "another board file (default: Palaestra's own board)"),
        },
        rules="palaestra.games.athos.web.rules_page:RULES",
        examples="palaestra.games.athos.web.rules_examples:examples",
        lessons="palaestra.games.athos.web.lessons:COURSE",
    ),
    terminal=TerminalView(details=("terrain:", "supply:")),
    menu_rank=2,
    take_back="palaestra.games.athos.takeback:can_take_back",
    team_options={"players": 4, "teams": True},  # ATH-V1
    # the AI levels' ratings per pool: benchmarks/rating_anchors.py, strength measured 2026-11-27
    ai_ratings={
        "athos-2": {
            "random": -583.0,
            "beginner": 459.0,
            "casual": 1500.0,
            "strong": 1914.0,
            "expert": 2150.0,
        },
        "athos-3": {
            "random": -503.0,
            "beginner": 775.0,
            "casual": 1500.0,
            "strong": 2002.0,
            "expert": 2243.0,
        },
        "athos-4": {
            "random": -1124.0,
            "beginner": 348.0,
            "casual": 1500.0,
            "strong": 1776.0,
            "expert": 2106.0,
        },
        "athos-teams": {
            "random": 445.0,
            "beginner": 973.0,
            "casual": 1500.0,
            "strong": 1759.0,
            "expert": 1936.0,
        },
    },
)
