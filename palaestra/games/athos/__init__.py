"""Athos (Kramer & Kübler, 1993): monks climb the holy mountain while the others block their paths.

Rules: ATH-* of RULINGS.md; notation, action ids, position format, board file: docs/athos.md.
"""

from palaestra.games.athos.board import Board, load_board
from palaestra.games.athos.game import AthosGame, AthosState

__all__ = ["AthosGame", "AthosState", "Board", "load_board"]
