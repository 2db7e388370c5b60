"""Correspondence clocks in a real Chromium (issue 29): the creation form's days per move, and the
game page's control in words and clock in days and hours, in English and German."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, choose_game, server  # noqa: F401 (the fixtures)
from tests.server.test_browser_clocks import clock_text

#: the kind's option, the control in words and the clock of a 7-day turn just begun, per language
TEXTS = {
    "en": ("Correspondence (days per move)", "7 days per move", "6 d 23 h"),
    "de": ("Fernpartie (Tage je Zug)", "7 Tage je Zug", "6 T. 23 Std."),
}


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_a_correspondence_game_from_the_form_shows_days_and_hours(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    option, control, clock = TEXTS[lang]
    context = browser.new_context(bypass_csp=True, locale=lang)
    page = context.new_page()
    page.goto(server.url + "/")
    choose_game(page, "nim")
    assert page.locator("#clock-days").is_hidden()  # no clock by default
    assert page.locator("#clock-kind option[value='correspondence']").inner_text() == option
    days = page.locator("#clock-days option").all_inner_texts()
    assert len(days) == 5 and days[0] == ("1 day per move" if lang == "en" else "1 Tag je Zug")
    page.select_option("#clock-kind", "correspondence")
    page.select_option("#clock-days", "7")
    assert page.locator("#clock-days").is_visible() and page.locator("#clock-seconds").is_hidden()
    page.select_option('select[data-seat="1"]', "ai:random")
    page.click("#start")
    page.wait_for_url(re.compile(r".*#/game/\w+"))
    gid = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector("#players .clock[data-seat='0'].running")
    assert page.locator("#clock-control").inner_text() == control
    assert clock_text(page, 0) == clock  # just under 7 days: whole days and hours
    assert clock_text(page, 1) == clock.replace("6", "7").replace("23", "0")  # the AI's, never running
    view = page.request.get(f"{server.url}/api/games/{gid}").json()
    assert view["clock"]["control"]["days"] == 7 and view["clock"]["control"]["seconds"] == 7 * 86400
    context.close()
