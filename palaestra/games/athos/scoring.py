"""Athos, the end of the game and the ranking (RULINGS.md ATH-E1..E4, ATH-V1 for teams).

ATH-E1 (the final round after a side's last arrival) and ATH-E3 (the round limit) end the game
in ``AthosState._step`` and ``_end_turn``; this module ranks the sides at the end and says the
result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.games.athos.constants import MONKS

if TYPE_CHECKING:  # the rules import this module; the type only for the checker
    from palaestra.games.athos.rules import AthosState


def side_arrived(state: AthosState, side: int) -> int:
    """ATH-E2, ATH-E3, ATH-V1: the monks of the side (a player or a team) that have arrived."""
    return sum(MONKS - len(state.monks[p]) for p in state.game.members[side])


def side_distance(state: AthosState, side: int) -> int:
    """ATH-E3: the sum of the shortest rubble-free distances of the side's monks in play."""
    dist = state.distances()
    return sum(dist[v] for p in state.game.members[side] for v in state.monks[p])


def _by_arrivals_and_distance(state: AthosState) -> list[tuple[int, int]]:
    """ATH-E3, ATH-E4: the key each side is ranked by below the winners (smaller is better)."""
    return [(-side_arrived(state, s), side_distance(state, s)) for s in range(state.game.num_sides)]


def side_ranks(state: AthosState) -> list[int]:
    """Rank of each side (0 best) at the end: the winners of ATH-E2 first and the others below
    them as in ATH-E3 (ATH-E4); with nobody finished, ATH-E3 (monks arrived, distance sum)."""
    keys = _by_arrivals_and_distance(state)
    if not state.finishers:
        return _ranks(keys, [True] * len(keys))
    won = _winners(state)
    if state.game.original_rules:  # before ATH-E4 every other side shared the next rank
        return [0 if w else 1 for w in won]
    below = _ranks(keys, [not w for w in won])
    return [0 if w else 1 + r for w, r in zip(won, below, strict=True)]


def _ranks(keys: list[tuple[int, int]], among: list[bool]) -> list[int]:
    """Each side's rank by ``keys`` among the sides marked in ``among`` (equal keys share)."""
    return [sum(1 for o, k in enumerate(keys) if among[o] and k < keys[s]) for s in range(len(keys))]


def _winners(state: AthosState) -> list[bool]:
    """ATH-E2, ATH-V1: of the sides that finished, those with the most points left unused in the
    final movement of the player whose arrival completed them."""
    g = state.game
    value = {g.side_of[p]: state.unused[p] or 0 for p in state.finishers}
    best = max(value.values())
    return [value.get(s, -1) == best for s in range(g.num_sides)]


def score_details(state: AthosState) -> dict[str, Any]:
    g = state.game
    players = range(g.num_players)
    return {
        "scores": state.scores(),
        "arrived": [MONKS - len(state.monks[p]) for p in players],
        "distances": [side_distance(state, g.side_of[p]) for p in players],
        "arrivals": [g.player_name(p) for p in state.arrivals],
        "round": state.round,
        "final_round": state.final_round,
    }


def result_text(state: AthosState) -> str:
    """The result in words: who wins or shares the win, or the draw, and whether by the round
    limit (ATH-E3)."""
    g = state.game
    ranks = side_ranks(state)
    winners = [s for s in range(g.num_sides) if ranks[s] == 0]
    how = "" if state.finishers else f" after the round limit of {g.round_limit} (ATH-E3)"
    if len(winners) == g.num_sides and not state.finishers:
        return "draw" + how
    names = [" and ".join(g.player_name(p) for p in g.members[s]) for s in winners]
    if len(winners) == 1:
        return f"{names[0]} {'win' if g.team_variant else 'wins'}{how}"
    return " and ".join(names) + " share the win" + how
