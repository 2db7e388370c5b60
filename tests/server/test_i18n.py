"""Translations: every text of the browser UI has a German and a French translation (issue 21).

The UI's texts are the English keys of ``t("...")`` calls in app.js and the game renderers, the
option texts (OPTION_TEXT), Athos's phase names (PHASES) and the texts translated through
variables (VARIABLE_TEXTS in i18n.js). A key without a translation, an empty translation or one
that loses a {placeholder} fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "palaestra" / "server" / "static"
SOURCES = [
    STATIC / "app.js",
    STATIC / "clock.js",
    *sorted((ROOT / "palaestra" / "games").glob("*/web/board.js")),
]
LITERAL = r'"((?:[^"\\]|\\.)*)"'


def _unquote(text: str) -> str:
    return str(json.loads(f'"{text}"'))


def ui_texts() -> set[str]:
    keys: set[str] = set()
    for path in SOURCES:
        source = path.read_text()
        keys |= {_unquote(m) for m in re.findall(r"\bt\(\s*" + LITERAL, source)}
        for m in re.finditer(r'\bt\([^()"]*\?\s*' + LITERAL + r"\s*:\s*" + LITERAL, source):
            keys |= {_unquote(m.group(1)), _unquote(m.group(2))}
        block = re.search(r"const OPTION_TEXT = \{(.*?)\n\};", source, re.S)
        if block:
            for m in re.finditer(r"\[" + LITERAL + r",\s*" + LITERAL + r"\]", block.group(1)):
                keys |= {_unquote(m.group(1)), _unquote(m.group(2))}
        block = re.search(r"const ERROR_TEXT = \{(.*?)\n\};", source, re.S)
        if block:
            keys |= {_unquote(m) for m in re.findall(r":\s*" + LITERAL, block.group(1))}
        block = re.search(r"const PHASES = \{(.*?)\n\};", source, re.S)
        if block:
            keys |= {_unquote(m) for m in re.findall(r":\s*" + LITERAL, block.group(1))}
    block = re.search(r"VARIABLE_TEXTS = \[(.*?)\];", (STATIC / "i18n.js").read_text(), re.S)
    assert block
    keys |= {_unquote(m) for m in re.findall(LITERAL, block.group(1))}
    return keys


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_the_sources_have_texts_to_translate() -> None:
    texts = ui_texts()
    assert len(texts) > 150
    assert {"New game", "Your turn ({name})", "End turn", "Place:", "moving monks"} <= texts
    # refusals in plain words, results, AI seats, the connections' initials (finding 9)
    assert {"This move is not allowed here.", "{name} wins", "Draw", "AI ({level})"} <= texts
    assert "S (initial of strength)" in texts


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_ui_text_has_a_translation(language: str) -> None:
    catalogue = json.loads((STATIC / "i18n" / f"{language}.json").read_text())
    missing = sorted(ui_texts() - set(catalogue))
    assert not missing, f"{language}.json lacks {missing}"
    for key, value in catalogue.items():
        assert value.strip(), f"{language}: empty translation of {key!r}"
        assert placeholders(value) == placeholders(key), f"{language}: {key!r} -> {value!r}"


@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_stale_translations(language: str) -> None:
    catalogue = json.loads((STATIC / "i18n" / f"{language}.json").read_text())
    assert not sorted(set(catalogue) - ui_texts())


def test_a_text_missing_from_a_catalogue_is_caught(tmp_path: Path) -> None:
    catalogue = json.loads((STATIC / "i18n" / "de.json").read_text())
    del catalogue["End turn"]
    assert "End turn" in ui_texts() - set(catalogue)
