"""The rating maths of palaestra/server/service/ratings.py, checked against OpenSkill directly."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

from palaestra.core.game import Game, returns_from_ranks
from palaestra.core.registry import game_infos, load_game
from palaestra.server.service import ratings
from palaestra.server.service.ratings import (
    LEVELS,
    Account,
    Anchor,
    Participant,
    Rating,
    ai_anchors,
    all_pools,
    anchor_rating,
    is_aborted,
    move_counts,
    pool_of,
    rated_result,
)

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rating_anchors.py"
MANY = [9, 12]  # moves per seat in a game that was played out


def newcomer(key: str) -> Account:
    return Account(key, Rating())


def openskill(rating: Rating) -> PlackettLuceRating:
    return PlackettLuce().rating(rating.mu, rating.sigma)


def assert_same(got: Rating, expected: PlackettLuceRating, games: int) -> None:
    assert got.mu == pytest.approx(expected.mu, abs=1e-12)
    assert got.sigma == pytest.approx(expected.sigma, abs=1e-12)
    assert got.games == games


# --- pools ---------------------------------------------------------------------------------------
def test_the_pools_of_every_game() -> None:
    """The three games' seven pools, and the test game nim (registered by tests/server/conftest.py:
    a single player count) named by itself."""
    pools = all_pools()
    assert {p.id: (p.game, p.players, p.teams, p.title) for p in pools} == {
        "nim": ("nim", 2, False, "Nim"),
        "agamemnon": ("agamemnon", 2, False, "Agamemnon"),
        "archimedes-2": ("archimedes", 2, False, "Archimedes, 2 players"),
        "archimedes-3": ("archimedes", 3, False, "Archimedes, 3 players"),
        "athos-2": ("athos", 2, False, "Athos, 2 players"),
        "athos-3": ("athos", 3, False, "Athos, 3 players"),
        "athos-4": ("athos", 4, False, "Athos, 4 players"),
        "athos-teams": ("athos", 4, True, "Athos, teams"),
    }
    assert len({p.id for p in pools}) == len(pools)
    # every player count of every registered game has its pool, found from the game itself
    for info in game_infos():
        for count in info.player_counts:
            game = load_game(info.name, **info.options_for_players(count))
            assert pool_of(game) in pools and pool_of(game).players == count


def test_a_team_game_is_rated_in_its_own_pool_whatever_its_other_options() -> None:
    plain = load_game("athos", players=4, bare_stone=True)
    teams = load_game("athos", players=4, teams=True, bare_stone=True, order="DAEB")
    assert pool_of(plain).id == "athos-4" and pool_of(teams).id == "athos-teams"


# --- the scale -----------------------------------------------------------------------------------
def test_400_points_are_odds_of_10_to_1_in_openskills_own_update() -> None:
    """Between two established players 400 shown points apart, the win rate at which OpenSkill's
    update expects no change for the stronger (its gain on a win times ``p`` equals its loss on a
    defeat times ``1 - p``) is Elo's 10/11: the ratings converge to the Elo meaning."""
    model = PlackettLuce(tau=0.0)
    strong = model.rating(ratings.to_mu(1900), 0.01)
    weak = model.rating(ratings.to_mu(1500), 0.01)
    gain = model.rate([[strong], [weak]], ranks=[1.0, 2.0])[0][0].mu - strong.mu
    loss = strong.mu - model.rate([[strong], [weak]], ranks=[2.0, 1.0])[0][0].mu
    assert gain > 0 and loss > 0
    assert loss / (gain + loss) == pytest.approx(10 / 11, abs=1e-4)
    # 200 points: 10**0.5 to 1
    weak = model.rating(ratings.to_mu(1700), 0.01)
    gain = model.rate([[strong], [weak]], ranks=[1.0, 2.0])[0][0].mu - strong.mu
    loss = strong.mu - model.rate([[strong], [weak]], ranks=[2.0, 1.0])[0][0].mu
    assert loss / (gain + loss) == pytest.approx(math.sqrt(10) / (1 + math.sqrt(10)), abs=1e-4)


def test_predict_win_is_openskills_normal_approximation_not_the_logistic_scale() -> None:
    """OpenSkill's ``predict_win`` uses the normal distribution with the same ``c``: 400 points are
    Phi(ln 10) = 98.9% there, not 10/11 (docs/accounts.md says which one the scale follows)."""
    model = PlackettLuce()
    a = model.rating(ratings.to_mu(1900), 0.01)
    b = model.rating(ratings.to_mu(1500), 0.01)
    phi = 0.5 * (1 + math.erf(math.log(10) / math.sqrt(2)))
    assert model.predict_win([[a], [b]])[0] == pytest.approx(phi, abs=1e-4)


def test_a_newcomer_is_shown_at_1500_provisional_until_10_games() -> None:
    assert Rating().shown() == {"rating": 1500, "deviation": 246, "games": 0, "provisional": True}
    assert Rating(games=9).provisional and not Rating(games=10).provisional
    assert ratings.to_shown(ratings.to_mu(1234.5)) == pytest.approx(1234.5)
    assert Rating(mu=25 + 10, sigma=2).shown()["rating"] == round(1500 + 10 * ratings.SCALE)


# --- rated games, against OpenSkill --------------------------------------------------------------
def test_a_two_player_game() -> None:
    game = load_game("archimedes", players=2)
    alice = Account("alice", Rating(27.0, 5.0, 3))
    bob = Account("bob", Rating(24.0, 7.0, 12))
    got = rated_result(game, [alice, bob], [-1.0, 1.0], MANY)
    assert got is not None and set(got) == {"alice", "bob"}
    [[a], [b]] = PlackettLuce().rate([[openskill(alice.rating)], [openskill(bob.rating)]], ranks=[2, 1])
    assert_same(got["alice"], a, 4)
    assert_same(got["bob"], b, 13)
    assert got["bob"].mu > bob.rating.mu and got["alice"].mu < alice.rating.mu


def test_a_three_player_game_with_a_tie() -> None:
    game = load_game("athos", players=3)
    seats: list[Participant] = [newcomer("a"), Account("b", Rating(30.0, 4.0, 20)), newcomer("c")]
    returns = returns_from_ranks([1, 0, 1])  # b first, a and c share second place
    got = rated_result(game, seats, returns, [5, 5, 4])
    assert got is not None
    expected = PlackettLuce().rate([[openskill(s.rating)] for s in seats], ranks=[2, 1, 2])
    for key, [new] in zip("abc", expected, strict=True):
        assert_same(got[key], new, 21 if key == "b" else 1)
    assert got["a"].mu == pytest.approx(got["c"].mu)  # equal before, tied: equal after


def test_a_four_player_team_game() -> None:
    game = load_game("athos", players=4, teams=True)
    assert game.teams() == ((0, 2), (1, 3))
    seats: list[Participant] = [
        Account("a", Rating(26.0, 6.0, 4)),
        newcomer("d"),
        Account("b", Rating(20.0, 3.0, 30)),
        newcomer("e"),
    ]
    got = rated_result(game, seats, [-1.0, 1.0, -1.0, 1.0], [6, 6, 6, 6])
    assert got is not None
    r = [openskill(s.rating) for s in seats]
    [[a, b], [d, e]] = PlackettLuce().rate([[r[0], r[2]], [r[1], r[3]]], ranks=[2, 1])
    assert_same(got["a"], a, 5)
    assert_same(got["b"], b, 31)
    assert_same(got["d"], d, 1)
    assert_same(got["e"], e, 1)
    # the same seats as four players for themselves are rated otherwise
    alone = rated_result(load_game("athos", players=4), seats, [-1.0, 1.0, -1.0, 1.0], [6] * 4)
    assert alone is not None and alone["a"].mu != pytest.approx(got["a"].mu)


def test_partners_with_different_returns_are_refused() -> None:
    game = load_game("athos", players=4, teams=True)
    seats: list[Participant] = [newcomer(k) for k in "adbe"]
    with pytest.raises(ValueError, match="one team"):
        rated_result(game, seats, [1.0, -1.0, -1.0, 1.0], [6] * 4)


def test_a_game_against_an_ai_anchor() -> None:
    game = load_game("athos", players=2)
    strong = Anchor("strong", anchor_rating("athos-2", "strong"))
    me = newcomer("me")
    got = rated_result(game, [strong, me], [-1.0, 1.0], MANY)
    assert got is not None and set(got) == {"me"}
    [[_], [new]] = PlackettLuce().rate([[openskill(strong.rating)], [openskill(me.rating)]], ranks=[2, 1])
    assert_same(got["me"], new, 1)
    assert strong.rating == anchor_rating("athos-2", "strong")  # never updated


def test_an_anchor_has_its_tables_rating_and_a_small_fixed_deviation() -> None:
    for pool_id, levels in ai_anchors().items():
        for level, shown in levels.items():
            anchor = anchor_rating(pool_id, level)
            assert anchor.rating == pytest.approx(shown)
            assert anchor.deviation == pytest.approx(ratings.ANCHOR_DEVIATION)
    with pytest.raises(KeyError):
        anchor_rating("nim", "strong")  # a game without a measured ladder has no anchors


# --- what is not rated ---------------------------------------------------------------------------
def test_moves_per_seat_leave_chance_out() -> None:
    assert move_counts([-1, 0, 1, -1, 0, 1, 0], 2) == [3, 2]
    assert move_counts([], 3) == [0, 0, 0]


@pytest.mark.parametrize(("moves", "aborted"), [([2, 2], False), ([1, 30], True), ([30, 0], True)])
def test_a_game_with_fewer_than_two_moves_by_a_seat_is_not_rated(moves: list[int], aborted: bool) -> None:
    game = load_game("agamemnon")
    got = rated_result(game, [newcomer("a"), newcomer("b")], [1.0, -1.0], moves)
    assert is_aborted(moves) is aborted
    assert (got is None) is aborted


def test_one_account_in_two_seats_is_refused() -> None:
    game = load_game("archimedes", players=3)
    with pytest.raises(ValueError, match="two seats"):
        rated_result(game, [newcomer("a"), newcomer("b"), newcomer("a")], [1.0, 0.0, -1.0], [5, 5, 5])
    with pytest.raises(ValueError, match="3 seats"):
        rated_result(game, [newcomer("a"), newcomer("b")], [1.0, -1.0], [5, 5])


# --- properties ----------------------------------------------------------------------------------
GAMES: dict[int, Game] = {n: load_game("athos", players=n) for n in (2, 3, 4)}
skills = st.tuples(st.floats(0.0, 50.0), st.floats(0.5, 25.0 / 3), st.integers(0, 50))


@given(
    n=st.integers(2, 4),
    outcome=st.lists(st.integers(0, 3), min_size=4, max_size=4),
    skill=st.lists(skills, min_size=4, max_size=4),
    ai_seat=st.one_of(st.none(), st.integers(0, 3)),
    level=st.sampled_from(LEVELS),
)
def test_the_winner_never_drops_and_the_last_never_rises(
    n: int, outcome: list[int], skill: list[tuple[float, float, int]], ai_seat: int | None, level: str
) -> None:
    game = GAMES[n]
    returns = returns_from_ranks(outcome[:n])
    seats: list[Participant] = [Account(f"p{p}", Rating(*skill[p])) for p in range(n)]
    if ai_seat is not None and ai_seat < n:
        seats[ai_seat] = Anchor(level, anchor_rating(pool_of(game).id, level))
    got = rated_result(game, seats, returns, [2] * n)
    assert got is not None
    assert set(got) == {s.key for s in seats if isinstance(s, Account)}
    best, worst = max(returns), min(returns)
    for p, seat in enumerate(seats):
        if not isinstance(seat, Account):
            assert seat.rating == anchor_rating(pool_of(game).id, level)
            continue
        new = got[seat.key]
        assert new.games == seat.rating.games + 1
        if returns[p] == best and returns.count(best) == 1:
            assert new.mu >= seat.rating.mu
        if returns[p] == worst and returns.count(worst) == 1:
            assert new.mu <= seat.rating.mu


# --- the AI anchors ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rating_anchors", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rating_anchors"] = module
    spec.loader.exec_module(module)
    return module


def test_the_stored_anchors_are_what_the_script_computes_from_the_committed_ladder(
    script: ModuleType,
) -> None:
    """The games declare (GameInfo.ai_ratings) what the script computes: the two cannot drift."""
    assert script.computed() == ai_anchors()
    assert set(ai_anchors()) == {p.id for p in all_pools() if p.game != "nim"}  # nim: a test game


def test_docs_show_the_anchors_the_script_computes(script: ModuleType) -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "accounts.md").read_text(encoding="utf-8")
    assert script.markdown(script.computed()) in docs


def test_every_level_stands_above_the_one_below_and_casual_at_a_newcomers_rating() -> None:
    for levels in ai_anchors().values():
        assert list(levels) == list(LEVELS)
        values = [levels[level] for level in LEVELS]
        assert values == sorted(values) and len(set(values)) == len(values)
        assert levels["casual"] == ratings.NEWCOMER


def test_a_step_is_elos_difference_with_two_players_and_the_models_with_more(script: ModuleType) -> None:
    """A step scored 10/11 (shrunk by one virtual draw) is 400 points with two players, sqrt(k/2)
    times that with k players, and half of it per member with two teams of two."""
    by_id = {p.id: p for p in all_pools()}
    m = 1100  # 1000 of 1100 won: (1000 + 1/2) / 1101 is 10/11 to within 1e-4
    elo = 400 * math.log10((1000.5 / 1101) / (1 - 1000.5 / 1101))
    assert script.step_points(by_id["athos-2"], 1000.0, m) == pytest.approx(elo)
    assert script.step_points(by_id["athos-3"], 1000.0, m) == pytest.approx(elo * math.sqrt(1.5))
    assert script.step_points(by_id["athos-4"], 1000.0, m) == pytest.approx(elo * math.sqrt(2))
    assert script.step_points(by_id["athos-teams"], 1000.0, m) == pytest.approx(elo / 2)
    # a step won every time is large but finite
    assert 0 < script.step_points(by_id["athos-2"], 200.0, 200) < 1100


TEAM_GAME = load_game("athos", players=4, teams=True)


@given(
    first_wins=st.sampled_from([1.0, 0.0, -1.0]),
    skill=st.lists(skills, min_size=4, max_size=4),
    ai_seat=st.one_of(st.none(), st.integers(0, 3)),
)
def test_a_winning_team_never_drops_and_a_losing_one_never_rises(
    first_wins: float, skill: list[tuple[float, float, int]], ai_seat: int | None
) -> None:
    teams = TEAM_GAME.teams()
    assert teams is not None
    returns = [0.0] * 4
    for p in teams[0]:
        returns[p] = first_wins
    for p in teams[1]:
        returns[p] = -first_wins
    seats: list[Participant] = [Account(f"p{p}", Rating(*skill[p])) for p in range(4)]
    if ai_seat is not None:
        seats[ai_seat] = Anchor("strong", anchor_rating("athos-teams", "strong"))
    got = rated_result(TEAM_GAME, seats, returns, [2] * 4)
    assert got is not None
    for p, seat in enumerate(seats):
        if isinstance(seat, Account):
            change = got[seat.key].mu - seat.rating.mu
            assert change * returns[p] >= 0  # up with the winners, down with the losers
