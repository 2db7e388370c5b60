"""Operations of accounts (issue 28): migration 0006 upgrading a database that holds today's
games (SQLite and PostgreSQL), and the operators' `palaestra accounts list|close|reopen`."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from palaestra.cli import app as cli
from palaestra.server.app import create_app
from palaestra.server.db import make_engine
from tests.server.accounts_helpers import PASSWORD, Member, sign_in, sign_up
from tests.server.test_api import HUMANS, INVITED, assert_error, create, play


def migrations() -> Config:
    config = Config()
    config.set_main_option("script_location", "palaestra.server:migrations")
    return config


def test_migration_0006_upgrades_a_database_of_todays_games(db_url: str) -> None:
    """Games made before accounts (the schema at 0005) come through 0006 unchanged: casual, every
    seat a guest's, their tokens still valid; then members can sign up beside them."""
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        hot = create(client, seats=HUMANS)
        friend = create(client, seats=INVITED, seed=None)
        assert play(client, hot["id"], hot["seats"][0]["token"], 0, move="take 1").status_code == 200
    engine = make_engine(db_url)
    config = migrations()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005")
        tables = set(sa.inspect(connection).get_table_names())
        assert "accounts" not in tables and "rated" not in {
            c["name"] for c in sa.inspect(connection).get_columns("games")
        }
    engine.dispose()
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:  # upgrades to head at start
        view = client.get(f"/api/games/{hot['id']}").json()
        assert view["rated"] is False and view["ply"] == 1
        assert [s["member"] for s in view["seats"]] == [None, None]
        assert play(client, hot["id"], hot["seats"][1]["token"], 1, move="take 1").status_code == 200
        code = friend["seats"][1]["invite"].rsplit("/", 1)[1]
        assert client.post(f"/api/games/{friend['id']}/join", json={"code": code}).status_code == 200
        member = sign_up(client, "newcomer")
        claimed = member.post(
            "/api/account/claim", json={"seats": [{"game": hot["id"], "token": hot["seats"][0]["token"]}]}
        )
        assert claimed.json()["claimed"] == [{"game": hot["id"], "seat": 0}]


@pytest.mark.slow
def test_operators_list_close_and_reopen_accounts(db_url: str) -> None:
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        member = sign_up(client, "Operated")
        sign_up(client, "other")
    runner = CliRunner()
    listed = runner.invoke(cli, ["accounts", "list", "--database-url", db_url])
    assert listed.exit_code == 0, listed.output
    lines = [line.split("\t") for line in listed.output.splitlines()]
    assert [(line[0], line[3]) for line in lines] == [("Operated", "open"), ("other", "open")]
    closed = runner.invoke(cli, ["accounts", "close", "operated", "--database-url", db_url])
    assert closed.exit_code == 0 and "Operated: closed" in closed.output
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        again = Member(client, member.username, member.cookie, member.csrf)  # the same browser
        assert_error(again.get("/api/account"), 401, "sign_in_required")  # its sessions ended
        r = client.post("/api/session", json={"username": "Operated", "password": PASSWORD})
        assert_error(r, 401, "bad_credentials")  # the same answer as a wrong password
        assert client.get("/api/users/Operated").status_code == 200  # the profile stays
    assert "Operated\t" in runner.invoke(cli, ["accounts", "list", "--database-url", db_url]).output
    assert runner.invoke(cli, ["accounts", "reopen", "OPERATED", "--database-url", db_url]).exit_code == 0
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        assert sign_in(client, "operated").username == "operated"
    missing = runner.invoke(cli, ["accounts", "close", "nobody", "--database-url", db_url])
    assert missing.exit_code == 1 and "no member is called 'nobody'" in missing.output
