"""Rated games, ratings and leaderboards (issue 28, docs/accounts.md), on SQLite and PostgreSQL:
what a rated game requires, a finished one rated once with OpenSkill (checked against OpenSkill
itself), aborted games left unrated, games against the AI rated against its fixed rating, the
profile's history and the leaderboard's rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from palaestra.server.service.ratings import SCALE, anchor_rating, to_shown
from tests.server.accounts_helpers import BLITZ, Member, invite_code, play_out, rated_nim, sign_up
from tests.server.test_accounts import db_rows
from tests.server.test_api import HUMANS, INVITED, assert_error

#: nim with 9 stones, one at a time: seat 0 takes the last stone (5 moves to 4)
NINE_ONES = ["take 1"] * 9


def pair(client: TestClient, a: str = "alice", b: str = "bob") -> tuple[Member, Member]:
    return sign_up(client, a), sign_up(client, b)


def rated_game(first: Member, second: Member, **body: Any) -> str:
    made = rated_nim(first, **body)
    r = second.post(f"/api/games/{made['id']}/join", json={"code": invite_code(made, 1)})
    assert r.status_code == 200, r.text
    return str(made["id"])


# --- what a rated game requires --------------------------------------------------------------------
def test_a_rated_game_needs_a_signed_in_creator_a_clock_and_no_hints_seed_or_hot_seat(
    client: TestClient,
) -> None:
    member = sign_up(client, "strict")
    base = {"game": "nim", "seats": INVITED, "rated": True, "time_control": BLITZ}
    assert_error(client.post("/api/games", json=base), 401, "sign_in_required")
    for change in ({"time_control": None}, {"hints": True}, {"seed": 3}, {"seats": HUMANS}):
        assert_error(member.post("/api/games", json={**base, **change}), 400, "bad_rated")
    ai = {**base, "seats": [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]}
    assert_error(member.post("/api/games", json=ai), 400, "bad_rated")  # nim's AI has no rating
    made = member.post("/api/games", json=base)
    assert made.status_code == 201 and made.json()["game"]["rated"] is True
    assert made.json()["game"]["hints"] is False


@pytest.mark.slow
def test_only_members_join_a_rated_game_and_each_holds_one_seat(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    made = rated_nim(alice)
    code = invite_code(made, 1)
    assert_error(client.post(f"/api/games/{made['id']}/join", json={"code": code}), 401, "sign_in_required")
    assert_error(alice.post(f"/api/games/{made['id']}/join", json={"code": code}), 409, "already_seated")
    bob = sign_up(client, "bob")
    view = bob.post(f"/api/games/{made['id']}/join", json={"code": code}).json()["game"]
    assert [s["member"] for s in view["seats"]] == ["alice", "bob"]


def test_a_rated_game_allows_no_undo(client: TestClient) -> None:
    alice, bob = pair(client)
    gid = rated_game(alice, bob)
    view = alice.post(f"/api/games/{gid}/actions", json={"ply": 0, "move": "take 1"}).json()
    assert view["undo"] is None
    assert_error(alice.post(f"/api/games/{gid}/undo", json={"ply": 1}), 409, "cannot_undo")


# --- rating a finished game ------------------------------------------------------------------------
def test_a_finished_rated_game_moves_both_ratings_as_openskill_does(client: TestClient, db_url: str) -> None:
    alice, bob = pair(client)
    gid = rated_game(alice, bob)
    view = play_out(alice, bob, gid, NINE_ONES)
    assert view["status"] == "finished" and view["result"]["returns"][0] > view["result"]["returns"][1]
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    for member, expected in ((alice, winner), (bob, loser)):
        profile = client.get(f"/api/users/{member.username}").json()
        rating = profile["ratings"]["nim"]
        assert rating == {
            "rating": round(to_shown(expected.mu)),
            "deviation": round(SCALE * expected.sigma),
            "games": 1,
            "provisional": True,
        }
        [event] = profile["history"]["nim"]
        assert event["game"] == gid and event["rating"] == rating["rating"]
        assert event["change"] == rating["rating"] - 1500
    assert (
        profile["ratings"]["nim"]["rating"]
        < 1500
        < client.get("/api/users/alice").json()["ratings"]["nim"]["rating"]
    )
    assert len(db_rows(db_url, "SELECT * FROM rating_events WHERE game_id = :g", g=gid)) == 2
    games = client.get("/api/users/bob/games").json()["games"]
    assert games[0]["rated"] is True and games[0]["result"]["outcome"] == "loss"
    assert games[0]["opponents"] == [{"seat": 0, "name": "alice", "member": "alice", "kind": "human"}]


@pytest.mark.slow
def test_a_second_game_starts_from_the_first_ones_rating(client: TestClient) -> None:
    alice, bob = pair(client)
    play_out(alice, bob, rated_game(alice, bob), NINE_ONES)
    play_out(alice, bob, rated_game(alice, bob), NINE_ONES)
    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    for _ in range(2):
        [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    rating = client.get("/api/users/alice").json()["ratings"]["nim"]
    assert rating["rating"] == round(to_shown(a.mu)) and rating["games"] == 2
    assert client.get("/api/users/bob").json()["ratings"]["nim"]["rating"] == round(to_shown(b.mu))


@pytest.mark.slow
def test_a_resignation_after_two_moves_each_is_rated_but_an_aborted_game_is_not(
    client: TestClient, db_url: str
) -> None:
    alice, bob = pair(client)
    early = rated_game(alice, bob)
    play_out(alice, bob, early, ["take 1", "take 1", "take 1"])  # bob made one move
    assert bob.post(f"/api/games/{early}/resign", json={}).status_code == 200
    assert db_rows(db_url, "SELECT * FROM rating_events") == []
    late = rated_game(alice, bob)
    play_out(alice, bob, late, ["take 1"] * 4)
    assert alice.post(f"/api/games/{late}/resign", json={}).json()["status"] == "finished"
    ratings = {m: client.get(f"/api/users/{m}").json()["ratings"]["nim"] for m in ("alice", "bob")}
    assert ratings["bob"]["rating"] > 1500 > ratings["alice"]["rating"]
    assert ratings["bob"]["games"] == ratings["alice"]["games"] == 1


def test_a_casual_game_between_members_is_not_rated(client: TestClient, db_url: str) -> None:
    alice, bob = pair(client)
    made = alice.post(
        "/api/games", json={"game": "nim", "options": {"stones": 9}, "seats": INVITED, "public": True}
    ).json()
    bob.post(f"/api/games/{made['id']}/join", json={"code": invite_code(made, 1)})
    play_out(alice, bob, made["id"], NINE_ONES)
    assert client.get("/api/users/alice").json()["ratings"] == {}
    assert db_rows(db_url, "SELECT * FROM ratings") == []


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "beginner"])
def test_a_rated_game_against_the_ai_moves_only_the_members_rating(client: TestClient, level: str) -> None:
    """Rated against the AI: the level's fixed rating in the pool (archimedes-2) takes part and
    never changes; the member's new rating is OpenSkill's against it."""
    member = sign_up(client, "challenger")
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": level}]
    made = member.post(
        "/api/games", json={"game": "archimedes", "seats": seats, "rated": True, "time_control": BLITZ}
    ).json()
    gid = made["id"]
    assert made["game"]["rated"] is True
    for _ in range(2):  # two moves of the member, each answered by the AI
        view = _wait(client, gid, lambda v: v["current_player"] == 0 and v["legal"])
        r = member.post(
            f"/api/games/{gid}/actions", json={"ply": view["ply"], "action": view["legal"][0]["action"]}
        )
        assert r.status_code == 200, r.text
    _wait(client, gid, lambda v: v["current_player"] == 0 and v["legal"])
    assert member.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    model = PlackettLuce()
    anchor = anchor_rating("archimedes-2", level)
    [[lost], [_]] = model.rate([[model.rating()], [model.rating(anchor.mu, anchor.sigma)]], ranks=[2, 1])
    rating = client.get("/api/users/challenger").json()["ratings"]["archimedes-2"]
    assert rating["rating"] == round(to_shown(lost.mu)) and rating["games"] == 1


def _wait(client: TestClient, gid: str, check: Any) -> dict[str, Any]:
    from tests.server.test_api import wait_for

    return wait_for(client, gid, check)


# --- leaderboards ----------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_leaderboard_lists_members_with_ten_rated_games_active_in_90_days(
    client: TestClient, db_url: str
) -> None:
    alice, bob = pair(client)
    carol = sign_up(client, "carol")
    for _ in range(9):
        play_out(alice, bob, rated_game(alice, bob), NINE_ONES)
    play_out(carol, bob, rated_game(carol, bob), NINE_ONES)
    board = client.get("/api/leaderboard/nim").json()
    assert board["pool"]["id"] == "nim"
    assert [p["username"] for p in board["players"]] == ["bob"]  # ten games; alice has nine
    play_out(alice, bob, rated_game(alice, bob), NINE_ONES)
    board = client.get("/api/leaderboard/nim").json()["players"]
    assert [(p["rank"], p["username"]) for p in board] == [(1, "alice"), (2, "bob")]
    assert board[0]["rating"] > board[1]["rating"] and board[0]["provisional"] is False
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as conn:
        old = datetime.now(UTC) - timedelta(days=91)
        conn.execute(sa.text("UPDATE ratings SET updated_at = :t WHERE pool = 'nim'"), {"t": old})
    engine.dispose()
    assert client.get("/api/leaderboard/nim").json()["players"] == []
    assert_error(client.get("/api/leaderboard/chess"), 404, "no_such_pool")


def test_meta_lists_every_rating_pool(client: TestClient) -> None:
    pools = {p["id"]: p for p in client.get("/api/meta").json()["rating_pools"]}
    assert {
        "agamemnon",
        "archimedes-2",
        "archimedes-3",
        "athos-2",
        "athos-3",
        "athos-4",
        "athos-teams",
    } <= set(pools)
    assert pools["athos-teams"]["teams"] is True and pools["athos-teams"]["players"] == 4


def test_a_result_the_maths_cannot_rate_still_ends_the_game(
    client: TestClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rating is written with the result; if it cannot be computed, the result is stored all
    the same (no game is kept from ending by its rating) and nothing is rated."""

    def refuse(*args: Any) -> None:
        raise ValueError("teams with different returns")

    monkeypatch.setattr("palaestra.server.service.rated.rated_result", refuse)
    alice, bob = pair(client)
    gid = rated_game(alice, bob)
    assert play_out(alice, bob, gid, NINE_ONES)["status"] == "finished"
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    assert db_rows(db_url, "SELECT * FROM rating_events") == []
