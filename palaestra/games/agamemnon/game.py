"""The public names of Agamemnon where earlier versions kept them (the rules are in rules.py)."""

from palaestra.games.agamemnon.board import CLASS_NAMES, KIND_NAMES, Board
from palaestra.games.agamemnon.rules import AgamemnonGame, AgamemnonState

__all__ = ["CLASS_NAMES", "KIND_NAMES", "AgamemnonGame", "AgamemnonState", "Board"]
