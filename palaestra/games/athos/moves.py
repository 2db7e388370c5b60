"""Athos moves: the typed move, its action id and its notation (docs/athos.md, *Notation and
action ids*).

A turn is a sequence of small actions (:class:`Kind`): steps and flips in the movement phase,
``end-move``, a relocation and an Athos stone, tile placements and ``end-turn``. A :class:`Move`
names one of them with its fields; :func:`action_layout` numbers them (core's
:class:`~palaestra.core.layout.ActionLayout`, one segment per kind of id), :func:`move_table`
decodes every id once per board, :func:`format_move` and :func:`parse_move` are the notation.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import NamedTuple

from palaestra.core.errors import NotationError
from palaestra.core.layout import ActionLayout
from palaestra.games.athos.board import Board


class Kind(StrEnum):
    """The kinds of action; each value is the name of the kind's segment of the action layout
    (:func:`action_layout`). A placement has two more segments: ``place_open`` (a tile open side
    up) and ``handicap`` (a tile of another terrain), both of the handicap (ATH-V2)."""

    STEP = "step"  # ATH-T1: a monk to a neighbouring node
    FLIP = "flip"  # ATH-T5
    END_MOVE = "end_move"  # ATH-T3: the movement ends
    RELOCATE = "relocate"  # ATH-T7: a tile to another field
    STONE = "stone"  # ATH-T7
    PLACE = "place"  # ATH-T8, ATH-V2
    END_TURN = "end_turn"  # ATH-T9


class Move(NamedTuple):
    """One action: its kind and the nodes it names (-1 where it names none).

    ``field``: the monk's node of a step, the tile's field of a flip, relocation, stone or
    placement; ``to``: where a step or a relocation goes; ``terrain``: a placed tile's terrain
    when it is another than the field's (ATH-V2 handicap, -1: the field's own); ``open_side``: a
    tile placed open side up (ATH-V2 handicap)."""

    kind: Kind
    field: int = -1
    to: int = -1
    terrain: int = -1
    open_side: bool = False


# the kinds as plain module names, for the hot code (an Enum's class attribute is slow to read)
STEP, FLIP, END_MOVE, RELOCATE, STONE, PLACE, END_TURN = Kind
#: the two moves without a field
END_MOVEMENT = Move(END_MOVE)
END_OF_TURN = Move(END_TURN)

# the segments of the action space, in the order of their ids: one per kind, named as the kind,
# and two more of the kind place
STEP_IDS, FLIP_IDS, END_MOVE_ID, RELOCATE_IDS = STEP.value, FLIP.value, END_MOVE.value, RELOCATE.value
STONE_IDS, PLACE_IDS, END_TURN_ID = STONE.value, PLACE.value, END_TURN.value
#: ATH-V2: tiles of the field's terrain open side up, by field
OPEN_IDS = "place_open"
#: ATH-V2: tiles of another terrain than their field's, by (terrain, field, open side)
HANDICAP_IDS = "handicap"


def action_layout(board: Board) -> ActionLayout:
    """The action space of a board: a step per directed neighbour pair (``board.edges``), a flip
    per field, end-move, a relocation per pair of fields, a stone, a rubble placement and an open
    placement per field, end-turn, then handicap tiles of another terrain than the field's."""
    fields = board.n
    return ActionLayout(
        (STEP_IDS, (len(board.edges),)),
        (FLIP_IDS, (fields,)),
        (END_MOVE_ID, ()),
        (RELOCATE_IDS, (fields, fields)),
        (STONE_IDS, (fields,)),
        (PLACE_IDS, (fields,)),
        (OPEN_IDS, (fields,)),
        (END_TURN_ID, ()),
        (HANDICAP_IDS, (len(board.terrains), fields, 2)),
    )


def encode(move: Move, layout: ActionLayout, board: Board) -> int:
    """The action id of ``move``."""
    kind = move.kind
    if kind is STEP:
        return board.edge_id[(move.field, move.to)]
    if kind is PLACE:
        if move.terrain >= 0:
            return layout.encode(HANDICAP_IDS, move.terrain, move.field, int(move.open_side))
        return layout.encode(OPEN_IDS if move.open_side else PLACE_IDS, move.field)
    if kind is RELOCATE:
        return layout.encode(RELOCATE_IDS, move.field, move.to)
    if kind is FLIP or kind is STONE:
        return layout.encode(FLIP_IDS if kind is FLIP else STONE_IDS, move.field)
    return layout.encode(END_MOVE_ID if kind is END_MOVE else END_TURN_ID)


@functools.lru_cache(maxsize=8)
def move_table(board: Board) -> tuple[Move, ...]:
    """The move of every action id of ``board`` (the one decoder: made once per board)."""
    layout = action_layout(board)
    fields = range(board.n)
    table: list[Move] = [Move(STEP, u, v) for u, v in board.edges]
    table += [Move(FLIP, f) for f in fields]
    table.append(END_MOVEMENT)
    table += [Move(RELOCATE, f, g) for f in fields for g in fields]
    table += [Move(STONE, f) for f in fields]
    table += [Move(PLACE, f) for f in fields]
    table += [Move(PLACE, f, open_side=True) for f in fields]
    table.append(END_OF_TURN)
    table += [
        Move(PLACE, f, terrain=t, open_side=bool(side))
        for t in range(len(board.terrains))
        for f in fields
        for side in (0, 1)
    ]
    assert len(table) == layout.size
    return tuple(table)


# --- notation -----------------------------------------------------------------------------------
END_MOVE_WORDS = ("end-move", "end move", "endmove", "stop", "done")
END_TURN_WORDS = ("end-turn", "end turn", "endturn", "end", "pass")
SIDES = ("rubble", "open")


def format_move(move: Move, board: Board) -> str:
    """``h1-i2``, ``flip k8``, ``relocate k8>t13``, ``stone t13``, ``place m8``, ``place k8
    open``, ``place m8 forest`` (ATH-V2), ``end-move``, ``end-turn``."""
    names = board.names
    kind = move.kind
    if kind is STEP:
        return f"{names[move.field]}-{names[move.to]}"
    if kind is RELOCATE:
        return f"relocate {names[move.field]}>{names[move.to]}"
    if kind is PLACE:
        side = " open" if move.open_side else ""
        terrain = f" {board.terrains[move.terrain]}" if move.terrain >= 0 else ""
        return f"place {names[move.field]}{side}{terrain}"
    if kind is FLIP or kind is STONE:
        return f"{kind} {names[move.field]}"
    return END_MOVE_WORDS[0] if kind is END_MOVE else END_TURN_WORDS[0]


def _field(board: Board, text: str, ordinary: bool = True) -> int:
    f = board.field(text)
    if f < 0:
        raise NotationError(f"{text!r} is not a field of this board (fields look like g7; start fields A-E)")
    if ordinary and f >= board.n:
        raise NotationError(f"{board.names[f]} is a start field or the summit, not an ordinary field")
    return f


def _placement(board: Board, words: list[str]) -> Move:
    """``place F [rubble|open] [TERRAIN]`` (the terrain only in a handicap, ATH-V2)."""
    f = _field(board, words[1])
    rest = words[2:]
    terrain = -1
    if rest and rest[-1] in board.terrains:
        terrain = board.terrains.index(rest.pop())
    if len(rest) > 1 or (rest and rest[0] not in SIDES):
        raise NotationError(
            f"a tile is placed 'rubble' or 'open' side up, optionally of a terrain "
            f"({', '.join(board.terrains)}), not {' '.join(rest)!r}"
        )
    return Move(PLACE, f, terrain=terrain, open_side=rest == ["open"])


def _step(board: Board, text: str) -> Move:
    a, _, c = text.partition("-")
    u, v = _field(board, a, False), _field(board, c, False)
    if (u, v) not in board.edge_id:
        raise NotationError(
            f"{board.names[u]} and {board.names[v]} are not neighbours: a step goes to an adjacent field"
        )
    return Move(STEP, u, v)


def parse_move(text: object, board: Board) -> Move:
    """Read a move in the notation of :func:`format_move` (case and spaces do not matter; the
    words of ``END_MOVE_WORDS`` and ``END_TURN_WORDS`` too); :class:`NotationError` otherwise."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move")
    t = " ".join(text.strip().lower().split())
    if t in END_MOVE_WORDS:
        return END_MOVEMENT
    if t in END_TURN_WORDS:
        return END_OF_TURN
    words = t.split(" ")
    if words[0] in (FLIP, STONE) and len(words) == 2:
        return Move(Kind(words[0]), _field(board, words[1]))
    if words[0] == PLACE and len(words) in (2, 3, 4):
        return _placement(board, words)
    if words[0] == RELOCATE:
        rest = " ".join(words[1:]).replace(">", " ").split()
        if len(rest) != 2:
            raise NotationError("a relocation is written 'relocate g7>h9'")
        return Move(RELOCATE, _field(board, rest[0]), _field(board, rest[1]))
    if len(words) == 1 and "-" in t:
        return _step(board, t)
    raise NotationError(
        f"cannot read {text!r}: moves are a step 'g7-h8', 'flip g7', 'end-move', "
        "'relocate g7>h9', 'stone h9', 'place g7' ('place g7 open', 'place g7 forest' in a handicap), "
        "'end-turn'"
    )
