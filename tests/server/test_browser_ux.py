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
from tests.server.test_browser import browser, choose_game, server, shot, start_game  # noqa: F401 (the fixtures)

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


def test_a_late_draw_of_the_game_chosen_before_keeps_the_form_rules_of_the_game_chosen(
    server: ServerProcess, browser: Any
) -> None:
    """The form of the first game in the menu (Agamemnon) is drawn after its renderer loads; when
    that comes in after Athos was chosen, the Athos form keeps Athos's rules (teams need 4)."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    held: list[Any] = []
    page.route("**/games/agamemnon/web/board.js", lambda route: held.append(route))  # it waits
    page.goto(server.url + "/")
    choose_game(page, "athos")
    page.select_option("#opt-players", "2")
    assert page.locator("#opt-teams").is_disabled()
    assert len(held) == 1
    with page.expect_response("**/games/agamemnon/web/board.js"):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # the late draw ends
    page.select_option("#opt-players", "4")
    assert page.locator("#opt-teams").is_enabled()
    page.select_option("#opt-players", "2")
    assert page.locator("#opt-teams").is_disabled()
    assert "4 players" in page.locator('[data-note="teams"]').inner_text()
    context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_team_form_names_the_seats_as_they_will_play(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    """Findings 1 and 10: Athos teams seat A, D, B, E; the form says so, and adapts to the count."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.goto(server.url + "/")
    choose_game(page, "athos")
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
            "public": True,
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


def _last_run(moves: list[dict[str, Any]], player: int) -> list[str]:
    """The moves of ``player``'s last turn (its last run of moves, chance left out)."""
    run: list[str] = []
    for m in reversed(moves):
        if m["player"] < 0:
            continue
        if m["player"] != player:
            if run:
                break
            continue
        run.append(m["move"])
    return run[::-1]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_athos_monk_walks_on_and_the_last_turns_are_shown(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    """Findings 5, 6, 7: a walking monk stays selected; the AI's whole last turn is marked and
    listed; the placement phase is named in words."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    start_game(page, server, "athos", ["me", "ai:random"], {"round_limit": 2})
    page.wait_for_selector('#status[data-mine="1"]')
    page.click('#board [data-move="B-h1"]')
    page.wait_for_function("document.querySelector('#athos-points').dataset.points === '5'")
    # finding 7: the monk that arrived on h1 is still selected: its next steps are offered at once
    page.wait_for_selector('#board [data-move^="h1-"]')
    first = page.locator('#board [data-move^="h1-"]').first
    step = first.get_attribute("data-move")
    first.click()
    page.wait_for_function("document.querySelector('#athos-points').dataset.points === '4'")
    assert step is not None
    page.wait_for_selector(f'#board [data-move^="{step.split("-")[1]}-"]')
    page.click("#athos-end-move")
    page.wait_for_function("document.querySelector('#athos-phase').textContent.includes('placing')")
    phase = page.locator("#athos-phase").inner_text()
    assert "phase: stone" not in phase and "placing tiles" in phase  # finding 6
    # finding 6: while placing, no dot sits on the field labels
    page.wait_for_selector("#board [data-action]")
    assert page.locator("#board [data-action] circle").count() == 0
    # place the tiles and end the turn
    for _ in range(12):
        if page.locator("#athos-end-turn").count():
            break
        version = page.get_attribute("#status", "data-version")
        page.locator("#board [data-action]").first.click()
        page.wait_for_function("v => document.querySelector('#status').dataset.version !== v", arg=version)
    page.click("#athos-end-turn")
    ended = int(page.get_attribute("#status", "data-ply") or 0)
    page.click("#athos-confirm-end")
    game_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_function(
        "n => (s => s && s.dataset.mine === '1' && Number(s.dataset.ply) > n + 2)"
        "(document.querySelector('#status'))",
        arg=ended,
        timeout=60000,
    )
    # finding 5: the AI's whole last turn is on the board and listed beside it
    ai_moves = _last_run(api(server, f"/api/games/{game_id}")["moves"], 1)
    assert ai_moves and ai_moves[-1] == "end-turn"
    layer = page.locator('#board [data-last-turn="1"]')
    assert layer.count() == 1
    steps = layer.locator("[data-last-step]").evaluate_all("ls => ls.map(l => l.dataset.lastStep)")
    fields = layer.locator("[data-last-field]").evaluate_all("ls => ls.map(l => l.dataset.lastField)")
    assert steps == [m for m in ai_moves if "-" in m and not m.startswith("end")]
    assert len(fields) == len([m for m in ai_moves if m.startswith(("place", "flip", "stone", "relocate"))])
    listed = page.locator('#athos-last-turns [data-player="1"] [data-move]').evaluate_all(
        "ms => ms.map(m => m.dataset.move)"
    )
    assert listed == ai_moves  # in words, each with its notation (issue 30, finding 18)
    # step by step on request: one move of the turn at a time
    page.click('#athos-last-turns [data-player="1"] .step')
    first_shown = page.locator(
        '#board [data-last-turn="1"] [data-last-step], #board [data-last-turn="1"] [data-last-field]'
    )
    assert first_shown.count() == (1 if ai_moves[0] != "end-move" else 0)
    assert page.get_attribute('#athos-last-turns [data-player="1"] .step-at', "data-move") == ai_moves[0]
    page.click('#athos-last-turns [data-player="1"] .step-next')
    assert page.get_attribute('#athos-last-turns [data-player="1"] .step-at', "data-move") == ai_moves[1]
    page.click('#athos-last-turns [data-player="1"] .step-all')
    assert layer.locator("[data-last-step], [data-last-field]").count() == len(steps) + len(fields)
    page.uncheck("#athos-show-last")
    assert page.locator('#board [data-last-turn="1"]').count() == 0
    shot(page, f"athos-last-turn-{viewport}")
    context.close()


def test_archimedes_and_agamemnon_mark_the_last_move(server: ServerProcess, browser: Any) -> None:
    """Finding 5 and the last move in every game: origin and destination, placed tiles."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    game_id = ai_game(server, "archimedes", options={"move_limit": 12})
    game = api(server, f"/api/games/{game_id}")
    last = game["moves"][-1]["move"]
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#board [data-cell]")
    if "-" in last:
        origin, destination = last.split("-")
        assert page.get_attribute(f'#board [data-cell="{origin}"]', "data-last") == "from"
        assert page.get_attribute(f'#board [data-cell="{destination}"]', "data-last") == "to"
        assert page.locator("#board .last-path").count() == 1
    game_id = ai_game(server, "agamemnon")
    game = api(server, f"/api/games/{game_id}")
    mover = [m for m in game["moves"] if m["player"] >= 0][-1]["player"]
    turn: list[str] = []
    for m in reversed(game["moves"]):
        if m["player"] < 0:
            continue
        if m["player"] != mover:
            break
        turn.append(m["move"])
    placed = {int(m.split("@")[1]) for m in turn if "@" in m}
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#board [data-space]")
    marked = page.locator('#board [data-last="placed"]').evaluate_all(
        "gs => gs.map(g => Number(g.dataset.space))"
    )
    assert set(marked) == placed and placed
    context.close()


def test_phone_shows_whose_turn_above_the_board_and_taps_are_large(
    server: ServerProcess, browser: Any
) -> None:
    """Finding 13: on a 390 px phone the turn is above the board; Agamemnon's targets are ~44 px."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["phone"], has_touch=True)
    page = context.new_page()
    start_game(page, server, "agamemnon", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    top = page.locator("#status-top")
    assert top.is_visible() and top.inner_text().startswith("Your turn")
    assert top.bounding_box()["y"] < page.locator("#board").bounding_box()["y"]
    page.wait_for_selector("#board [data-space].target")
    boxes = page.locator("#board [data-space].target").evaluate_all(
        "gs => gs.map(g => { const r = g.getBoundingClientRect(); return Math.min(r.width, r.height); })"
    )
    assert boxes and min(boxes) >= 40, boxes
    # a spectator on a phone sees whose turn it is above the board as well
    watcher = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["phone"])
    spectator = watcher.new_page()
    spectator.goto(page.url.split("#")[0] + "#/game/" + page.url.rsplit("/", 1)[-1])
    spectator.wait_for_selector("#status-top")
    assert spectator.locator("#status-top").inner_text().startswith("Waiting for")
    desktop = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"])
    wide = desktop.new_page()
    wide.goto(spectator.url)
    wide.wait_for_selector("#status")
    assert not wide.locator("#status-top").is_visible()  # beside the board on a wide screen
    shot(page, "agamemnon-phone")
    for c in (context, watcher, desktop):
        c.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_language_from_the_browser_and_switchable(server: ServerProcess, browser: Any, viewport: str) -> None:
    """German, French, English: chosen from the browser's language, switchable, notation unchanged."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport], locale="de-DE")
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#new-game h2")
    assert page.locator("#new-game h2").inner_text() == "Neues Spiel"
    assert page.locator("html").get_attribute("lang") == "de"
    page.select_option("#lang", "fr")
    page.wait_for_function("document.querySelector('#new-game h2').textContent === 'Nouvelle partie'")
    page.reload()
    page.wait_for_selector("#new-game h2")
    assert page.locator("#new-game h2").inner_text() == "Nouvelle partie"  # the choice is kept
    choose_game(page, "athos")
    assert page.locator("label[for='opt-teams']").inner_text() == "Équipes"
    page.select_option('select[data-seat="1"]', "ai:random")
    page.click("#start")
    page.wait_for_selector('#status[data-mine="1"]')
    assert page.locator("#status").inner_text().startswith("À toi de jouer")
    assert page.locator("#athos-end-move").inner_text().startswith("Finir les déplacements")
    page.click('#board [data-move="B-h1"]')
    page.wait_for_selector("#moves li")
    # issue 30 finding 7: the move in words, in French; the notation stays in the element
    assert page.locator("#moves li").first.get_attribute("data-move") == "B-h1"
    assert "déplace un moine de la case de départ B vers h1" in page.locator("#moves li").first.inner_text()
    shot(page, f"athos-fr-{viewport}")
    # the rules, a link away from every game screen, in the page's language
    assert page.get_attribute("#rules-link", "href").startswith("/rules/athos?lang=fr&game=")
    rules = context.new_page()
    rules.goto(server.url + "/rules/athos?lang=fr")
    assert rules.locator("h1").inner_text() == "Athos — les règles"
    width = rules.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[viewport]["width"]  # nothing sticks out on a phone
    shot(rules, f"rules-athos-fr-{viewport}")
    page.select_option("#lang", "en")
    page.wait_for_function(
        "(s => s && s.textContent.startsWith('Your turn'))(document.querySelector('#status'))"
    )
    context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_keyboard_plays_a_move_with_tab_and_enter(server: ServerProcess, browser: Any, viewport: str) -> None:
    """Legal targets are reachable with Tab and played with Enter; they have names."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.wait_for_selector("#board svg [tabindex]")
    assert page.get_attribute("#board svg", "role") == "group"
    page.focus("#rules-link")
    for _ in range(12):  # Tab from the title's link into the board
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#board svg') !== null"):
            break
    focused = page.evaluate(
        "[document.activeElement.getAttribute('role'), document.activeElement.getAttribute('aria-label')]"
    )
    assert focused[0] == "button" and focused[1]
    version = page.get_attribute("#status", "data-version")
    for _ in range(40):  # Enter selects a cube, Tab moves on to its destinations, Enter plays one
        active = page.evaluate("document.activeElement.dataset.action || ''")
        page.keyboard.press("Enter")
        if active:
            break
        page.keyboard.press("Tab")
    page.wait_for_function("v => document.querySelector('#status').dataset.version !== v", arg=version)
    assert page.locator("#moves li").count() >= 1
    context.close()


YOUR_TURN = {"en": "Your turn", "de": "Du bist am Zug", "fr": "À toi de jouer"}


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_each_game_in_each_language(server: ServerProcess, browser: Any, language: str) -> None:
    """Screenshots of every game in every language (test-artifacts/lang-GAME-LANG.png, described
    in docs/web.md); the status and the rules link speak the language."""
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"], locale=language)
    page = context.new_page()
    for game in ("athos", "archimedes", "agamemnon"):
        start_game(page, server, game, ["me", "ai:random"])
        page.wait_for_selector('#status[data-mine="1"]')
        assert page.locator("#status").inner_text().startswith(YOUR_TURN[language])
        assert page.get_attribute("#rules-link", "href").startswith(f"/rules/{game}?lang={language}&game=")
        shot(page, f"lang-{game}-{language}")
    context.close()


def test_partners_win_together_as_the_games_module_says(server: ServerProcess, browser: Any) -> None:
    """Issue 19, finding 6: the app knows no game's option names: whether the winners are partners
    comes from the game's own module (``teamsOf``), not from an option called ``teams``."""
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#new-game-form")
    texts = page.evaluate(
        """async () => {
          const app = await import("/static/ui.js");
          const athos = await import("/games/athos/web/board.js");
          const seats = ["red (A)", "blue (D)", "green (B)", "yellow (E)"].map((n) => ({ player_name: n }));
          const result = { returns: [1, -1, 1, -1] };
          const view = { options: { teams: true }, web: { seats: ["A", "D", "B", "E"] } };
          const alone = { options: { teams: false }, web: { seats: ["A", "D", "B", "E"] } };
          return [athos.teamsOf(view), athos.teamsOf(alone),
                  app.resultText(result, seats, Boolean(athos.teamsOf(view))),
                  app.resultText(result, seats, Boolean(athos.teamsOf(alone)))];
        }"""
    )
    assert texts == [
        ["team A+B", "team D+E", "team A+B", "team D+E"],
        None,
        "red (A) and green (B) win together",
        "red (A) and green (B) share the win",
    ]
    context.close()
