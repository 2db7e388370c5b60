"""What Agamemnon declares to the rest of Palaestra (:class:`~palaestra.core.info.GameInfo`).

A light module: it names the rules' module without importing it. The observation tensor counts
tiles of a kind in the hand, set aside and in named stacks: at most 3, the largest supply of one
tile code (AGA-C1). The AI levels are the generic ones (docs/ai.md).
"""

from __future__ import annotations

from palaestra.core.info import GameInfo, TerminalView

INFO = GameInfo(
    name="agamemnon",
    title="Agamemnon",
    game="palaestra.games.agamemnon.game:AgamemnonGame",
    player_counts=(2,),
    players_option="players",
    observation_bounds=(0.0, 3.0),
    terminal=TerminalView(compact="palaestra.games.agamemnon.terminal:compact"),
    menu_rank=1,
)
