"""HTTP API and websocket of the web app, on the core's test game ``nim`` (tests/core/nim.py).

Every endpoint, every error case (illegal, stale, unknown game, wrong token, malformed JSON), and
that a refused request changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.core.record import Record

HUMANS = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]  # hot seat
INVITED = [{"kind": "human", "joined": True}, {"kind": "human"}]  # a friend by invitation


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    doc = {"game": "nim", "options": {}, "seats": HUMANS, "seed": 5, "public": True}
    doc.update(body)
    r = client.post("/api/games", json=doc)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def wait_for(client: TestClient, game_id: str, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    """Poll the game until ``check(view)`` holds (AI and chance moves run in the background)."""
    end = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if check(view):
            return view
        assert time.monotonic() < end, f"gave up waiting; last view: {view}"
        time.sleep(0.02)


def play(client: TestClient, game_id: str, token: str, ply: int, **what: Any) -> Any:
    return client.post(f"/api/games/{game_id}/actions", json={"token": token, "ply": ply, **what})


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code
    assert isinstance(body["message"], str) and body["message"]


# --- meta, create, list ----------------------------------------------------------------------------
def test_meta_lists_games_options_seatings_and_levels(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    nim = next(g for g in meta["games"] if g["name"] == "nim")
    assert nim["title"] == "Nim"
    assert {o["name"] for o in nim["options"]} == {"stones", "players", "coin"}
    assert nim["seatings"] == [{"players": 2, "names": ["player 0", "player 1"]}]
    assert "random" in meta["ai_levels"]


def test_create_returns_tokens_invites_and_initial_view(client: TestClient) -> None:
    created = create(client, options={"stones": 5}, seats=INVITED, seed=None)
    seats = created["seats"]
    assert [s["kind"] for s in seats] == ["human", "human"]
    # issue 17 finding 4: the creator gets their own token and the friend's invitation, not its token
    assert seats[0]["token"] and seats[0]["invite"] is None
    assert seats[1]["token"] is None and seats[1]["invite"].startswith(f"/#/join/{created['id']}/")
    assert created["creator_token"] not in (seats[0]["token"], seats[1]["invite"].rsplit("/", 1)[1])
    view = created["game"]
    assert view["ply"] == 0 and view["current_player"] == 0 and view["status"] == "active"
    assert view["options"]["stones"] == 5
    assert view["legal"] == [{"action": 1, "move": "take 1"}, {"action": 2, "move": "take 2"}]
    assert view["seats"][0]["joined"] is True and view["seats"][1]["joined"] is False
    # tokens never appear in what everyone can read
    text = client.get(f"/api/games/{created['id']}").text
    assert seats[0]["token"] not in text and created["creator_token"] not in text
    assert seats[1]["invite"].rsplit("/", 1)[1] not in text


def test_list_games_shows_created_games(client: TestClient) -> None:
    a = create(client)["id"]
    b = create(client)["id"]
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert {a, b} <= set(listed)
    assert listed[a]["game"] == "nim" and listed[a]["status"] == "active"


def test_create_errors(client: TestClient) -> None:
    assert_error(client.post("/api/games", json={"game": "chess", "seats": HUMANS}), 400, "bad_options")
    assert_error(
        client.post("/api/games", json={"game": "nim", "options": {"stones": 99}, "seats": HUMANS}),
        400,
        "bad_options",
    )
    assert_error(
        client.post("/api/games", json={"game": "nim", "options": {"colour": "red"}, "seats": HUMANS}),
        400,
        "bad_options",
    )
    assert_error(
        client.post("/api/games", json={"game": "nim", "seats": [{"kind": "human"}]}), 400, "bad_seats"
    )
    assert_error(
        client.post(
            "/api/games", json={"game": "nim", "seats": [{"kind": "human"}, {"kind": "ai", "level": "god"}]}
        ),
        400,
        "bad_seats",
    )
    assert_error(
        client.post("/api/games", json={"game": "nim", "seats": [{"kind": "robot"}, {"kind": "human"}]}),
        422,
        "invalid_request",
    )
    assert_error(client.post("/api/games", json={"seats": HUMANS}), 422, "invalid_request")
    assert_error(
        client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}),
        400,
        "malformed_json",
    )
    assert client.get("/api/games").json() == []


# --- playing ---------------------------------------------------------------------------------------
def test_submit_action_by_id_and_by_notation(client: TestClient) -> None:
    created = create(client)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    r = play(client, gid, t0, 0, action=2)
    assert r.status_code == 200, r.text
    assert r.json()["ply"] == 1 and r.json()["current_player"] == 1
    r = play(client, gid, t1, 1, move="take 1")
    assert r.status_code == 200, r.text
    assert [m["move"] for m in r.json()["moves"]] == ["take 2", "take 1"]
    assert [m["player"] for m in r.json()["moves"]] == [0, 1]
    legal = client.get(f"/api/games/{gid}/legal").json()
    assert legal == {"ply": 2, "current_player": 0, "legal": r.json()["legal"]}


def test_game_to_the_end_result_and_record(client: TestClient) -> None:
    created = create(client, options={"stones": 3})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    assert play(client, gid, tokens[0], 0, move="take 2").status_code == 200
    final = play(client, gid, tokens[1], 1, move="take 1").json()
    assert final["status"] == "finished" and final["current_player"] < 0
    assert final["result"]["returns"] == [-1.0, 1.0]
    assert final["legal"] == []
    assert_error(play(client, gid, tokens[0], 2, move="take 1"), 409, "game_over")
    assert_error(client.post(f"/api/games/{gid}/resign", json={"token": tokens[0]}), 409, "game_over")
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["format"] == 2 and record["game"] == "nim"
    assert [m["move"] for m in record["moves"]] == ["take 2", "take 1"]
    # the record is the core's: it replays to the same result
    rec = Record.from_json(record)
    state = rec.replay()
    rec.check_result(state)
    assert state.returns() == [-1.0, 1.0]


def test_action_errors_change_nothing(client: TestClient) -> None:
    created = create(client, options={"stones": 1})
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    before = client.get(f"/api/games/{gid}").json()
    assert_error(play(client, gid, t0, 0, action=2), 422, "illegal_action")  # only 1 stone left
    assert "only 1 stone left" in play(client, gid, t0, 0, action=2).json()["message"]
    assert_error(play(client, gid, t0, 0, action=7), 422, "illegal_action")
    assert_error(play(client, gid, t0, 0, move="grab 1"), 422, "bad_notation")
    assert_error(play(client, gid, t0, 0, move="take 3"), 422, "illegal_action")
    assert_error(play(client, gid, t0, 3, action=1), 409, "stale_action")
    assert_error(play(client, gid, t1, 0, action=1), 409, "not_your_turn")
    assert_error(play(client, gid, "not-a-token", 0, action=1), 403, "wrong_token")
    assert_error(play(client, gid, t0, 0), 400, "bad_request")
    assert_error(play(client, gid, t0, 0, action=1, move="take 1"), 400, "bad_request")
    assert_error(play(client, "nosuchgame", t0, 0, action=1), 404, "game_not_found")
    assert_error(
        client.post(
            f"/api/games/{gid}/actions", content=b"{'token':", headers={"content-type": "application/json"}
        ),
        400,
        "malformed_json",
    )
    assert_error(client.post(f"/api/games/{gid}/actions", json=[1, 2]), 400, "malformed_json")
    assert_error(
        client.post(f"/api/games/{gid}/actions", json={"token": t0, "ply": "zero", "action": 1}),
        422,
        "invalid_request",
    )
    after = client.get(f"/api/games/{gid}").json()
    after.pop("updated"), before.pop("updated")
    assert after == before


def test_stale_action_after_the_state_moved_on(client: TestClient) -> None:
    created = create(client)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    assert play(client, gid, t0, 0, action=1).status_code == 200
    assert play(client, gid, t1, 1, action=1).status_code == 200
    # seat 0 sends again for ply 0 (a double click, an old tab): refused, nothing applied
    assert_error(play(client, gid, t0, 0, action=1), 409, "stale_action")
    assert client.get(f"/api/games/{gid}").json()["ply"] == 2


def code_of(created: dict[str, Any], seat: int) -> str:
    """The invitation code of a seat (the last part of its invitation link)."""
    return str(created["seats"][seat]["invite"].rsplit("/", 1)[1])


def test_join_with_token(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid, t1 = created["id"], code_of(created, 1)
    r = client.post(f"/api/games/{gid}/join", json={"token": t1, "name": "Bea"})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1 and r.json()["token"] not in (None, t1)
    seat = r.json()["game"]["seats"][1]
    assert seat["joined"] is True and seat["name"] == "Bea"
    assert_error(client.post(f"/api/games/{gid}/join", json={"token": "nope"}), 403, "wrong_token")
    assert_error(client.post("/api/games/nosuch/join", json={"token": t1}), 404, "game_not_found")
    assert_error(client.post(f"/api/games/{gid}/join", json={"code": t1}), 410, "invitation_used")
    assert_error(client.post(f"/api/games/{gid}/join", json={"name": "x"}), 422, "invalid_request")


def test_resign(client: TestClient) -> None:
    created = create(client)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    assert_error(client.post(f"/api/games/{gid}/resign", json={"token": "nope"}), 403, "wrong_token")
    r = client.post(f"/api/games/{gid}/resign", json={"token": t1})  # not its turn: still allowed
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["status"] == "finished"
    assert view["result"]["returns"] == [1.0, -1.0]
    assert view["result"]["termination"] == "resignation" and view["result"]["seat"] == 1
    assert "resigned" in view["result"]["text"] and "resigned" not in view["result"]
    assert_error(play(client, gid, t0, 0, action=1), 409, "game_over")
    exported = client.get(f"/api/games/{gid}/record").json()
    assert exported["result"]["seat"] == 1 and exported["format"] == 2
    record = Record.from_json(exported)
    record.check_result(record.replay())  # the exported record replays and checks (palaestra replay)


def test_unknown_game_everywhere(client: TestClient) -> None:
    for path in ("", "/legal", "/record", "/replay?ply=0"):
        assert_error(client.get(f"/api/games/nosuch{path}"), 404, "game_not_found")
    assert_error(client.get("/api/nothing-here"), 404, "not_found")


def test_replay_steps_through_the_game(client: TestClient) -> None:
    created = create(client, options={"stones": 4})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    for ply, move in enumerate(["take 1", "take 2", "take 1"]):
        assert play(client, gid, tokens[ply % 2], ply, move=move).status_code == 200
    start = client.get(f"/api/games/{gid}/replay?ply=0").json()
    assert start["state"]["pile"] == 4 and start["last_move"] is None and start["moves"] == 3
    mid = client.get(f"/api/games/{gid}/replay?ply=2").json()
    assert mid["state"]["pile"] == 1 and mid["last_move"]["move"] == "take 2"
    assert client.get(f"/api/games/{gid}/replay?ply=3").json()["current_player"] < 0
    assert_error(client.get(f"/api/games/{gid}/replay?ply=4"), 400, "bad_ply")
    assert_error(client.get(f"/api/games/{gid}/replay?ply=-1"), 422, "invalid_request")


@pytest.mark.slow
def test_hint(client: TestClient) -> None:
    created = create(client)
    gid, t0 = created["id"], created["seats"][0]["token"]
    hints = client.get(f"/api/games/{gid}/hint?top=2", headers={"X-Seat-Token": t0}).json()
    assert 1 <= len(hints) <= 2
    assert all(h["move"] in ("take 1", "take 2") for h in hints)
    assert_error(client.get(f"/api/games/{gid}/hint"), 403, "wrong_token")
    assert_error(client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": "x"}), 403, "wrong_token")


# --- AI, chance ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_ai_and_chance_play_server_side(client: TestClient) -> None:
    created = create(
        client,
        options={"coin": True, "stones": 9},
        seats=[{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}],
    )
    gid, token = created["id"], created["seats"][0]["token"]
    assert created["seats"][1]["token"] is None
    while True:
        view = wait_for(client, gid, lambda v: v["status"] == "finished" or v["current_player"] == 0)
        if view["status"] == "finished":
            break
        assert view["legal"], view
        assert play(client, gid, token, view["ply"], action=view["legal"][0]["action"]).status_code == 200
    moves = view["moves"]
    assert moves[0]["player"] == -1 and moves[0]["move"].startswith("first ")  # the coin, recorded
    assert {m["player"] for m in moves[1:]} == {0, 1}
    # the AI seat never had a token: nobody can act for it
    assert all(s["kind"] == "ai" for s in view["seats"][1:])


@pytest.mark.slow
def test_chance_is_reproducible_from_the_seed(client: TestClient) -> None:
    seats = [{"kind": "ai", "level": "random"}, {"kind": "ai", "level": "random"}]
    games = [create(client, options={"coin": True}, seats=seats, seed=11)["id"] for _ in range(2)]
    finished = [wait_for(client, g, lambda v: v["status"] == "finished") for g in games]
    assert [m["move"] for m in finished[0]["moves"]] == [m["move"] for m in finished[1]["moves"]]


# --- websocket -------------------------------------------------------------------------------------
def test_websocket_pushes_every_change_to_everyone(client: TestClient) -> None:
    created = create(client, seats=INVITED, seed=None)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], code_of(created, 1)
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
        client.websocket_connect(f"/api/games/{gid}/ws") as player,
    ):
        for ws in (spectator, player):
            first = ws.receive_json()
            assert first["type"] == "state" and first["game"]["ply"] == 0
        # the friend joins first: nobody moves before (issue 30, finding 14)
        t1 = client.post(f"/api/games/{gid}/join", json={"token": t1, "name": "Bo"}).json()["token"]
        for ws in (spectator, player):
            assert ws.receive_json()["game"]["seats"][1]["name"] == "Bo"
        assert play(client, gid, t0, 0, move="take 2").status_code == 200
        for ws in (spectator, player):
            pushed = ws.receive_json()
            assert pushed["type"] == "state" and pushed["game"]["ply"] == 1
            assert pushed["game"]["moves"][-1]["move"] == "take 2"
        spectator.send_json({"type": "ping"})
        assert spectator.receive_json() == {"type": "pong"}
        spectator.send_text("play take 1")
        assert spectator.receive_json()["error"] == "bad_message"
        # a refused action pushes nothing; the next accepted one is the next message
        assert play(client, gid, t0, 1, move="take 1").status_code == 409
        assert play(client, gid, t1, 1, move="take 1").status_code == 200
        assert spectator.receive_json()["game"]["ply"] == 2


def test_nobody_moves_before_the_invited_friend_joins(client: TestClient) -> None:
    """Issue 30, finding 14: the host could move before the invited friend had joined. A move
    then is refused with 409 ``waiting_for_players`` and changes nothing; after the join it is
    played. An AI to move waits as well, and plays once the friend has joined."""
    created = create(client, seats=INVITED, seed=None)
    gid, t0 = created["id"], created["seats"][0]["token"]
    before = client.get(f"/api/games/{gid}").json()
    refused = play(client, gid, t0, 0, move="take 2")
    assert_error(refused, 409, "waiting_for_players")
    assert "waiting for player 1" in refused.json()["message"]
    assert client.get(f"/api/games/{gid}").json() == before
    client.post(f"/api/games/{gid}/join", json={"token": code_of(created, 1), "name": "Bo"})
    assert play(client, gid, t0, 0, move="take 2").status_code == 200
    # an AI seat to move waits for the invited player too
    ai_first = create(client, seats=[{"kind": "ai", "level": "random"}, {"kind": "human"}], seed=None)
    time.sleep(0.5)
    assert client.get(f"/api/games/{ai_first['id']}").json()["ply"] == 0
    client.post(f"/api/games/{ai_first['id']}/join", json={"token": code_of(ai_first, 1)})
    wait_for(client, ai_first["id"], lambda v: v["ply"] >= 1)


def test_websocket_unknown_game(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nosuch/ws") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"] == "game_not_found"


# --- UI files --------------------------------------------------------------------------------------
def test_ui_files_are_served(client: TestClient) -> None:
    index = client.get("/")
    assert index.status_code == 200 and "<script" in index.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/openapi.json").json()["info"]["title"] == "Palaestra"
    assert_error(client.get("/games/nim/web/board.js"), 404, "not_found")
    assert_error(client.get("/games/nim/web/../../server/app.py"), 404, "not_found")


def test_view_says_when_nobody_can_win_outright_any_more(client: TestClient) -> None:
    # a real Archimedes game, played by both seats over the API with random moves (seed 136
    # reaches a dead position at ply 73: both players have a cube hemmed in or a goal cell
    # closed for good, so only the move limit will decide)
    import random

    import palaestra

    created = create(client, game="archimedes", options={})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    assert created["game"]["dead_position"] is False and created["game"]["max_plies"] == 1000
    local = palaestra.load_game("archimedes").new_initial_state()
    rng = random.Random(136)
    view: dict[str, Any] = {}
    while not local.dead_position():
        action = rng.choice(local.legal_actions())
        seat = local.current_player
        r = play(client, gid, tokens[seat], len(local.history), action=action)
        assert r.status_code == 200, r.text
        local.apply_action(action)
        view = r.json()
        assert view["dead_position"] is local.dead_position()
    assert view["ply"] == 73 and view["dead_position"] is True and view["status"] == "active"
    assert view["max_plies"] == 1000
    assert client.get(f"/api/games/{gid}").json()["dead_position"] is True


def test_a_settled_game_ends_with_the_result_it_can_no_longer_escape(client: TestClient) -> None:
    # a real Archimedes game (tests/archimedes/settled_game.py): after its 47th action no cube
    # can reach a goal cell any more, and the server ends the game there, a 3-3 draw, instead of
    # making the players shuttle cubes to the 1,000-ply move limit
    from tests.archimedes.settled_game import MOVES

    created = create(client, game="archimedes", options={})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    view: dict[str, Any] = created["game"]
    for ply, move in enumerate(MOVES):
        assert view["status"] == "active"
        r = play(client, gid, tokens[view["current_player"]], ply, move=move)
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["status"] == "finished" and view["ply"] == 47
    result = view["result"]
    assert result["termination"] == "adjudication" and result["returns"] == [0.0, 0.0]
    assert result["text"].startswith("draw (settled: no cube can reach a goal cell any more")
    assert_error(play(client, gid, tokens[view["current_player"]], 47, move="f4-e4"), 409, "game_over")
    record = Record.from_json(client.get(f"/api/games/{gid}/record").json())
    assert record.result == result and len(record.moves) == 47
    record.check_result(record.replay())
