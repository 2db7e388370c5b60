"""Issue 30's findings in a real Chromium (desktop 1280×800 and phone 390×844).

Each test names the finding it checks; each failed before its fix. Every page a test opens fails
the test on any uncaught page error and on any console error (``pages`` below).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot, start_game  # noqa: F401 (the fixtures)

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def api(server: ServerProcess, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.url + path,
        data=data,
        headers={"content-type": "application/json"},
        method="POST" if body is not None else "GET",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


Pages = Callable[..., Any]


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    """pages(viewport="desktop", refusals=False, **context options) -> a new page. The test fails
    on any uncaught page error or console error of these pages; ``refusals=True`` lets the
    browser's own line about an HTTP error answer pass (a test that provokes a refusal)."""
    contexts: list[Any] = []
    problems: list[str] = []

    def make(viewport: str = "desktop", refusals: bool = False, **options: Any) -> Any:
        options.setdefault("bypass_csp", True)
        context = browser.new_context(viewport=VIEWPORTS[viewport], accept_downloads=True, **options)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

        def console(message: Any) -> None:
            if message.type != "error":
                return
            if refusals and message.text.startswith("Failed to load resource"):
                return
            problems.append(f"console error: {message.text}")

        page.on("console", console)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, problems


def is_mine(page: Any) -> bool:
    return bool(page.get_attribute("#status", "data-mine") == "1")


def tab_to(page: Any, selector: str, presses: int = 400) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(presses):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_turn(page: Any, presses: int = 60) -> int:
    """Play one whole turn of ours with the keyboard alone: Tab to a board target that plays a move
    (``data-action``), else to one that selects (a cube, a monk, a tile, "End turn"), and press
    Enter; until it is no longer our turn. Returns the number of Enter presses."""
    page.wait_for_selector('#status[data-mine="1"]')
    for count in range(1, presses + 1):
        version = page.get_attribute("#status", "data-version")
        plays = page.locator("#board [data-action]").count() > 0
        tab_to(page, "#board [data-action]" if plays else "#board .target")
        page.keyboard.press("Enter" if count % 2 else " ")  # both keys click
        if plays:
            page.wait_for_function(
                "v => document.querySelector('#status').dataset.version !== v", arg=version, timeout=5000
            )
            if not is_mine(page):
                return count
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"the turn did not end in {presses} key presses")


# --- finding 1: keyboard play on the board -------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [("archimedes", {}), ("agamemnon", {}), ("athos", {"round_limit": 1})],
)
def test_finding_1_a_whole_turn_of_each_game_with_the_keyboard_alone(
    server: ServerProcess,
    pages: Pages,
    game: str,
    options: dict[str, Any],
) -> None:
    """Tab to a highlighted field and press Enter or Space: it plays (it threw ``SVGNS is not
    defined``). A whole turn of ours, then the AI's move appears in the list."""
    page = pages()
    start_game(page, server, game, ["me", "ai:random"], options)
    page.wait_for_selector("#board svg [tabindex]")
    page.focus("#rules-link")
    presses = keyboard_turn(page)
    assert presses >= 1
    mine = page.locator("#moves li").count()
    assert mine >= 1
    page.wait_for_selector('#status[data-mine="1"], #result-banner')  # the AI moved after our turn
    shot(page, f"keyboard-{game}")


# --- finding 14: nobody moves before the invited friend has joined -------------------------------------


def test_finding_14_the_host_waits_for_the_invited_friend(server: ServerProcess, pages: Pages) -> None:
    """The host saw "Your turn" and could move before the friend had joined: now the page says
    whom it waits for, offers no move, and turns to "Your turn" when the friend joins."""
    page = pages()
    game_id = start_game(page, server, "archimedes", ["me", "friend"])
    page.wait_for_selector("#invites input")
    status = page.locator("#status")
    page.wait_for_function("document.querySelector('#status').textContent.includes('to join')")
    assert status.inner_text() == "Waiting for your friend to join"  # finding 8: no "player 2 (N)"
    assert status.get_attribute("data-mine") == "0"
    assert page.locator("#board .target").count() == 0
    assert page.locator("#hint").is_disabled()
    code = page.locator("#invites input").input_value().rsplit("/", 1)[-1]
    api(server, f"/api/games/{game_id}/join", {"code": code, "name": "Friend"})
    page.wait_for_selector('#status[data-mine="1"]')
    assert status.inner_text().startswith("Your turn")
    assert page.locator("#board .target").count() > 0


# --- finding 2: the result banner says who won and why -------------------------------------------------


def test_finding_2_after_a_resignation_the_banner_says_who_won(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#result-banner")
    assert (
        page.locator("#result-winner").inner_text() == "blue (N) wins"
    )  # colours, not "player 2" (finding 8)
    assert page.locator("#result-reason").inner_text() == "orange (S) resigned"
    assert page.locator("#result-banner").get_attribute("data-outcome") == "lost"


def test_finding_2_at_the_move_limit_the_banner_says_why(server: ServerProcess, pages: Pages) -> None:
    created = api(
        server,
        "/api/games",
        {
            "game": "archimedes",
            "options": {"move_limit": 10},
            "seats": [{"kind": "ai", "level": "random"}] * 2,
            "seed": 3,
        },
    )
    game_id = created["id"]
    end = time.monotonic() + 60
    while (view := api(server, f"/api/games/{game_id}"))["status"] != "finished":
        assert time.monotonic() < end
        time.sleep(0.2)
    assert "move limit" in view["result"]["text"], view["result"]
    page = pages()
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#result-banner")
    assert page.locator("#result-winner").inner_text() == "Draw"
    assert page.locator("#result-reason").inner_text() == (
        "The move limit of 10 moves was reached: ranked by cubes home (0–0)"
    )
    page.goto(f"{server.url}/#/replay/{game_id}")  # the replay says it too
    page.wait_for_selector("#replay-result")
    assert "The move limit of 10 moves was reached" in page.locator("#replay-result").inner_text()
    page.select_option("#lang", "de")
    page.wait_for_function("document.querySelector('#replay-result').textContent.includes('Zügen')")


# --- finding 3: an illegal click says why ----------------------------------------------------------------


def toast_after(page: Any, click: Callable[[], None]) -> str:
    page.evaluate("document.querySelector('#toast').className = 'toast'")
    click()
    page.wait_for_selector("#toast.show.error")
    return str(page.locator("#toast").inner_text())


def test_finding_3_archimedes_illegal_clicks_are_explained(server: ServerProcess, pages: Pages) -> None:
    page = pages(refusals=True)
    start_game(page, server, "archimedes", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    version = page.get_attribute("#status", "data-version")
    # an opponent's cube
    said = toast_after(page, lambda: page.click('#board [data-cell="h2"]'))
    assert said.startswith("This cube belongs to blue (N)"), said
    # a cell the selected cube cannot reach: the server's reason (an engine's rule, a rules link)
    page.click('#board [data-from="a2"]')
    said = toast_after(page, lambda: page.click('#board [data-cell="a3"]'))
    assert said.startswith("This move is not allowed here. A3 touches the cube on a4"), said
    assert page.locator("#toast a.rule-ref").count() == 1
    assert page.get_attribute("#status", "data-version") == version  # nothing was played


def test_finding_3_athos_illegal_clicks_are_explained(server: ServerProcess, pages: Pages) -> None:
    page = pages(refusals=True)
    start_game(page, server, "athos", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.wait_for_selector("#board .selected")  # the monks stand together: selected already
    version = page.get_attribute("#status", "data-version")
    field = page.evaluate(
        """[...document.querySelectorAll('#board g[data-field]')]
             .find((g) => !g.matches('.target, [data-pick]') && /^[a-z]\\d+$/.test(g.dataset.field))
             .dataset.field"""
    )
    said = toast_after(page, lambda: page.click(f'#board g[data-field="{field}"]', force=True))
    assert said.startswith("This move is not allowed here. "), said
    assert len(said) > len("This move is not allowed here. ") + 10  # the engine's reason
    assert page.get_attribute("#status", "data-version") == version


# --- finding 5: the join page says what the invitation offers ------------------------------------------


def test_finding_5_the_join_page_gives_the_context_and_a_used_link_fails_at_once(
    server: ServerProcess, pages: Pages
) -> None:
    host = pages()
    host.goto(server.url + "/")
    host.evaluate("localStorage.setItem('palaestra.name', 'Ann')")  # the new-game form's name
    game_id = start_game(host, server, "archimedes", ["me", "friend"])
    link = host.locator("#invites input").input_value()
    guest = pages("phone")
    guest.goto(link)
    guest.wait_for_selector("#join-form")
    assert guest.locator("#join-invite").inner_text() == "Ann invites you to a game of Archimedes."
    assert guest.locator("#join-seat").inner_text() == "You play player 2 (N)."
    assert guest.locator("#join-players").inner_text() == "Players: player 1 (S): Ann · player 2 (N): you"
    assert guest.locator("#join-clock").inner_text() == "No clock"
    guest.fill("#join-name", "Bea")
    guest.click("#join-start")
    guest.wait_for_url(f"**/#/game/{game_id}")
    # a third person with the same (used) link is told at once, before typing anything
    third = pages(locale="de")
    third.goto(link)
    third.wait_for_selector("#join-closed")
    assert third.locator("#join-closed .note").inner_text() == "Diese Einladung wurde schon benutzt."
    assert third.locator("#join-name").count() == 0
    assert "Bea" in third.locator("#join-players").inner_text()
    third.click("#join-watch")
    third.wait_for_selector("#status")
    # the guest's own browser, opening the link again, goes to the game
    guest.goto(link)
    guest.wait_for_url(f"**/#/game/{game_id}")


# --- finding 13: "My games" says against whom, where the game stands and when ------------------------


def test_finding_13_my_games_say_opponent_state_and_date(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('palaestra.name', 'Ann')")
    invited = start_game(page, server, "archimedes", ["me", "friend"])  # private: not in the lobby
    against_ai = start_game(page, server, "athos", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.goto(server.url + "/")
    page.wait_for_selector("#my-games-list")
    first = page.locator(f'#my-games li[data-game="{invited}"]')
    words = " ".join(first.inner_text().split())
    assert words.startswith("Archimedes against player 2 (N) waiting for your friend to join"), words
    second = page.locator(f'#my-games li[data-game="{against_ai}"]')
    assert second.locator("a").first.inner_text() == "Athos"
    assert second.locator("[data-against]").inner_text() == "against AI (random)"
    assert second.locator(".tag").inner_text() == "your turn"
    year = str(time.gmtime().tm_year)
    assert year in second.locator("[data-updated]").inner_text()
    # newest first
    ids = page.eval_on_selector_all("#my-games li", "items => items.map((li) => li.dataset.game)")
    assert ids.index(against_ai) < ids.index(invited)
    shot(page, "my-games")


# --- finding 10: the Archimedes form says how the move limit ranks ----------------------------------


def test_finding_10_the_move_limit_help_says_cubes_home_decide(server: ServerProcess, pages: Pages) -> None:
    """It said "the cubes closest to their goals win"; the engine ranks by cubes home (ARC-M6)."""
    page = pages()
    page.goto(server.url + "/")
    page.select_option("#game-select", "archimedes")
    page.wait_for_selector('#options[data-game="archimedes"]', state="attached")
    help_text = page.locator("#opt-move_limit-help").text_content() or ""  # under "More options"
    assert "closest" not in help_text
    assert help_text.endswith("then whoever has more cubes home wins (equal counts share)")


# --- finding 6: hints in words, on the board, and a switch for them --------------------------------------


def test_finding_6_hints_in_words_marked_on_the_board(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "athos", ["me", "ai:random"], {"round_limit": 1})
    page.wait_for_selector('#status[data-mine="1"]')
    page.click("#hint")
    page.wait_for_selector("#hints li.hint")
    assert page.locator("#hint-head").inner_text() == "The AI (strong) suggests:"
    first = page.locator("#hints li.hint").first
    text = first.inner_text()
    assert "strong" not in text and not re.search(r"\d\.\d\d", text), text  # no raw value or agent
    assert re.search(r"winning|good for you|about even|difficult|hard to save", text), text
    move = first.get_attribute("data-move")
    assert page.locator("#board .hinted").count() >= 1  # marked on the board
    assert page.locator(f'#board .hinted[data-move="{move}"], #board .hinted[data-pick]').count() >= 1
    shot(page, "hints-athos")
    version = page.get_attribute("#status", "data-version")
    first.locator("button").click()  # plays it
    page.wait_for_function("v => document.querySelector('#status').dataset.version !== v", arg=version)
    assert move in page.eval_on_selector_all("#moves li", "items => items.map((li) => li.dataset.move)")


def test_finding_6_hints_off_between_people_unless_allowed(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.select_option("#game-select", "archimedes")
    page.wait_for_selector('#options[data-game="archimedes"]', state="attached")
    assert page.locator("#hints-field").is_hidden()  # against the AI hints are always on
    page.select_option('select[data-seat="1"]', "friend")
    assert page.locator("#hints-field").is_visible()
    page.click("#start")
    page.wait_for_selector("#status[data-version]")
    assert page.locator("#hint").is_hidden()  # it looked enabled and answered "Hints are off"
    assert page.locator("#hints-off").inner_text() == "Hints are off in this game."
    page.goto(server.url + "/")
    page.select_option("#game-select", "archimedes")
    page.wait_for_selector('#options[data-game="archimedes"]', state="attached")
    page.select_option('select[data-seat="1"]', "friend")
    page.check("#allow-hints")
    page.click("#start")
    page.wait_for_selector("#status[data-version]")
    assert page.locator("#hint").is_visible() and page.locator("#hints-off").is_hidden()


# --- finding 9: downloads with a file name, and the moves as text ----------------------------------------


def test_finding_9_the_record_and_the_moves_download_with_file_names(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages(bypass_csp=False)  # under the real Content-Security-Policy
    game_id = start_game(page, server, "archimedes", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.on("dialog", lambda dialog: dialog.accept())
    keyboard_turn(page)
    page.wait_for_selector('#status[data-mine="1"]')
    page.click("#resign")
    page.wait_for_selector("#result-banner")
    with page.expect_download() as caught:
        page.click("#export-json")
    download = caught.value
    assert download.suggested_filename == f"palaestra-archimedes-{game_id}.json"
    record = json.loads(Path(download.path()).read_text())
    assert record["game"] == "archimedes" and len(record["moves"]) >= 2
    with page.expect_download() as caught:
        page.click("#export-text")
    download = caught.value
    assert download.suggested_filename == f"palaestra-archimedes-{game_id}.txt"
    text = Path(download.path()).read_text()
    lines = text.splitlines()
    assert lines[0] == f"Archimedes #{game_id}"
    assert lines[1] == "Players: orange (S), blue (N) (AI (random))"
    assert re.fullmatch(r"1\. Orange \(S\) moves a cube from (\w+) to (\w+) \[\1-\2\]", lines[3]), lines[3]
    assert "blue (N) wins (orange (S) resigned)" in text
    assert page.url.endswith(f"#/game/{game_id}")  # no tab, no navigation


# --- finding 12: screen readers and the focus ring ----------------------------------------------------


def test_finding_12_places_are_named_moves_announced_and_the_focus_ring_whole(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages()
    start_game(page, server, "archimedes", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.wait_for_selector('#board g[data-cell="e8"][role="img"]')
    assert page.get_attribute('#board g[data-cell="e8"]', "aria-label") == "e8: empty"
    opponent = page.get_attribute('#board g[data-cell="h2"]', "aria-label")
    assert opponent == "h2: cube of blue (N), distance 4"
    assert page.get_attribute("#status", "role") == "status"
    assert page.get_attribute("#status", "aria-live") == "polite"
    # the focus ring is a whole box around the focused cube
    page.focus('#board [data-from="a2"]')
    ring = page.evaluate(
        """() => {
          const node = document.querySelector('#board [data-from="a2"]');
          const ring = node.querySelector('.focus-ring');
          if (!ring) return null;
          const [a, b] = [node.querySelector('rect, polygon').getBBox(), ring.getBBox()];
          return b.x <= a.x && b.y <= a.y
            && b.x + b.width >= a.x + a.width && b.y + b.height >= a.y + a.height;
        }"""
    )
    assert ring is True
    # the AI's move is announced
    keyboard_turn(page)
    page.wait_for_selector('#status[data-mine="1"]')
    page.wait_for_function(
        "document.querySelector('#announce').textContent.startsWith('Blue (N) moves a cube from ')"
    )
    # Agamemnon's spaces
    start_game(page, server, "agamemnon", ["me", "ai:random"])
    page.wait_for_selector('#board g[data-space="5"][aria-label]')
    assert page.locator('#board g[data-space="5"] > title').text_content() == "space 5: empty"


# --- finding 7: moves in sentences with the players' names --------------------------------------------


def test_finding_7_moves_in_words_with_names(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('palaestra.name', 'Ann')")
    game_id = start_game(page, server, "agamemnon", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    # the board's buttons are named in words
    space = page.locator("#board g[data-space][data-move]").first
    label = space.get_attribute("aria-label") or ""
    assert re.fullmatch(r"Places (leader [A-E]|warrior \d|Warp|Weft) on space \d+", label), label
    keyboard_turn(page)
    page.wait_for_selector('#status[data-mine="1"], #result-banner')
    items = page.locator("#moves li")
    texts = items.all_inner_texts()
    notations = page.eval_on_selector_all("#moves li", "items => items.map((li) => li.dataset.move)")
    mine = [t for t, n in zip(texts, notations, strict=True) if t.startswith("Ann ")]
    assert mine and re.fullmatch(r"Ann places (leader [A-E]|warrior \d|Warp|Weft) on space \d+", mine[0]), (
        texts
    )
    assert any(re.fullmatch(r"A draw: .+", t) for t in texts), texts  # chance, without a subject
    assert not any("player 1" in t or "@" in t for t in texts), texts
    assert all(n for n in notations)  # the notation stays with each move
    shot(page, "moves-in-words-agamemnon")
    # German
    page.select_option("#lang", "de")
    page.wait_for_function(
        "document.querySelector('#moves li') && /^Ann legt /.test("
        "[...document.querySelectorAll('#moves li')].map((li) => li.textContent).join('|')"
        ".split('|').find((x) => x.startsWith('Ann')))"
    )
    # the replay says the same
    page.goto(f"{server.url}/#/replay/{game_id}")
    page.wait_for_selector("#replay-moves li")
    assert any(t.startswith("Ann legt ") for t in page.locator("#replay-moves li").all_inner_texts())


# --- finding 17: the rules pages switch language and lead back to the game ----------------------------


def test_finding_17_the_rules_page_switches_language_and_leads_back(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages()
    game_id = start_game(page, server, "archimedes", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    with page.expect_popup() as popup:
        page.click("#rules-link")
    rules = popup.value
    rules.wait_for_selector("#rules-languages")
    assert rules.locator("#rules-languages [aria-current=page]").inner_text() == "English"
    rules.click('#rules-languages [data-lang="de"]')
    rules.wait_for_selector('html[lang="de"]')
    assert rules.locator("#back-to-game").inner_text() == "Zurück zur Partie"
    rules.click("#back-to-game")
    rules.wait_for_url(f"**/#/game/{game_id}")
    rules.wait_for_selector("#status[data-version]")


def test_finding_17_a_bad_game_id_is_refused(server: ServerProcess) -> None:
    for bad in ("x%22%3E%3Cscript%3E", "a" * 40):
        try:
            api(server, f"/rules/archimedes?game={bad}")
        except urllib.error.HTTPError as err:
            assert err.code == 422
        else:
            raise AssertionError(f"{bad} was taken")


# --- finding 4: the new-game form in plain words, expert settings under "More options" ----------------


FORM_JARGON = [
    "Rules version",
    "RULINGS",
    "0 =",
    "(0 = first)",
    "I,II,III",
    "First player",
    "Handicap player",
]


@pytest.mark.parametrize("game", ["agamemnon", "athos", "archimedes"])
def test_finding_4_the_form_speaks_plainly(server: ServerProcess, pages: Pages, game: str) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.select_option("#game-select", game)
    page.wait_for_selector(f'#options[data-game="{game}"]', state="attached")
    more = page.locator("#more-options")
    assert more.count() == 1 and not more.evaluate("d => d.open")  # folded away
    shown = page.locator("#new-game-form").inner_text()
    for jargon in FORM_JARGON:
        assert jargon not in shown, (jargon, shown)
    more.locator("summary").click()
    everything = page.locator("#new-game-form").evaluate("f => f.textContent")
    for jargon in FORM_JARGON:
        assert jargon not in everything, (jargon, everything)
    if game == "agamemnon":
        assert page.locator("#opt-first option").all_inner_texts() == ["orange begins", "black begins"]
        assert page.locator("#opt-rules option:checked").inner_text().endswith("(newest)")
        setups = page.locator("#opt-setup option").all_inner_texts()
        assert setups[0] == "(random)" and setups[1] == "strength I · force II · leadership III"
    if game == "athos":
        names = page.locator("#opt-handicap_player option").all_inner_texts()
        assert names[0] == "nobody" and names[1].startswith("red")
        assert page.locator("#more-options #opt-round_limit").is_visible()
    if game == "archimedes":
        assert page.locator("#more-options #opt-move_limit").is_visible()


def test_finding_4_the_end_of_movement_says_what_lapses(server: ServerProcess, pages: Pages) -> None:
    page = pages()
    start_game(page, server, "athos", ["me", "ai:random"])
    page.wait_for_selector("#athos-end-move")
    assert page.locator("#athos-end-move").inner_text() == "End movement (6 points unused)"


# --- finding 11: contrast (WCAG AA) and tap targets on a phone ----------------------------------------

CONTRAST = """(nodes) => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3])).concat(1);
  const background = (node) => {  // the colour behind an HTML element
    const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] === 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  return nodes.map((node) => {
    if (node instanceof SVGElement) {  // a board label: its fill over the fill of its place's shape
      let shape = node.previousElementSibling;
      const shapes = ["polygon", "circle", "rect"];
      while (shape && !shapes.includes(shape.tagName)) shape = shape.previousElementSibling;
      if (!shape) return [node.textContent, 0];
      const under = parse(getComputedStyle(shape).fill);
      return [node.textContent, ratio(over(parse(getComputedStyle(node).fill), under), under)];
    }
    const bg = background(node);
    return [node.textContent.trim().slice(0, 30), ratio(over(parse(getComputedStyle(node).color), bg), bg)];
  });
}"""


def contrasts(page: Any, selector: str) -> list[tuple[str, float]]:
    return [(str(text), float(r)) for text, r in page.eval_on_selector_all(selector, CONTRAST)]


@pytest.mark.parametrize("game", ["archimedes", "agamemnon", "athos"])
def test_finding_11_text_and_board_labels_reach_aa(server: ServerProcess, pages: Pages, game: str) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.wait_for_selector("#watch-games")
    low = [c for c in contrasts(page, ".muted, a, button.secondary") if c[1] < 4.5]
    assert not low, low
    start_game(page, server, game, ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    low = [c for c in contrasts(page, "#rules-link, button.secondary:not([disabled]), .muted") if c[1] < 4.5]
    assert not low, low
    labels = {
        "archimedes": "#board g[data-cell] > text",
        "agamemnon": "#board g[data-space] > text",
        "athos": "#board g[data-field] > text",
    }[game]
    names = page.eval_on_selector_all(
        labels, "ts => ts.map((t) => t.textContent === Object.values(t.parentNode.dataset)[0])"
    )
    found = [c for c, name in zip(contrasts(page, labels), names, strict=True) if name]  # the coordinates
    assert len(found) > 10
    low = [c for c in found if c[1] < 4.5]
    assert not low, low[:5]


def test_finding_11_athos_fields_can_be_zoomed_to_44_px_on_a_phone(
    server: ServerProcess, pages: Pages
) -> None:
    page = pages("phone")
    start_game(page, server, "athos", ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    size = "document.querySelector('#board g[data-field=h1] polygon').getBoundingClientRect().width"
    assert page.evaluate(size) < 44  # the whole board on the screen: too small to tap
    page.click("#board-zoom")
    assert page.get_attribute("#board-zoom", "aria-pressed") == "true"
    assert page.evaluate(size) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"]
    page.locator('#board g[data-field="h1"]').scroll_into_view_if_needed()
    version = page.get_attribute("#status", "data-version")
    page.click('#board g[data-field="h1"]')  # a step, tapped on the zoomed board
    page.wait_for_function("v => document.querySelector('#status').dataset.version !== v", arg=version)


# --- finding 8: at 1280×800 the controls are above the fold ---------------------------------------------


@pytest.mark.parametrize(
    ("game", "controls"),
    [
        ("athos", ["#athos-end-move", "#athos-counts table", "#athos-bar"]),
        ("agamemnon", ["#aga-extra .chip", "#board .legend"]),
        ("archimedes", ["#arc-extra"]),
    ],
)
def test_finding_8_the_board_and_its_controls_fit_1280_by_800(
    server: ServerProcess, pages: Pages, game: str, controls: list[str]
) -> None:
    page = pages()  # 1280×800
    start_game(page, server, game, ["me", "ai:random"])
    page.wait_for_selector('#status[data-mine="1"]')
    page.wait_for_selector(controls[0])
    for selector in controls:
        bottom = page.locator(selector).first.evaluate("e => e.getBoundingClientRect().bottom")
        assert bottom <= 800, (selector, bottom)
    board = page.locator("#board svg").first.bounding_box()
    assert board is not None and board["height"] >= 400  # the board itself stays large
    shot(page, f"fold-{game}")


# --- finding 18: no English left in German and French -------------------------------------------------

ENGINE_WORDS = re.compile(r"\b(draw|swap|noswap|WARP|WEFT|end-move|end-turn|place|relocate|stone|strong)\b")


def visible_texts(page: Any) -> str:
    return " | ".join(
        page.locator(selector).inner_text()
        for selector in ("#board", "#moves", "#hints", "#hint-head", "#status", "#result")
        if page.locator(selector).count()
    )


@pytest.mark.parametrize("language", ["de", "fr"])
def test_finding_18_no_engine_words_in_german_and_french(
    server: ServerProcess, pages: Pages, language: str
) -> None:
    page = pages(locale=language)
    page.goto(server.url + "/")
    page.select_option("#game-select", "athos")
    page.wait_for_selector('#options[data-game="athos"]', state="attached")
    page.locator("#more-options summary").click()
    label = page.locator('label[for="opt-rules"]').inner_text()
    assert label == {"de": "Regelfassung", "fr": "Édition des règles"}[language]
    assert "RULINGS" not in page.locator("#new-game-form").inner_text()
    # Athos: a whole turn, the hints, the AI's turn listed under the board
    start_game(page, server, "athos", ["me", "ai:random"], {"round_limit": 2})
    page.wait_for_selector('#status[data-mine="1"]')
    page.click("#hint")
    page.wait_for_selector("#hints li.hint")
    assert (
        page.locator("#hint-head")
        .inner_text()
        .startswith({"de": "Die KI (stark)", "fr": "L’IA (fort"}[language])
    )
    keyboard_turn(page)
    page.wait_for_selector('#status[data-mine="1"], #result-banner', timeout=60000)
    page.wait_for_selector("#athos-last-turns")
    text = visible_texts(page)
    assert not ENGINE_WORDS.search(text), ENGINE_WORDS.search(text)
    # Agamemnon with the Oracle: the stack buttons, the draws, the placements
    start_game(page, server, "agamemnon", ["me", "ai:random"], {"oracle": True})
    page.wait_for_selector('#status[data-mine="1"]')
    text = visible_texts(page)
    assert not ENGINE_WORDS.search(text), ENGINE_WORDS.search(text)
    keyboard_turn(page)
    page.wait_for_selector('#status[data-mine="1"], #result-banner', timeout=60000)
    text = visible_texts(page)
    assert not ENGINE_WORDS.search(text), ENGINE_WORDS.search(text)
