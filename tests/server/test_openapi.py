"""Issue 17, "the OpenAPI schema documents every response and error": a walk over the schema, and
a round of misuse whose every error answer must be documented (status and code) by its route."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.api.errors import CODES
from tests.server.test_abandoned import age, sweep
from tests.server.test_api import HUMANS, INVITED, code_of, create

pytestmark = pytest.mark.slow

#: routes that cannot fail on input and touch no database
NEVER_FAIL = {("get", "/healthz"), ("get", "/metrics"), ("get", "/api/meta")}
#: pages that touch no database
NO_DATABASE = NEVER_FAIL | {
    ("get", "/rules/{game}"),
    ("get", "/api/learn/{game}"),
    ("post", "/api/learn/{game}/{lesson_id}"),
}
RATE_LIMITED = {
    ("post", "/api/games"),
    ("post", "/api/seeks"),
    ("post", "/api/lobby/play-now"),
    ("post", "/api/challenges"),
    ("post", "/api/games/{game_id}/actions"),
    ("post", "/api/games/{game_id}/undo"),
    ("get", "/api/games/{game_id}/hint"),
    ("get", "/api/games/{game_id}/analysis"),
    ("post", "/api/account"),
    ("post", "/api/session"),
    ("post", "/api/session/passkey/options"),
    ("post", "/api/session/passkey"),
}
ERROR_REF = "#/components/schemas/ErrorBody"


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m, p, op) for p, item in schema["paths"].items() for m, op in item.items()]


def documented_codes(op: dict[str, Any], status: int) -> set[str]:
    doc = op["responses"].get(str(status))
    return set(re.findall(r"`([a-z_]+)`", doc["description"])) if doc else set()


def test_every_operation_documents_its_answer_and_its_errors(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    ops = operations(schema)
    assert len(ops) >= 17
    for method, path, op in ops:
        where = f"{method.upper()} {path}"
        ok = [s for s in op["responses"] if s.startswith("2")]
        assert len(ok) == 1, where
        content = op["responses"][ok[0]]["content"]
        if path.startswith("/api/"):
            assert content["application/json"]["schema"], where
        else:
            assert set(content) <= {"text/plain", "text/html", "application/json"}, where
        errors = {int(s): r for s, r in op["responses"].items() if not s.startswith("2")}
        if (method, path) in NEVER_FAIL:
            assert not errors, where
            continue
        assert (503 in errors) == ((method, path) not in NO_DATABASE), where  # the database may be down
        for status, response in errors.items():
            # (the HTML rules page documents its JSON errors under text/html: FastAPI's choice)
            assert [c["schema"] for c in response["content"].values()] == [{"$ref": ERROR_REF}], where
            codes = documented_codes(op, status)
            assert codes, f"{where} {status} names no error code"
            assert all(CODES[c][0] == status for c in codes), (where, status, codes)
        if op.get("parameters"):
            assert "invalid_request" in documented_codes(op, 422), where
        if "requestBody" in op:
            assert "malformed_json" in documented_codes(op, 400), where
            assert "body_too_large" in documented_codes(op, 413), where
        assert ((method, path) in RATE_LIMITED) == (429 in errors), where
    schemas = schema["components"]["schemas"]
    assert {"GameView", "CreatedGame", "GameSummary", "ErrorBody"} <= set(schemas)


def test_every_error_answered_in_a_round_of_misuse_is_documented(client: TestClient, db_url: str) -> None:
    """Each error answer below must be documented by its route, with its status and its code."""
    schema = client.get("/openapi.json").json()
    seen: list[tuple[str, str, int, str]] = []

    def call(method: str, template: str, game_id: str = "x", **kwargs: Any) -> Any:
        url = template.replace("{game_id}", game_id).replace("{seat}", str(kwargs.pop("seat", 1)))
        r = client.request(method, url, **kwargs)
        if r.status_code >= 400:
            seen.append((method.lower(), template, r.status_code, r.json()["error"]))
        return r

    g = "/api/games/{game_id}"
    hot = create(client, seats=HUMANS)
    friend = create(client, seats=INVITED, seed=None)
    gid, token = hot["id"], hot["seats"][0]["token"]
    fid, boss = friend["id"], friend["creator_token"]
    for template in (g, g + "/legal", g + "/record", g + "/replay?ply=0", g + "/analysis?ply=0"):
        call("GET", template, "nope")
    call("GET", g + "/replay?ply=99", gid)
    call("GET", g + "/replay?ply=-1", gid)
    call("GET", g + "/analysis?ply=0", gid)
    call("GET", g + "/hint", gid)
    call("GET", g + "/hint", fid, headers={"X-Seat-Token": friend["seats"][0]["token"]})
    call("GET", "/api/games?limit=0")
    call("POST", "/api/games", content=b"[1]", headers={"content-type": "application/json"})
    call("POST", "/api/games", content=b"{", headers={"content-type": "application/json"})
    call("POST", "/api/games", content=b"x" * 70_000, headers={"content-type": "application/json"})
    call("POST", "/api/games", json={"game": "nope", "seats": [{}]})
    call("POST", "/api/games", json={"game": "nim", "seats": [{}]})
    call("POST", "/api/games", json={"game": "nim", "seats": INVITED, "seed": 3})
    call("POST", "/api/games", json={"game": "athos", "options": {"board": "/etc/passwd"}, "seats": [{}, {}]})
    call(
        "POST", "/api/games", json={"game": "athos", "options": {"layout": {"format": 2}}, "seats": [{}, {}]}
    )
    deep = '{"game": "athos", "options": {"layout": ' + '{"a":' * 5000 + "1" + "}" * 5000 + "}}"
    call("POST", "/api/games", content=deep.encode(), headers={"content-type": "application/json"})
    call("POST", g + "/actions", gid, json={"token": "bad", "ply": 0, "action": 1})
    call("POST", g + "/actions", gid, json={"token": token, "ply": 5, "action": 1})
    call("POST", g + "/actions", gid, json={"token": token, "ply": 0, "action": 99})
    call("POST", g + "/actions", gid, json={"token": token, "ply": 0, "move": "dance"})
    call("POST", g + "/actions", gid, json={"token": token, "ply": 0})
    call("POST", g + "/actions", gid, json={"token": hot["seats"][1]["token"], "ply": 0, "action": 1})
    call("POST", g + "/undo", gid, json={"token": token, "ply": 0})
    call("POST", g + "/undo", gid, json={"token": "bad", "ply": 0})
    call("POST", g + "/resign", gid, json={"token": "bad"})
    call("POST", g + "/join", fid, json={"code": "bad"})
    code = code_of(friend, 1)
    call("POST", g + "/seats/{seat}/invitation", fid, headers={"X-Creator-Token": "bad"})
    call("POST", g + "/seats/{seat}/invitation", fid, seat=0, headers={"X-Creator-Token": boss})
    call("POST", g + "/seats/{seat}/invitation", fid, seat=9, headers={"X-Creator-Token": boss})
    call("DELETE", g + "/seats/{seat}/invitation", fid, seat=1)
    assert client.post(f"/api/games/{fid}/join", json={"code": code}).status_code == 200
    call("POST", g + "/join", fid, json={"code": code})
    call("DELETE", g + "/seats/{seat}/invitation", fid, headers={"X-Creator-Token": boss})
    assert client.post(f"/api/games/{gid}/resign", json={"token": token}).status_code == 200
    call("POST", g + "/actions", gid, json={"token": token, "ply": 0, "action": 1})
    call("POST", g + "/resign", gid, json={"token": token})
    call("GET", g + "/hint", gid, headers={"X-Seat-Token": token})
    call("GET", g + "/analysis?ply=7", gid)
    # an abandoned game (tests/server/test_abandoned.py): every change refused
    left = create(client, seats=INVITED, seed=None, hints=True)
    lid, ltoken = left["id"], left["seats"][0]["token"]
    age(db_url, lid, days=2)
    assert sweep(client) == 1
    call("POST", g + "/actions", lid, json={"token": ltoken, "ply": 0, "action": 1})
    call("POST", g + "/resign", lid, json={"token": ltoken})
    call("POST", g + "/undo", lid, json={"token": ltoken, "ply": 0})
    call("POST", g + "/join", lid, json={"code": code_of(left, 1)})
    call("GET", g + "/hint", lid, headers={"X-Seat-Token": ltoken})
    call("POST", g + "/seats/{seat}/invitation", lid, headers={"X-Creator-Token": left["creator_token"]})
    assert sum(1 for *_, err in seen if err == "game_abandoned") == 6
    statuses = {s for *_, s, _ in seen}
    assert {400, 403, 404, 409, 410, 413, 422} <= statuses, statuses
    for method, template, status, err in seen:
        op = schema["paths"][template.split("?")[0]][method]
        assert err in documented_codes(op, status), (
            f"{method.upper()} {template}: {status} {err} undocumented"
        )


def test_every_error_of_a_round_of_account_misuse_is_documented(client: TestClient) -> None:
    """The accounts' errors (issue 28), each documented by its route with its status and code."""
    schema = client.get("/openapi.json").json()
    seen: list[tuple[str, str, int, str]] = []

    def call(method: str, template: str, url: str | None = None, **kwargs: Any) -> Any:
        r = client.request(method, url or template, **kwargs)
        if r.status_code >= 400:
            seen.append((method.lower(), template, r.status_code, r.json()["error"]))
        return r

    good = {"username": "misuser", "password": "a decent passphrase"}
    call("POST", "/api/account", json={"username": "x", "password": "a decent passphrase"})
    call("POST", "/api/account", json={"username": "misuser", "password": "short"})
    assert call("POST", "/api/account", json=good).status_code == 201
    csrf = client.get("/api/account").json()["csrf_token"]
    call("POST", "/api/account", json={"username": "MISUSER", "password": "another passphrase"})
    call("DELETE", "/api/session")
    call("POST", "/api/account/password", json={"current_password": "wrong wrong", "new_password": "x" * 12})
    headers = {"X-CSRF-Token": csrf}
    call(
        "POST",
        "/api/account/password",
        json={"current_password": "wrong wrong", "new_password": "x" * 12},
        headers=headers,
    )
    call("POST", "/api/games", json={"game": "nim", "seats": INVITED, "rated": True}, headers=headers)
    call("DELETE", "/api/account", json={"password": "not it at all"}, headers=headers)
    call("GET", "/api/users/{name}", "/api/users/nobody")
    call("GET", "/api/users/{name}/games", "/api/users/nobody/games")
    call("GET", "/api/leaderboard/{pool}", "/api/leaderboard/chess")
    client.cookies.clear()
    call("GET", "/api/account")
    call("POST", "/api/session", json={"username": "misuser", "password": "wrong password"})
    call("POST", "/api/account/claim", json={"seats": []})
    codes = {err for *_, err in seen}
    assert {
        "bad_username",
        "weak_password",
        "username_taken",
        "csrf",
        "wrong_password",
        "bad_rated",
        "user_not_found",
        "no_such_pool",
        "sign_in_required",
        "bad_credentials",
    } <= codes, codes
    for method, template, status, err in seen:
        op = schema["paths"][template][method]
        assert err in documented_codes(op, status), (
            f"{method.upper()} {template}: {status} {err} undocumented"
        )
