"""Athos: the positions no game can reach (issue 16), refused when a position document is read
(``position.py``), each check citing the ruling that makes the position impossible: crowding
(ATH-T3), shared fields, movement points (ATH-T1, T6, E2), the stone phase (ATH-T7), the tiles
placed (ATH-T8), the final round and the end (ATH-E1, E3), the handicap (ATH-V2). A position that
passed them is one where ``legal_actions()`` and ``apply_action()`` agree and nobody is stuck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.core.errors import PositionError
from palaestra.games.athos import _fast, tiles
from palaestra.games.athos.constants import (
    MONKS,
    MOVEMENT_POINTS,
    PHASE_NAMES,
    Phase,
    Side,
    arrival_bonus,
)

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState


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


def check_crowding(state: AthosState) -> None:
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


def check_shared_fields(state: AthosState) -> None:
    """ATH-T3: only the mover's monks share an ordinary field, and only while moving."""
    names = state.board.names
    for f in range(state.board.n):
        others = sum(1 for p, ms in enumerate(state.monks) if p != state.seat for v in ms if v == f)
        if others > 1:
            raise PositionError(
                f"{names[f]} holds {others} monks of players not to move: their movement has ended, "
                "and then no ordinary field holds two monks (ATH-T3)"
            )


def check_points(state: AthosState) -> None:
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


def check_stone_phase(state: AthosState) -> None:
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


def check_placed_on_board(state: AthosState) -> None:
    """ATH-T8: the tiles placed this turn are on the board."""
    b = state.board
    for t, k in enumerate(state.placed):
        on_board = sum(1 for f in range(b.n) if state.tile[f] != Side.NONE and state.tile_terrain[f] == t)
        if k > on_board:
            raise PositionError(
                f"'placed': {k} {b.terrains[t]} tiles placed this turn, but {on_board} are on the board"
            )


def check_final_round(state: AthosState) -> None:
    """ATH-E1, ATH-E2, ATH-E3: the final round goes on from the first finisher's seat; a
    finisher's points are written at its end-move; the game ends with the last seat's turn."""
    seat = state.seat
    if state.finishers and seat < state.finishers[0]:
        raise PositionError(
            f"the final round began with the arrival of player {state.finishers[0]}'s last monk, so seat "
            f"{seat}, before it in the round, has had its turn (ATH-E1)"
        )
    if any(state.unused[p] is None and (p != seat or state.phase != Phase.MOVE) for p in state.finishers):
        raise PositionError("'unused' gives the points each finisher kept when its movement ended (ATH-E2)")
    check_over(state)


def check_over(state: AthosState) -> None:
    """ATH-E1, ATH-E3: the game ends with the last seat's turn of the final round or of the round
    limit."""
    game = state.game
    last = game.num_players - 1
    if state.phase == Phase.OVER and (
        state.seat != last or not (state.finishers or state.round == game.round_limit)
    ):
        raise PositionError(
            f"phase 'over': the game ends with the last seat's turn (to_move {last}) of the round in "
            "which a side finished (ATH-E1) or of the round limit (ATH-E3)"
        )


def check_before_the_first_turn(state: AthosState) -> None:
    """ATH-V2: the handicap is placed before the first turn: round 1, every monk on its start
    field, no arrival and no Athos stone."""
    start = state.game.new_initial_state()
    moved = [sorted(ms) for ms in state.monks] != [sorted(ms) for ms in start.monks]
    if state.round != 1 or state.arrivals or moved or state.stacked or any(s >= 0 for s in state.stone):
        raise PositionError(
            "phase 'handicap' is before the first turn (ATH-V2): round 1, every monk on its start "
            "field, no arrival and no Athos stone"
        )


def check_handicap(state: AthosState) -> None:
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
    check_before_the_first_turn(state)
    placements: list[int] = []
    tiles.placements(state, placements)
    if not placements:
        raise PositionError("phase 'handicap': no free field can take a tile, so the handicap is over")
