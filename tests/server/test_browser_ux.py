"""Issue 21's findings in a real Chromium, desktop and phone (390×844) viewports.

Each test names the finding it checks; each failed before its fix.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot  # noqa: F401 (the fixtures)

VIEWPORTS = {"desktop": {"width": 1200, "height": 850}, "phone": {"width": 390, "height": 844}}


def api(server: ServerProcess, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.url + path,
        data=data,
        headers={"content-type": "application/json"},
        method="POST" if body else "GET",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def ai_game(server: ServerProcess, game: str, seats: int = 2, options: dict[str, Any] | None = None) -> str:
    """A game between random AIs, played to its end by the server."""
    created = api(
        server,
        "/api/games",
        {"game": game, "options": options or {}, "seats": [{"kind": "ai", "level": "random"}] * seats},
    )
    game_id = str(created["id"])
    end = time.monotonic() + 120
    while api(server, f"/api/games/{game_id}")["status"] != "finished":
        assert time.monotonic() < end, "the AIs did not finish"
        time.sleep(0.2)
    return game_id


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_team_form_names_the_seats_as_they_will_play(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    """Findings 1 and 10: Athos teams seat A, D, B, E; the form says so, and adapts to the count."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#game-select", "athos")
    # the number of players is a list, as for Archimedes (finding 10)
    assert page.locator("#opt-players").evaluate("e => e.tagName") == "SELECT"
    page.select_option("#opt-players", "2")
    assert page.locator("#opt-teams").is_disabled()  # no error toast later: teams need 4 players
    assert "4 players" in page.locator('[data-note="teams"]').inner_text()
    page.select_option("#opt-players", "4")
    assert page.locator("#opt-teams").is_enabled()
    page.locator("#opt-teams").set_checked(True)
    names = page.locator(".seat-row").evaluate_all("rows => rows.map(r => r.dataset.seatName)")
    assert names == ["red (A)", "blue (D)", "green (B)", "yellow (E)"]
    assert page.locator(".seat-row").nth(1).locator(".team").inner_text() == "team D+E"
    page.select_option('select[data-seat="1"]', "friend")
    for i in (2, 3):
        page.select_option(f'select[data-seat="{i}"]', "ai:random")
    page.click("#start")
    page.wait_for_selector("#invites .invite-card")
    assert "Invitation for blue (D)" in page.locator("#invites").inner_text()
    # the players panel shows who partners whom
    page.wait_for_selector("#players li[data-seat='2'] .team")
    assert page.locator("#players li[data-seat='0'] .team").inner_text() == "team A+B"
    assert page.locator("#players li[data-seat='2'] .team").inner_text() == "team A+B"
    assert page.locator("#players li[data-seat='1'] .team").inner_text() == "team D+E"
    shot(page, f"athos-teams-{viewport}")
    context.close()


def test_replay_names_the_drawing_player_and_its_list_follows_the_slider(
    server: ServerProcess, browser: Any
) -> None:
    """Findings 4 and 8."""
    game_id = ai_game(server, "agamemnon")
    game = api(server, f"/api/games/{game_id}")
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    page.goto(f"{server.url}/#/replay/{game_id}/1")
    page.wait_for_function("(e => e && e.dataset.ply === '1')(document.querySelector('#replay-ply'))")
    drawer = game["seats"][game["moves"][0]["player"] if game["moves"][0]["player"] >= 0 else 0][
        "player_name"
    ]
    first_player = api(server, f"/api/games/{game_id}/replay?ply=1")["current_player"]
    text = page.locator("#board").inner_text()
    assert "(null)" not in text
    if "Drawn (" in text:
        assert f"Drawn ({game['seats'][first_player]['player_name']})" in text, (drawer, text)
    # the move list follows the slider: the current move is marked and scrolled into view
    target = min(28, game["ply"])
    page.goto(f"{server.url}/#/replay/{game_id}/{target}")
    page.wait_for_function(f"(e => e && e.dataset.ply === '{target}')(document.querySelector('#replay-ply'))")
    current = page.locator("#replay-moves li.current")
    assert current.count() == 1
    assert current.evaluate("li => [...li.parentNode.children].indexOf(li)") == target - 1
    visible = current.evaluate(
        "li => { const a = li.getBoundingClientRect(), b = li.parentNode.getBoundingClientRect();"
        " return a.top >= b.top - 1 && a.bottom <= b.bottom + 1; }"
    )
    assert visible
    context.close()


def test_no_red_connection_dot_after_leaving_a_game(server: ServerProcess, browser: Any) -> None:
    """Finding 12."""
    game_id = ai_game(server, "archimedes")
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#conn.on")
    page.click("text=replay")
    page.wait_for_selector("#replay-slider")
    page.wait_for_timeout(500)  # the closed socket's close event has come and gone
    assert page.get_attribute("#conn", "class") == "conn"
    page.click(".brand")
    page.wait_for_selector("#new-game-form")
    page.wait_for_timeout(300)
    assert page.get_attribute("#conn", "class") == "conn"
    context.close()


def test_game_list_counts_moves_without_chance_draws(server: ServerProcess, browser: Any) -> None:
    """Finding 15: Agamemnon's draws are not moves."""
    created = api(
        server,
        "/api/games",
        {
            "game": "agamemnon",
            "options": {},
            "seats": [{"kind": "human", "joined": True, "name": "Ann"}, {"kind": "ai", "level": "random"}],
        },
    )
    game_id = str(created["id"])
    end = time.monotonic() + 30
    while api(server, f"/api/games/{game_id}")["current_player"] != 0:
        assert time.monotonic() < end
        time.sleep(0.1)
    view = api(server, f"/api/games/{game_id}")
    assert view["ply"] >= 1  # the draws
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["phone"])
    page = context.new_page()
    page.goto(server.url + "/")
    tag = page.locator(f"li[data-game='{game_id}'] .tag")
    assert tag.get_attribute("data-moves") == "0"
    assert tag.inner_text() == "0 moves"
    context.close()
