"""Issue 17 finding 1, the rest: options are data, never paths, at the server. A game's document
option (``Option(kind=dict)``; here Athos's ``layout``) takes a shipped board's name or a board
document in the request; the server only passes it to the game, which validates it (400
``bad_options`` with the reason), and nothing a client sends is opened. The document goes into the
record, so the game replays anywhere. SQLite and PostgreSQL."""

from __future__ import annotations

import builtins
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.core.record import Record
from palaestra.games.athos.board import BOARD_FILE
from tests.server.test_api import assert_error, play

SEATS = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]


def shipped() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    return doc


def athos(client: TestClient, **options: Any) -> Any:
    return client.post(
        "/api/games", json={"game": "athos", "options": options, "seats": SEATS, "public": True}
    )


def test_meta_offers_the_document_option_with_the_shipped_names(client: TestClient) -> None:
    game = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "athos")
    layout = next(o for o in game["options"] if o["name"] == "layout")
    assert layout["kind"] == "dict" and layout["choices"] == ["standard"]


def test_a_board_document_in_the_request_is_played_recorded_and_replayed(client: TestClient) -> None:
    doc = shipped()
    doc["name"] = "narrow B"
    doc["starts"]["B"] = ["h1"]  # start field B touches h1 only
    r = athos(client, layout=doc)
    assert r.status_code == 201, r.text
    created = r.json()
    gid, token = created["id"], created["seats"][0]["token"]
    view = created["game"]
    assert view["options"]["layout"] == doc and view["web"]["board"] == "narrow B"
    assert "B-j1" not in {m["move"] for m in view["legal"]}
    assert_error(play(client, gid, token, 0, move="B-j1"), 422, "bad_notation")  # no such step here
    assert play(client, gid, token, 0, move="B-h1").status_code == 200
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["options"]["layout"] == doc  # the document itself, not a path
    state = Record.from_json(record).replay()
    assert state.to_json() == client.get(f"/api/games/{gid}").json()["state"]
    # a shipped board by name
    named = athos(client, layout="standard")
    assert named.status_code == 201 and named.json()["game"]["options"]["layout"] == "standard"


@pytest.mark.parametrize(
    "layout, reason",
    [
        ({"format": 2}, "unknown format 2"),
        ({**shipped(), "terrains": ["a", "b"]}, "Athos has 5"),
        ({**shipped(), "summit": ["g16"]}, "ATH-B1 wants 7"),
        ({**shipped(), "starts": {"A": ["zz9"]}}, "start fields A, B, C, D, E"),
        ("mountain", "one of standard or a document"),
        (12, "a document"),
    ],
)
def test_a_bad_board_document_is_a_400_naming_the_problem(
    client: TestClient, layout: Any, reason: str
) -> None:
    r = athos(client, layout=layout)
    assert_error(r, 400, "bad_options")
    assert reason in r.json()["message"]
    assert client.get("/api/games").json() == []  # nothing stored


def test_nothing_a_client_sends_is_opened(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paths in any option (a FIFO would freeze the server if it were opened, /dev/zero fill its
    memory) are refused, and no file is opened while the requests are answered."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    opened: list[str] = []
    real_open = builtins.open

    def spy(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(io, "open", spy)
    for value in (str(fifo), "/dev/zero", "../../etc/passwd"):
        assert_error(athos(client, layout=value), 400, "bad_options")
        assert_error(athos(client, board=value), 400, "option_not_allowed")
        assert_error(athos(client, layout={**shipped(), "name": value, "format": value}), 400, "bad_options")
    assert not [f for f in opened if "fifo" in f or f.startswith(("/dev", "../"))], opened


def test_a_document_nested_too_deep_is_malformed_json_not_a_500(client: TestClient) -> None:
    deep = '{"a":' * 5000 + "1" + "}" * 5000
    body = '{"game": "athos", "options": {"layout": ' + deep + '}, "seats": [{}, {}]}'
    r = client.post("/api/games", content=body.encode(), headers={"content-type": "application/json"})
    assert_error(r, 400, "malformed_json")
    shallow = '{"a":' * 30 + "1" + "}" * 30
    body = '{"game": "athos", "options": {"layout": ' + shallow + '}, "seats": [{}, {}]}'
    r = client.post("/api/games", content=body.encode(), headers={"content-type": "application/json"})
    assert_error(r, 400, "bad_options")
