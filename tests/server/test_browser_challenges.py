"""Issue 29, part 4, in a real Chromium: member A challenges member B from B's profile; B, on the
home page, sees the challenge arrive without reloading and accepts it; both land in the game. A
second challenge is declined with a reason, which A reads on the profile. Every page fails the test
on an uncaught page error or console error."""

from __future__ import annotations

import re
from typing import Any

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server  # noqa: F401 (the fixtures)
from tests.server.test_browser_issue30 import Pages, pages  # noqa: F401 (the fixture)

PASSWORD = "correct horse battery"


def signed_up(pages: Pages, server: ServerProcess, name: str) -> Any:
    page = pages()
    page.goto(server.url + "/#/signup")
    page.fill("#signup-username", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_selector(f"#nav-me >> text={name}")
    return page


def challenge_from_profile(page: Any, server: ServerProcess, name: str) -> None:
    page.goto(f"{server.url}/@/{name}")
    page.click("#challenge-open")
    page.wait_for_selector("#challenge-form #options[data-game]")
    page.click("#challenge-send")
    page.wait_for_selector("#challenge-waiting >> text=waiting for an answer")


def test_a_member_challenges_another_from_the_profile_who_accepts_from_the_home_page(
    server: ServerProcess, pages: Pages
) -> None:
    a = signed_up(pages, server, "ana")
    b = signed_up(pages, server, "ben")
    b.goto(server.url + "/")
    b.wait_for_selector("#no-challenges", state="visible")
    challenge_from_profile(a, server, "ben")
    # B's home page shows it without a reload (the lobby websocket), with A's name
    item = b.wait_for_selector("#incoming-challenges li[data-challenge]")
    assert "ana" in item.inner_text()
    assert b.locator("#no-challenges").is_hidden()
    b.click("#incoming-challenges .accept-challenge")
    b.wait_for_url(re.compile(r".*#/game/\w+$"))
    game_id = b.url.rsplit("/", 1)[-1]
    a.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
    # each page knows its own seat (by account): one of them is to move
    for page in (a, b):
        page.wait_for_selector("#players >> text=you")
    mine = {page.get_attribute("#status", "data-mine") for page in (a, b)}
    assert mine == {"0", "1"}

    # a second challenge, declined with a reason: A reads it where it was sent from
    challenge_from_profile(a, server, "ben")
    b.goto(server.url + "/")
    b.wait_for_selector("#incoming-challenges li[data-challenge]")
    b.select_option("#incoming-challenges .decline-reason", "later")
    b.click("#incoming-challenges .decline-challenge")
    b.wait_for_selector("#no-challenges", state="visible")
    a.wait_for_selector("#challenge-waiting >> text=ben declined: This is not the right time for me")
    # on A's home page the outgoing list says so too
    a.goto(server.url + "/")
    a.wait_for_selector('#outgoing-challenges li[data-status="declined"] .decline-text')
    a.wait_for_selector('#outgoing-challenges li[data-status="accepted"] >> text=to the game')
