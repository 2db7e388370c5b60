"""Work a process shares between requests (docs/benchmarks.md, "The web app under load"): one
VIEW per change of a game, one game object per game and options. Sharing must never show anything
older than the game: every kind of change gives a new view."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.service.hub import Hub
from palaestra.server.service.persistence import load_server_game
from palaestra.server.service.view import GameView

HOT_SEAT = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def create(client: TestClient, seats: list[dict[str, Any]], stones: int = 9) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": "nim", "options": {"stones": stones}, "seats": seats})
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def test_one_view_per_change_and_a_new_one_after_every_kind_of_change(client: TestClient) -> None:
    created = create(client, [{"kind": "human", "joined": True}, {"kind": "human"}])
    gid, token = created["id"], created["seats"][0]["token"]
    session = client.portal.call(hub_of(client).get, gid)
    first = session.view()
    assert session.view() is first  # shared until the game changes
    seen = [first]

    def changed() -> GameView:
        view = session.view()
        assert all(view is not old for old in seen) and view.version == seen[-1].version + 1
        seen.append(view)
        return view

    # a seat joined (the seats change, not the state; nobody moves before: issue 30, finding 14)
    code = created["seats"][1]["invite"].rsplit("/", 1)[1]
    joined = client.post(f"/api/games/{gid}/join", json={"code": code, "name": "Bea"})
    assert joined.status_code == 200
    assert changed().seats[1].joined is True and seen[-1].seats[1].name == "Bea"
    # an action
    r = client.post(f"/api/games/{gid}/actions", json={"token": token, "ply": 0, "move": "take 1"})
    assert r.status_code == 200 and r.json() == changed().model_dump(mode="json") and seen[-1].ply == 1
    # a resignation (the status and the result change)
    assert client.post(f"/api/games/{gid}/resign", json={"token": token}).status_code == 200
    result = changed().result
    assert seen[-1].status == "finished" and result is not None and result["seat"] == 0
    assert client.get(f"/api/games/{gid}").json() == seen[-1].model_dump(mode="json")


def test_a_view_follows_a_change_made_by_another_writer(client: TestClient) -> None:
    """Another process moved the game on (here: the row written behind the session's back); once
    the session takes the row, its view is the row's, not the one it shared before."""
    created = create(client, HOT_SEAT)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    hub = hub_of(client)
    session = client.portal.call(hub.get, gid)
    before = session.view()
    stored = hub.store.get(gid)
    assert stored is not None
    record = dict(stored.record)
    record["moves"] = [*record["moves"], {"player": 0, "move": "take 2"}]
    state = session.state.clone()
    state.apply_action(state.string_to_action("take 2"))
    hub.store.update(
        gid,
        expect_version=0,
        version=1,
        ply=1,
        status="active",
        record=record,
        snapshot=state.to_json(),
    )
    assert client.portal.call(hub.sessions.reload, session) is True
    after = session.view()
    assert after is not before and after.version == 1 and after.state["pile"] == 7
    r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[1], "ply": 1, "move": "take 1"})
    assert r.status_code == 200 and r.json()["state"]["pile"] == 6


def test_games_with_the_same_options_share_one_game_object(client: TestClient) -> None:
    a = create(client, HOT_SEAT, stones=9)
    b = create(client, HOT_SEAT, stones=9)
    c = create(client, HOT_SEAT, stones=11)
    hub = hub_of(client)
    ga, gb, gc = (client.portal.call(hub.get, g["id"]).game for g in (a, b, c))
    assert ga is gb and ga is not gc
    assert gc.options["stones"] == 11 and ga.options["stones"] == 9
    assert load_server_game("nim", {"stones": 9}) is ga
    # each game still has its own state
    r = client.post(
        f"/api/games/{a['id']}/actions", json={"token": a["seats"][0]["token"], "ply": 0, "move": "take 2"}
    )
    assert r.status_code == 200
    assert client.get(f"/api/games/{b['id']}").json()["state"]["pile"] == 9


def test_the_encoded_view_is_shared_checked_against_the_schema_and_pushed_as_is(client: TestClient) -> None:
    """The view is encoded once per change (``Session.view_json``) for the answer to the mover,
    every reader and every websocket; the routes pass those bytes through without FastAPI's
    response validation, so the check against ``GameView`` is made here."""
    created = create(client, HOT_SEAT)
    gid, token = created["id"], created["seats"][0]["token"]
    session = client.portal.call(hub_of(client).get, gid)
    encoded = session.view_json()
    assert session.view_json() is encoded and json.loads(encoded) == session.view().model_dump(mode="json")
    GameView.model_validate_json(encoded)  # the documented shape, extra fields forbidden
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json() == {"type": "state", "game": json.loads(encoded)}
        r = client.post(f"/api/games/{gid}/actions", json={"token": token, "ply": 0, "move": "take 1"})
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        assert r.content == session.view_json() is not encoded  # a new encoding for the change
        assert ws.receive_json() == {"type": "state", "game": r.json()}
        GameView.model_validate_json(r.content)
    assert client.get(f"/api/games/{gid}").content == session.view_json()


def test_a_view_with_a_clock_is_encoded_afresh_with_its_times(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={"game": "nim", "seats": HOT_SEAT, "time_control": {"type": "per_move", "seconds": 30}},
    )
    assert r.status_code == 201, r.text
    session = client.portal.call(hub_of(client).get, r.json()["id"])
    start = session.now()
    session.now = lambda: start + 5.0
    first = json.loads(session.view_json())
    session.now = lambda: start + 7.0
    second = json.loads(session.view_json())
    assert first["clock"]["seats"][0]["left"] - second["clock"]["seats"][0]["left"] == pytest.approx(2.0)
    assert {k: v for k, v in first.items() if k != "clock"} == {
        k: v for k, v in second.items() if k != "clock"
    }


def test_encode_json_falls_back_for_what_orjson_refuses() -> None:
    from palaestra.server.encoding import encode_json

    big = {"n": 2**70, "s": "é", "t": [1.5, None, True]}
    assert json.loads(encode_json(big)) == big
    lone = {"name": "\ud800"}  # orjson refuses a lone surrogate; the fallback escapes it
    assert json.loads(encode_json(lone)) == lone
    assert json.loads(encode_json({"a": [1, 2]})) == {"a": [1, 2]}


def test_the_rate_limits_start_no_thread_per_request_and_still_forget_old_requests() -> None:
    """limits' own memory storage starts a timer thread whenever the last one ended (every
    10 ms under load); ours expires old entries on the caller's thread, once per ``every``."""
    import threading
    import time

    from limits import parse
    from limits.strategies import MovingWindowRateLimiter

    from palaestra.server.api.guards import MemoryStorage

    storage = MemoryStorage(every=0.05)
    limiter = MovingWindowRateLimiter(storage)
    item = parse("5/second")
    threads = threading.active_count()
    assert [limiter.hit(item, "actions", "client") for _ in range(7)] == [True] * 5 + [False] * 2
    time.sleep(0.03)
    assert limiter.hit(item, "actions", "client") is False  # still within the window
    assert threading.active_count() <= threads
    time.sleep(1.1)
    assert limiter.hit(item, "actions", "client") is True  # the window moved on
    assert [len(entries) for entries in storage.events.values()] == [1]  # old entries expired


def test_a_copied_record_is_equal_and_changes_apart_from_the_original() -> None:
    from palaestra.core.record import Move, Record
    from palaestra.server.service.change import copy_record

    original = Record("nim", {"stones": 9}, ["A", "B"], seed=3, moves=[Move(0, "take 1")])
    twin = copy_record(original)
    assert twin == original and twin is not original
    twin.moves.append(Move(1, "take 2"))
    twin.options["stones"] = 5
    twin.players[0] = "C"
    from palaestra.core.outcome import Outcome, Termination

    twin.outcome = Outcome(Termination.RULES, (1.0, -1.0))
    assert original == Record("nim", {"stones": 9}, ["A", "B"], seed=3, moves=[Move(0, "take 1")])


def test_the_moves_documents_are_kept_between_changes_and_follow_every_kind_of_change() -> None:
    from palaestra.core.record import Move
    from palaestra.server.service.view import MovesJSON

    docs = MovesJSON()
    a, b, c = Move(0, "take 1", "t1"), Move(1, "take 2"), Move(0, "take 3")
    first = docs([a, b])
    assert first == [a.to_json(), b.to_json()]
    added = docs([a, b, c])  # an action: only the new move is made
    assert added == [m.to_json() for m in (a, b, c)] and added[0] is first[0]
    assert docs([a, b]) == first  # an undo
    assert docs([Move(0, "take 1", "t1"), Move(1, "take 3")]) == [
        a.to_json(),
        {"player": 1, "move": "take 3"},
    ]
    assert docs([]) == [] and docs([c]) == [c.to_json()]  # another record altogether


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [([], {}, False), (["--access-log"], {}, True), ([], {"PALAESTRA_ACCESS_LOG": "1"}, True)],
)
def test_serve_logs_every_request_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, args: list[str], env: dict[str, str], expected: bool
) -> None:
    """uvicorn's access log (a line per request) costs CPU on every request: off by default."""
    import uvicorn
    from typer.testing import CliRunner

    from palaestra.cli import app
    from palaestra.server import serving

    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(serving.Server, "run", lambda self, sockets=None: configs.append(self.config))
    # uvicorn.Config configures logging with handlers on sys.stderr, which CliRunner replaces by a
    # stream it closes afterwards: left in place, they broke every later test of the process
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    result = CliRunner().invoke(app, ["serve", "--database-url", "sqlite://", *args], env=env)
    assert result.exit_code == 0, result.output
    assert [c.access_log for c in configs] == [expected]
