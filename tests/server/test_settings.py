"""The web app's settings read from ``PALAESTRA_*`` variables (pydantic-settings, issue 32)."""

from __future__ import annotations

import string
from decimal import Decimal

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
