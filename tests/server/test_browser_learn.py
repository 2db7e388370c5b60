"""Issue 30, "Learn to play", in Chromium: every lesson of every game completed by clicking on the
game's own board, a wrong try of each game explained on screen, the progress kept over a reload and
following a member to a second browser, and the course's last page starting a game against the AI.
Any uncaught page error or console error fails a test (tests/server/page_errors.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from palaestra.core.lessons import course_of
from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot  # noqa: F401 (the fixtures)

GAMES = ["athos", "archimedes", "agamemnon"]
#: per game, a lesson, a wrong try made on its board, its last click, and words of its explanation
WRONG = {
    "athos": ("walking", "j15-k14", 'g[data-field="k14"]', "down the mountain"),
    "archimedes": ("distance", "a8-b9", 'g[data-cell="b9"]', "exactly 4 cells"),  # not offered: refused
    "agamemnon": ("control", "W1@9", 'g[data-space="9"]', "one spear"),
}


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    assert not console, console


def open_course(page: Any, server: ServerProcess, game: str, lesson: str | None = None) -> None:
    page.goto(f"{server.url}/learn/{game}")
    page.wait_for_selector("#board[data-lesson]")
    if lesson is not None:
        page.click(f'#lesson-list li[data-lesson="{lesson}"] a')
        page.wait_for_selector(f'#board[data-lesson="{lesson}"][data-outcome="playing"]')


def prepare(page: Any, game: str, move: str) -> None:
    """What the board needs before the move itself can be clicked: a piece or tile picked, a mode."""
    if game == "athos":
        if move.startswith("flip "):
            page.click("#athos-flip")
        elif move.startswith("relocate "):
            page.click("#athos-stone")
            page.click(f'#board g[data-field="{move[9:].split(">")[0]}"]')
        elif move == "end-turn":
            page.click("#athos-end-turn")
        elif "-" in move:
            page.click(f'#board g[data-field="{move.split("-")[0]}"]')
    elif game == "archimedes":
        page.click(f'#board g[data-cell="{move.split("-")[0]}"]')
    elif game == "agamemnon" and "@" in move:
        page.click(f'#board button[data-code="{move.split("@")[0]}"]')
    elif game == "agamemnon" and move.startswith("swap "):
        page.click(f'#board line.target[data-conn="{move.split()[1]}"]')  # the first connection


def final_click(move: str) -> str:
    """The board element whose click plays ``move`` (after ``prepare``)."""
    if move.startswith("swap "):  # a Warp's swap: the second connection
        return f'line[data-conn="{move.split()[2]}"]'
    return f'[data-move="{move}"]'


def click_move(page: Any, game: str, move: str) -> str:
    """Play ``move`` by clicking the board; the lesson's outcome after it."""
    if not page.locator(f'#board [data-move="{move}"]').count():
        prepare(page, game, move)
    answered = page.get_attribute("#board", "data-answers")
    page.locator(f"#board {final_click(move)}").first.click()
    page.wait_for_function("n => document.querySelector('#board').dataset.answers !== n", arg=answered)
    outcome: str = page.get_attribute("#board", "data-outcome")
    return outcome


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_is_completed_by_clicking_on_the_board(
    server: ServerProcess, page: Any, game: str
) -> None:
    course = course_of(game)
    assert course is not None
    open_course(page, server, game)
    for n, lesson in enumerate(course.lessons):
        page.wait_for_selector(f'#board[data-lesson="{lesson.id}"][data-outcome="playing"]')  # set up
        assert page.inner_text("#lesson-task") == lesson.text["en"]["task"]
        outcomes = [click_move(page, game, move) for move in lesson.solution]
        assert outcomes == ["playing"] * (len(outcomes) - 1) + ["done"], (lesson.id, outcomes)
        assert page.inner_text("#lesson-feedback") == lesson.text["en"]["done"]
        page.wait_for_selector(f'#lesson-list li.done[data-lesson="{lesson.id}"]')
        shot(page, f"learn-{game}-{n + 1}-{lesson.id}")  # each lesson done, to look at by eye
        page.click("#lesson-next")
    # the course's last page: a game against the beginner AI
    page.wait_for_selector("#lesson-final:not([hidden])")
    page.click("#learn-play")
    page.wait_for_selector("#status")
    assert "/#/game/" in page.url
    assert page.locator("#players").inner_text()


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_try_is_explained_on_screen(server: ServerProcess, page: Any, game: str) -> None:
    lesson, move, last_click, words = WRONG[game]
    open_course(page, server, game, lesson)
    prepare(page, game, move)
    page.click(f"#board {last_click}")
    page.wait_for_selector('#lesson-feedback[data-kind="wrong"]')
    assert words in page.inner_text("#lesson-feedback")
    assert page.get_attribute("#board", "data-outcome") == "refused"
    shot(page, f"learn-{game}-wrong")
    # the position is unchanged: the lesson's solution still works from here
    outcomes = [click_move(page, game, m) for m in course_of(game).lesson(lesson).solution]  # type: ignore[union-attr]
    assert outcomes[-1] == "done"


def test_a_wrong_try_in_german_is_explained_in_german(server: ServerProcess, page: Any) -> None:
    page.goto(f"{server.url}/")
    page.evaluate("localStorage.setItem('palaestra.lang', 'de')")
    open_course(page, server, "athos", "walking")
    assert "Gehen" in page.inner_text("#lesson-title")
    prepare(page, "athos", "j15-k14")
    page.click('#board g[data-move="j15-k14"]')
    page.wait_for_selector('#lesson-feedback[data-kind="wrong"]')
    assert "bergab" in page.inner_text("#lesson-feedback")


def credentials(page: Any, path: str) -> int:
    """POST the learner's name and password to ``path`` from the page (the cookie is the page's)."""
    script = """path => fetch(path, {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({username: 'learner', password: 'correct horse battery'})})
        .then(r => r.status)"""
    status: int = page.evaluate(script, path)
    return status


def test_progress_survives_a_reload_and_follows_a_member(server: ServerProcess, browser: Any) -> None:
    first = browser.new_context(viewport={"width": 1280, "height": 900})
    page = first.new_page()
    page.goto(f"{server.url}/")
    signed = credentials(page, "/api/account")
    assert signed == 201
    open_course(page, server, "archimedes")
    assert click_move(page, "archimedes", "a8-c12") == "done"
    page.wait_for_selector('#lesson-list li.done[data-lesson="distance"]')
    page.reload()
    page.wait_for_selector('#lesson-list li.done[data-lesson="distance"]')
    assert page.get_attribute("#lesson", "data-lesson") == "blocking"  # the course goes on where it stopped
    first.close()
    # another browser: nothing kept locally, the member signs in and finds the lesson done
    second = browser.new_context(viewport={"width": 390, "height": 844})
    page = second.new_page()
    page.goto(f"{server.url}/learn/archimedes")
    page.wait_for_selector("#lesson-list li[data-lesson]")
    assert not page.locator("#lesson-list li.done").count()
    status = credentials(page, "/api/session")
    assert status == 200
    page.reload()
    page.wait_for_selector('#lesson-list li.done[data-lesson="distance"]')
    assert page.evaluate("JSON.parse(localStorage.getItem('palaestra.lessons'))") == {
        "archimedes": ["distance"]
    }
    shot(page, "learn-phone")
    second.close()


def test_learn_links_on_the_home_page_and_the_rules_page(server: ServerProcess, page: Any) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("#learn-links")
    assert page.locator("#learn-links a").count() == 3
    page.click('#learn-links a[data-game="athos"]')
    page.wait_for_selector('#lesson[data-lesson="walking"]')
    page.goto(f"{server.url}/rules/agamemnon?lang=fr")
    assert page.inner_text("#learn-link") == "Apprendre à jouer"
    page.click("#learn-link")
    page.wait_for_selector('#lesson[data-lesson="strings"]')
    page.goto(f"{server.url}/learn")
    page.wait_for_selector("#courses li")
    assert page.locator("#courses li").count() == 3
