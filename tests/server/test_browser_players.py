"""What players expect from Lichess and Board Game Arena (issue 30, "beyond the fixes"), in a real
Chromium: the dark theme and its switch, move sounds and their mute switch, the tab that says "your
turn", the board turned to the player's side with a "Flip board" control, a confirm-move option,
the host who waits for the invited friend (finding 14), and names instead of "player 1 (S)"
(finding 8). Every page fails the test on an uncaught page error or a console error (``pages``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, choose_game, server, shot, start_game  # noqa: F401
from tests.server.test_browser_issue30 import Pages, api, contrasts, pages  # noqa: F401 (fixture)


def luminance(page: Any, selector: str, prop: str = "backgroundColor") -> float:
    """The relative luminance (0 black .. 1 white) of an element's computed colour."""
    return float(
        page.eval_on_selector(
            selector,
            """(node, prop) => {
              const [r, g, b] = getComputedStyle(node)[prop].match(/[\\d.]+/g).map(Number);
              const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
              return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
            }""",
            prop,
        )
    )


def my_turn(page: Any) -> None:
    page.wait_for_selector('#status[data-mine="1"]', timeout=20000)


def play_a_move(page: Any) -> None:
    """Play one legal move through the "Legal moves" list (every game has one)."""
    my_turn(page)
    if not page.locator("#legal-card").evaluate("d => d.open"):
        page.click("#legal-card summary")
    page.locator("#legal button").first.click()


# --- the dark theme ------------------------------------------------------------------------------------


def test_dark_theme_follows_the_system_and_the_switch_and_boards_stay_readable(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages(color_scheme="dark")
    page.goto(server.url + "/")
    page.wait_for_selector("#new-game")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert luminance(page, "html") < 0.05 and luminance(page, "#new-game") < 0.05
    assert luminance(page, "#new-game", "color") > 0.6  # light text on the dark card
    low = [c for c in contrasts(page, ".muted, a, button.secondary, h2") if c[1] < 4.5]
    assert not low, low
    assert page.locator("#theme").input_value() == "system"
    # the switch: light, kept over a reload; then the system's again
    page.select_option("#theme", "light")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.reload()
    page.wait_for_selector("#new-game")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert luminance(page, "html") > 0.7
    page.select_option("#theme", "dark")
    page.reload()
    page.wait_for_selector("#new-game")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    # a game: the page is dark, the board keeps its light surface and its labels stay readable
    for game, labels in [
        ("archimedes", "#board g[data-cell] > text"),
        ("athos", "#board g[data-field] > text"),
    ]:
        start_game(page, server, game, ["me", "ai:random"])
        my_turn(page)
        assert luminance(page, "html") < 0.05
        assert luminance(page, "#board") > 0.6
        low = [
            c
            for c in contrasts(page, "#rules-link, button.secondary:not([disabled]), .muted, #status")
            if c[1] < 4.5
        ]
        assert not low, (game, low)
        coordinates = page.eval_on_selector_all(
            labels, "ts => ts.map((t) => t.textContent === Object.values(t.parentNode.dataset)[0])"
        )
        found = [c for c, name in zip(contrasts(page, labels), coordinates, strict=True) if name]
        assert len(found) > 10
        low = [
            c
            for c in found + contrasts(page, "#board .board-extra span, #board button")
            if c[0] and c[1] < 4.5
        ]
        assert not low, (game, low[:5])
        shot(page, f"dark-{game}")
    # the rules page follows the choice too
    page.goto(server.url + "/rules/archimedes")
    page.wait_for_selector("h1")
    page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    assert luminance(page, "html") < 0.05


# --- move sounds -------------------------------------------------------------------------------------------


def sounds(page: Any) -> int:
    return int(page.evaluate("window.__palaestraSounds.count"))


def test_a_move_plays_a_sound_mute_stops_it_and_the_choice_is_kept(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    my_turn(page)
    assert sounds(page) == 0  # the game as it was: no sound
    play_a_move(page)
    page.wait_for_function("window.__palaestraSounds.count >= 2")  # my move, then the AI's
    my_turn(page)
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    before = sounds(page)
    version = page.get_attribute("#status", "data-version")
    play_a_move(page)
    page.wait_for_function("v => document.querySelector('#status').dataset.version !== v", arg=version)
    my_turn(page)
    assert sounds(page) == before
    page.reload()
    page.wait_for_selector("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert page.inner_text("#sound") == "Sound off"
    page.click("#sound")  # on again: the next move sounds
    play_a_move(page)
    page.wait_for_function("window.__palaestraSounds.count >= 1")


# --- the tab says "your turn" ------------------------------------------------------------------------------


def test_the_tab_title_and_icon_say_your_turn(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    game_id = start_game(page, server, "archimedes", ["me", "friend"])
    page.wait_for_selector("#status[data-version]")
    page.wait_for_function("document.querySelector('#status').textContent.includes('to join')")
    assert page.title() == "Palaestra"  # waiting for the friend: not my turn
    assert page.get_attribute('link[rel="icon"]', "href") == "/static/favicon.svg"
    code = page.locator("#invites input").input_value().rsplit("/", 1)[-1]
    api(server, f"/api/games/{game_id}/join", {"code": code, "name": "Bea"})
    my_turn(page)
    page.wait_for_function("document.title === 'Your turn · Palaestra'")
    assert page.get_attribute('link[rel="icon"]', "href") == "/static/favicon-turn.svg"
    play_a_move(page)
    page.wait_for_function("document.title === 'Palaestra'")  # Bea's turn
    assert page.get_attribute('link[rel="icon"]', "href") == "/static/favicon.svg"
    page.goto(server.url + "/#/")
    page.wait_for_selector("#new-game")
    assert page.title() == "Palaestra"


def test_the_tab_title_is_restored_when_leaving_the_game(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    my_turn(page)
    page.wait_for_function("document.title.startsWith('Your turn')")
    page.click("a.brand")
    page.wait_for_selector("#new-game")
    assert page.title() == "Palaestra"
    assert page.get_attribute('link[rel="icon"]', "href") == "/static/favicon.svg"


# --- the board turned to the player's side -----------------------------------------------------------------


def centre_y(page: Any, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return float(box["y"] + box["height"] / 2)


#: a text of the turned board is drawn upright: its turn and the board's make none
UPRIGHT = """t => {
  const m = new DOMMatrix(getComputedStyle(t.ownerSVGElement).transform)
    .multiply(new DOMMatrix(getComputedStyle(t).transform));
  return Math.abs(m.a - 1) < 1e-6 && Math.abs(m.b) < 1e-6;
}"""


def test_the_board_is_turned_to_my_side_and_can_be_flipped(server: ServerProcess, pages: Pages) -> None:
    """Seat 2 of Archimedes starts on the north side: it is drawn at the bottom for that player,
    and "Flip board" turns it back. The cube labels stay upright."""
    page = pages()
    start_game(page, server, "archimedes", ["ai:random", "me"])
    my_turn(page)
    south, north = '#board g[data-cell="a4"]', '#board g[data-cell="h4"]'
    assert page.get_attribute("#board", "data-turn") == "180"
    assert centre_y(page, north) > centre_y(page, south)  # my side (N) at the bottom
    assert page.eval_on_selector('#board g[data-cell="a1"] > text', UPRIGHT)
    shot(page, "turned-north")
    page.click("#flip-board")
    assert page.get_attribute("#flip-board", "aria-pressed") == "true"
    assert page.get_attribute("#board", "data-turn") == "0"
    assert centre_y(page, south) > centre_y(page, north)
    # the board still plays when turned: a click on a turned cell
    page.click("#flip-board")
    play_a_move(page)
    page.wait_for_selector("#moves li")


def test_three_players_each_see_their_own_side_at_the_bottom(server: ServerProcess, pages: Pages) -> None:
    """Archimedes for three: the third seat's side is turned to the bottom (by a multiple of 60°)."""
    page = pages()
    start_game(page, server, "archimedes", ["ai:random", "ai:random", "me"], {"players": 3})
    my_turn(page)  # the AIs have moved: the board stays as it is
    name = page.locator('#players li[data-seat="2"]').inner_text()
    side = re.search(r"\((\w+)\)", name)
    assert side, name
    turn = int(page.get_attribute("#board", "data-turn") or "0")
    assert turn % 60 == 0 and turn != 0
    # the seat's start side is the lowest of the six sides
    sides = {"S": "a4", "N": "h4", "SW": "b1", "NE": "f13", "NW": "f1", "SE": "b11"}
    lowest = max(sides, key=lambda s: centre_y(page, f'#board g[data-cell="{sides[s]}"]'))
    assert lowest == side.group(1), (lowest, name, turn)
    assert page.eval_on_selector('#board g[data-cell="e8"] > text', UPRIGHT)


def test_a_spectator_and_hot_seat_see_the_board_as_drawn(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "me"])
    page.wait_for_selector("#board svg")
    assert page.get_attribute("#board", "data-turn") == "0"
    page.click("#flip-board")
    assert page.get_attribute("#board", "data-turn") == "180"


# --- confirm a move before it is sent ------------------------------------------------------------


def start_correspondence(page: Any, server: ServerProcess) -> str:
    page.goto(server.url + "/")
    choose_game(page, "archimedes")
    page.select_option('select[data-seat="0"]', "me")
    page.select_option('select[data-seat="1"]', "ai:random")
    page.select_option("#clock-kind", "correspondence")
    page.click("#start")
    page.wait_for_url(re.compile(r".*#/game/\w+"))
    return str(page.url.rsplit("/", 1)[-1])


def click_board_move(page: Any) -> None:
    """Pick a cube, then a cell it may go to."""
    my_turn(page)
    if not page.locator("#board [data-action]").count():
        page.locator("#board .target").first.click()
    page.locator("#board [data-action]").first.click()


def test_a_correspondence_move_waits_for_confirm(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_correspondence(page, server)
    my_turn(page)
    assert page.locator("#confirm-moves").is_checked()  # on by default in correspondence games
    click_board_move(page)
    page.wait_for_selector("#pending-move:not([hidden])")
    assert page.inner_text("#pending-move-text").startswith("Moves a cube from")
    assert page.locator("#moves li").count() == 0  # nothing sent
    # the board shows the one move waiting, marked, and takes no clicks; the list offers none
    assert page.locator("#board [data-action]").count() == 1
    assert page.locator("#board [data-action].pending").count() == 1
    assert page.eval_on_selector("#board", "b => getComputedStyle(b).pointerEvents") == "none"
    assert page.locator("#legal button").count() == 0
    shot(page, "confirm-pending")
    page.click("#cancel-move")
    assert page.locator("#pending-move").is_hidden()
    assert page.locator("#board .pending").count() == 0
    page.wait_for_timeout(300)
    assert page.locator("#moves li").count() == 0
    click_board_move(page)
    page.wait_for_selector("#pending-move:not([hidden])")
    page.click("#confirm-move")
    page.wait_for_selector("#moves li")
    assert page.locator("#pending-move").is_hidden()


def test_confirm_is_a_switch_in_other_games_and_is_kept(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    my_turn(page)
    assert not page.locator("#confirm-moves").is_checked()  # off by default
    page.locator("#confirm-moves").check()
    click_board_move(page)
    page.wait_for_selector("#pending-move:not([hidden])")
    page.click("#confirm-move")
    page.wait_for_selector("#moves li")
    page.reload()
    page.wait_for_selector("#confirm-moves")
    assert page.locator("#confirm-moves").is_checked()  # kept in this browser
    # a correspondence game keeps its own default
    start_correspondence(page, server)
    my_turn(page)
    assert page.locator("#confirm-moves").is_checked()


# --- finding 14: the host waits for the invited friend; finding 8: names, not "player 1 (S)" ---------------


def test_the_host_waits_for_the_friend_by_name_and_the_server_refuses_a_move(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages(refusals=True)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('palaestra.name', 'Ann')")  # the name the form remembers
    game_id = start_game(page, server, "archimedes", ["me", "friend"])
    page.wait_for_selector("#status[data-version]")
    page.wait_for_function("document.querySelector('#status').textContent.includes('to join')")
    assert page.inner_text("#status") == "Waiting for your friend to join"
    assert "Your turn" not in page.inner_text("#status-top")
    # the server refuses the host's move (the page would not offer one; the request is sent anyway)
    refused = page.evaluate(
        """async (id) => {
          const mine = JSON.parse(localStorage.getItem('palaestra.games'))[id];
          const token = Object.values(mine.tokens)[0];
          const r = await fetch(`/api/games/${id}/actions`, {method: 'POST',
            headers: {'content-type': 'application/json'}, body: JSON.stringify({token, ply: 0, action: 0})});
          return [r.status, (await r.json()).error];
        }""",
        game_id,
    )
    assert refused == [409, "waiting_for_players"]
    code = page.locator("#invites input").input_value().rsplit("/", 1)[-1]
    api(server, f"/api/games/{game_id}/join", {"code": code, "name": "Bea"})
    my_turn(page)
    assert page.inner_text("#status") == "Your turn (Ann)"
    page.on("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector("#result-banner")
    assert page.inner_text("#result-winner") == "Bea wins"
    assert page.inner_text("#result-reason") == "Ann resigned"
    assert "player" not in page.inner_text("#result-banner")


def test_players_without_a_name_are_called_by_their_colour(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    my_turn(page)
    assert page.inner_text("#status") == "Your turn (orange (S))"
    play_a_move(page)
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 2")
    my_turn(page)  # the AI moved: its move reads "blue (N) moves a cube from ..."
    assert any(
        line.startswith("Blue (N) moves a cube") for line in page.locator("#moves li").all_inner_texts()
    )
    page.on("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector("#result-banner")
    assert page.inner_text("#result-winner") == "blue (N) wins"
    assert page.inner_text("#result-reason") == "orange (S) resigned"
    # in German the colours are German
    page.select_option("#lang", "de")
    page.wait_for_selector("#result-banner")
    page.wait_for_function(
        "(e => e && e.textContent.includes('blau'))(document.querySelector('#result-winner'))"
    )
    assert "player" not in page.inner_text("#result-banner").lower()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_switches_fit_the_header(server: ServerProcess, pages: Pages, viewport: str) -> None:
    page = pages(viewport)
    page.goto(server.url + "/")
    page.wait_for_selector("#new-game")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width
    for selector in ("#theme", "#sound", "#lang"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]
