"""The web app's settings read from ``PALAESTRA_*`` variables (pydantic-settings, issue 32)."""

from __future__ import annotations

import string
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.server.settings import Settings, SettingsError

SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_the_defaults_are_those_documented() -> None:
    s = Settings()
    assert (s.max_body_bytes, s.ws_total, s.search_processes, s.smtp_url) == (65536, 2000, True, "")
    assert (s.rate_create, s.abandon_after_seconds, s.notify_max_tries) == ("30/minute", 30 * 24 * 3600.0, 8)


def test_the_environment_is_read_by_from_env_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PALAESTRA_MAX_BODY_BYTES", "32768")
    monkeypatch.setenv("PALAESTRA_SMTP_URL", "smtp://mail.example.org:587")
    monkeypatch.setenv("PALAESTRA_WS_MESSAGES_PER_SECOND", "2.5")
    read = Settings.from_env()
    assert (read.max_body_bytes, read.smtp_url, read.ws_messages_per_second) == (
        32768,
        "smtp://mail.example.org:587",
        2.5,
    )
    assert type(read) is Settings
    assert Settings().max_body_bytes == 65536  # built by hand: the defaults, whatever the environment


def test_arguments_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PALAESTRA_WS_TOTAL", "10")
    monkeypatch.setenv("PALAESTRA_WS_PER_CLIENT", "3")
    read = Settings.from_env(ws_total=7)
    assert (read.ws_total, read.ws_per_client) == (7, 3)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("YES", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("off", False),
    ],
)
def test_switches_take_the_usual_words(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("PALAESTRA_SECURE_COOKIES", raw)
    assert Settings.from_env().secure_cookies is expected


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("PALAESTRA_MAX_BODY_BYTES", "64k"),
        ("PALAESTRA_IDLE_EVICT_SECONDS", "soon"),
        ("PALAESTRA_PUSH_ALLOW_HTTP", "maybe"),
    ],
)
def test_a_bad_value_names_its_variable(monkeypatch: pytest.MonkeyPatch, name: str, raw: str) -> None:
    monkeypatch.setenv(name, raw)
    with pytest.raises(SettingsError, match=f"{name}={raw!r}"):
        Settings.from_env()


def test_a_bad_argument_names_its_setting() -> None:
    with pytest.raises(SettingsError, match="ws_total='x'"):
        Settings.from_env(ws_total="x")


def test_settings_are_frozen() -> None:
    with pytest.raises(ValueError, match="frozen"):
        Settings().ws_total = 1  # type: ignore[misc]


TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
NUMERIC = st.one_of(
    TEXT, st.integers().map(str), st.floats().map(str), st.text(string.digits + " .-+eE_", max_size=12)
)


@SLOW
@given(raw=NUMERIC)
def test_any_text_for_a_number_gives_a_value_or_a_clear_error(raw: str) -> None:
    """Whatever a variable of a numeric setting holds: a number of the setting's type, or a
    SettingsError that names the variable; never another exception."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PALAESTRA_WS_TOTAL", raw)
        patch.setenv("PALAESTRA_CLAIM_AFTER_SECONDS", raw)
        try:
            read = Settings.from_env()
        except SettingsError as err:
            assert "PALAESTRA_WS_TOTAL=" in str(err) or "PALAESTRA_CLAIM_AFTER_SECONDS=" in str(err)
        else:
            assert type(read.ws_total) is int and type(read.claim_after_seconds) is float
            assert Decimal(read.ws_total) == Decimal(raw.strip().replace("_", ""))


# --- the database and Redis URLs: settings, overridden by the command line ----------------------------
def test_the_database_and_redis_urls_are_settings_left_out_of_the_repr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert (Settings().database_url, Settings().redis_url) == ("", "")
    monkeypatch.setenv("PALAESTRA_DATABASE_URL", "postgresql://palaestra:secret@db.internal/palaestra")
    monkeypatch.setenv("PALAESTRA_REDIS_URL", "redis://:hidden@redis.internal:6379/0")
    read = Settings.from_env()
    assert read.database_url == "postgresql://palaestra:secret@db.internal/palaestra"
    assert read.redis_url == "redis://:hidden@redis.internal:6379/0"
    assert "secret" not in repr(read) and "hidden" not in repr(read)


def test_the_app_opens_the_database_of_the_setting_unless_given_one(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from palaestra.server.app import create_app

    setting, given_ = tmp_path / "setting.sqlite3", tmp_path / "given.sqlite3"
    with TestClient(create_app(settings=Settings(database_url=f"sqlite:///{setting}"), ai_delay=0.0)) as c:
        assert c.get("/readyz").status_code == 200
    assert setting.exists()
    setting.unlink()
    app = create_app(
        f"sqlite:///{given_}", settings=Settings(database_url=f"sqlite:///{setting}"), ai_delay=0.0
    )
    with TestClient(app) as c:
        assert c.get("/readyz").status_code == 200
    assert given_.exists() and not setting.exists()


@pytest.mark.parametrize(
    ("args", "database", "redis"),
    [
        ([], "sqlite:///from-env.sqlite3", "redis://from-env:6379/0"),
        (["--database-url", "sqlite:///given.sqlite3"], "sqlite:///given.sqlite3", "redis://from-env:6379/0"),
        (["--redis-url", "redis://given:6379/1"], "sqlite:///from-env.sqlite3", "redis://given:6379/1"),
    ],
)
def test_serve_takes_the_urls_of_the_environment_and_its_options_override_them(
    monkeypatch: pytest.MonkeyPatch, args: list[str], database: str, redis: str
) -> None:
    from typer.testing import CliRunner

    from palaestra.cli import app
    from palaestra.server import app as web
    from palaestra.server import serving

    made: list[tuple[str | None, str | None]] = []

    def create_app(url: str | None = None, *, redis_url: str | None = None, **_: Any) -> str:
        made.append((url, redis_url))
        return "app"

    monkeypatch.setattr(web, "create_app", create_app)
    monkeypatch.setattr(serving, "run", lambda *a, **k: None)
    env = {
        "PALAESTRA_DATABASE_URL": "sqlite:///from-env.sqlite3",
        "PALAESTRA_REDIS_URL": "redis://from-env:6379/0",
    }
    result = CliRunner().invoke(app, ["serve", *args], env=env)
    assert result.exit_code == 0, result.output
    assert made == [(database, redis)]
    assert f"database: {database}, Redis: {redis}" in result.output


@pytest.mark.parametrize(
    ("args", "database"),
    [
        ([], "sqlite:///from-env.sqlite3"),
        (["--database-url", "sqlite:///given.sqlite3"], "sqlite:///given.sqlite3"),
    ],
)
def test_the_worker_takes_the_database_of_the_environment_unless_given_one(
    monkeypatch: pytest.MonkeyPatch, args: list[str], database: str
) -> None:
    from typer.testing import CliRunner

    from palaestra.cli import app
    from palaestra.server import worker

    ran: list[tuple[str, str]] = []
    monkeypatch.setattr(worker, "run_worker", lambda url, redis_url, **_: ran.append((url, redis_url)))
    env = {"PALAESTRA_DATABASE_URL": "sqlite:///from-env.sqlite3", "PALAESTRA_REDIS_URL": "redis://r:6379/0"}
    result = CliRunner().invoke(app, ["worker", *args], env=env)
    assert result.exit_code == 0, result.output
    assert ran == [(database, "redis://r:6379/0")]
