"""The public names of Athos where earlier versions kept them (the rules are in rules.py)."""

from palaestra.games.athos.constants import (
    BONUS,
    FLIP_COST,
    LIMITS,
    MONKS,
    MOVEMENT_POINTS,
    PHASE_NAMES,
    STONES,
    TILES_PER_TERRAIN,
    Phase,
    Side,
)
from palaestra.games.athos.rules import AthosGame, AthosState

# the phases and tile sides under their earlier names
HANDICAP, MOVE, STONE, RELOCATED, PLACE, OVER = Phase
NONE, OPEN, RUBBLE = Side

__all__ = [
    "BONUS",
    "FLIP_COST",
    "HANDICAP",
    "LIMITS",
    "MONKS",
    "MOVE",
    "MOVEMENT_POINTS",
    "NONE",
    "OPEN",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "RELOCATED",
    "RUBBLE",
    "STONE",
    "STONES",
    "TILES_PER_TERRAIN",
    "AthosGame",
    "AthosState",
    "Phase",
    "Side",
]
