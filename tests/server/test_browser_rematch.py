"""Issue 29, part 6, in a real Chromium: two people finish a game (a resignation), one offers a
rematch, the other accepts, and both pages move to the new game with the seats rotated."""

from __future__ import annotations

import re

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, start_game  # noqa: F401 (the fixtures)
from tests.server.test_browser_issue30 import Pages, pages  # noqa: F401 (the fixture)


def test_two_people_rematch_and_both_land_in_the_new_game_with_seats_rotated(
    server: ServerProcess, pages: Pages
) -> None:
    a = pages()
    game_id = start_game(a, server, "archimedes", ["me", "friend"])
    invite = a.locator("#invites input").first.input_value()
    b = pages()
    b.goto(invite)
    b.fill("#join-name", "Bea")
    b.click("#join-start")
    b.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
    a.wait_for_selector("#players li[data-seat='1'] >> text=Bea")
    # nobody has moved: the game could be aborted; the host resigns instead
    a.wait_for_selector("#abort", state="visible")
    a.on("dialog", lambda dialog: dialog.accept())
    a.click("#resign")
    a.wait_for_selector("#result-banner")
    b.wait_for_selector("#result-banner")
    assert a.locator("#abort").is_hidden()
    a.click("#rematch")
    b.wait_for_selector("#rematch >> text=Accept rematch")
    assert a.locator("#rematch").inner_text() == "Rematch offered"
    b.click("#rematch")
    for page in (a, b):
        page.wait_for_url(re.compile(r".*#/game/(?!" + game_id + r")\w+$"))
    new_a, new_b = (p.url.rsplit("/", 1)[-1] for p in (a, b))
    assert new_a == new_b != game_id
    # seats rotated: Bea (seat 2 before) holds seat 1 now, the host seat 2
    b.wait_for_selector("#players li[data-seat='0'] >> text=you")
    a.wait_for_selector("#players li[data-seat='1'] >> text=you")
    b.wait_for_selector('#status[data-mine="1"]')  # Bea moves first now
    a.wait_for_selector('#status[data-mine="0"]')
