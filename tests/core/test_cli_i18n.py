"""The terminal's texts in German, French and English; language negotiation (issue 21)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer.main
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from palaestra.cli import app
from palaestra.i18n import (
    COLOUR_WORDS,
    LANGUAGES,
    negotiate,
    plain,
    player_name,
    result_sentence,
    system_language,
    tr,
)
from palaestra.i18n.help import STANDARD_TEXTS, help_language, help_texts
from palaestra.terminal import PLAY_HELP

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "palaestra" / name for name in ("cli.py", "terminal.py", "i18n/__init__.py")]
runner = CliRunner()


def cli_texts() -> set[str]:
    """The terminal's texts: tr("...") literals, the colour words of player names, and every text
    of ``--help`` (each command's and option's help, click's own words)."""
    texts = {PLAY_HELP, *COLOUR_WORDS, *STANDARD_TEXTS, *help_texts(typer.main.get_command(app))}
    for path in SOURCES:
        source = path.read_text()
        texts |= set(re.findall(r'\btr\(\s*"((?:[^"\\]|\\.)*)"', source))
        # a text chosen before tr(): `replayed = "..." if ... else "..."`
        for pair in re.findall(r'replayed = \(?\s*"([^"]*)" if .* else "([^"]*)"', source):
            texts |= set(pair)
    return texts


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_terminal_text_has_a_translation(language: str) -> None:
    catalogue = json.loads((ROOT / "palaestra" / "i18n" / f"cli.{language}.json").read_text())
    assert len(cli_texts()) >= 60
    assert {"Show this message and exit.", "Number of players.", "{name} wins", "blue"} <= cli_texts()
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
    assert "Protokoll in" in german.output and "die erlaubten Züge" in german.output
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


def test_help_speaks_the_language_of_the_system_or_of_lang() -> None:
    german = runner.invoke(app, ["--help"], env={"LANG": "de_DE.UTF-8", "LANGUAGE": ""})
    assert german.exit_code == 0
    assert "Aufruf:" in german.output and "Befehle:" in german.output and "Optionen:" in german.output
    assert "Diese Hilfe zeigen und beenden." in german.output
    assert "Die Web-App starten" in german.output  # a command's short help: its translated first sentence
    german_system = {"LANG": "de_DE.UTF-8", "LANGUAGE": ""}
    french = runner.invoke(app, ["play", "--lang", "fr", "--help"], env=german_system)
    assert "Utilisation :" in french.output and "Nombre de joueurs." in french.output
    assert "[obligatoire]" in french.output and "Jouer une partie dans le terminal" in french.output
    english = runner.invoke(app, ["play", "--help"], env={"LANG": "C", "LANGUAGE": ""})
    assert "Usage:" in english.output and "Number of players." in english.output
    assert help_language(["play", "--lang=de"]) == "de" and help_language(["--lang", "xx"]) in LANGUAGES


def test_results_names_and_refusals_in_the_language() -> None:
    """Finding 9: the result in words from its numbers, names with their colour translated, the
    engines' refusals without ruling IDs."""
    names = ["red (A)", "blue (B)", "green (D)", "yellow (E)"]
    assert result_sentence([1.0, -1.0 / 3, -1.0 / 3, -1.0 / 3], names, "de") == "rot (A) gewinnt"
    teams = result_sentence([1.0, -1.0, 1.0, -1.0], names, "fr", teams=True)
    assert teams == "rouge (A) et vert (D) gagnent ensemble"
    assert result_sentence([0.0, 0.0], names[:2], "en") == "Draw"
    assert result_sentence([0.5, 0.5, -1.0], names[:3], "en") == "red (A) and blue (B) share the win"
    assert player_name("orange", "de") == "orange" and player_name("black", "fr") == "noir"
    assert plain("a stone protects the tile on d5 (ATH-T5, ATH-T7)") == "a stone protects the tile on d5"
    assert plain("ATH-T8: too many tiles") == "too many tiles"


def test_play_refuses_a_move_in_plain_words(tmp_path: Path) -> None:
    out = runner.invoke(
        app,
        ["play", "athos", "--record", str(tmp_path / "r.json"), "--lang", "de"],
        input="A-z99\nplace d1\nquit\n",
    )
    assert out.exit_code == 0, out.output
    assert "Dieser Zug ist nicht lesbar." in out.output or "Dieser Zug ist hier nicht erlaubt." in out.output
    # the reason is the engine's without its ruling IDs; those follow in brackets, for looking up
    refusals = re.findall(r"Dieser Zug ist hier nicht erlaubt\. \(([^\n]*)\) \[([^\]]*)\]", out.output)
    assert refusals and all(not re.search(r"[A-Z]{3}-[A-Z]+\d", why) for why, _ in refusals)
    ruling = r"[A-Z]{3}-[A-Z]+\d+[a-z]?"
    assert all(re.fullmatch(rf"{ruling}(, {ruling})*", ids) for _, ids in refusals)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_stale_terminal_translations(language: str) -> None:
    catalogue = json.loads((ROOT / "palaestra" / "i18n" / f"cli.{language}.json").read_text())
    assert not sorted(set(catalogue) - cli_texts())
