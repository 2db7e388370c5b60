"""Translations: every text of the browser UI has a German and a French translation (issue 21).

The app's texts are the English keys of ``t("...")`` calls in its modules (static/), its error texts
(ERROR_TEXT) and the texts translated through variables (VARIABLE_TEXTS in i18n.js): they are in
``static/i18n/LANG.json``. A game's own texts (issue 19: nothing outside its folder names a game
fact) are those of its renderer (``t("...")``, PHASES, VARIABLE_TEXTS in its board.js) and its
option texts (``GameInfo.web.option_texts``): they are in its own catalogue
(``GameInfo.web.catalogue`` in its ``web/`` folder), which may leave a text to the app's. A key
without a translation, an empty translation, one that loses a {placeholder} or a translation
nobody uses fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from palaestra.core.info import GameInfo
from palaestra.core.registry import game_infos
from palaestra.server.api.web import game_web_dir

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "palaestra" / "server" / "static"
LITERAL = r'"((?:[^"\\]|\\.)*)"'
LANGUAGES = ["de", "fr"]
#: the app's modules (every .js file of static/ and its folders, the rules page's too): a new module
#: is checked without being named here
APP_SOURCES = sorted(str(path.relative_to(STATIC)) for path in STATIC.rglob("*.js"))


def _unquote(text: str) -> str:
    return str(json.loads(f'"{text}"'))


def source_texts(source: str) -> set[str]:
    """The texts a JavaScript module translates: t("...") calls (also t(x ? "..." : "...")), the
    values of its ERROR_TEXT and PHASES tables and its VARIABLE_TEXTS list."""
    keys = {_unquote(m) for m in re.findall(r"\bt\(\s*" + LITERAL, source)}
    for m in re.finditer(r'\bt\([^()"]*\?\s*' + LITERAL + r"\s*:\s*" + LITERAL, source):
        keys |= {_unquote(m.group(1)), _unquote(m.group(2))}
    for table in ("ERROR_TEXT", "PHASES"):
        block = re.search(r"const " + table + r" = \{(.*?)\n\};", source, re.S)
        if block:
            keys |= {_unquote(m) for m in re.findall(r":\s*" + LITERAL, block.group(1))}
    block = re.search(r"VARIABLE_TEXTS = \[(.*?)\];", source, re.S)
    if block:
        keys |= {_unquote(m) for m in re.findall(LITERAL, block.group(1))}
    return keys


def ui_texts() -> set[str]:
    """The app's own texts."""
    return set().union(*(source_texts((STATIC / name).read_text()) for name in APP_SOURCES))


def web_folder(info: GameInfo) -> Path:
    folder = game_web_dir(info.name)
    assert folder is not None, f"{info.name} has no web/ folder"
    return folder


def game_texts(info: GameInfo) -> set[str]:
    """A game's own texts: its renderer's and its option texts."""
    renderer = web_folder(info) / (info.web.renderer or "")
    keys = source_texts(renderer.read_text()) if renderer.is_file() else set()
    for label, explain in info.web.option_texts.values():
        keys |= {label, explain}
    return keys


def catalogue(path: Path) -> dict[str, str]:
    return dict(json.loads(path.read_text()))


def game_catalogue(info: GameInfo, language: str) -> dict[str, str]:
    assert info.web.catalogue, f"{info.name} declares no catalogue"
    return catalogue(web_folder(info) / info.web.catalogue.format(lang=language))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def check_entries(name: str, entries: dict[str, str]) -> None:
    for key, value in entries.items():
        assert value.strip(), f"{name}: empty translation of {key!r}"
        assert placeholders(value) == placeholders(key), f"{name}: {key!r} -> {value!r}"


GAMES = [info for info in game_infos() if info.web.renderer or info.web.option_texts]


def test_the_sources_have_texts_to_translate() -> None:
    assert {"app.js", "api.js", "router.js", "screens/game.js", "screens/home.js", "clock.js"} <= set(
        APP_SOURCES
    )
    texts = ui_texts()
    assert len(texts) > 80
    assert {"New game", "Your turn ({name})", "Rules", "red"} <= texts
    # refusals in plain words, results, AI seats (finding 9)
    assert {"This move is not allowed here.", "{name} wins", "Draw", "AI ({level})"} <= texts
    games = {info.name: game_texts(info) for info in GAMES}
    assert {"End turn", "moving monks", "Players", "meadow"} <= games["athos"]
    assert {"S (initial of strength)", "Loom", "Warp", "Place:"} <= games["agamemnon"]
    assert "Revisit cells" in games["archimedes"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_ui_text_has_a_translation(language: str) -> None:
    entries = catalogue(STATIC / "i18n" / f"{language}.json")
    missing = sorted(ui_texts() - set(entries))
    assert not missing, f"{language}.json lacks {missing}"
    check_entries(f"{language}.json", entries)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.name)
def test_every_game_text_has_a_translation(info: GameInfo, language: str) -> None:
    own = game_catalogue(info, language)
    app = catalogue(STATIC / "i18n" / f"{language}.json")
    missing = sorted(game_texts(info) - set(own) - set(app))
    assert not missing, f"{info.name}'s {language} catalogue lacks {missing}"
    check_entries(f"{info.name} {language}", own)
    assert not sorted(set(own) - game_texts(info)), "stale translations"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_stale_translations(language: str) -> None:
    entries = catalogue(STATIC / "i18n" / f"{language}.json")
    assert not sorted(set(entries) - ui_texts())


def test_a_text_missing_from_a_catalogue_is_caught() -> None:
    entries = catalogue(STATIC / "i18n" / "de.json")
    del entries["New game"]
    assert "New game" in ui_texts() - set(entries)
    athos = next(info for info in GAMES if info.name == "athos")
    own = game_catalogue(athos, "de")
    del own["End turn"]
    assert "End turn" in game_texts(athos) - set(own) - set(catalogue(STATIC / "i18n" / "de.json"))
