"""Issue 29, part 7, in a real Chromium: Ann and Bob meet through "Play now"; Bob aborts before
anyone moved; Ann's page goes back to the lobby waiting on her seek, posted again; Carl's "Play
now" takes it and Ann's page moves to the new game, where her seat plays."""

from __future__ import annotations

import re

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server  # noqa: F401 (the fixtures)
from tests.server.test_browser_issue30 import Pages, pages  # noqa: F401 (the fixture)


def test_the_other_side_aborts_and_the_seek_goes_back_to_the_lobby_until_a_third_takes_it(
    server: ServerProcess, pages: Pages
) -> None:
    ann, bob, carl = pages(), pages(), pages()
    for page in (ann, bob, carl):
        page.goto(server.url + "/")
        page.wait_for_selector("#play-now button[data-game='nim']")
    ann.click("#play-now button[data-game='nim']")
    ann.wait_for_selector("#seeking:not([hidden])")
    bob.wait_for_selector("#seek-list li >> text=Nim")
    bob.click("#play-now button[data-game='nim']")
    bob.wait_for_url(re.compile(r".*#/game/\w+$"))
    game_id = bob.url.rsplit("/", 1)[-1]
    ann.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
    # Bob aborts: Ann's page is back in the lobby, waiting on her seek posted again
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.wait_for_selector("#abort", state="visible")
    bob.click("#abort")
    bob.wait_for_selector("#result-banner")
    ann.wait_for_selector("#seeking:not([hidden])")
    assert ann.url.endswith("/#/")
    carl.wait_for_selector(f"#seek-list li[data-seek='{game_id}a']")
    assert ann.locator(f"#seek-list li[data-seek='{game_id}a'] .accept-seek").count() == 0  # her own
    # Bob's page stays on the aborted game (he left it): no seek of his
    assert bob.url.endswith(f"#/game/{game_id}")
    # Carl plays now: paired with Ann's seek; both land in the new game, and Ann's seat plays
    carl.click("#play-now button[data-game='nim']")
    carl.wait_for_url(re.compile(r".*#/game/\w+$"))
    new_game = carl.url.rsplit("/", 1)[-1]
    assert new_game != game_id
    ann.wait_for_url(re.compile(rf".*#/game/{new_game}$"))
    for page in (ann, carl):
        page.wait_for_selector("#players li >> text=you")
    mover = ann if ann.get_attribute("#status", "data-mine") == "1" else carl
    mover.wait_for_selector('#status[data-mine="1"]')
    mover.locator("#legal button").first.click()
    for page in (ann, carl):
        page.wait_for_selector("#moves li")
