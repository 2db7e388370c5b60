"""Issue 29, part 5, in a real Chromium: a public game's page offers a link to watch it ("Share to
watch"). The link is the game's page alone: it holds no seat token (nor invitation code), and a
second browser context that opens it watches the game, live, without a seat. A private game's
page offers no such link."""

from __future__ import annotations

import re
from typing import Any

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, choose_game, server  # noqa: F401 (the fixtures)
from tests.server.test_browser_issue30 import Pages, pages  # noqa: F401 (the fixture)


def create(page: Any, server: ServerProcess, public: bool) -> str:
    page.goto(server.url + "/")
    choose_game(page, "archimedes")
    page.locator("#public-game").set_checked(public)
    page.select_option('select[data-seat="0"]', "me")
    page.select_option('select[data-seat="1"]', "friend")
    page.click("#start")
    page.wait_for_url(re.compile(r".*#/game/\w+$"))
    return str(page.url.rsplit("/", 1)[-1])


def secrets_of(page: Any, game_id: str) -> list[str]:
    """The seat tokens and invitation links this browser keeps for the game."""
    found: list[str] = page.evaluate(
        """(id) => {
          const mine = JSON.parse(localStorage.getItem("palaestra.games") || "{}")[id] || {};
          return [...Object.values(mine.tokens || {}), ...Object.values(mine.invites || {})];
        }""",
        game_id,
    )
    return found


def test_a_public_games_watch_link_opens_it_for_a_spectator_and_holds_no_token(
    server: ServerProcess, pages: Pages
) -> None:
    host = pages()
    game_id = create(host, server, public=True)
    host.wait_for_selector("#watch-link")
    link = host.locator("#watch-url").input_value()
    assert link == f"{server.url}/#/game/{game_id}"
    tokens = secrets_of(host, game_id)
    assert len(tokens) == 2  # the host's seat token and the invitation of seat 2
    for secret in tokens:
        assert secret not in link
        assert secret.rsplit("/", 1)[-1] not in link  # an invitation's code either
    assert "token" not in link and "join" not in link

    watcher = pages()
    watcher.goto(link)
    watcher.wait_for_selector("text=You are watching this game.")
    assert watcher.locator("#resign").count() == 0
    assert watcher.evaluate("() => localStorage.getItem('palaestra.games')") in (None, "{}")
    watcher.wait_for_selector("#watch-link")  # a spectator may pass the link on

    # live: a player joining through the invitation shows on the spectator's page
    friend = pages()
    friend.goto(host.locator("#invites .invite-card input").first.input_value())
    friend.fill("#join-name", "Bea")
    friend.click("#join-start")
    friend.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
    watcher.wait_for_selector("#players li[data-seat='1'] >> text=Bea")


def test_a_private_games_page_offers_no_watch_link(server: ServerProcess, pages: Pages) -> None:
    host = pages()
    create(host, server, public=False)
    host.wait_for_selector("#players")
    host.wait_for_selector("#invites .invite-card")
    assert host.locator("#watch-link").count() == 0
