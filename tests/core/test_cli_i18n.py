"""The terminal's texts in German, French and English; language negotiation (issue 21)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from palaestra.cli import PLAY_HELP, app
from palaestra.i18n import LANGUAGES, negotiate, system_language, tr

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "palaestra" / "cli.py", ROOT / "palaestra" / "terminal.py"]
runner = CliRunner()


def cli_texts() -> set[str]:
    texts = {PLAY_HELP}
    for path in SOURCES:
        source = path.read_text()
        texts |= set(re.findall(r'\btr\(\s*"((?:[^"\\]|\\.)*)"', source))
        # a text chosen before tr(): `replayed = "..." if ... else "..."`
        for pair in re.findall(r'replayed = "([^"]*)" if .* else "([^"]*)"', source):
            texts |= set(pair)
    return texts


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_terminal_text_has_a_translation(language: str) -> None:
    catalogue = json.loads((ROOT / "palaestra" / "i18n" / f"cli.{language}.json").read_text())
    assert len(cli_texts()) >= 10
    missing = sorted(cli_texts() - set(catalogue))
    assert not missing, f"cli.{language}.json lacks {missing}"
    for key, value in catalogue.items():
        assert value.strip() and set(re.findall(r"\{(\w+)\}", value)) == set(re.findall(r"\{(\w+)\}", key))


def test_play_speaks_the_chosen_language(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    german = runner.invoke(
        app, ["play", "nim", "-o", "stones=4", "--record", str(path), "--lang", "de"], input="help\nquit\n"
    )
    assert german.exit_code == 0, german.output
    assert "Protokoll in" in german.output and "Befehle:" in german.output
    assert "Partie gespeichert in" in german.output
    french = runner.invoke(
        app,
        ["play", "nim", "-o", "stones=4", "--resume", str(path)],
        input="moves\ntake 1\nquit\n",
        env={"LANG": "fr_FR.UTF-8", "LANGUAGE": ""},
    )
    assert french.exit_code == 0, french.output
    assert "coups permis :" in french.output and "take 1" in french.output  # notation unchanged
    bad = runner.invoke(app, ["play", "nim", "--lang", "xx"], input="quit\n")
    assert bad.exit_code == 1 and "--lang" in bad.output


def test_system_language() -> None:
    assert system_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert system_language({"LANGUAGE": "fr:en", "LANG": "de_DE.UTF-8"}) == "fr"
    assert system_language({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert system_language({}) == "en"
    assert tr("legal moves:", "de") == "erlaubte Züge:"
    assert tr("legal moves:", "en") == "legal moves:"


def test_negotiate_accept_language() -> None:
    assert negotiate("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert negotiate("es-ES, fr;q=0.5, en;q=0.4") == "fr"
    assert negotiate("en;q=0.2, de;q=0.7") == "de"
    assert negotiate("de;q=0, fr") == "fr"
    assert negotiate("de", override="fr") == "fr"
    assert negotiate("de", override="xx") == "de"
    assert negotiate(None) == "en" and negotiate("*") == "en"


@given(st.text(max_size=300), st.one_of(st.none(), st.text(max_size=10)))
def test_negotiate_takes_any_header(header: str, override: str | None) -> None:
    assert negotiate(header, override) in LANGUAGES
