"""The public names of Archimedes where earlier versions kept them (the rules are in rules.py)."""

from palaestra.games.archimedes.rules import (
    CUBES,
    DEFAULT_MOVE_LIMIT,
    HOME,
    LIMIT,
    PASSES,
    START_SIDES,
    ArchimedesGame,
    ArchimedesState,
)

__all__ = [
    "CUBES",
    "DEFAULT_MOVE_LIMIT",
    "HOME",
    "LIMIT",
    "PASSES",
    "START_SIDES",
    "ArchimedesGame",
    "ArchimedesState",
]
