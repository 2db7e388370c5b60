"""The pieces and the course of an Agamemnon game, as facts: tiles (AGA-C1), Oracle stacks (AGA-V2),
turns (AGA-T1, AGA-T3), loom set-ups (AGA-B2) and the phases of a turn. No rules here (they are in
``rules.py``); every other module of the game reads its numbers from this one.
"""

from __future__ import annotations

from enum import IntEnum
from itertools import permutations

from palaestra.games.agamemnon.board import CLASS_NAMES

# --- AGA-C1: each player's fifteen tiles ------------------------------------------------------------
#: tile codes, numbered 0..9 in this order (the notation's ``W2@12``)
CODES = ("A", "B", "C", "D", "E", "W1", "W2", "W3", "WARP", "WEFT")
CODE_INDEX = {code: i for i, code in enumerate(CODES)}
NUM_CODES = len(CODES)
A, B, C, D, E, W1, W2, W3, WARP, WEFT = range(NUM_CODES)
#: the leaders, highest rank first (AGA-SC3)
LEADERS = (A, B, C, D, E)
WARRIORS = (W1, W2, W3)
WEAVERS = (WARP, WEFT)
#: spears of each tile code (weavers have none)
SPEARS = (1, 3, 4, 3, 2, 1, 2, 3, 0, 0)
#: tiles of each code in a player's set
SUPPLY = (1, 1, 1, 1, 1, 3, 2, 1, 2, 2)
PLAYER_NAMES = ("orange", "black")
NUM_PLAYERS = len(PLAYER_NAMES)
#: the tiles of a game: both sets
TOTAL_TILES = NUM_PLAYERS * sum(SUPPLY)

# --- AGA-T1: the turns; AGA-T3: set-asides --------------------------------------------------------
#: tiles placed in each of the 16 turns
TURN_TILES = (1,) + (2,) * 14 + (1,)
NUM_TURNS = len(TURN_TILES)
#: AGA-T3: a drawn weaver may be set aside in the game's first turns (each player's first two)
SET_ASIDE_TURNS = 4
#: AGA-T3: the weaver codes a player may set aside
SET_ASIDE_CODES = WEAVERS


# --- AGA-V2: the Oracle's stacks -------------------------------------------------------------------
class Stack(IntEnum):
    """The three stacks of the Oracle variant, by the action ``stack NAME``."""

    LEADERS = 0
    WEAVERS = 1
    WARRIORS = 2


STACK_NAMES = tuple(stack.name.lower() for stack in Stack)
#: the codes in each stack
STACK_CODES: tuple[tuple[int, ...], ...] = (LEADERS, WEAVERS, WARRIORS)
#: the stack of each code
STACK_OF = tuple(next(st for st in Stack if code in STACK_CODES[st]) for code in range(NUM_CODES))

# --- AGA-B2: the loom's set-ups ---------------------------------------------------------------------
#: (strength class, force class, leadership class), classes 0..3 for I..IV, in the order of
#: ``itertools.permutations`` (the chance outcome ``setup`` numbers them)
SETUPS: tuple[tuple[int, ...], ...] = tuple(permutations(range(len(CLASS_NAMES)), 3))
SETUP_NAMES = tuple(",".join(CLASS_NAMES[c] for c in setup) for setup in SETUPS)


# --- the phases of a turn -----------------------------------------------------------------------------
class Phase(IntEnum):
    """Where a game stands: the loom set-up is drawn (a chance node), the mover names an Oracle
    stack, a tile is drawn (a chance node), the mover places a tile, the mover chooses the swap of
    the Warp just placed, or the game is over."""

    SETUP = 0
    STACK = 1
    DRAW = 2
    PLACE = 3
    SWAP = 4
    END = 5


#: the names of the phases (``State.phase``, saved states)
PHASE_NAMES = ("setup", "stack", "draw", "place", "warp", "end")


def turn_of_tile(i: int) -> int:
    """The turn (0..15) in which the ``i``-th tile (0-based) of the game is placed (AGA-T1)."""
    return 0 if i == 0 else (i - 1) // 2 + 1


def tiles_through_turn(turn: int) -> int:
    """Tiles placed once turn ``turn`` (0..15) is over (AGA-T1)."""
    return sum(TURN_TILES[: turn + 1])


def mover_of_turn(turn: int, first: int) -> int:
    """The player of turn ``turn`` when ``first`` starts (the players alternate, AGA-T1)."""
    return first if turn % 2 == 0 else 1 - first
