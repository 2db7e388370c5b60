"""ATH-V1 as a declaration to the rest of Palaestra: ``Game.teams()`` (the ratings' teams)."""

from __future__ import annotations

import random

import pytest

from palaestra.core.game import random_playout
from palaestra.games.athos.game import AthosGame


@pytest.mark.parametrize("players", [2, 3, 4])
def test_without_the_variant_every_seat_plays_for_itself(players: int) -> None:
    assert AthosGame(players=players).teams() is None


@pytest.mark.parametrize(("order", "expected"), [(None, ((0, 2), (1, 3))), ("DAEB", ((1, 3), (0, 2)))])
def test_ath_v1_teams_are_the_seats_on_a_b_and_on_d_e(
    order: str | None, expected: tuple[tuple[int, ...], ...]
) -> None:
    """ATH-V1: team 1 on A+B, team 2 on D+E, the seat order alternating teams (A, D, B, E by
    default): the declared teams are the seats on those start fields, whatever the order."""
    game = AthosGame(players=4, teams=True, order=order)
    teams = game.teams()
    assert teams == expected
    assert teams is not None
    for team, fields in zip(teams, ("AB", "DE"), strict=True):
        assert sorted(game.seats[p] for p in team) == list(fields)


def test_ath_v1_a_team_wins_or_loses_as_one() -> None:
    """ATH-V1 (a team wins when all six of its monks have arrived): the partners of a declared
    team end every game with the same return."""
    game = AthosGame(players=4, teams=True, round_limit=6)
    teams = game.teams()
    assert teams is not None
    for seed in range(3):
        state = game.new_initial_state(seed)
        random_playout(state, random.Random(seed))
        returns = state.returns()
        assert len({returns[p] for p in teams[0]}) == 1
        assert len({returns[p] for p in teams[1]}) == 1
