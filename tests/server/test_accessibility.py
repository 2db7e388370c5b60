"""Accessibility checked by a machine (issue 30): axe-core, run through Playwright
(axe-playwright-python, which ships axe-core's JavaScript: nothing is downloaded), on every page of
the UI at a desktop (1280×800) and a phone (390×844) size, each in the light and in the dark colour
scheme (the page follows the system's, static/theme.js); a violation of impact "moderate",
"serious" or "critical" fails the test, printed with its rule, impact, elements and help page, and
so does a screen without exactly one <h1>.

The pages: home (with the lobby), the new-game form with "More options" open, a game in play of
each of the three games, a finished game's replay, an invitation's join page, sign-up, sign-in,
account settings (signed in), a profile with a rated game's history, the leaderboard, each game's
rules page in English; and a page in German and in French."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from palaestra.server.api.auth import COOKIE
from tests.server.accounts_helpers import invite_code, play_out, rated_nim, sign_up
from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot, start_game  # noqa: F401 (the fixtures)

Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
FAILING = ("moderate", "serious", "critical")
SCHEMES = ("light", "dark")  # the system's colour scheme: the page follows it (static/theme.js)
LISTED = 10  # the rated games that put a member on a leaderboard (docs/accounts.md)


@dataclass
class World:
    """What the pages show, made once through the API: games, members, an invitation."""

    finished: str  # a finished game (random AIs), for its replay
    invite: str  # /#/join/ID/CODE
    member: str  # a member's name (a rated game of nim in their history)
    cookie: str  # that member's session cookie
    other: str  # another member's name (who challenged the first: issue 29)


def finished_game(server: ServerProcess, game: str) -> str:
    seats = [{"kind": "ai", "level": "random"}] * 2
    made = httpx.post(server.url + "/api/games", json={"game": game, "seats": seats}, timeout=30)
    gid = str(made.json()["id"])
    end = time.monotonic() + 120
    while httpx.get(f"{server.url}/api/games/{gid}", timeout=30).json()["status"] != "finished":
        assert time.monotonic() < end, "the AIs did not finish"
        time.sleep(0.2)
    return gid


@pytest.fixture(scope="module")
def world(server: ServerProcess) -> Iterator[World]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        alice, bob = sign_up(client, "alice_a"), sign_up(client, "bob_b")  # type: ignore[arg-type]
        for _ in range(LISTED):  # rated games of nim: alice wins each (nine stones, one at a time)
            made = rated_nim(alice)
            r = bob.post(f"/api/games/{made['id']}/join", json={"code": invite_code(made, 1)})
            assert r.status_code == 200, r.text
            play_out(alice, bob, str(made["id"]), ["take 1"] * 9)
        seats = [{"kind": "human", "joined": True}, {"kind": "human"}]
        invited = client.post("/api/games", json={"game": "archimedes", "seats": seats}).json()
        seek = {"game": "nim", "options": {"stones": 9}, "players": 2}  # the lobby lists it
        r = client.post("/api/seeks", json=seek, headers={"X-Guest-Token": "axe-guest-secret"})
        assert r.status_code == 201, r.text
        # a challenge for alice, open for a day (a correspondence game): her home page lists it
        challenge = {"to": alice.username, "game": "nim", "options": {"stones": 9}}
        r = bob.post(
            "/api/challenges", json={**challenge, "time_control": {"type": "correspondence", "days": 3}}
        )
        assert r.status_code == 201, r.text
        yield World(
            finished=finished_game(server, "nim"),
            invite=str(invited["seats"][1]["invite"]),
            member=alice.username,
            cookie=alice.cookie,
            other=bob.username,
        )


def game_in_play(game: str) -> Callable[[Any, ServerProcess, World], None]:
    def show(page: Any, server: ServerProcess, world: World) -> None:
        start_game(page, server, game, ["me", "ai:random"])
        page.wait_for_selector("#board svg")
        page.wait_for_selector("#status[data-version]")

    return show


def watched_game(page: Any, server: ServerProcess, world: World) -> None:
    """A public game seen by a spectator: its "Share to watch" card (issue 29)."""
    seats = [{"kind": "human", "joined": True}, {"kind": "human"}]
    body = {"game": "archimedes", "seats": seats, "public": True}
    made = httpx.post(server.url + "/api/games", json=body, timeout=30).json()
    page.goto(f"{server.url}/#/game/{made['id']}")
    page.wait_for_selector("#watch-link")


def visit(path: str, ready: str) -> Callable[[Any, ServerProcess, World], None]:
    def show(page: Any, server: ServerProcess, world: World) -> None:
        page.goto(server.url + path.format(w=world))
        page.wait_for_selector(ready)

    return show


def new_game_form(page: Any, server: ServerProcess, world: World) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#options[data-game]", state="attached")
    page.locator("#more-options").evaluate("d => { d.open = true; }")


def challenge_form(page: Any, server: ServerProcess, world: World) -> None:
    page.goto(f"{server.url}/@/{world.other}")
    page.click("#challenge-open")
    page.wait_for_selector("#challenge-form #options[data-game]")


#: name -> (how to show the page, signed in?, language)
PAGES: dict[str, tuple[Callable[[Any, ServerProcess, World], None], bool, str]] = {
    "home": (visit("/", "#new-game"), False, "en"),
    "new-game-more-options": (new_game_form, False, "en"),
    "game-athos": (game_in_play("athos"), False, "en"),
    "game-archimedes": (game_in_play("archimedes"), False, "en"),
    "game-agamemnon": (game_in_play("agamemnon"), False, "en"),
    "game-watched": (watched_game, False, "en"),
    "replay": (visit("/#/replay/{w.finished}", "#replay-result"), False, "en"),
    "join": (visit("{w.invite}", "#join-form"), False, "en"),
    "signup": (visit("/#/signup", "#signup-form"), False, "en"),
    "signin": (visit("/#/signin", "#signin-form"), False, "en"),
    "account": (visit("/#/account", "#password-form"), True, "en"),
    "profile": (visit("/@/{w.member}", "#ratings"), False, "en"),
    "profile-challenge": (challenge_form, True, "en"),
    "home-challenges": (visit("/", "#incoming-challenges li[data-challenge]"), True, "en"),
    "leaderboard": (visit("/leaderboard/nim", "main table"), False, "en"),
    "rules-athos": (visit("/rules/athos", "main h1, h1"), False, "en"),
    "rules-archimedes": (visit("/rules/archimedes", "main h1, h1"), False, "en"),
    "rules-agamemnon": (visit("/rules/agamemnon", "main h1, h1"), False, "en"),
    "home-de": (visit("/", "#new-game"), False, "de"),
    "profile-de": (visit("/@/{w.member}", "#ratings"), True, "de"),
    "game-archimedes-fr": (game_in_play("archimedes"), False, "fr"),
    "rules-athos-fr": (visit("/rules/athos?lang=fr", "h1"), False, "fr"),
    "learn": (visit("/learn", "#courses li"), False, "en"),
    "learn-athos": (visit("/learn/athos", "#board[data-outcome]"), False, "en"),
    "learn-archimedes": (visit("/learn/archimedes", "#board[data-outcome]"), False, "en"),
    "learn-agamemnon-fr": (visit("/learn/agamemnon", "#board[data-outcome]"), False, "fr"),
}


def describe(violation: dict[str, Any]) -> str:
    targets = [", ".join(map(str, node["target"])) for node in violation["nodes"]]
    return (
        f"  {violation['id']} ({violation['impact']}): {violation['help']}\n"
        f"    {violation['helpUrl']}\n" + "".join(f"    - {t}\n" for t in targets)
    )


@pytest.mark.parametrize("name", list(PAGES))
def test_no_moderate_serious_or_critical_violations(
    name: str, server: ServerProcess, browser: Any, world: World
) -> None:
    show, signed_in, lang = PAGES[name]
    axe = Axe()
    report = ""
    for (size, viewport), scheme in itertools.product(VIEWPORTS.items(), SCHEMES):
        context = browser.new_context(bypass_csp=True, viewport=viewport, locale=lang, color_scheme=scheme)
        context.add_init_script(  # the language picked in the header (about:blank has no storage)
            f"if (location.protocol.startsWith('http')) localStorage.setItem('palaestra.lang', '{lang}')"
        )
        if signed_in:
            context.add_cookies([{"name": COOKIE, "value": world.cookie, "url": server.url}])
        page = context.new_page()
        page.on("dialog", lambda d: d.accept())
        show(page, server, world)
        page.wait_for_load_state("networkidle")
        if lang != "en":
            assert re.match(lang, page.evaluate("document.documentElement.lang"))
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        # one level-one heading on every screen (axe's moderate "page-has-heading-one", issue 30)
        assert page.locator("h1").count() == 1, f"{name}: {page.locator('h1').count()} <h1>"
        shot(page, f"axe-{name}-{size}-{scheme}")
        results = axe.run(page)
        failing = [v for v in results.response["violations"] if v["impact"] in FAILING]
        if failing:
            report += f"{name} at {size} {viewport['width']}×{viewport['height']}, {scheme}:\n"
            report += "".join(describe(v) for v in failing)
        context.close()
    assert not report, "axe-core found moderate, serious or critical violations:\n" + report
