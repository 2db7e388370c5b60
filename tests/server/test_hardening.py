"""Issue 17: the web app facing the internet. One regression test (or more) per numbered finding
of the issue, each on SQLite and on a real PostgreSQL (the ``client`` and ``db_url`` fixtures)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.db import Store
from tests.server.test_api import HUMANS, INVITED, assert_error, code_of, create, play, wait_for


def post_json(client: TestClient, url: str, body: Any) -> Any:
    """POST ``body`` as JSON with escapes (``"\\ud800"``), as a hostile client would send it."""
    return client.post(url, content=json.dumps(body).encode(), headers={"content-type": "application/json"})


def no_sql(body: dict[str, Any]) -> None:
    text = str(body).lower()
    for word in ("select", "insert", "update ", "games.", "sqlite", "psycopg", "parameters"):
        assert word not in text, body


# --- finding 1: requests open server files ------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("path", ["/dev/urandom", "/dev/zero", "/etc/passwd", "/nonexistent/board.json"])
def test_finding1_a_board_option_naming_a_file_is_refused_without_opening_it(
    client: TestClient, path: str
) -> None:
    body = {"game": "athos", "options": {"board": path}, "seats": [{"joined": True}, {}]}
    assert_error(client.post("/api/games", json=body), 400, "option_not_allowed")
    assert client.get("/api/games").json() == []


@pytest.mark.slow
def test_finding1_meta_does_not_offer_file_options(client: TestClient) -> None:
    athos = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "athos")
    assert "board" not in {o["name"] for o in athos["options"]}
    assert "players" in {o["name"] for o in athos["options"]}


def test_finding1_a_stored_row_naming_a_file_is_never_loaded(client: TestClient, db_url: str) -> None:
    """A row written before the fix (options with a board path) is left out of the lobby."""
    good = create(client)["id"]
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE games SET game = 'athos', options = :o WHERE id = :i"),
            {"o": '{"board": "/dev/zero"}', "i": good},
        )
    store.close()
    other = create(client)["id"]
    with TestClient(create_app(db_url, ai_delay=0.0)) as fresh:  # nothing cached: rows from the database
        r = fresh.get("/api/games")
        assert r.status_code == 200
        assert [g["id"] for g in r.json()] == [other]


# --- finding 2: one bad name breaks the lobby ---------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", ["\ud800", "a\udfffb", "x" * 41, "tab\there", "nul\x00"])
def test_finding2_bad_names_are_refused_and_never_stored(client: TestClient, name: str) -> None:
    body = {"game": "nim", "seats": [{"kind": "human", "joined": True, "name": name}, {"kind": "human"}]}
    assert_error(post_json(client, "/api/games", body), 422, "invalid_request")
    assert client.get("/api/games").json() == []
    gid = create(client, seats=INVITED, seed=None)["id"]
    # joining with such a name is refused too, and the seat stays free
    code = client.get(f"/api/games/{gid}").json()  # the view
    assert code["seats"][1]["joined"] is False
    r = post_json(client, f"/api/games/{gid}/join", {"token": "whatever", "name": name})
    assert_error(r, 422, "invalid_request")


def test_finding2_names_are_trimmed_and_a_blank_name_is_no_name(client: TestClient) -> None:
    body = {"game": "nim", "seats": [{"kind": "human", "joined": True, "name": "  Ana  "}, {"name": " "}]}
    view = client.post("/api/games", json=body).json()["game"]
    assert [s["name"] for s in view["seats"]] == ["Ana", ""]
    body["seats"][0]["name"] = "Ünïcödé 名前 ✓"
    assert client.post("/api/games", json=body).status_code == 201


def test_finding2_a_row_that_cannot_be_shown_is_skipped_not_a_500(client: TestClient, db_url: str) -> None:
    bad = create(client)["id"]
    store = Store(db_url)
    with store.engine.begin() as conn:  # as written by the old server: a lone surrogate in a name
        conn.execute(
            sa.text("UPDATE games SET seats = :s WHERE id = :i"),
            {"s": '[{"kind": "human", "name": "\\ud800"}, {"kind": "human", "name": ""}]', "i": bad},
        )
    store.close()
    good = create(client)["id"]
    with TestClient(create_app(db_url, ai_delay=0.0)) as fresh:  # nothing cached: rows from the database
        r = fresh.get("/api/games")
        assert r.status_code == 200
        assert [g["id"] for g in r.json()] == [good]


# --- finding 9: 500 where 4xx or 503 is due -----------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", [2**63, 2**64, -1, 10**30])
def test_finding9_seeds_outside_64_bits_are_422(client: TestClient, seed: int) -> None:
    assert_error(
        client.post("/api/games", json={"game": "nim", "seats": HUMANS, "seed": seed}), 422, "invalid_request"
    )


def test_finding9_nul_in_paths_is_404(client: TestClient) -> None:
    for path in ["/static/%00", "/static/a%00b.js", "/games/nim/web/%00", "/games/athos/web/x%00.js"]:
        assert client.get(path).status_code == 404, path
    for path in ["/api/games/%00", "/api/games/%00/legal", "/api/games/a%00b/record"]:
        assert_error(client.get(path), 404, "game_not_found")
    assert_error(client.post("/api/games/%00/join", json={"token": "abc"}), 404, "game_not_found")


def test_finding9_database_down_is_a_clean_503(client: TestClient) -> None:
    created = create(client)
    gid, t0 = created["id"], created["seats"][0]["token"]
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    working = store.engine
    store.engine = sa.create_engine("sqlite:////nonexistent-dir/palaestra.sqlite3")
    try:
        for r in [
            client.post("/api/games", json={"game": "nim", "seats": HUMANS}),
            client.get("/api/games"),
            client.get("/api/games/abcdef012345"),
            play(client, gid, t0, 0, move="take 1"),
            client.get("/readyz"),
        ]:
            assert_error(r, 503, "storage_unavailable")
            no_sql(r.json())
        assert client.get("/healthz").json() == {"status": "ok"}
    finally:
        store.engine = working
    # the refused action changed nothing, and the game goes on once the database is back
    assert client.get(f"/api/games/{gid}").json()["ply"] == 0
    assert play(client, gid, t0, 0, move="take 1").status_code == 200
    assert client.get("/readyz").json() == {"status": "ready"}


# --- finding 3 (bodies) and 10 (headers) --------------------------------------------------------
def test_finding3_large_bodies_are_refused_unread(client: TestClient) -> None:
    big = b'{"game": "nim", "seats": [], "x": "' + b"a" * (70 * 1024) + b'"}'
    r = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert_error(r, 413, "body_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while received
        yield b'{"game": "nim", "x": "'
        for _ in range(100):
            yield b"a" * 1024
        yield b'"}'

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert_error(r, 413, "body_too_large")
    assert client.get("/api/games").json() == []


def test_finding10_security_headers_on_pages_api_and_errors(client: TestClient) -> None:
    for r in [
        client.get("/"),
        client.get("/api/meta"),
        client.get("/api/games/nosuch"),
        client.get("/static/app.js"),
    ]:
        csp = r.headers["content-security-policy"]
        assert (
            "frame-ancestors 'none'" in csp
            and "script-src 'self'" in csp
            and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        )
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"


# --- finding 8: SQLite in WAL mode ----------------------------------------------------------------
def test_finding8_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(sa.text("PRAGMA busy_timeout")).scalar() == 10000
    store.close()


# --- finding 4: seats belong to their players -----------------------------------------------------
def test_finding4_invitations_are_single_use_and_the_creator_cannot_act_for_the_friend(
    client: TestClient,
) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid, mine, code = created["id"], created["seats"][0]["token"], code_of(created, 1)
    joined = client.post(f"/api/games/{gid}/join", json={"code": code, "name": "Bea"}).json()
    friend = joined["token"]
    assert friend and friend != code and joined["seat"] == 1
    # a fourth person opening the used link gets told so, and no seat
    assert_error(client.post(f"/api/games/{gid}/join", json={"code": code}), 410, "invitation_used")
    assert play(client, gid, mine, 0, move="take 1").status_code == 200
    # the creator's token and the old code cannot act, resign or hint for the friend
    assert_error(play(client, gid, mine, 1, move="take 1"), 409, "not_your_turn")
    assert_error(play(client, gid, code, 1, move="take 1"), 403, "wrong_token")
    assert_error(client.post(f"/api/games/{gid}/resign", json={"token": code}), 403, "wrong_token")
    assert play(client, gid, friend, 1, move="take 1").status_code == 200


def test_finding4_the_creator_revokes_and_reissues_an_unused_invitation(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid, boss, old = created["id"], created["creator_token"], code_of(created, 1)
    url = f"/api/games/{gid}/seats/1/invitation"
    assert_error(
        client.post(url, headers={"X-Creator-Token": created["seats"][0]["token"]}), 403, "not_creator"
    )
    assert_error(
        client.post(f"/api/games/{gid}/seats/0/invitation", headers={"X-Creator-Token": boss}),
        409,
        "no_invitation",
    )
    fresh = client.post(url, headers={"X-Creator-Token": boss}).json()["invite"].rsplit("/", 1)[1]
    assert fresh != old
    assert_error(client.post(f"/api/games/{gid}/join", json={"code": old}), 410, "invitation_revoked")
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["invitation"] == "open"
    assert client.delete(url, headers={"X-Creator-Token": boss}).json() == {"seat": 1, "invite": None}
    assert_error(client.post(f"/api/games/{gid}/join", json={"code": fresh}), 410, "invitation_revoked")
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["invitation"] == "revoked"
    newest = client.post(url, headers={"X-Creator-Token": boss}).json()["invite"].rsplit("/", 1)[1]
    assert client.post(f"/api/games/{gid}/join", json={"code": newest}).status_code == 200
    # a taken seat's invitation cannot be withdrawn
    assert_error(client.post(url, headers={"X-Creator-Token": boss}), 409, "seat_taken")


def test_finding4_finished_games_cannot_be_joined(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid = created["id"]
    client.post(f"/api/games/{gid}/resign", json={"token": created["seats"][0]["token"]})
    assert_error(client.post(f"/api/games/{gid}/join", json={"code": code_of(created, 1)}), 409, "game_over")


def test_finding10_the_lobby_lists_only_public_games(client: TestClient) -> None:
    public = create(client, public=True)["id"]
    create(client, public=False)
    create(client, seats=INVITED, seed=None, public=False)
    assert [g["id"] for g in client.get("/api/games").json()] == [public]


@pytest.mark.slow
def test_finding10_hints_only_against_the_ai_in_hot_seat_or_when_allowed(client: TestClient) -> None:
    friends = create(client, seats=INVITED, seed=None)
    assert friends["game"]["hints"] is False
    r = client.get(f"/api/games/{friends['id']}/hint", headers={"X-Seat-Token": friends["seats"][0]["token"]})
    assert_error(r, 403, "hints_off")
    allowed = create(client, seats=INVITED, seed=None, hints=True)
    r = client.get(f"/api/games/{allowed['id']}/hint", headers={"X-Seat-Token": allowed["seats"][0]["token"]})
    assert r.status_code == 200 and r.json()
    hot = create(client)  # hot seat
    assert hot["game"]["hints"] is True
    r = client.get(f"/api/games/{hot['id']}/hint", headers={"X-Seat-Token": hot["seats"][0]["token"]})
    assert r.status_code == 200


# --- finding 5: draws nobody can predict, everybody can verify ------------------------------------
def test_finding5_seeds_only_where_no_invited_person_is_disadvantaged(client: TestClient) -> None:
    body = {"game": "nim", "options": {"coin": True}, "seats": INVITED, "seed": 7}
    assert_error(client.post("/api/games", json=body), 400, "seed_not_allowed")
    body["seats"] = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
    assert client.post("/api/games", json=body).json()["game"]["seed"] == 7


def test_finding5_the_secret_is_committed_hidden_then_revealed_and_verifies(client: TestClient) -> None:
    from palaestra.core.record import Record
    from palaestra.server.fairness import commitment, verify

    created = create(client, options={"coin": True, "stones": 9}, seats=INVITED, seed=None)
    gid, t0 = created["id"], created["seats"][0]["token"]
    t1 = client.post(f"/api/games/{gid}/join", json={"code": code_of(created, 1)}).json()["token"]
    chance = created["game"]["chance"]
    assert chance["secret"] is None and len(chance["commitment"]) == 64
    assert created["game"]["seed"] is None and created["game"]["state"]["seed"] is None
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["chance"]["secret"] is None and record["seed"] is None
    tokens = [t0, t1]
    view = client.get(f"/api/games/{gid}").json()
    while view["status"] == "active":
        if view["legal"]:
            r = play(
                client, gid, tokens[view["current_player"]], view["ply"], action=view["legal"][0]["action"]
            )
            assert r.status_code == 200, r.text
        view = client.get(f"/api/games/{gid}").json()
    assert any(m["player"] == -1 for m in view["moves"])  # the coin was drawn
    record = client.get(f"/api/games/{gid}/record").json()
    secret = record["chance"]["secret"]
    assert secret and commitment(secret) == chance["commitment"]
    verdict = verify(Record.from_json(record), record["chance"])
    assert verdict.fair and verdict.draws >= 1
    # a draw changed after the fact is caught
    flipped = json.loads(json.dumps(record))
    draw = next(m for m in flipped["moves"] if m["player"] == -1)
    draw["move"] = "first 1" if draw["move"] == "first 0" else "first 0"
    assert not verify(Record.from_json(flipped), flipped["chance"]).fair
    # another secret does not match the commitment
    assert not verify(Record.from_json(record), {**record["chance"], "secret": "0" * 64}).fair


def test_finding5_palaestra_replay_verifies_the_draws(client: TestClient, tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from palaestra.cli import app

    created = create(client, options={"coin": True, "stones": 3}, seed=None)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    view = client.get(f"/api/games/{gid}").json()
    while view["status"] == "active":
        if view["legal"]:
            play(client, gid, tokens[view["current_player"]], view["ply"], action=view["legal"][0]["action"])
        view = client.get(f"/api/games/{gid}").json()
    record = client.get(f"/api/games/{gid}/record").json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    r = CliRunner().invoke(app, ["replay", str(good)])
    assert r.exit_code == 0, r.output
    assert "draws fair: all 1 draws follow from the committed secret" in r.output
    record["chance"]["secret"] = "f" * 64  # a secret other than the committed one
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    r = CliRunner().invoke(app, ["replay", str(bad)])
    assert r.exit_code == 1 and "NOT FAIR" in r.output


# --- finding 6: no stuck game ---------------------------------------------------------------------
@pytest.mark.slow
def test_finding6_a_failed_ai_write_is_retried_and_the_game_goes_on(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from palaestra.server.db import StorageError

    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.moves.retry_delays = (0.01, 0.05)
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
    created = create(client, options={"stones": 9}, seats=seats, seed=None)
    gid, token = created["id"], created["seats"][0]["token"]
    real = hub.store.update
    calls: list[int] = []

    def flaky(*args: Any, **kwargs: Any) -> None:
        calls.append(kwargs["ply"])
        if len(calls) in (2, 3, 4):  # the AI's first three tries: the database is gone
            raise StorageError("the game store is unavailable right now; try again in a moment")
        real(*args, **kwargs)

    monkeypatch.setattr(hub.store, "update", flaky)
    assert play(client, gid, token, 0, move="take 1").status_code == 200
    view = wait_for(client, gid, lambda v: v["ply"] == 2)
    assert view["current_player"] == 0 and calls[:5] == [1, 2, 2, 2, 2]
    # the human goes on: no 409 not_your_turn
    assert play(client, gid, token, 2, move="take 1").status_code == 200


def test_finding10_a_binary_websocket_frame_gets_a_close_frame(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    gid = create(client)["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\x00\x01")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003


# --- finding 3: limits ----------------------------------------------------------------------------
@pytest.fixture
def strict(db_url: str) -> Iterator[TestClient]:
    from palaestra.server.settings import Settings

    settings = Settings(rate_create="3/minute", rate_hints="2/minute", ws_per_client=2, ws_total=3)
    with TestClient(create_app(db_url, ai_delay=0.0, settings=settings)) as c:
        yield c


@pytest.mark.slow
def test_finding3_rate_limits_per_client(strict: TestClient) -> None:
    games = [create(strict) for _ in range(3)]
    r = strict.post("/api/games", json={"game": "nim", "seats": HUMANS})
    assert_error(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) >= 1
    gid, token = games[0]["id"], games[0]["seats"][0]["token"]
    for _ in range(2):
        assert strict.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": token}).status_code == 200
    assert_error(strict.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": token}), 429, "rate_limited")
    # other requests are not limited by these
    assert play(strict, gid, token, 0, move="take 1").status_code == 200
    assert "palaestra_rate_limited_total" in strict.get("/metrics").text


def test_finding3_websockets_are_capped_per_client(strict: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    gid = create(strict)["id"]
    with (
        strict.websocket_connect(f"/api/games/{gid}/ws") as a,
        strict.websocket_connect(f"/api/games/{gid}/ws") as b,
    ):
        assert a.receive_json()["type"] == b.receive_json()["type"] == "state"
        with (
            strict.websocket_connect(f"/api/games/{gid}/ws") as c,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            c.receive_json()
        assert closed.value.code == 1013
    # closed sockets free their places
    with strict.websocket_connect(f"/api/games/{gid}/ws") as d:
        assert d.receive_json()["type"] == "state"


def test_finding10_prometheus_metrics(client: TestClient) -> None:
    created = create(client)
    play(client, created["id"], created["seats"][0]["token"], 0, move="take 1")
    text = client.get("/metrics").text
    assert (
        'palaestra_request_seconds_count{method="POST",route="/api/games/{game_id}/actions",status="200"} 1.0'
        in text
    )
    assert "palaestra_actions_total 1.0" in text
    assert "palaestra_games_loaded 1.0" in text and "palaestra_websockets" in text


# --- finding 7: memory bounded ----------------------------------------------------------------------
def test_finding7_idle_games_are_evicted_and_loaded_again_on_demand(db_url: str) -> None:
    from palaestra.server.settings import Settings

    with TestClient(create_app(db_url, ai_delay=0.0, settings=Settings(idle_evict_seconds=0.0))) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        created = create(c)
        gid, t0 = created["id"], created["seats"][0]["token"]
        assert play(c, gid, t0, 0, move="take 1").status_code == 200
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            assert hub.evict_idle() == 0  # watched: kept
        assert hub.evict_idle() == 1 and gid not in hub.sessions.loaded
        view = c.get(f"/api/games/{gid}").json()
        assert view["ply"] == 1 and gid in hub.sessions.loaded
        assert play(c, gid, created["seats"][1]["token"], 1, move="take 1").status_code == 200


def test_finding7_start_up_keeps_only_games_waiting_for_the_server(db_url: str) -> None:
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        idle = create(c)["id"]
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        assert idle not in c.app.state.hub.sessions.loaded  # type: ignore[attr-defined]
        assert c.get(f"/api/games/{idle}").json()["ply"] == 0
