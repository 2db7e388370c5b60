"""Agamemnon (Günter Cornett, Osprey Games 2016): rules AGA-* of RULINGS.md, with the Loom, Oracle
and Defying-the-gods variants. See docs/agamemnon.md."""

from palaestra.games.agamemnon.board import Board, load_boards, parse_boards
from palaestra.games.agamemnon.game import AgamemnonGame, AgamemnonState

__all__ = ["AgamemnonGame", "AgamemnonState", "Board", "load_boards", "parse_boards"]
