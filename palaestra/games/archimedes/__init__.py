"""Archimedes (Niek Neuwahl, 1995) for 2 or 3 players: rulings ARC-* (docs/archimedes.md)."""

from palaestra.games.archimedes.board import Board, default_board, load_board, parse_board
from palaestra.games.archimedes.game import ArchimedesGame, ArchimedesState

__all__ = ["ArchimedesGame", "ArchimedesState", "Board", "default_board", "load_board", "parse_board"]
