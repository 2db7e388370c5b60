"""Browser tests in a real Chromium (Debian's chromium, driven by Playwright for Python).

Skipped when Playwright or /usr/bin/chromium is missing. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ROOT, ServerProcess

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("PALAESTRA_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
    pytest.skip("no chromium (apt-get install chromium)", allow_module_level=True)

ARTIFACTS = ROOT / "test-artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("web") / "browser.sqlite3"
    proc = ServerProcess(f"sqlite:///{db}", ai_delay=0.05).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"), args=FLAGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start_game(page: Any, server: ServerProcess, game: str, seats: list[str], options: dict[str, Any] | None = None) -> str:
    page.goto(server.url + "/")
    page.select_option("#game-select", game)
    for name, value in (options or {}).items():
        field = page.locator(f"#opt-{name}")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.select_option(str(value)) if field.evaluate("e => e.tagName") == "SELECT" else field.fill(str(value))
    for i, kind in enumerate(seats):
        page.select_option(f'select[data-seat="{i}"]', kind)
    page.click("#start")
    page.wait_for_url(re.compile(r".*#/game/\w+"))
    return str(page.url.rsplit("/", 1)[-1])


def play_by_clicking(page: Any, click_move: Any, max_moves: int = 2000) -> None:
    """Until the result banner shows: wait for our turn, then click a legal move."""
    for _ in range(max_moves):
        page.wait_for_selector('#result-banner, #status[data-mine="1"]', timeout=60000)
        if page.locator("#result-banner").count():
            return
        ply = page.get_attribute("#status", "data-ply")
        click_move(page)
        page.wait_for_function(
            "ply => document.querySelector('#result-banner') || document.querySelector('#status').dataset.ply !== ply",
            arg=ply,
            timeout=60000,
        )
    raise AssertionError("the game did not end")


def click_first_legal_button(page: Any) -> None:
    page.locator("#legal button").first.click()


def test_nim_against_the_ai_by_clicking(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    start_game(page, server, "nim", ["me", "ai:random"], {"stones": 9})
    page.wait_for_selector("#status")
    play_by_clicking(page, click_first_legal_button)
    banner = page.locator("#result-banner").inner_text()
    assert "wins" in banner
    shot(page, "nim-finished")
    # the replay viewer steps through the finished game
    page.click("text=Replay this game")
    page.wait_for_selector("#replay-slider")
    page.click("#replay-first")
    page.wait_for_function("document.querySelector('#replay-ply').textContent.startsWith('move 0')")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-ply').textContent.startsWith('move 1')")
    assert page.locator("#replay-move").inner_text() != "start"
    context.close()
