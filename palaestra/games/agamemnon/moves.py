"""Agamemnon moves: the typed move, its action id and its notation (docs/agamemnon.md).

Player actions, in the order of :func:`action_layout`:

* ``place`` — ``W2@12``: a tile code and a space, id ``code * 33 + space``;
* ``noswap`` — a Warp placed without swapping (``pass`` reads as it too);
* ``aside`` — ``aside WARP`` / ``aside WEFT`` (AGA-T3);
* ``stack`` — ``stack leaders|weavers|warriors`` (Oracle, AGA-V2);
* ``swap`` — ``swap 4-8 0-4``: a pair of connections sharing a space (``Board.pairs``), AGA-T4.

Chance outcomes share the integers (as in OpenSpiel, ``0 <= id < max_chance_outcomes``):
``draw W2`` is the tile code, ``setup I,II,III`` is ``10 +`` the set-up's number (:data:`CHANCE_LAYOUT`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from palaestra.core.errors import IllegalActionError, NotationError
from palaestra.core.game import is_int
from palaestra.core.layout import ActionLayout
from palaestra.games.agamemnon.board import MAX_SPACES, Board
from palaestra.games.agamemnon.tiles import (
    CODE_INDEX,
    CODES,
    NUM_CODES,
    PLAYER_NAMES,
    SET_ASIDE_CODES,
    SETUP_NAMES,
    SETUPS,
    STACK_NAMES,
    Stack,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.rules import AgamemnonState


class Kind(StrEnum):
    """The kinds of move, named as the segments of the layouts: the player's
    (:func:`action_layout`) and the chance outcomes' (:data:`CHANCE_LAYOUT`)."""

    PLACE = "place"
    NOSWAP = "noswap"
    ASIDE = "aside"
    STACK = "stack"
    SWAP = "swap"
    DRAW = "draw"
    SETUP = "setup"


#: the kinds of chance outcome; every other kind of move is a player's
CHANCE_KINDS = (Kind.DRAW, Kind.SETUP)
CHANCE_LAYOUT = ActionLayout((Kind.DRAW, (NUM_CODES,)), (Kind.SETUP, (len(SETUPS),)))

NOTATION_HELP = (
    "moves are CODE@SPACE (e.g. W2@12), 'swap A-B C-D', 'noswap', 'aside WARP|WEFT', "
    "'stack leaders|weavers|warriors'; chance: 'draw CODE', 'setup I,II,III'"
)


def action_layout(num_pairs: int) -> ActionLayout:
    """The player actions of a board side with ``num_pairs`` Warp pairs (the swaps come last)."""
    return ActionLayout(
        (Kind.PLACE, (NUM_CODES, MAX_SPACES)),
        (Kind.NOSWAP, ()),
        (Kind.ASIDE, (len(SET_ASIDE_CODES),)),
        (Kind.STACK, (len(Stack),)),
        (Kind.SWAP, (num_pairs,)),
    )


# The ids the engine's fast paths compare with, read off the layout: they are the same on both
# sides (only the number of swaps, last, depends on the board).
_IDS = action_layout(0)
#: the first id after the placements: ``noswap``
NOSWAP = _IDS.encode("noswap")
ASIDE_WARP, ASIDE_WEFT = (_IDS.encode("aside", i) for i in range(len(SET_ASIDE_CODES)))
STACK_START = _IDS["stack"].start
SWAP_START = _IDS["swap"].start
SETUP_START = CHANCE_LAYOUT["setup"].start


class Move(NamedTuple):
    """One move, the currency of the rules (``rules.py``): ``kind`` is its segment of the layouts;
    the fields that matter for it are set, the others are -1."""

    kind: Kind
    #: place, aside, draw: the tile code
    tile: int = -1
    #: place: the space
    space: int = -1
    #: stack: the Oracle stack
    stack: int = -1
    #: swap: the number of the pair in ``Board.pairs``
    pair: int = -1
    #: setup: the number of the set-up in ``SETUPS``
    setup: int = -1


def _coordinates(kind: Kind, move: Move) -> tuple[int, ...]:
    if kind is Kind.PLACE:
        return move.tile, move.space
    if kind is Kind.ASIDE:
        return (SET_ASIDE_CODES.index(move.tile),)
    if kind is Kind.DRAW:
        return (move.tile,)
    if kind is Kind.STACK:
        return (move.stack,)
    if kind is Kind.SWAP:
        return (move.pair,)
    if kind is Kind.SETUP:
        return (move.setup,)
    return ()


def encode(move: Move, layout: ActionLayout) -> int:
    """The action id of ``move`` (``layout``: the player actions of the board side; a chance
    outcome's id is its place in :data:`CHANCE_LAYOUT`)."""
    kind = Kind(move.kind)
    return (CHANCE_LAYOUT if kind in CHANCE_KINDS else layout).encode(kind, *_coordinates(kind, move))


def decode(action: int, layout: ActionLayout, chance: bool = False) -> Move:
    """The move of an action id (a chance outcome if ``chance``); :class:`ValueError` outside the
    action space. (The game keeps every move decoded: ``AgamemnonGame.decode``.)"""
    name, coords = (CHANCE_LAYOUT if chance else layout).decode(action)
    kind = Kind(name)
    if kind is Kind.PLACE:
        return Move(kind, tile=coords[0], space=coords[1])
    if kind is Kind.ASIDE:
        return Move(kind, tile=SET_ASIDE_CODES[coords[0]])
    if kind is Kind.DRAW:
        return Move(kind, tile=coords[0])
    if kind is Kind.STACK:
        return Move(kind, stack=coords[0])
    if kind is Kind.SWAP:
        return Move(kind, pair=coords[0])
    if kind is Kind.SETUP:
        return Move(kind, setup=coords[0])
    return Move(kind)


def all_moves(layout: ActionLayout) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """The moves of every id of ``layout`` and of every chance outcome, in id order."""
    return (
        tuple(decode(a, layout) for a in range(layout.size)),
        tuple(decode(a, layout, chance=True) for a in range(CHANCE_LAYOUT.size)),
    )


def format_move(move: Move, board: Board) -> str:
    """``W2@12``, ``noswap``, ``aside WARP``, ``stack leaders``, ``swap 4-8 0-4``, ``draw W2``,
    ``setup I,II,III``."""
    kind = move.kind
    if kind is Kind.PLACE:
        return f"{CODES[move.tile]}@{move.space}"
    if kind is Kind.ASIDE or kind is Kind.DRAW:
        return f"{kind} {CODES[move.tile]}"
    if kind is Kind.STACK:
        return f"stack {STACK_NAMES[move.stack]}"
    if kind is Kind.SWAP:
        c1, c2, _ = board.pairs[move.pair]
        (a1, b1), (a2, b2) = board.connections[c1], board.connections[c2]
        return f"swap {a1}-{b1} {a2}-{b2}"
    if kind is Kind.SETUP:
        return f"setup {SETUP_NAMES[move.setup]}"
    return str(kind)


# --- reading ------------------------------------------------------------------------------------------
def parse_move(text: str, board: Board) -> Move:
    """Read a move (case-insensitive, spaces around ``@`` ignored); :class:`NotationError` with a
    hint for text that is no move of ``board``."""
    words = text.strip().replace("@", " @ ").split()
    if not words:
        raise NotationError("empty move: " + NOTATION_HELP)
    head = words[0].lower()
    if head == "draw":
        if len(words) != 2 or words[1].upper() not in CODE_INDEX:
            raise NotationError(f"{text!r}: write 'draw CODE' with CODE one of {' '.join(CODES)}")
        return Move(Kind.DRAW, tile=CODE_INDEX[words[1].upper()])
    if head == "setup":
        return _parse_setup(text, words)
    if head in ("noswap", "pass") or [w.lower() for w in words] == ["no", "swap"]:
        return Move(Kind.NOSWAP)
    if head == "aside":
        if len(words) != 2 or words[1].upper() not in ("WARP", "WEFT"):
            raise NotationError(f"{text!r}: write 'aside WARP' or 'aside WEFT'")
        return Move(Kind.ASIDE, tile=CODE_INDEX[words[1].upper()])
    if head == "stack":
        return _parse_stack(text, words)
    if head == "swap":
        return _parse_swap(text, words, board)
    if len(words) == 3 and words[1] == "@":
        return _parse_placement(text, words, board)
    raise NotationError(f"cannot read {text!r}: " + NOTATION_HELP)


def _parse_setup(text: str, words: list[str]) -> Move:
    name = "".join(words[1:]).upper()
    if name not in SETUP_NAMES:
        raise NotationError(
            f"{text!r}: write 'setup S,F,L' with three different classes of I, II, III, IV "
            "(for strength, force, leadership), e.g. 'setup I,II,III'"
        )
    return Move(Kind.SETUP, setup=SETUP_NAMES.index(name))


def _parse_stack(text: str, words: list[str]) -> Move:
    names = {name: i for i, name in enumerate(STACK_NAMES)}
    names.update({name[:-1]: i for i, name in enumerate(STACK_NAMES)})  # "leader" for "leaders"
    if len(words) != 2 or words[1].lower() not in names:
        raise NotationError(f"{text!r}: write 'stack leaders', 'stack weavers' or 'stack warriors'")
    return Move(Kind.STACK, stack=names[words[1].lower()])


def _parse_swap(text: str, words: list[str], board: Board) -> Move:
    if len(words) != 3:
        raise NotationError(f"{text!r}: write 'swap A-B C-D' (two connections at the Warp's space)")
    ids = []
    for word in words[1:]:
        ends = word.split("-")
        if len(ends) != 2 or not ends[0].isdigit() or not ends[1].isdigit():
            raise NotationError(f"{text!r}: {word!r} is not a connection (write it as A-B, e.g. 3-7)")
        a, b = int(ends[0]), int(ends[1])
        key = (min(a, b), max(a, b))
        if key not in board.conn_id:
            raise NotationError(f"there is no connection {a}-{b} on the {board.side} board")
        ids.append(board.conn_id[key])
    if ids[0] == ids[1]:
        raise NotationError(f"{text!r}: a swap needs two different connections")
    c1, c2 = sorted(ids)
    pair = board.pair_id.get((c1, c2))
    if pair is None:
        raise NotationError(f"connections {words[1]} and {words[2]} do not touch a common space")
    return Move(Kind.SWAP, pair=pair)


def _parse_placement(text: str, words: list[str], board: Board) -> Move:
    code = words[0].upper()
    if code not in CODE_INDEX:
        raise NotationError(f"{text!r}: unknown tile {words[0]!r} (tiles: {' '.join(CODES)})")
    if not words[2].isdigit():
        raise NotationError(f"{text!r}: {words[2]!r} is not a space number")
    space = int(words[2])
    if space >= board.num_spaces:
        raise NotationError(f"there is no space {space} (spaces 0-{board.num_spaces - 1})")
    return Move(Kind.PLACE, tile=CODE_INDEX[code], space=space)


def what_now(state: AgamemnonState) -> str:
    """What the game waits for, with the notation to write (for messages)."""
    phase = state.phase
    who = PLAYER_NAMES[state.mover]
    if phase == "setup":
        return "the loom set-up is drawn first (write 'setup I,II,III')"
    if phase == "draw":
        return f"{who}'s tile is being drawn (write 'draw CODE')"
    if phase == "stack":
        return f"{who} names the stack of the next draw (write 'stack leaders|weavers|warriors')"
    if phase == "warp":
        return f"{who} chooses the Warp's swap on space {state.warp_space} ('swap A-B C-D' or 'noswap')"
    if phase == "place":
        if state.game.defying:
            return f"{who} places a tile (write e.g. 'W2@12')"
        return f"{who} places a drawn tile ({' '.join(state.hand)})"
    return "the game is over"


def player_action_text(state: AgamemnonState, action: int) -> str:
    """A player's action in the notation; an id that is none raises :class:`NotationError`."""
    if not is_int(action):
        raise NotationError(f"{action!r} is not an action id")
    try:
        move = state.game.decode(action)
    except ValueError:
        raise NotationError(f"{action} is not an action id of Agamemnon") from None
    return format_move(move, state.game.board)


def action_text(state: AgamemnonState, action: int) -> str:
    """``state.action_to_string``: a chance outcome at a chance node, else a player's action."""
    if state.is_chance_node() and is_int(action) and 0 <= action < CHANCE_LAYOUT.size:
        return format_move(state.game.decode(action, chance=True), state.game.board)
    return player_action_text(state, action)


def action_of_text(state: AgamemnonState, text: str) -> int:
    """``state.string_to_action``: the id of the move written, refused where that kind of move
    cannot be made now (a draw or a set-up outside a chance node, and the other way round)."""
    move = parse_move(text, state.game.board)
    phase = state.phase
    if move.kind is Kind.DRAW and phase != "draw":
        raise IllegalActionError(f"no tile is being drawn now ({what_now(state)})")
    if move.kind is Kind.SETUP and phase != "setup":
        raise IllegalActionError(f"the loom set-up is not being drawn now ({what_now(state)})")
    if move.kind not in CHANCE_KINDS and state.is_chance_node():
        raise IllegalActionError(f"{text!r} cannot be played now: {what_now(state)}")
    return state.game.encode(move)
