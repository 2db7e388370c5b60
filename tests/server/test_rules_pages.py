"""Rules pages for players at /rules/GAME, and /api/meta's languages (issue 21)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from palaestra.core.info import WebAssets
from palaestra.core.registry import game_infos
from palaestra.core.rules_page import RulesPages
from palaestra.server.app import create_app


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("rules") / "r.sqlite3"
    with TestClient(create_app(database_url=f"sqlite:///{db}")) as client:
        yield client  # type: ignore[misc]


@pytest.mark.parametrize("game", ["athos", "archimedes", "agamemnon"])
def test_rules_page_in_the_asked_language(web: TestClient, game: str) -> None:
    german = web.get(f"/rules/{game}", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert german.status_code == 200 and german.headers["content-language"] == "de"
    assert '<html lang="de">' in german.text and "die Regeln" in german.text
    french = web.get(f"/rules/{game}?lang=fr", headers={"Accept-Language": "de"})  # ?lang= overrides
    assert french.headers["content-language"] == "fr" and "les règles" in french.text
    english = web.get(f"/rules/{game}")
    assert english.headers["content-language"] == "en" and "the rules" in english.text
    for page in (german, french, english):
        # the CSP forbids inline script: only the examples' module and their JSON data block
        assert set(re.findall(r"<script[^>]*>", page.text)) == {
            '<script type="application/json" id="rules-examples">',
            '<script type="module" src="/static/rules.js">',
            '<script type="module" src="/static/theme.js">',  # the colour theme (issue 30)
        }
        assert not re.search(r"\b[A-Z]{3}-[A-Z]+\d", page.text)  # written for players: no ruling IDs


def test_every_page_has_every_language_with_the_same_sections() -> None:
    """Each game declares its page (GameInfo.web.rules, in its own web/ folder)."""
    declared = {info.name: info.rules_pages() for info in game_infos()}
    assert {"athos", "archimedes", "agamemnon"} <= {name for name, pages in declared.items() if pages}
    for game, pages in declared.items():
        if pages is None:
            continue
        assert set(pages) == {"en", "de", "fr"}, game
        counts = {lang: [len(p) for _, p in page["sections"]] for lang, page in pages.items()}
        assert counts["de"] == counts["en"] == counts["fr"], game


def test_a_game_registered_from_outside_gets_its_page(
    web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fourth game's page needs nothing outside its own code: its info declares the text."""
    from palaestra.core import registry
    from tests.core.nim import INFO

    with_page = replace(INFO, web=WebAssets(renderer=None, rules=f"{__name__}:NIM_RULES"))
    monkeypatch.setitem(registry._GAMES, "nim", with_page)
    page = web.get("/rules/nim?lang=de")
    assert page.status_code == 200 and "Nimm einen bis drei" in page.text
    assert "<h1>Nim — die Regeln</h1>" in page.text
    assert "rules-examples" not in page.text  # no figures declared: no data block, no script
    assert web.get("/rules/nim?lang=fr").text.count("<section>") == 1
    monkeypatch.setitem(registry._GAMES, "nim", INFO)  # declares no page
    assert web.get("/rules/nim").status_code == 404


NIM_RULES: RulesPages = {
    lang: {"title": title, "intro": intro, "sections": [(heading, [text])]}
    for lang, title, intro, heading, text in (
        ("en", "Nim — the rules", "Two players.", "A turn", "Take one to three stones."),
        ("de", "Nim — die Regeln", "Zwei Spieler.", "Ein Zug", "Nimm einen bis drei Steine."),
        ("fr", "Nim — les règles", "Deux joueurs.", "Un tour", "Prends une à trois pierres."),
    )
}


def test_unknown_game_and_bad_language(web: TestClient) -> None:
    assert web.get("/rules/chess").status_code == 404
    assert web.get("/rules/athos?lang=xx").headers["content-language"] == "en"
    assert web.get("/rules/athos", headers={"Accept-Language": "x" * 600}).status_code in (200, 422)


def test_meta_lists_the_languages(web: TestClient) -> None:
    assert web.get("/api/meta").json()["languages"] == ["en", "de", "fr"]


def test_meta_serves_what_each_game_declares_for_the_web(web: TestClient) -> None:
    """Issue 19, finding 6: the games' order, option texts, stylesheet and catalogues come from each
    game's GameInfo and web/ folder; the server names none of them."""
    games = web.get("/api/meta").json()["games"]
    infos = [i for i in game_infos() if i.name in {g["name"] for g in games}]
    assert [g["name"] for g in games] == [i.name for i in infos]  # menu order (menu_rank)
    for game, info in zip(games, infos, strict=True):
        assert game["players_option"] == info.players_option
        for option in game["options"]:
            label, explain = info.web.option_texts.get(option["name"], (None, None))
            assert (option["label"], option["explain"]) == (label, explain)
        for lang, url in game["catalogues"].items():
            entries = web.get(url).json()
            assert entries and all(isinstance(v, str) and v for v in entries.values()), (url, lang)
    athos = next(g for g in games if g["name"] == "athos")
    assert athos["stylesheet"] == "/games/athos/web/board.css"
    assert ".athos-terrains" in web.get(athos["stylesheet"]).text
    assert next(o for o in athos["options"] if o["name"] == "teams")["label"] == "Teams"
    assert web.get(athos["catalogues"]["fr"]).json()["Teams"] == "Équipes"
    assert web.get("/static/style.css").text.count("athos") == 0
