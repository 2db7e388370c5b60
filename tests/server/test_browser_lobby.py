"""The lobby in a real Chromium (issue 29): two browsers meet through "Play now" and play nim to
the end; a third finds the game in the lobby's Watch list (pushed live) and watches it."""

from __future__ import annotations

import re
from typing import Any

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, click_a_legal_move, server, shot  # noqa: F401 (fixtures)


def test_two_browsers_meet_through_play_now_and_a_third_watches_from_the_lobby(
    server: ServerProcess, browser: Any
) -> None:
    contexts = [
        browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 850}) for _ in range(3)
    ]
    ann, bob, watcher = (c.new_page() for c in contexts)
    for page in (ann, bob, watcher):
        page.goto(server.url + "/")
        page.wait_for_selector("#play-now button[data-game='nim']")
    # the watcher's lobby has nobody playing yet
    assert watcher.locator("#watch-list li").count() == 0
    ann.click("#play-now button[data-game='nim']")
    ann.wait_for_selector("#seeking:not([hidden])")
    # Ann's seek shows in the other lobbies, live, without her Accept button on her own page
    bob.wait_for_selector("#seek-list li >> text=Nim")
    watcher.wait_for_selector("#seek-list li >> text=Nim")
    assert ann.locator("#seek-list li .accept-seek").count() == 0
    shot(bob, "lobby-open-seek")
    # Bob plays now too: paired with Ann's seek; both pages go to the same game
    bob.click("#play-now button[data-game='nim']")
    bob.wait_for_url(re.compile(r".*#/game/\w+$"))
    game_id = bob.url.rsplit("/", 1)[-1]
    ann.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
    # the seek is gone from the watcher's lobby and the game is there to watch
    watcher.wait_for_selector("#seek-list li", state="detached")
    watcher.wait_for_selector(f"#watch-list li[data-game='{game_id}']")
    watcher.click(f"#watch-list li[data-game='{game_id}'] a")
    watcher.wait_for_selector("text=You are watching this game.")
    # they play it out, each on their own page (nim: one click a move); the watcher sees the end
    pages = [ann, bob]
    for _ in range(30):
        if ann.locator("#result-banner").count():
            break
        movers = [p for p in pages if p.get_attribute("#status", "data-mine") == "1"]
        if not movers:
            pages[0].wait_for_timeout(100)
            continue
        mover = movers[0]
        ply = mover.get_attribute("#status", "data-ply")
        click_a_legal_move(mover)
        for page in pages:
            page.wait_for_function(
                "ply => document.querySelector('#result-banner')"
                " || document.querySelector('#status').dataset.ply !== ply",
                arg=ply,
            )
    for page in (ann, bob, watcher):
        page.wait_for_selector("#result-banner")
    assert ann.locator("#moves li").all_inner_texts() == watcher.locator("#moves li").all_inner_texts()
    shot(watcher, "lobby-watcher-end")
    for context in contexts:
        context.close()
