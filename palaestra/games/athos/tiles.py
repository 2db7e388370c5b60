"""Athos, the tiles and the Athos stone (RULINGS.md ATH-T5 and ATH-T7 the tiles that may be
turned or moved, ATH-T7 the stone, ATH-T8 the placement, ATH-P1 the path rule, ATH-V2, ATH-V3):
each ruling once, as a predicate that changes nothing. (The order of the phases, ATH-T9
included, is ``rules.PHASES_OF``.)

A predicate about fields takes the fields to ask about and returns those its ruling allows (the
form both callers need: ``AthosState.problem`` asks it of the one field of a move, and
``legal_actions`` of every candidate at once, without a Python call per field); a predicate about
the player or the turn returns ``None`` when its ruling allows the move, else why not.
:func:`relocate_problem`, :func:`stone_problem` and :func:`place_problem` compose them for one
move, saying which ruling it breaks, and :func:`relocations`, :func:`stones` and
:func:`placements` compose the same predicates over the candidates. The path rule consults
``_fast.py`` (the cut-vertex search, the local ring test, the relocation components), which only
answers the question fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from palaestra.games.athos import _fast
from palaestra.games.athos.constants import HANDICAP, NO_TILE, RUBBLE, STONE

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState


# --- ATH-T5, ATH-T7: a tile that may be turned or moved -----------------------------------------
def tile_on(state: AthosState, f: int, verb: str) -> str | None:
    """ATH-T5, ATH-T7: a flip turns over, a relocation moves, a tile on the board."""
    if state.tile[f] != NO_TILE:
        return None
    return f"field {state.board.names[f]} has no tile to {verb}"


def loose_tiles(state: AthosState, tiles: Iterable[int]) -> list[int]:
    """ATH-T5, ATH-T7: the tiles of ``tiles`` (fields holding a tile) that may be flipped or
    relocated: no monk stands on them and no Athos stone protects them."""
    occupants, stone = state.occupants, state.stone
    return [f for f in tiles if not occupants[f] and stone[f] < 0]


def held_tile_text(state: AthosState, f: int, verb: str, ruling: str) -> str:
    """Why the tile on ``f`` is not loose (:func:`loose_tiles`), for a move that would ``verb`` it."""
    name = state.board.names[f]
    if state.occupants[f]:
        done = "flipped" if verb == "flip" else f"{verb}d"
        return f"a monk stands on {name}: its tile cannot be {done} ({ruling})"
    rulings = ruling if ruling == "ATH-T7" else f"{ruling}, ATH-T7"
    return f"an Athos stone protects the tile on {name} ({rulings})"


# --- ATH-T7, ATH-T8, ATH-V2, ATH-V3: a free field -------------------------------------------------
def free_fields(state: AthosState, fields: Iterable[int]) -> list[int]:
    """ATH-T7, ATH-T8, ATH-V2: the free fields of ``fields`` (ordinary fields), which may take a
    tile: no tile and no monk on them; ATH-V3: and no Athos stone (a bare stone keeps tiles off
    for the rest of the game)."""
    tile, occupants, stone = state.tile, state.occupants, state.stone
    return [f for f in fields if not tile[f] and not occupants[f] and stone[f] < 0]


def taken_field_text(state: AthosState, f: int) -> str:
    """Why ``f`` is not free (:func:`free_fields`)."""
    name = state.board.names[f]
    if state.tile[f] != NO_TILE:
        return f"field {name} already holds a tile"
    if state.occupants[f]:
        return f"a monk stands on {name}"
    return f"an Athos stone stands on {name}: no tile may go there (ATH-V3)"


# --- ATH-T7: the Athos stone -----------------------------------------------------------------------
def stone_left(state: AthosState) -> str | None:
    """ATH-T7: two Athos stones per player and game, each with at most one relocation."""
    if state.stones_left[state.seat]:
        return None
    return "you have no Athos stone left (ATH-T7)"


def stone_fields(state: AthosState, fields: Iterable[int]) -> list[int]:
    """ATH-T7: the fields of ``fields`` that may take the stone: any tile, either side, with or
    without a monk, one that carries a stone already too (amended 2026-11-25; not by the rulings
    of 2026-11-23); ATH-V3: or a bare field without a monk."""
    g = state.game
    tile, occupants, stone = state.tile, state.occupants, state.stone
    bare, once = g.bare_stone, g.original_rules
    return [f for f in fields if (tile[f] or (bare and not occupants[f])) and not (once and stone[f] >= 0)]


def no_stone_text(state: AthosState, f: int) -> str:
    """Why the stone may not go on ``f`` (:func:`stone_fields`)."""
    name = state.board.names[f]
    if state.stone[f] >= 0 and state.game.original_rules:
        return f"an Athos stone already stands on {name} (rulings of 2026-11-23)"
    if state.game.bare_stone:
        return f"a monk stands on the bare field {name} (ATH-V3)"
    return f"field {name} has no tile; the stone goes on a tile (ATH-T7)"


def relocation_first(state: AthosState) -> str | None:
    """ATH-T7: a tile is relocated before the stone is put, unless no tile can legally be."""
    if state.phase == STONE and relocatable(state):
        return "first relocate a tile (relocate f>g), then put the stone (ATH-T7)"
    return None


# --- ATH-T8, ATH-V2: the placement ------------------------------------------------------------------
def tile_terrain(state: AthosState, f: int, open_side: bool, terrain: int) -> str | None:
    """ATH-T8: a tile is placed on a field of its own terrain, rubble side up; ATH-V2 (amended
    2026-11-25): a handicap tile on any free field, of any terrain, either side up (by the rulings
    of 2026-11-23: of the field's terrain)."""
    name = state.board.names[f]
    if terrain < 0:
        if open_side and state.phase != HANDICAP:
            return "tiles are placed rubble side up (ATH-T8)"
        return None
    if state.phase != HANDICAP:
        return f"tiles are placed on fields of their own terrain (ATH-T8): write 'place {name}'"
    if state.game.original_rules:
        return "by the rulings of 2026-11-23 a handicap tile is of the field's terrain (ATH-V2)"
    if terrain == state.board.terrain[f]:
        side = " open" if open_side else ""
        return f"a tile of the field's own terrain is written 'place {name}{side}'"
    return None


def terrains_left(state: AthosState, terrains: Iterable[int]) -> list[int]:
    """ATH-T8: the terrains of ``terrains`` of which a tile may still be placed: some are left in
    the supply (ATH-B3: 16 per terrain; an exhausted terrain can take no more), and, outside the
    handicap of ATH-V2 (placed before the first turn), fewer than the turn's limit of tiles and
    of tiles of the terrain (by the number of players) are placed."""
    supply = state.supply
    if state.phase == HANDICAP:
        return [t for t in terrains if supply[t]]
    g = state.game
    if state.placed_total >= g.max_tiles:
        return []
    placed, most = state.placed, g.max_per_terrain
    return [t for t in terrains if supply[t] and placed[t] < most]


def no_terrain_text(state: AthosState, t: int) -> str:
    """Why no tile of the terrain ``t`` may be placed (:func:`terrains_left`)."""
    g = state.game
    terrain = state.board.terrains[t]
    if not state.supply[t]:
        return f"the {terrain} tiles are used up (ATH-T8)"
    if state.placed_total >= g.max_tiles:
        return f"only {g.max_tiles} tiles per turn (ATH-T8)"
    per = g.max_per_terrain
    return f"only {per} tile{'s' if per > 1 else ''} per terrain per turn ({terrain}, ATH-T8)"


# --- ATH-P1: the path rule --------------------------------------------------------------------------
def rubble_cuts_off(state: AthosState, fields: Sequence[int], local: bool = True) -> list[int]:
    """ATH-P1: the fields of ``fields`` where rubble, a tile placed or flipped rubble side up,
    would leave a monk in play without a path to the summit over fields that are not rubble (a
    field that is rubble already only opens: never). ``_fast.rubble_refused_among`` answers it
    from the cut-vertex search; usually none is."""
    return _fast.rubble_refused_among(state, fields, local)


def relocation_targets(state: AthosState, f: int, fields: list[int]) -> list[int]:
    """ATH-P1: the fields of ``fields`` to which the tile on ``f`` may be relocated without
    cutting a monk off the summit: any for an open tile; for rubble, those that
    ``_fast.relocation_targets_among`` allows."""
    if state.tile[f] != RUBBLE:
        return fields
    return _fast.relocation_targets_among(state, f, fields)


def cut_off_text(state: AthosState, f: int) -> str:
    """Why rubble may not come on ``f`` (ATH-P1)."""
    return f"rubble on {state.board.names[f]} would cut a monk off from the summit (ATH-P1)"


# --- the moves of the tiles, composed ---------------------------------------------------------------
def relocate_problem(state: AthosState, f: int, to: int) -> str | None:
    """ATH-T7 (a loose tile to another, free field), ATH-V3, ATH-P1."""
    why = stone_left(state) or tile_on(state, f, "relocate")
    if why is None and not loose_tiles(state, (f,)):
        why = held_tile_text(state, f, "relocate", "ATH-T7")
    if why is None and to == f:
        why = "a relocated tile goes to another field (ATH-T7)"
    if why is None and not free_fields(state, (to,)):
        why = taken_field_text(state, to)
    if why is None and not relocation_targets(state, f, [to]):
        why = cut_off_text(state, to)
    return why


def stone_problem(state: AthosState, f: int) -> str | None:
    """ATH-T7, ATH-V3: the stone on any tile (or a bare free field), after a relocation when one
    is possible."""
    why = stone_left(state)
    if why is None and not stone_fields(state, (f,)):
        why = no_stone_text(state, f)
    return why or relocation_first(state)


def place_problem(state: AthosState, f: int, open_side: bool = False, terrain: int = -1) -> str | None:
    """ATH-T8, ATH-V2, ATH-V3, ATH-P1: why a tile (of ``terrain``, -1: the field's) may not be
    placed on ``f`` now."""
    t = state.board.terrain[f] if terrain < 0 else terrain
    why = tile_terrain(state, f, open_side, terrain)
    if why is None and not free_fields(state, (f,)):
        why = taken_field_text(state, f)
    if why is None and not terrains_left(state, (t,)):
        why = no_terrain_text(state, t)
    if why is None and not open_side and rubble_cuts_off(state, (f,)):
        why = cut_off_text(state, f)
    return why


def relocatable(state: AthosState) -> bool:
    """Whether some tile can legally be relocated now (:func:`relocations`; remembered for the
    position in ``_relocatable``, which :func:`relocations` also fills)."""
    if state._relocatable is None:
        state._relocatable = bool(relocations(state, [], any_one=True))
    return state._relocatable


def relocations(state: AthosState, out: list[int], any_one: bool = False) -> list[int]:
    """The legal relocations (``any_one``: stop at the first tile that has one), added to ``out``:
    every tile to every ordinary field (the candidates), as :func:`relocate_problem` allows."""
    before = len(out)
    if stone_left(state) is None and (movable := loose_tiles(state, state.tiled_fields())):
        n = state.board.n
        free = free_fields(state, range(n))
        start = state.game.first_id["relocate"]
        for f in movable:
            base = start + f * n
            out.extend(map(base.__add__, relocation_targets(state, f, free)))
            if any_one and len(out) > before:
                break
    if not any_one or len(out) > before:
        state._relocatable = len(out) > before
    return out


def stones(state: AthosState, out: list[int]) -> None:
    """The legal stones, added to ``out``: every ordinary field (the candidates), as
    :func:`stone_problem` allows."""
    if stone_left(state) is None and relocation_first(state) is None:
        start = state.game.first_id["stone"]
        out.extend(map(start.__add__, stone_fields(state, range(state.board.n))))


def placements(state: AthosState, out: list[int]) -> None:
    """The legal placements, added to ``out``: every ordinary field with a tile of its own
    terrain, and in the handicap of every terrain either side up (the candidates), as
    :func:`place_problem` allows, its predicates taken terrain by terrain."""
    board = state.board
    supplied = terrains_left(state, range(len(board.terrains)))
    if state.phase != HANDICAP:
        fields = free_fields(state, chain.from_iterable(board.fields_of_terrain[t] for t in supplied))
        start = state.game.first_id["place"]
        refused = rubble_cuts_off(state, fields, local=len(fields) <= _fast.LOCAL_TEST_CANDIDATES)
        out.extend(map(start.__add__, [f for f in fields if f not in refused] if refused else fields))
        return
    _handicap_placements(state, out, supplied)


def _handicap_placements(state: AthosState, out: list[int], supplied: list[int]) -> None:
    """The placements of :func:`placements` in the handicap (ATH-V2): a tile of every terrain
    left, either side up, on every free field."""
    game, board = state.game, state.board
    free = free_fields(state, range(board.n))
    rubble_ok = set(free).difference(rubble_cuts_off(state, free))
    place, place_open, other = (
        game.first_id["place"],
        game.first_id["place_open"],
        game.action_space["handicap"],
    )
    for f in free:
        if board.terrain[f] in supplied:
            if f in rubble_ok:
                out.append(place + f)
            out.append(place_open + f)
        for t in supplied:
            if tile_terrain(state, f, False, t) is None:
                rubble_id = other.encode(t, f, 0)
                if f in rubble_ok:
                    out.append(rubble_id)
                out.append(rubble_id + 1)
