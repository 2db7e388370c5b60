"""Accounts (issue 28, docs/accounts.md): signing up and in, sessions and their cookie, CSRF,
password changes, seats held by account, claiming a guest's games, export and deletion. Every
test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from palaestra.server.api.auth import COOKIE, SECURE_COOKIE
from palaestra.server.app import create_app
from palaestra.server.service.errors import DomainError
from palaestra.server.service.passwords import RESERVED, USERNAME, check_password, check_username
from tests.server.accounts_helpers import PASSWORD, invite_code, sign_in, sign_up
from tests.server.test_api import HUMANS, INVITED, assert_error


def db_rows(db_url: str, query: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(query), params))
    finally:
        engine.dispose()


# --- signing up ------------------------------------------------------------------------------------
def test_sign_up_signs_in_with_an_httponly_lax_cookie_and_a_csrf_token(client: TestClient) -> None:
    r = client.post("/api/account", json={"username": "Ada_1", "password": PASSWORD})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["username"] == "Ada_1" and len(body["csrf_token"]) >= 20
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http (the test client's scheme)
    me = client.get("/api/account")
    assert me.status_code == 200
    assert me.json()["username"] == "Ada_1" and me.json()["csrf_token"] == body["csrf_token"]


def test_behind_https_the_cookie_is_secure_with_the_host_prefix(db_url: str) -> None:
    with TestClient(create_app(db_url, ai_delay=0.0), base_url="https://testserver") as client:
        r = client.post("/api/account", json={"username": "secure", "password": PASSWORD})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{SECURE_COOKIE}=") and "Secure" in cookie and "Domain" not in cookie
        assert client.get("/api/account").json()["username"] == "secure"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "why"),
    [("ab", "short"), ("a" * 21, "long"), ("bad name", "space"), ("bäd", "letter"), ("Admin", "reserved")],
)
def test_bad_usernames_are_refused_and_nothing_is_made(client: TestClient, name: str, why: str) -> None:
    assert_error(
        client.post("/api/account", json={"username": name, "password": PASSWORD}), 400, "bad_username"
    )
    assert client.get("/api/account").status_code == 401


def test_a_username_is_unique_without_regard_to_case(client: TestClient) -> None:
    sign_up(client, "Hypatia")
    r = client.post("/api/account", json={"username": "hYPATIA", "password": PASSWORD + "x"})
    assert_error(r, 409, "username_taken")


@pytest.mark.slow
@pytest.mark.parametrize("password", ["short", "1234567890", "QWERTYUIOP", "iloveyou12"])
def test_weak_and_common_passwords_are_refused(client: TestClient, password: str) -> None:
    assert_error(
        client.post("/api/account", json={"username": "weakling", "password": password}), 400, "weak_password"
    )


def test_only_an_argon2id_hash_with_owasp_parameters_is_stored(client: TestClient, db_url: str) -> None:
    sign_up(client, "hashed")
    [row] = db_rows(db_url, "SELECT password_hash FROM accounts WHERE username_key = 'hashed'")
    assert row.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert PASSWORD not in row.password_hash


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_the_username_rule_is_the_documented_one(name: str) -> None:
    expected = bool(USERNAME.fullmatch(name)) and name.casefold() not in RESERVED
    try:
        check_username(name)
        accepted = True
    except DomainError as err:
        assert err.code == "bad_username"
        accepted = False
    assert accepted == expected


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_the_password_rule_refuses_short_passwords(password: str) -> None:
    try:
        check_password(password)
    except DomainError as err:
        assert err.code == "weak_password"
    else:
        assert len(password) >= 10


# --- signing in and out ----------------------------------------------------------------------------
def test_every_sign_in_opens_a_new_session_and_sign_out_ends_only_that_one(client: TestClient) -> None:
    first = sign_up(client, "sessions")
    second = sign_in(client, "sessions")
    assert second.cookie != first.cookie and second.csrf != first.csrf
    assert second.delete("/api/session").json() == {"signed_out": True}
    assert_error(second.get("/api/account"), 401, "sign_in_required")
    assert first.get("/api/account").json()["username"] == "sessions"


@pytest.mark.slow
def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "known")
    wrong = client.post("/api/session", json={"username": "known", "password": "not the password"})
    unknown = client.post("/api/session", json={"username": "unknown", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "bad_credentials", "message": wrong.json()["message"]}
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


def test_signed_in_changes_need_the_csrf_token(client: TestClient) -> None:
    member = sign_up(client, "csrfcheck")
    assert_error(member.delete("/api/session", csrf=False), 403, "csrf")
    bad = member.delete("/api/session", csrf=False, headers={"X-CSRF-Token": "forged"})
    assert_error(bad, 403, "csrf")
    create = {"game": "nim", "seats": HUMANS}
    assert_error(member.post("/api/games", csrf=False, json=create), 403, "csrf")
    assert member.get("/api/account").status_code == 200  # reads need none; the session lives on
    assert member.post("/api/games", json=create).status_code == 201


@pytest.mark.slow
def test_a_password_change_ends_every_other_session(client: TestClient) -> None:
    here = sign_up(client, "changer")
    elsewhere = sign_in(client, "changer")
    new = "a much better passphrase"
    wrong = here.post(
        "/api/account/password", json={"current_password": "nope nope nope", "new_password": new}
    )
    assert_error(wrong, 403, "wrong_password")
    r = here.post("/api/account/password", json={"current_password": PASSWORD, "new_password": new})
    assert r.status_code == 200, r.text
    assert here.get("/api/account").status_code == 200
    assert_error(elsewhere.get("/api/account"), 401, "sign_in_required")
    assert_error(
        client.post("/api/session", json={"username": "changer", "password": PASSWORD}),
        401,
        "bad_credentials",
    )
    assert sign_in(client, "changer", new).username == "changer"


# --- seats held by account -------------------------------------------------------------------------
@pytest.mark.slow
def test_a_signed_in_creator_acts_from_another_device_without_the_token(client: TestClient) -> None:
    phone = sign_up(client, "traveller")
    made = phone.post("/api/games", json={"game": "nim", "seats": INVITED}).json()
    gid = made["id"]
    seat = made["game"]["seats"][0]
    assert seat["member"] == "traveller" and seat["name"] == "traveller"
    friend = client.post(f"/api/games/{gid}/join", json={"code": invite_code(made, 1)}).json()
    laptop = sign_in(client, "traveller")
    r = laptop.post(f"/api/games/{gid}/actions", json={"ply": 0, "move": "take 1"})
    assert r.status_code == 200, r.text
    # the friend (a guest) plays by token; the account cannot play the friend's seat
    assert_error(
        laptop.post(f"/api/games/{gid}/actions", json={"ply": 1, "move": "take 1"}), 409, "not_your_turn"
    )
    r = client.post(f"/api/games/{gid}/actions", json={"token": friend["token"], "ply": 1, "move": "take 1"})
    assert r.status_code == 200
    # the creator's token still works, and a stranger's account holds no seat
    r = client.post(
        f"/api/games/{gid}/actions", json={"token": made["seats"][0]["token"], "ply": 2, "move": "take 1"}
    )
    assert r.status_code == 200
    stranger = sign_up(client, "stranger")
    assert_error(stranger.post(f"/api/games/{gid}/resign", json={}), 403, "wrong_token")
    assert_error(client.post(f"/api/games/{gid}/resign", json={}), 401, "sign_in_required")


def test_a_signed_in_joiner_holds_the_seat_by_account(client: TestClient) -> None:
    host = sign_up(client, "host")
    made = host.post("/api/games", json={"game": "nim", "seats": INVITED}).json()
    guest = sign_up(client, "joiner")
    joined = guest.post(
        f"/api/games/{made['id']}/join", json={"code": invite_code(made, 1), "name": "ignored"}
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["game"]["seats"][1]["member"] == "joiner"
    assert host.post(f"/api/games/{made['id']}/actions", json={"ply": 0, "move": "take 2"}).status_code == 200
    assert (
        guest.post(f"/api/games/{made['id']}/actions", json={"ply": 1, "move": "take 2"}).status_code == 200
    )


@pytest.mark.slow
def test_a_guest_who_signs_up_claims_the_games_of_their_tokens(client: TestClient) -> None:
    first = client.post("/api/games", json={"game": "nim", "seats": INVITED, "public": False}).json()
    second = client.post("/api/games", json={"game": "nim", "seats": HUMANS, "public": True}).json()
    member = sign_up(client, "former_guest")
    assert member.get("/api/users/former_guest/games").json()["total"] == 0
    claims = [
        {"game": first["id"], "token": first["seats"][0]["token"]},
        {"game": second["id"], "token": second["seats"][1]["token"]},
        {"game": second["id"], "token": "not-a-token"},
        {"game": "nosuchgame", "token": "whatever"},
    ]
    r = member.post("/api/account/claim", json={"seats": claims})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["claimed"] == [{"game": first["id"], "seat": 0}, {"game": second["id"], "seat": 1}]
    assert [x["error"] for x in out["refused"]] == ["wrong_token", "game_not_found"]
    mine = member.get("/api/users/former_guest/games").json()
    assert {g["id"] for g in mine["games"]} == {first["id"], second["id"]}
    # others see the public game only; the member plays the claimed seat from this account
    others = client.get("/api/users/former_guest/games").json()
    assert [g["id"] for g in others["games"]] == [second["id"]]
    # (the invited friend joins first: nobody moves before, issue 30 finding 14)
    assert (
        client.post(f"/api/games/{first['id']}/join", json={"code": invite_code(first, 1)}).status_code == 200
    )
    r = member.post(f"/api/games/{first['id']}/actions", json={"ply": 0, "move": "take 1"})
    assert r.status_code == 200, r.text
    other = sign_up(client, "thief")
    stolen = other.post("/api/account/claim", json={"seats": claims[:1]}).json()
    assert stolen == {"claimed": [], "refused": [{"game": first["id"], "error": "seat_taken"}]}


# --- export and deletion ---------------------------------------------------------------------------
def test_the_export_holds_the_profile_and_every_game_record(client: TestClient) -> None:
    member = sign_up(client, "exporter")
    made = member.post("/api/games", json={"game": "nim", "seats": HUMANS}).json()
    r = member.get("/api/account/export")
    assert r.status_code == 200
    assert 'filename="palaestra-exporter.json"' in r.headers["content-disposition"]
    doc = r.json()
    assert doc["account"]["username"] == "exporter"
    assert [g["id"] for g in doc["games"]] == [made["id"]]
    assert doc["games"][0]["record"]["game"] == "nim"
    assert_error(client.get("/api/account/export"), 401, "sign_in_required")


def test_deleting_an_account_keeps_its_games_for_the_opponents(client: TestClient, db_url: str) -> None:
    leaving = sign_up(client, "leaving")
    made = leaving.post("/api/games", json={"game": "nim", "seats": INVITED}).json()
    gid = made["id"]
    friend = sign_up(client, "staying")
    friend.post(f"/api/games/{gid}/join", json={"code": invite_code(made, 1)})
    assert leaving.post(f"/api/games/{gid}/actions", json={"ply": 0, "move": "take 1"}).status_code == 200
    assert_error(
        leaving.request("DELETE", "/api/account", json={"password": "wrong password!"}), 403, "wrong_password"
    )
    r = leaving.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert_error(leaving.get("/api/account"), 401, "sign_in_required")
    assert_error(client.get("/api/users/leaving"), 404, "user_not_found")
    view = client.get(f"/api/games/{gid}").json()
    assert view["seats"][0]["name"] == "deleted player" and view["seats"][0]["member"] is None
    assert view["moves"][0]["move"] == "take 1"
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["players"][0] == "deleted player"
    assert friend.post(f"/api/games/{gid}/actions", json={"ply": 1, "move": "take 1"}).status_code == 200
    for table in ("accounts", "account_sessions", "ratings", "rating_events", "passkeys"):
        rows = db_rows(db_url, f"SELECT COUNT(*) AS n FROM {table}")
        assert rows[0].n == (1 if table in ("accounts", "account_sessions") else 0), table
    assert sign_up(client, "Leaving").username == "Leaving"  # the name is free again


# --- profiles ----------------------------------------------------------------------------------
def test_a_profile_shows_joined_games_and_no_ratings_before_a_rated_game(client: TestClient) -> None:
    member = sign_up(client, "profiled")
    for _ in range(3):
        member.post("/api/games", json={"game": "nim", "seats": HUMANS, "public": True})
    profile = client.get("/api/users/PROFILED").json()
    assert profile["username"] == "profiled" and profile["games"] == 3 and profile["ratings"] == {}
    assert len(profile["joined"]) == 10  # a date
    page = client.get("/api/users/profiled/games?game=nim").json()
    assert page["total"] == 3 and page["pages"] == 1 and len(page["games"]) == 3
    assert client.get("/api/users/profiled/games?game=athos").json()["total"] == 0
    assert_error(client.get("/api/users/nobody_here"), 404, "user_not_found")


def test_games_come_in_pages_newest_first(client: TestClient) -> None:
    member = sign_up(client, "pager")
    made = [
        member.post("/api/games", json={"game": "nim", "seats": HUMANS, "public": True}).json()["id"]
        for _ in range(23)
    ]
    first = client.get("/api/users/pager/games").json()
    second = client.get("/api/users/pager/games?page=2").json()
    assert first["total"] == 23 and first["pages"] == 2
    assert [g["id"] for g in first["games"] + second["games"]] == made[::-1]


def test_the_session_route_tells_guests_and_members_apart_without_an_error(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"signed_in": False, "username": None, "csrf_token": None}
    member = sign_up(client, "whoami")
    assert member.get("/api/session").json() == {
        "signed_in": True,
        "username": "whoami",
        "csrf_token": member.csrf,
    }
