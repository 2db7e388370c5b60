"""The lobby across processes (issue 29): two real ``palaestra serve --redis-url`` processes on one
PostgreSQL and one Redis. A seek posted through A is accepted through B, and B's lobby websocket
sees it appear and go; of two acceptors of the last place, one through each process, one wins. A
rematch offered through A is pushed to B's game socket and accepted through B; a game aborted
through B puts its seek back, seen on A's lobby socket and taken through A."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server.server_process import ServerProcess

NIM = {"game": "nim", "options": {"stones": 9}, "players": 2}


def lobby_socket(server: ServerProcess) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/api/lobby/ws", open_timeout=10)


def next_message(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of this type (others, such as a game's start, are passed over)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message


def test_a_seek_posted_on_one_process_is_accepted_through_the_other(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_processes
    with lobby_socket(b) as on_b:
        assert next_message(on_b, "lobby")["seeks"] == []
        r = httpx.post(a.url + "/api/seeks", json=NIM, headers={"X-Guest-Token": "guest-a"}, timeout=10)
        assert r.status_code == 201, r.text
        posted = r.json()
        assert next_message(on_b, "seek")["seek"]["id"] == posted["id"]
        listed = httpx.get(b.url + "/api/lobby", timeout=10).json()["seeks"]
        assert [s["id"] for s in listed] == [posted["id"]]
        r = httpx.post(
            f"{b.url}/api/seeks/{posted['id']}/accept", headers={"X-Guest-Token": "guest-b"}, timeout=10
        )
        assert r.status_code == 200, r.text
        accepted = r.json()
        gone = next_message(on_b, "seek_gone")
        assert gone["id"] == posted["id"] and (gone["status"], gone["game"]) == ("started", accepted["game"])
    # the poster learns its seat through A
    poll = httpx.get(
        f"{a.url}/api/seeks/{posted['id']}", headers={"X-Seek-Token": posted["seek_token"]}, timeout=10
    ).json()
    assert poll["game_id"] == accepted["game"] and {poll["seat"], accepted["seat"]} == {0, 1}
    assert httpx.get(f"{a.url}/api/games/{accepted['game']}", timeout=10).json()["public"] is True


def accept(
    server: ServerProcess, seek_id: str, who: str, start: threading.Barrier, answers: list[httpx.Response]
) -> None:
    start.wait()
    url = f"{server.url}/api/seeks/{seek_id}/accept"
    answers.append(httpx.post(url, headers={"X-Guest-Token": who}, timeout=10))


def test_of_two_acceptors_on_two_processes_exactly_one_gets_the_last_place(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_processes
    for round_ in range(3):
        r = httpx.post(a.url + "/api/seeks", json=NIM, headers={"X-Guest-Token": "poster"}, timeout=10)
        seek_id = r.json()["id"]
        answers: list[httpx.Response] = []
        start = threading.Barrier(2)
        threads = [
            threading.Thread(target=accept, args=(server, seek_id, f"racer-{round_}-{n}", start, answers))
            for n, server in enumerate((a, b))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200, 410], [r.text for r in answers]


def seek_game(server_a: ServerProcess, server_b: ServerProcess, who: str) -> dict[str, Any]:
    """A guest's seek posted through A and accepted through B: the game and each seat's token."""
    r = httpx.post(server_a.url + "/api/seeks", json=NIM, headers={"X-Guest-Token": f"{who}-a"}, timeout=10)
    posted = r.json()
    r = httpx.post(
        f"{server_b.url}/api/seeks/{posted['id']}/accept", headers={"X-Guest-Token": f"{who}-b"}, timeout=10
    )
    accepted = r.json()
    poll = httpx.get(
        f"{server_a.url}/api/seeks/{posted['id']}", headers={"X-Seek-Token": posted["seek_token"]}, timeout=10
    ).json()
    return {
        "game": accepted["game"],
        "tokens": {poll["seat"]: poll["token"], accepted["seat"]: accepted["token"]},
    }


def next_state(ws: ClientConnection, done: Any) -> dict[str, Any]:
    """The next game state pushed on a game's websocket for which ``done(view)`` holds."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message.get("type") == "state" and done(message["game"]):
            return message["game"]


def test_a_rematch_offered_through_a_is_pushed_to_b_and_accepted_through_b(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_processes
    made = seek_game(a, b, "rematch")
    gid, tokens = made["game"], made["tokens"]
    with connect(f"ws://127.0.0.1:{b.port}/api/games/{gid}/ws", open_timeout=10) as on_b:
        r = httpx.post(f"{a.url}/api/games/{gid}/resign", json={"token": tokens[0]}, timeout=10)
        assert r.status_code == 200, r.text
        assert next_state(on_b, lambda v: v["status"] == "finished")["result"]["seat"] == 0
        r = httpx.post(f"{a.url}/api/games/{gid}/rematch", json={"token": tokens[0]}, timeout=10)
        assert r.status_code == 200 and r.json()["game"] is None
        offered = next_state(on_b, lambda v: v.get("rematch") is not None)
        assert offered["rematch"] == {"offered_by": 0, "game": None}
        r = httpx.post(f"{b.url}/api/games/{gid}/rematch", json={"token": tokens[1]}, timeout=10)
        accepted = r.json()
        assert accepted["game"] and accepted["seat"] == 0  # seats rotated
    mine = httpx.post(f"{a.url}/api/games/{gid}/rematch", json={"token": tokens[0]}, timeout=10).json()
    assert (mine["game"], mine["seat"]) == (accepted["game"], 1)
    view = httpx.get(f"{a.url}/api/games/{accepted['game']}", timeout=10).json()
    assert view["status"] == "active" and view["public"] is True


def test_a_game_aborted_through_b_puts_its_seek_back_in_as_lobby_and_a_takes_it(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_processes
    made = seek_game(a, b, "abort")
    gid, tokens = made["game"], made["tokens"]
    with lobby_socket(a) as on_a:
        next_message(on_a, "lobby")
        r = httpx.post(f"{b.url}/api/games/{gid}/abort", json={"token": tokens[1]}, timeout=10)
        assert r.status_code == 200 and r.json()["result"]["termination"] == "abort"
        again = next_message(on_a, "seek")["seek"]
        assert again["id"] == f"{gid}a" and again["status"] == "open" and len(again["seated"]) == 1
        r = httpx.post(f"{a.url}/api/seeks/{gid}a/accept", headers={"X-Guest-Token": "abort-c"}, timeout=10)
        assert r.status_code == 200, r.text
        new_game = r.json()["game"]
        gone = next_message(on_a, "seek_gone")
        assert (gone["id"], gone["game"]) == (f"{gid}a", new_game)
    # the one who stayed learns their seat through B, with the seat token they held
    poll = httpx.get(f"{b.url}/api/seeks/{gid}a", headers={"X-Seek-Token": tokens[0]}, timeout=10).json()
    assert poll["game_id"] == new_game and poll["token"] == tokens[0]


def test_the_lobby_socket_is_not_compressed_and_a_game_socket_is(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    """permessage-deflate is offered by the client on both; the server takes it for a game's
    socket, not for the lobby's (palaestra/server/serving.py: each lobby socket would compress
    every change with its own zlib context)."""
    a, _ = two_processes
    with lobby_socket(a) as lobby:
        assert lobby.request is not None and "permessage-deflate" in str(
            lobby.request.headers.get("Sec-WebSocket-Extensions")
        )
        assert lobby.response is not None
        assert lobby.response.headers.get("Sec-WebSocket-Extensions") is None
        assert next_message(lobby, "lobby")["type"] == "lobby"
    made = seek_game(a, a, "deflate")
    with connect(f"ws://127.0.0.1:{a.port}/api/games/{made['game']}/ws", open_timeout=10) as game:
        assert game.response is not None
        assert "permessage-deflate" in str(game.response.headers.get("Sec-WebSocket-Extensions"))
        assert next_state(game, lambda v: True)["id"] == made["game"]
