"""Clocks in a real Chromium (issue 21), desktop and phone (390×844) viewports.

Creating a game with a clock in the form, the clock counting down (and standing still while the
AI thinks), and a flag fall that ends the game for the player and for a spectator. The flag fall
needs real time to pass: it uses the shortest control the server accepts (5 s a move) and waits
for what it asserts, never for a fixed time; no test asserts how long anything took.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, choose_game, server, shot  # noqa: F401 (the fixtures)

VIEWPORTS = {"desktop": {"width": 1200, "height": 850}, "phone": {"width": 390, "height": 844}}


def create_with_clock(
    page: Any, server: ServerProcess, kind: str, fill: dict[str, str], screenshot: str | None = None
) -> str:
    """Nim against the random AI, with the clock chosen in the creation form."""
    page.goto(server.url + "/")
    choose_game(page, "nim")
    assert page.locator("#clock-seconds").is_hidden()  # no clock by default: no clock fields
    page.select_option("#clock-kind", kind)
    for field, value in fill.items():
        page.fill(f"#{field}", value)
    page.select_option('select[data-seat="1"]', "ai:random")
    if screenshot:
        shot(page, screenshot)
    page.click("#start")
    page.wait_for_url(re.compile(r".*#/game/\w+"))
    return str(page.url.rsplit("/", 1)[-1])


def clock_text(page: Any, seat: int) -> str:
    return str(page.locator(f"#players .clock[data-seat='{seat}']").inner_text())


def seconds_of(text: str) -> float:
    parts = [float(p) for p in text.split(" ")[0].split(":")]
    total = 0.0
    for p in parts:
        total = total * 60 + p
    return total


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_game_with_a_clock_counts_the_time_of_the_person_to_move(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport], locale="en")
    page = context.new_page()
    create_with_clock(
        page, server, "fischer", {"clock-minutes": "1", "clock-increment": "2"}, f"clock-form-{viewport}"
    )
    page.wait_for_selector("#players .clock[data-seat='0'].running")
    assert page.locator("#clock-control").inner_text() == "1 min plus 2 s a move"
    first = seconds_of(clock_text(page, 0))
    assert 0 < first <= 60
    # it counts down by itself, with nobody doing anything
    page.wait_for_function(
        "t => { const c = document.querySelector(\"#players .clock[data-seat='0']\");"
        " return c.textContent !== t; }",
        arg=clock_text(page, 0),
        timeout=5000,
    )
    assert seconds_of(clock_text(page, 0)) < first
    assert clock_text(page, 1) == "1:00"  # the AI's clock never runs
    assert not page.locator("#players .clock[data-seat='1']").evaluate("c => c.classList.contains('running')")
    # on a phone the panel is under the board: the running clock shows above it too
    assert page.locator("#status-top .clock.running").is_visible() == (viewport == "phone")
    # nothing sticks out of a phone's screen
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    shot(page, f"clock-running-{viewport}")
    # a move: the increment is added, and the clock runs again once the AI has answered
    if not page.locator("#legal-card").evaluate("d => d.open"):
        page.click("#legal-card summary")
    page.locator("#legal button").first.click()
    page.wait_for_function("() => Number(document.querySelector('#status').dataset.ply) >= 2", timeout=15000)
    page.wait_for_selector("#players .clock[data-seat='0'].running, #result-banner")
    assert seconds_of(clock_text(page, 0)) <= 62
    context.close()


#: what the pages say when seat 0 ("player 0") runs out of time, in each language
FLAG_TEXT = {
    "en": ("5 s per move", "player 0 ran out of time and loses", "out of time", "Game over"),
    "de": (
        "5 s je Zug",
        "Spieler 0 hat die Zeit überschritten und verliert",
        "Zeit abgelaufen",
        "Partie beendet",
    ),
    "fr": ("5 s par coup", "joueur 0 a dépassé son temps et perd", "temps écoulé", "Partie terminée"),
}


@pytest.mark.parametrize(
    ("viewport", "lang"), [("desktop", "en"), ("phone", "en"), ("phone", "de"), ("desktop", "fr")]
)
def test_a_flag_fall_ends_the_game_for_the_player_and_the_spectators(
    server: ServerProcess, browser: Any, viewport: str, lang: str
) -> None:
    control_text, banner, clock_note, over = FLAG_TEXT[lang]
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport], locale=lang)
    page = context.new_page()
    game_id = create_with_clock(
        page, server, "per_move", {"clock-seconds": "5"}, f"clock-form-{viewport}-{lang}"
    )
    page.wait_for_selector(
        "#players .clock[data-seat='0']"
    )  # running, or fallen already if the machine is slow
    assert page.locator("#clock-control").inner_text() == control_text
    watcher_context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport], locale=lang)
    watcher = watcher_context.new_page()
    watcher.goto(f"{server.url}/#/game/{game_id}")
    watcher.wait_for_selector("#players .clock[data-seat='0']")
    # the last seconds are shown as low time
    page.wait_for_selector("#players .clock[data-seat='0'].low", timeout=10000)
    shot(page, f"clock-low-{viewport}-{lang}")
    # the server's flag fall, announced on the websockets: the game is over for everyone
    for p in (page, watcher):
        p.wait_for_selector("#result-banner", timeout=15000)
        assert banner in p.locator("#result-banner").inner_text()
        assert clock_note in clock_text(p, 0)
        assert p.locator("#status").inner_text() == over
        assert p.locator("#players .clock.running").count() == 0
        assert p.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    assert page.locator("#legal button").count() == 0
    # the banner says how it ended for whoever looks: lost for the player, neutral for a spectator
    assert page.locator("#result-banner").get_attribute("data-outcome") == "lost"
    assert watcher.locator("#result-banner").get_attribute("data-outcome") == ""
    shot(page, f"clock-flag-{viewport}-{lang}")
    shot(watcher, f"clock-flag-spectator-{viewport}-{lang}")
    watcher_context.close()
    context.close()


def test_out_of_time_the_ai_plays_the_turn_and_the_page_says_so(server: ServerProcess, browser: Any) -> None:
    """The creator chose "the AI plays the move": the game goes on, the move list has the AI's
    move for the seat, the players panel counts such turns, and the seat's clock runs again."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["phone"], locale="en")
    page = context.new_page()
    page.goto(server.url + "/")
    choose_game(page, "nim")
    page.select_option("#clock-kind", "per_move")
    page.fill("#clock-seconds", "5")
    page.select_option("#clock-timeout", "ai")
    page.select_option('select[data-seat="1"]', "ai:random")
    page.click("#start")
    page.wait_for_selector("#players .clock[data-seat='0']")
    assert page.locator("#clock-control").inner_text() == "5 s per move · out of time, the AI plays the move"
    tag = page.wait_for_selector("#players .tag.timeouts[data-seat='0']", timeout=15000)
    assert tag.inner_text() == "AI played 1×"
    assert page.locator("#moves li").first.inner_text().startswith("player 0: take")
    page.wait_for_selector('#status[data-mine="1"], #result-banner')
    if not page.locator("#result-banner").count():  # a fresh turn, with the full time again
        assert page.locator("#players .clock[data-seat='0'].running").count() == 1
        assert page.locator("#status").inner_text() == "Your turn (player 0)"
    shot(page, "clock-ai-took-over-phone")
    context.close()
