"""The numbers and names of the Athos rulebook (RULINGS.md, ATH-*), the phases of a turn and the
sides of a tile: what every module of the game shares (a leaf module, imported by all)."""

from __future__ import annotations

from enum import IntEnum

from palaestra.games.athos.board import TERRAINS

MOVEMENT_POINTS = 6  # ATH-T1
FLIP_COST = 4  # ATH-T5
BONUS = (3, 3, 2, 2, 1)  # ATH-T6: the points the 1st, 2nd, ... arrival adds
TILES_PER_TERRAIN = 16  # ATH-B3
MONKS = 3  # ATH-B3, per player
STONES = 2  # ATH-B3, ATH-T7, per player
#: ATH-T8: players -> (tiles per turn, tiles per terrain per turn)
LIMITS = {2: (8, 2), 3: (5, 2), 4: (4, 1)}
#: the most tiles a turn may place (ATH-T8), and of one terrain
MOST_TILES = max(tiles for tiles, _ in LIMITS.values())
MOST_PER_TERRAIN = max(per for _, per in LIMITS.values())
#: ATH-S1: players -> start fields in default seat order (ATH-S2); ATH-V1 teams: A, D, B, E
STARTS = {2: "BD", 3: "ACE", 4: "ABDE"}
TEAM_ORDER = "ADBE"
#: the start fields of team 0 (ATH-V1: A+B against D+E)
FIRST_TEAM = "AB"
MAX_PLAYERS = 4
COLOURS = ("red", "blue", "green", "yellow")
#: the most movement points a player can have: 6 and the bonuses of its three arrivals (ATH-T6)
MAX_POINTS = MOVEMENT_POINTS + sum(BONUS[:MONKS])
#: ATH-E3: the default round limit, and the largest one an option may set
ROUND_LIMIT = 150
MAX_ROUND_LIMIT = 100_000
#: the most handicap tiles (ATH-V2): every tile of the supply
MAX_HANDICAP = TILES_PER_TERRAIN * TERRAINS
#: most actions in one turn: 14 steps (6 points + 8 bonus), end-move, relocate, stone, 8 tiles, end-turn
MAX_TURN_ACTIONS = MAX_POINTS + 1 + 2 + MOST_TILES + 1


def arrival_bonus(arrived: int) -> int:
    """ATH-T6: the points added by the arrival after ``arrived`` earlier ones (3, 3, 2, 2, 1, 0...)."""
    return BONUS[arrived] if arrived < len(BONUS) else 0


class Phase(IntEnum):
    """The phases of a turn (and the handicap before the first, and the end). Their names in
    lower case are the position format's ``phase`` (docs/athos.md)."""

    HANDICAP = 0  # ATH-V2: the handicap tiles are placed
    MOVE = 1  # ATH-T1..T6: the movement
    STONE = 2  # after end-move: a relocation and a stone may come (ATH-T7)
    RELOCATED = 3  # a tile was relocated: the stone must be put (ATH-T7)
    PLACE = 4  # tiles are placed (ATH-T8)
    OVER = 5  # the game is over (ATH-E1, ATH-E3)


#: the phases' names in the position format, by phase
PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)


class Side(IntEnum):
    """What lies on an ordinary field: no tile, a tile open side up, or rubble side up (ATH-T2)."""

    NONE = 0
    OPEN = 1
    RUBBLE = 2


# the phases and sides as plain module names, for the hot code (reading an Enum's class attribute
# costs some 0.2 microseconds in CPython 3.11, comparing two ints 0.03)
HANDICAP, MOVE, STONE, RELOCATED, PLACE, OVER = Phase
NO_TILE, OPEN, RUBBLE = Side
