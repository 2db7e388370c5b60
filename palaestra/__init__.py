"""Palaestra: board games (``game_names()``), their rules, AI opponents and a place to play."""

from palaestra.core.errors import (
    BoardFileError,
    IllegalActionError,
    NotationError,
    OptionError,
    PalaestraError,
    PositionError,
    RecordError,
)
from palaestra.core.game import CHANCE, TERMINAL, Game, Option, State
from palaestra.core.registry import game_names, load_game

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BoardFileError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "Option",
    "OptionError",
    "PalaestraError",
    "PositionError",
    "RecordError",
    "State",
    "game_names",
    "load_game",
]
