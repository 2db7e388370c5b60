"""Issue 31: reliability, round three. One regression test (or more) per numbered finding, on
SQLite and on a real PostgreSQL where storage is involved (the ``client`` and ``db_url`` fixtures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from palaestra.cli import app as cli
from tests.server.test_api import create, play, wait_for


def finished_record(client: TestClient, coin: bool) -> dict[str, Any]:
    """The record of a hot-seat nim game played to its end (a coin toss draws who starts)."""
    created = create(client, options={"coin": coin, "stones": 3}, seed=None)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    view = client.get(f"/api/games/{gid}").json()
    while view["status"] == "active":
        if view["legal"]:  # else the draw is on its way
            play(client, gid, tokens[view["current_player"]], view["ply"], action=view["legal"][0]["action"])
        view = client.get(f"/api/games/{gid}").json()
    record: dict[str, Any] = client.get(f"/api/games/{gid}/record").json()
    assert record["result"] is not None
    return record


def replay(tmp_path: Path, record: dict[str, Any]) -> Any:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return CliRunner().invoke(cli, ["replay", str(path)])


# --- finding 5: `palaestra replay` is silent when it cannot verify -----------------------------------
def test_finding5_a_finished_record_without_its_chance_cannot_be_verified(
    client: TestClient, tmp_path: Path
) -> None:
    record = finished_record(client, coin=True)
    assert replay(tmp_path, record).exit_code == 0
    del record["chance"]
    r = replay(tmp_path, record)
    assert r.exit_code == 1, r.output
    assert "cannot verify: the record has 1 draw but neither the chance secret" in r.output


def test_finding5_a_finished_record_with_a_null_secret_cannot_be_verified(
    client: TestClient, tmp_path: Path
) -> None:
    record = finished_record(client, coin=True)
    record["chance"]["secret"] = None
    r = replay(tmp_path, record)
    assert r.exit_code == 1, r.output
    assert "cannot verify: the game is over but the record does not reveal the chance secret" in r.output
    assert "the game goes on" not in r.output
    record["chance"]["secret"] = 12345  # not a secret at all
    assert "cannot verify" in replay(tmp_path, record).output


def test_finding5_an_unfinished_record_says_the_secret_is_not_revealed_yet(
    client: TestClient, tmp_path: Path
) -> None:
    created = create(client, options={"coin": True, "stones": 5}, seed=None)
    gid = created["id"]
    view = wait_for(client, gid, lambda v: v["current_player"] >= 0)
    play(client, gid, created["seats"][view["current_player"]]["token"], view["ply"], action=1)
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["chance"]["secret"] is None and record["result"] is None
    r = replay(tmp_path, record)
    assert r.exit_code == 0, r.output
    assert "draws: committed, not revealed yet (the game goes on)" in r.output


def test_finding5_a_game_without_chance_says_it_is_not_verifiable(client: TestClient, tmp_path: Path) -> None:
    record = finished_record(client, coin=False)
    assert not any(m["player"] == -1 for m in record["moves"])
    for doc in (record, {k: v for k, v in record.items() if k != "chance"}):
        r = replay(tmp_path, doc)
        assert r.exit_code == 0, r.output
        assert "draws: not verifiable (no chance)" in r.output and "cannot verify" not in r.output
