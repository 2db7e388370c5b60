"""The Athos position document (docs/athos.md, *Position format*): writing one
(:func:`position_of`) and reading one into a state (:func:`read_position`).

A position is read section by section, each field checked as it is read; then the position as a
whole is checked against what the rules can reach (:func:`_check_reachable`), so that every
position read has ``legal_actions()`` and ``apply_action()`` agreeing and is never stuck. Each
refusal raises :class:`PositionError` naming the problem and the ruling.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from palaestra.core.errors import PositionError
from palaestra.core.game import is_int
from palaestra.games.athos import _fast
from palaestra.games.athos.constants import (
    MAX_HANDICAP,
    MAX_POINTS,
    MONKS,
    MOVEMENT_POINTS,
    PHASE_NAMES,
    STONES,
    TILES_PER_TERRAIN,
    Phase,
    Side,
    arrival_bonus,
)

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState

SIDE_NAMES = {"rubble": Side.RUBBLE, "open": Side.OPEN}


def position_of(state: AthosState) -> dict[str, Any]:
    """The position document of ``state`` (without its history)."""
    g = state.game
    b = state.board
    names = b.names
    tiles = [
        {
            "field": names[f],
            "side": "rubble" if state.tile[f] == Side.RUBBLE else "open",
            "terrain": b.terrains[state.tile_terrain[f]],
        }
        for f in range(b.n)
        if state.tile[f] != Side.NONE
    ]
    stones = [{"field": names[f], "player": state.stone[f]} for f in range(b.n) if state.stone[f] >= 0]
    stones += [{"field": names[f], "player": p} for f, p in state.stacked]
    return {
        "game": "athos",
        "options": {k: v for k, v in g.options.items() if v is not None},
        "round": state.round,
        "to_move": state.seat,
        "phase": PHASE_NAMES[state.phase],
        "points": state.points,
        "tiles": tiles,
        "stones": stones,
        "stones_left": list(state.stones_left),
        "monks": [sorted((names[v] for v in ms), key=b.field) for ms in state.monks],
        "arrivals": list(state.arrivals),
        "placed": {b.terrains[t]: k for t, k in enumerate(state.placed) if k},
        "unused": list(state.unused),
        "finishers": list(state.finishers),
        "final_round": state.final_round,
        "handicap_left": state.handicap_left,
    }


def read_position(state: AthosState, doc: Mapping[str, Any]) -> None:
    """Fill the new state ``state`` (of the document's game) from the position ``doc``."""
    _read_tiles(state, doc.get("tiles", []))
    _read_stones(state, doc)
    arrivals = _read_arrivals(state, doc.get("arrivals", []))
    _read_monks(state, doc.get("monks"), arrivals)
    _read_turn(state, doc)
    _check_crowding(state)
    _read_placed(state, doc.get("placed", {}))
    _read_unused(state, doc.get("unused", [None] * state.game.num_players))
    _read_end(state, doc, arrivals)
    state.handicap_left = _whole(doc, "handicap_left", 0, 0, MAX_HANDICAP)
    if state.phase == Phase.HANDICAP and state.handicap_left == 0:
        raise PositionError("in the handicap phase 'handicap_left' is at least 1")
    if state.phase != Phase.HANDICAP and state.handicap_left:
        raise PositionError("'handicap_left' is 0 outside the handicap phase")
    state._tiles_changed()
    if not state.path_rule_holds():
        cut = [state.board.names[v] for ms in state.monks for v in ms if state.distances()[v] < 0]
        raise PositionError(f"the monk on {cut[0]} has no open path to the summit (ATH-P1)")
    _check_reachable(state)


def _whole(doc: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = doc.get(key, default)
    if not is_int(value) or not low <= value <= high:
        raise PositionError(f"'{key}' is a whole number from {low} to {high}, not {value!r}")
    return value


def _field(state: AthosState, x: object, what: str, ordinary: bool = True) -> int:
    b = state.board
    if not isinstance(x, str) or b.field(x) < 0:
        raise PositionError(f"{what}: {x!r} is not a field of this board")
    f = b.field(x)
    if ordinary and f >= b.n:
        raise PositionError(f"{what}: {b.names[f]} is not an ordinary field")
    return f


# --- the board: tiles (ATH-B3), stones (ATH-T7, ATH-V3), monks (ATH-B3, ATH-P1) --------------------
def _read_tiles(state: AthosState, tiles: object) -> None:
    b = state.board
    names = b.names
    if not isinstance(tiles, list):
        raise PositionError("'tiles' is a list of {field, side, terrain}")
    counts = [0] * len(b.terrains)
    for item in tiles:
        if not isinstance(item, Mapping):
            raise PositionError("each tile is an object {field, side, terrain}")
        f = _field(state, item.get("field"), "tile")
        if state.tile[f] != Side.NONE:
            raise PositionError(f"two tiles on {names[f]}")
        side = item.get("side", "rubble")
        if side not in SIDE_NAMES:
            raise PositionError(f"the tile on {names[f]} has side 'rubble' or 'open', not {side!r}")
        terrain = item.get("terrain", b.terrains[b.terrain[f]])
        if terrain not in b.terrains:
            raise PositionError(f"the tile on {names[f]} has unknown terrain {terrain!r}")
        t = b.terrains.index(terrain)
        counts[t] += 1
        state._set_tile(f, SIDE_NAMES[side], t)
    for t, k in enumerate(counts):
        if k > TILES_PER_TERRAIN:
            raise PositionError(f"{k} {b.terrains[t]} tiles; there are only {TILES_PER_TERRAIN} (ATH-B3)")
        state.supply[t] = TILES_PER_TERRAIN - k


def _read_stones(state: AthosState, doc: Mapping[str, Any]) -> None:
    game = state.game
    names = state.board.names
    n = game.num_players
    stones = doc.get("stones", [])
    if not isinstance(stones, list):
        raise PositionError("'stones' is a list of {field, player}")
    used = [0] * n
    for item in stones:
        if not isinstance(item, Mapping):
            raise PositionError("each stone is an object {field, player}")
        f = _field(state, item.get("field"), "stone")
        p = item.get("player")
        if not is_int(p) or not 0 <= p < n:
            raise PositionError(f"the stone on {names[f]} names player {p!r}; players are 0 to {n - 1}")
        if state.tile[f] == Side.NONE and not game.bare_stone:
            raise PositionError(f"the stone on {names[f]} stands on no tile (only ATH-V3 allows that)")
        if state.stone[f] < 0:
            state.stone[f] = p
        elif game.original_rules:
            raise PositionError(f"two stones on {names[f]} (the rulings of 2026-11-23 allow one, ATH-T7)")
        else:
            state.stacked.append((f, p))
        used[p] += 1
    left = doc.get("stones_left", [STONES - u for u in used])
    if not isinstance(left, list) or len(left) != n or not all(is_int(x) for x in left):
        raise PositionError(f"'stones_left' is a list of {n} whole numbers")
    for p in range(n):
        if left[p] < 0 or left[p] + used[p] > STONES:
            raise PositionError(
                f"player {p} has {used[p]} stone(s) on the board and {left[p]} left; a player has {STONES}"
            )
    state.stones_left = list(left)


def _read_arrivals(state: AthosState, arrivals: object) -> list[int]:
    n = state.game.num_players
    if not isinstance(arrivals, list) or not all(is_int(p) and 0 <= p < n for p in arrivals):
        raise PositionError(f"'arrivals' lists the player (0 to {n - 1}) of each arrival in order")
    state.arrivals = list(arrivals)
    return state.arrivals


def _read_monks(state: AthosState, monks: object, arrivals: list[int]) -> None:
    game = state.game
    b = state.board
    n = game.num_players
    if monks is None:
        monks = [[game.seats[p]] * MONKS for p in range(n)]
    if not isinstance(monks, list) or len(monks) != n:
        raise PositionError(f"'monks' lists the fields of each of the {n} players' monks in play")
    state.occupants = [0] * b.size
    state.monks = [[] for _ in range(n)]
    for p in range(n):
        if not isinstance(monks[p], list):
            raise PositionError(f"'monks' of player {p} is a list of fields")
        for x in monks[p]:
            f = _field(state, x, f"a monk of player {p}", ordinary=False)
            if f == b.summit:
                raise PositionError("arrived monks are listed in 'arrivals', not on the summit")
            if state.rubble[f]:
                raise PositionError(f"a monk of player {p} stands on rubble ({b.names[f]})")
            state.monks[p].append(f)
            state.occupants[f] += 1
        if len(state.monks[p]) + arrivals.count(p) != MONKS:
            raise PositionError(
                f"player {p} has {len(state.monks[p])} monk(s) in play and {arrivals.count(p)} arrived; "
                f"a player has {MONKS}"
            )


# --- the turn: phase, seat, round, points (ATH-T1, ATH-T3, ATH-T8) -------------------------------
def _read_turn(state: AthosState, doc: Mapping[str, Any]) -> None:
    game = state.game
    phase_name = doc.get("phase", "move")
    if phase_name not in PHASE_NAMES:
        raise PositionError(f"'phase' is one of {', '.join(PHASE_NAMES)}, not {phase_name!r}")
    state.phase = Phase(PHASE_NAMES.index(phase_name))
    state.seat = _whole(doc, "to_move", 0, 0, game.num_players - 1)
    state.round = _whole(doc, "round", 1, 1, game.round_limit)
    moving = state.phase == Phase.MOVE
    state.points = _whole(doc, "points", MOVEMENT_POINTS if moving else 0, 0, MAX_POINTS)


def _check_crowding(state: AthosState) -> None:
    """ATH-T3: two monks on an ordinary field only while the mover moves, and only if they can
    still be separated."""
    b = state.board
    names = b.names
    shared = [f for f in range(b.n) if state.occupants[f] >= 2]
    state.crowded = len(shared)
    if not shared:
        return
    if state.phase != Phase.MOVE:
        raise PositionError(f"{names[shared[0]]} holds more than one monk (ATH-T3)")
    for f in shared:
        if f not in state.monks[state.seat]:
            raise PositionError(
                f"{names[f]} holds more than one monk and none of the player to move (ATH-T3)"
            )
    if not _fast.movement_can_end(state):
        raise PositionError(
            f"{', '.join(names[f] for f in shared)}: monks that cannot be separated with the "
            "points left (ATH-T3)"
        )


def _read_placed(state: AthosState, placed: object) -> None:
    game = state.game
    terrains = state.board.terrains
    if not isinstance(placed, Mapping):
        raise PositionError("'placed' maps terrain names to the tiles placed this turn")
    for terrain, k in placed.items():
        if terrain not in terrains:
            raise PositionError(f"'placed' names unknown terrain {terrain!r}")
        if not is_int(k) or not 0 <= k <= game.max_per_terrain:
            raise PositionError(f"'placed' of {terrain} is 0 to {game.max_per_terrain} (ATH-T8), not {k!r}")
        state.placed[terrains.index(terrain)] = k
    state.placed_total = sum(state.placed)
    if state.placed_total > game.max_tiles:
        raise PositionError(f"{state.placed_total} tiles placed this turn; at most {game.max_tiles} (ATH-T8)")
    if state.placed_total and state.phase not in (Phase.PLACE, Phase.OVER):
        raise PositionError("tiles were placed this turn, so the phase is 'place'")


# --- the end: ATH-E1, ATH-E2, ATH-V1 -------------------------------------------------------------
def _read_unused(state: AthosState, unused: object) -> None:
    n = state.game.num_players
    if (
        not isinstance(unused, list)
        or len(unused) != n
        or not all(u is None or (is_int(u) and u >= 0) for u in unused)
    ):
        raise PositionError(f"'unused' lists {n} whole numbers or nulls")
    state.unused = list(unused)


def completed_sides(state: AthosState, arrivals: list[int]) -> list[int]:
    """ATH-E1, ATH-V1: the players whose arrival brought in their side's last monk, in order (the
    finishers, whose points the tie-break counts, ATH-E2)."""
    game = state.game
    completed: list[int] = []
    count = [0] * game.num_sides
    for p in arrivals:
        side = game.side_of[p]
        count[side] += 1
        if count[side] == MONKS * len(game.members[side]):
            completed.append(p)
    return completed


def _read_end(state: AthosState, doc: Mapping[str, Any], arrivals: list[int]) -> None:
    n = state.game.num_players
    completed = completed_sides(state, arrivals)
    finishers = doc.get("finishers", completed)
    if not isinstance(finishers, list) or not all(is_int(p) and 0 <= p < n for p in finishers):
        raise PositionError("'finishers' lists the players who brought in their side's last monk")
    if finishers != completed:
        raise PositionError(
            f"'finishers' is {finishers}, but by 'arrivals' the arrivals that completed a side were "
            f"those of players {completed} (ATH-E1, ATH-V1)"
        )
    state.finishers = list(finishers)
    final = doc.get("final_round", bool(finishers))
    if not isinstance(final, bool):
        raise PositionError("'final_round' is true or false")
    if final != bool(finishers):
        raise PositionError(
            "'final_round' is true exactly when a side has brought in all its monks (ATH-E1), "
            f"and 'arrivals' say {'one has' if finishers else 'none has'}"
        )
    state.final_round = final


# --- what no game can reach ------------------------------------------------------------------------
def _check_reachable(state: AthosState) -> None:
    """Refuse a position no game can reach, where the engine's legal_actions() and apply_action()
    could disagree or leave a player stuck (issue 16); the checks of the fields themselves are
    made while reading them."""
    _check_shared_fields(state)
    _check_points(state)
    _check_stone_phase(state)
    _check_placed_on_board(state)
    _check_final_round(state)
    _check_handicap(state)


def _check_shared_fields(state: AthosState) -> None:
    """ATH-T3: only the mover's monks share an ordinary field, and only while moving."""
    names = state.board.names
    for f in range(state.board.n):
        others = sum(1 for p, ms in enumerate(state.monks) if p != state.seat for v in ms if v == f)
        if others > 1:
            raise PositionError(
                f"{names[f]} holds {others} monks of players not to move: their movement has ended, "
                "and then no ordinary field holds two monks (ATH-T3)"
            )


def _check_points(state: AthosState) -> None:
    """ATH-T1, ATH-T6: the points left are 6 plus this turn's arrival bonuses (this turn's
    arrivals are some of the mover's last ones), less a step per arrival at least; end-move
    leaves none."""
    phase = state.phase
    if phase not in (Phase.MOVE, Phase.HANDICAP) and state.points:
        raise PositionError(
            f"points are left only in the movement phase, not in phase '{PHASE_NAMES[phase]}'"
        )
    if phase != Phase.MOVE:
        return
    most = points = MOVEMENT_POINTS
    i = len(state.arrivals)
    while i and state.arrivals[i - 1] == state.seat:
        i -= 1
        points += arrival_bonus(i) - 1
        most = max(most, points)
    if state.points > most:
        raise PositionError(
            f"{state.points} movement points: a turn has {MOVEMENT_POINTS} plus the bonuses of its "
            f"arrivals, each made with a step (ATH-T1, ATH-T6): at most {most} here"
        )


def _check_stone_phase(state: AthosState) -> None:
    """ATH-T7: after a relocation the mover has a stone left, and the tile moved is free."""
    if state.phase != Phase.RELOCATED:
        return
    if not state.stones_left[state.seat]:
        raise PositionError("phase 'relocated': the player to move has no Athos stone left to put (ATH-T7)")
    if not any(
        state.tile[f] != Side.NONE and state.stone[f] < 0 and not state.occupants[f]
        for f in range(state.board.n)
    ):
        raise PositionError(
            "phase 'relocated': a tile was just relocated, so some tile has no stone and no monk (ATH-T7)"
        )


def _check_placed_on_board(state: AthosState) -> None:
    """ATH-T8: the tiles placed this turn are on the board."""
    b = state.board
    for t, k in enumerate(state.placed):
        on_board = sum(1 for f in range(b.n) if state.tile[f] != Side.NONE and state.tile_terrain[f] == t)
        if k > on_board:
            raise PositionError(
                f"'placed': {k} {b.terrains[t]} tiles placed this turn, but {on_board} are on the board"
            )


def _check_final_round(state: AthosState) -> None:
    """ATH-E1, ATH-E2, ATH-E3: the final round goes on from the first finisher's seat; a
    finisher's points are written at its end-move; the game ends with the last seat's turn."""
    game = state.game
    n = game.num_players
    seat = state.seat
    if state.finishers and seat < state.finishers[0]:
        raise PositionError(
            f"the final round began with the arrival of player {state.finishers[0]}'s last monk, so seat "
            f"{seat}, before it in the round, has had its turn (ATH-E1)"
        )
    if any(state.unused[p] is None and (p != seat or state.phase != Phase.MOVE) for p in state.finishers):
        raise PositionError("'unused' gives the points each finisher kept when its movement ended (ATH-E2)")
    if state.phase == Phase.OVER and (
        seat != n - 1 or not (state.finishers or state.round == game.round_limit)
    ):
        raise PositionError(
            "phase 'over': the game ends with the last seat's turn (to_move "
            f"{n - 1}) of the round in which a side finished (ATH-E1) or of the round limit (ATH-E3)"
        )


def _check_handicap(state: AthosState) -> None:
    """ATH-V2: the handicap seat places at most the handicap, while a free field can take a tile."""
    game = state.game
    if state.phase != Phase.HANDICAP:
        return
    if not game.handicap_tiles or state.seat != game.handicap_player:
        raise PositionError(
            "phase 'handicap': the options name no handicap, or another seat places it (ATH-V2)"
        )
    if state.handicap_left > game.handicap_tiles:
        raise PositionError(f"phase 'handicap': the handicap is {game.handicap_tiles} tiles (ATH-V2)")
    if not _fast.handicap_actions(state):
        raise PositionError("phase 'handicap': no free field can take a tile, so the handicap is over")
