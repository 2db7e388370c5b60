"""Undo (server side, stored), the AI's view of finished games, per-game web hooks, the version
counter and its migration, storage failures: the web app's API beyond tests/server/test_api.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from palaestra.core.record import Record
from palaestra.server.app import create_app
from palaestra.server.db import StorageError, Store, make_engine
from tests.server.test_api import HUMANS, assert_error, create, play, wait_for

ATHOS_HUMANS = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]


def athos(client: TestClient, **options: Any) -> tuple[str, list[str], dict[str, Any]]:
    r = client.post(
        "/api/games", json={"game": "athos", "options": {"round_limit": 2, **options}, "seats": ATHOS_HUMANS}
    )
    assert r.status_code == 201, r.text
    doc = r.json()
    return doc["id"], [s["token"] for s in doc["seats"]], doc["game"]


def move(client: TestClient, gid: str, token: str, view: dict[str, Any], text: str) -> dict[str, Any]:
    r = play(client, gid, token, view["ply"], move=text)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def undo(client: TestClient, gid: str, token: str, ply: int) -> Any:
    return client.post(f"/api/games/{gid}/undo", json={"token": token, "ply": ply})


# --- undo ------------------------------------------------------------------------------------------
def test_athos_undo_takes_back_own_actions_of_the_turn_and_the_record_forgets_them(
    client: TestClient,
) -> None:
    gid, (t0, _), view = athos(client)
    assert view["version"] == 0 and view["undo"] is None
    view = move(client, gid, t0, view, "B-h1")  # ATH-T1: one point per step
    view = move(client, gid, t0, view, "h1-h2") if "h1-h2" in [x["move"] for x in view["legal"]] else view
    assert view["undo"] == 0
    steps = len(view["moves"])
    points = view["state"]["position"]["points"]
    assert points == 6 - steps
    version = view["version"]
    r = undo(client, gid, t0, view["ply"])
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["ply"] == view["ply"] - 1 and after["version"] == version + 1
    assert after["state"]["position"]["points"] == points + 1
    assert [m["move"] for m in after["moves"]] == [m["move"] for m in view["moves"][:-1]]
    # the stored record holds only the moves that stand, and replays
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["moves"]) == after["ply"]
    assert Record.from_json(record).replay().to_json() == after["state"]
    # back to the start of the turn, then nothing is left to undo
    while after["ply"]:
        after = undo(client, gid, t0, after["ply"]).json()
    assert after["state"]["position"]["monks"][0] == ["B", "B", "B"]
    assert after["undo"] is None
    assert_error(undo(client, gid, t0, 0), 409, "cannot_undo")


def test_athos_undo_errors_change_nothing(client: TestClient) -> None:
    gid, (t0, t1), view = athos(client)
    view = move(client, gid, t0, view, "B-h1")
    before = client.get(f"/api/games/{gid}").json()
    assert_error(undo(client, gid, "nope", 1), 403, "wrong_token")
    assert_error(undo(client, gid, t1, 1), 409, "cannot_undo")  # not blue's action
    assert_error(undo(client, gid, t0, 0), 409, "stale_action")
    assert_error(undo(client, "nosuch", t0, 1), 404, "game_not_found")
    assert_error(
        client.post(f"/api/games/{gid}/undo", content=b"{", headers={"content-type": "application/json"}),
        400,
        "malformed_json",
    )
    assert_error(client.post(f"/api/games/{gid}/undo", json={"token": t0}), 422, "invalid_request")
    after = client.get(f"/api/games/{gid}").json()
    after.pop("updated"), before.pop("updated")
    assert after == before
    # the end of the turn is final (ATH-T9): blue moves next, red cannot take anything back
    view = move(client, gid, t0, view, "end-move")
    view = move(client, gid, t0, view, "end-turn")
    assert view["current_player"] == 1 and view["undo"] is None
    assert_error(undo(client, gid, t0, view["ply"]), 409, "cannot_undo")
    assert_error(undo(client, gid, t1, view["ply"]), 409, "cannot_undo")
    # placements of the turn can be taken back too, before end-turn
    view = move(client, gid, t1, view, "end-move")
    place = next(x["move"] for x in view["legal"] if x["move"].startswith("place "))
    view = move(client, gid, t1, view, place)
    assert view["undo"] == 1
    assert undo(client, gid, t1, view["ply"]).json()["state"]["position"]["tiles"] == []
    # resigning ends the game: no undo any more
    client.post(f"/api/games/{gid}/resign", json={"token": t0})
    assert_error(undo(client, gid, t1, view["ply"] - 1), 409, "game_over")


def test_games_without_an_undo_hook_cannot_undo(client: TestClient) -> None:
    created = create(client)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    view = play(client, gid, t0, 0, move="take 1").json()
    assert view["undo"] is None and view["web"] is None
    assert_error(undo(client, gid, t0, 1), 409, "cannot_undo")  # not red's turn any more
    assert_error(undo(client, gid, t1, 1), 409, "cannot_undo")  # not blue's action


def test_undo_after_a_restart_rebuilds_the_state_from_the_record(db_url: str) -> None:
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        gid, (t0, _), view = athos(c)
        view = move(c, gid, t0, view, "B-h1")
        view = move(c, gid, t0, view, "end-move")
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        again = c.get(f"/api/games/{gid}").json()
        assert again["ply"] == 2 and again["version"] == view["version"]
        assert again["undo"] == 0  # the state before was rebuilt from the record at load
        r = undo(c, gid, t0, 2)
        assert r.status_code == 200, r.text
        assert r.json()["state"]["position"]["phase"] == "move"
        assert r.json()["state"]["position"]["points"] == 5


def test_websocket_pushes_undo_with_a_higher_version(client: TestClient) -> None:
    gid, (t0, _), view = athos(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["game"]["version"] == 0
        move(client, gid, t0, view, "B-h1")
        pushed = ws.receive_json()["game"]
        assert (pushed["ply"], pushed["version"]) == (1, 1)
        assert undo(client, gid, t0, 1).status_code == 200
        pushed = ws.receive_json()["game"]
        assert (pushed["ply"], pushed["version"]) == (0, 2)  # clients order views by version


# --- the AI's view of finished games --------------------------------------------------------------------
@pytest.mark.slow
def test_analysis_of_a_finished_game(client: TestClient) -> None:
    created = create(client, options={"stones": 4})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    assert_error(client.get(f"/api/games/{gid}/analysis?ply=0"), 409, "not_finished")
    for ply, text in enumerate(["take 2", "take 1", "take 1"]):
        assert play(client, gid, tokens[ply % 2], ply, move=text).status_code == 200
    a = client.get(f"/api/games/{gid}/analysis?ply=0&top=2").json()
    assert a["ply"] == 0 and a["player"] == 0 and a["played"] == {"action": 2, "move": "take 2"}
    assert a["chance"] is False and a["agent"]
    assert 1 <= len(a["top"]) <= 2
    assert all(t["move"] in ("take 1", "take 2") and -1.0 <= t["value"] <= 1.0 for t in a["top"])
    # from 4 stones, taking 1 leaves 3 and wins; the search finds it (nim: 2 moves, full search)
    assert a["top"][0]["move"] == "take 1"
    assert a["played_rank"] == 2 and a["played_value"] is not None
    assert client.get(f"/api/games/{gid}/analysis?ply=0&top=2").json() == a  # cached
    assert_error(client.get(f"/api/games/{gid}/analysis?ply=3"), 400, "bad_ply")
    assert_error(client.get(f"/api/games/{gid}/analysis?ply=-1"), 422, "invalid_request")
    assert_error(client.get(f"/api/games/{gid}/analysis?ply=0&top=0"), 422, "invalid_request")
    assert_error(client.get("/api/games/nosuch/analysis?ply=0"), 404, "game_not_found")


@pytest.mark.slow
def test_analysis_of_a_chance_move(client: TestClient) -> None:
    seats = [{"kind": "ai", "level": "random"}, {"kind": "ai", "level": "random"}]
    gid = create(client, options={"coin": True, "stones": 3}, seats=seats)["id"]
    wait_for(client, gid, lambda v: v["status"] == "finished")
    a = client.get(f"/api/games/{gid}/analysis?ply=0").json()
    assert a["chance"] is True and a["player"] == -1 and a["top"] == [] and a["agent"] is None
    assert a["played"]["move"].startswith("first ")


# --- hints, resign, errors not covered elsewhere ------------------------------------------------------------
def test_hint_errors(client: TestClient) -> None:
    created = create(client, options={"stones": 1})
    gid, t0 = created["id"], created["seats"][0]["token"]
    assert_error(client.get("/api/games/nosuch/hint", headers={"X-Seat-Token": t0}), 404, "game_not_found")
    too_many = client.get(f"/api/games/{gid}/hint?top=11", headers={"X-Seat-Token": t0})
    assert_error(too_many, 422, "invalid_request")
    assert play(client, gid, t0, 0, move="take 1").status_code == 200
    assert_error(client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t0}), 409, "no_hint")


def test_resign_errors(client: TestClient) -> None:
    assert_error(client.post("/api/games/nosuch/resign", json={"token": "x"}), 404, "game_not_found")
    gid = create(client)["id"]
    # without a token a resignation is the signed-in member's (issue 28): a guest is told to sign in
    assert_error(client.post(f"/api/games/{gid}/resign", json={}), 401, "sign_in_required")
    assert_error(client.post(f"/api/games/{gid}/resign", json={"token": 5}), 422, "invalid_request")
    assert_error(
        client.post(f"/api/games/{gid}/resign", content=b"[", headers={"content-type": "application/json"}),
        400,
        "malformed_json",
    )
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"


def test_storage_error_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client)
    gid, t0 = created["id"], created["seats"][0]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]

    def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("the disk is full")

    monkeypatch.setattr(hub.store, "update", broken)
    assert_error(play(client, gid, t0, 0, move="take 1"), 503, "storage_unavailable")
    monkeypatch.undo()
    view = client.get(f"/api/games/{gid}").json()
    assert view["ply"] == 0 and view["version"] == 0 and view["moves"] == []
    assert play(client, gid, t0, 0, move="take 1").status_code == 200


def test_two_writers_cannot_both_win(db_url: str) -> None:
    """The row is written only at the version the writer read (a second server on the database)."""
    with TestClient(create_app(db_url, ai_delay=0.0)) as c:
        created = c.post("/api/games", json={"game": "nim", "seats": HUMANS, "seed": 1}).json()
    store = Store(db_url)
    row = store.get(created["id"])
    assert row is not None and row.version == 0

    def write() -> None:
        store.update(
            created["id"],
            expect_version=0,
            version=1,
            ply=1,
            status="active",
            record=row.record,
            snapshot=row.snapshot,
        )

    write()
    with pytest.raises(StorageError):
        write()
    store.close()


# --- web hooks, renderers, migrations ---------------------------------------------------------------
@pytest.mark.slow
def test_every_game_has_a_renderer_and_athos_its_map(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    renderers = {g["name"]: g["renderer"] for g in meta["games"]}
    assert {g["name"]: g["undo"] for g in meta["games"]} == {
        "athos": True,
        "archimedes": False,
        "agamemnon": False,
        "nim": False,
    }
    for name in ("athos", "archimedes", "agamemnon"):
        assert renderers[name] == f"/games/{name}/web/board.js"
        r = client.get(renderers[name])
        assert r.status_code == 200 and "export function createBoard" in r.text
    assert_error(client.get("/games/athos/web/view.py"), 404, "not_found")  # only web files
    gid, _, view = athos(client)
    web = view["web"]
    assert len(web["fields"]) >= 110  # ATH-B2
    assert set(web["starts"]) == set("ABCDE") and len(web["summit"]) == 7  # ATH-B1
    assert web["seats"] == ["B", "D"]  # ATH-S1
    assert (web["max_tiles"], web["max_per_terrain"]) == (8, 2)  # ATH-T8, 2 players
    assert client.get(f"/api/games/{gid}").json()["web"] == web
    three = client.post(
        "/api/games",
        json={"game": "athos", "options": {"players": 3}, "seats": [{"kind": "human"}] * 3},
    ).json()["game"]["web"]
    assert three["seats"] == ["A", "C", "E"] and (three["max_tiles"], three["max_per_terrain"]) == (5, 2)


def test_migration_adds_the_version_to_an_old_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", "palaestra.server:migrations")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO games (id, game, options, seats, seed, ply, status, record, snapshot,"
                " created_at, updated_at) VALUES ('g1', 'nim', '{}', '[]', 1, 3, 'active', '{}', '{}',"
                " '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            )
        )
    engine.dispose()
    store = Store(url)
    store.migrate()
    row = store.get("g1")
    assert row is not None and row.version == 3  # the old rows start at their ply
    store.close()
