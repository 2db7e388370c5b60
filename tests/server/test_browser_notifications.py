"""Notifications in a real Chromium (issue 29, part 9): a member sees the header's count and the
tab title's "(N)" change, live, when it becomes their turn in a correspondence game, opens the
list, follows the notification to the game and finds it read; the settings' switches."""

from __future__ import annotations

import re
from typing import Any

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server  # noqa: F401 (the fixtures)
from tests.server.test_browser_accounts import Person, people  # noqa: F401 (the fixture)


def call(person: Person, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """An API request of the person's browser (their cookie), with their CSRF token."""
    csrf = person.page.request.get(person.base + "/api/session").json()["csrf_token"]
    response = person.page.request.fetch(
        person.base + path, method=method, data=body, headers={"X-CSRF-Token": csrf}
    )
    assert response.ok, response.text()
    return response.json()


def badge(person: Person) -> str:
    count = person.page.locator("#notify-count")
    return "" if count.is_hidden() else count.inner_text()


def test_the_badge_and_the_tab_title_change_when_it_becomes_your_turn(
    browser: Any,
    server: ServerProcess,
    people: list[Person],
) -> None:
    alice, bob = Person(browser, server), Person(browser, server)
    people.extend([alice, bob])
    for person, name in ((alice, "alice"), (bob, "bobby")):
        person.sign_up(name)
        person.page.wait_for_selector("#nav-me")
    made = call(
        alice,
        "POST",
        "/api/games",
        {
            "game": "nim",
            "options": {"stones": 9},
            "seats": [{"kind": "human", "joined": True}, {"kind": "human"}],
            "time_control": {"type": "correspondence", "days": 3},
        },
    )
    gid, code = made["id"], made["seats"][1]["invite"].rsplit("/", 1)[1]
    call(bob, "POST", f"/api/games/{gid}/join", {"code": code})
    view = call(alice, "GET", f"/api/games/{gid}")
    while view["current_player"] < 0:  # the coin toss, played by the server
        view = call(alice, "GET", f"/api/games/{gid}")
    mover, waiter = (alice, bob) if view["current_player"] == 0 else (bob, alice)
    waiter.goto("/#/")
    waiter.page.wait_for_selector("#notify-button")
    assert badge(waiter) == "" and not waiter.page.title().startswith("(")
    call(mover, "POST", f"/api/games/{gid}/actions", {"ply": view["ply"], "move": "take 1"})
    # live: no reload, the count arrives over the member's websocket
    waiter.page.wait_for_function("document.getElementById('notify-count').textContent === '1'")
    waiter.page.wait_for_function("document.title.startsWith('(1) ')")
    assert waiter.page.locator("#notify-button").get_attribute("aria-label") == "Notifications: 1 unread"
    waiter.page.click("#notify-button")
    item = waiter.page.locator("#notify-list li.unread a")
    item.wait_for()
    assert "Your turn: Nim" in item.inner_text()
    item.click()
    waiter.page.wait_for_url(re.compile(rf".*#/game/{gid}$"))
    waiter.page.wait_for_function("document.getElementById('notify-count').hidden")
    waiter.page.wait_for_function("!document.title.startsWith('(')")
    assert call(waiter, "GET", "/api/notifications")["unread"] == 0


def test_the_settings_switch_a_channel_of_a_kind(
    browser: Any,
    server: ServerProcess,
    people: list[Person],
) -> None:
    carol = Person(browser, server)
    people.append(carol)
    carol.sign_up("carol")
    carol.page.wait_for_selector("#nav-me")
    carol.goto("/#/account")
    box = carol.page.locator("#notify-your_turn-page")
    box.wait_for()
    assert box.is_checked() and carol.page.locator("#notify-your_turn-email").is_disabled()  # no SMTP here
    box.uncheck()
    carol.page.wait_for_selector("#notify-message.ok")
    assert call(carol, "GET", "/api/account/notifications")["channels"]["your_turn"]["page"] is False
    carol.page.fill("#notify-email", "carol@example.org")
    carol.page.click("#notify-email-save")
    carol.page.wait_for_function("document.getElementById('notify-email').value === 'carol@example.org'")
    assert call(carol, "GET", "/api/account/notifications")["email"] == "carol@example.org"
    assert carol.page.locator("#push-toggle").inner_text() == "Turn on push in this browser"
