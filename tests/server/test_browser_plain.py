"""Finding 9 in a real Chromium: no ruling IDs or English leftovers in what players read.

Refusals are plain sentences in the page's language with the rulings a small link to the rules
page; results are said from their numbers; AI seats and Agamemnon's connection initials are in the
page's language.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot, start_game  # noqa: F401 (the fixtures)
from tests.server.test_browser_ux import ai_game

REFUSAL = {
    "en": "This move is not allowed here. Place d1: too many tiles of this terrain this turn.",
    "de": "Dieser Zug ist hier nicht erlaubt.",
    "fr": "Ce coup n'est pas permis ici.",
}
ENGINE_MESSAGE = "place d1: too many tiles of this terrain this turn (ATH-T8)"


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_refused_move_is_said_in_plain_words_with_the_rule_a_link_away(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 850}, locale=lang)
    page = context.new_page()
    start_game(page, server, "athos", ["me", "ai:random"])
    page.wait_for_selector("#athos-end-move")
    # the engine refuses the next move as the server says it (its message cites the ruling)
    body = json.dumps({"error": "illegal_action", "message": ENGINE_MESSAGE})
    page.route("**/api/games/*/actions", lambda route: route.fulfill(status=422, body=body))
    page.click("#athos-end-move")
    toast = page.locator("#toast.show")
    toast.wait_for()
    link = toast.locator("a.rule-ref")
    assert toast.inner_text().startswith(REFUSAL[lang])
    assert not re.search(r"[A-Z]{3}-[A-Z]+\d", toast.inner_text())  # no ruling ID in the text
    assert link.get_attribute("href") == f"/rules/athos?lang={lang}"
    assert link.get_attribute("data-rulings") == "ATH-T8"
    assert toast.get_attribute("title") == ENGINE_MESSAGE  # the server's words stay at hand
    shot(page, f"refusal-{lang}")
    context.close()


@pytest.mark.parametrize(
    ("lang", "wins", "ai"),
    [("en", "wins", "AI: random"), ("de", "gewinnt", "KI: Zufall"), ("fr", "gagne", "IA : hasard")],
)
def test_results_and_ai_seats_in_the_pages_language(
    server: ServerProcess, browser: Any, lang: str, wins: str, ai: str
) -> None:
    game_id = ai_game(server, "nim", options={"stones": 7})
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 850}, locale=lang)
    page = context.new_page()
    page.goto(f"{server.url}/#/game/{game_id}")
    banner = page.locator("#result-banner > div").first
    banner.wait_for()
    assert re.fullmatch(rf"\S+ \d {wins}", banner.inner_text()), banner.inner_text()
    engine_text = banner.get_attribute("data-engine-text") or ""
    assert engine_text  # the engine's sentence stays at hand (English)
    assert lang == "en" or engine_text != banner.inner_text()
    players = page.locator("#players").inner_text()
    assert ai in players and (lang == "en" or "AI (random)" not in players)
    context.close()


@pytest.mark.parametrize(("lang", "initials"), [("en", "SFL"), ("de", "SKF"), ("fr", "FPC")])
def test_agamemnon_connection_initials_in_the_pages_language(
    server: ServerProcess, browser: Any, lang: str, initials: str
) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 850}, locale=lang)
    page = context.new_page()
    start_game(page, server, "agamemnon", ["me", "ai:random"])
    page.wait_for_selector("[data-initial]")
    for kind, letter in zip(("strength", "force", "leadership"), initials, strict=True):
        texts = set(page.locator(f'[data-initial="{kind}"]').all_text_contents())
        assert texts == {letter}, (kind, texts)
    context.close()
