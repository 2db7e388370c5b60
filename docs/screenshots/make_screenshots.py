"""Make the screenshots of docs/web.md ("Screenshots of the players' screens", issue 30).

    python docs/screenshots/make_screenshots.py [OUT_DIR]

Starts `palaestra serve` on a free port with a throwaway SQLite file, drives Debian's Chromium
(/usr/bin/chromium, else Playwright's) at 1280×800 and 390×844 and writes PNGs into OUT_DIR
(default: this folder): the home page with the lobby (light), the first lesson of the Athos
course ("Learn to play", light), a game of Archimedes against the AI
in the light and the dark theme, and the same game with a move waiting for Confirm (a
correspondence game, where confirming is on by default). Each PNG is the visible window only,
reduced to 256 colours with Pillow when it is installed (a dev dependency), so they stay small.
They are looked at by eye; nothing here is a test.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server() -> Iterator[str]:
    """A `palaestra serve` of its own, on a new SQLite file; yields its URL."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cmd = [sys.executable, "-m", "palaestra.cli", "serve", "--port", str(port)]
        cmd += ["--database-url", f"sqlite:///{tmp}/shots.sqlite3"]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            end = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(url + "/api/meta", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError("the server did not start")
                time.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def small_png(path: Path) -> None:
    """The PNG again in 256 colours (Pillow), when Pillow is there."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    reduced.save(path, optimize=True)


def start_game(page: Any, url: str, clock: str | None = None) -> None:
    """A game of Archimedes, me against the random AI, from the home page's form."""
    page.goto(url + "/")
    page.select_option("#game-select", "archimedes")
    page.wait_for_selector('#options[data-game="archimedes"]', state="attached")
    page.fill("#your-name", "Ann")
    page.select_option('select[data-seat="0"]', "me")
    page.select_option('select[data-seat="1"]', "ai:random")
    if clock:
        page.select_option("#clock-kind", clock)
    page.click("#start")
    page.wait_for_url(re.compile(r".*#/game/\w+"))
    page.wait_for_selector('#status[data-mine="1"]')


def one_move(page: Any) -> None:
    """A cube, then a cell it may go to (the board of the game page)."""
    if not page.locator("#board [data-action]").count():
        page.locator("#board .target").first.click()
    page.locator("#board [data-action]").first.click()


def shoot(page: Any, out: Path, name: str) -> None:
    page.wait_for_timeout(400)  # the last redraw, the toast gone
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    small_png(path)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KiB")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        for size, viewport in SIZES.items():
            for scheme in ("light", "dark"):
                context = browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True)
                page = context.new_page()
                if scheme == "light":
                    page.goto(url + "/")
                    page.wait_for_selector("#watch-games")
                    shoot(page, out, f"home-{size}")
                    page.goto(url + "/learn/athos")  # "Learn to play": the first lesson of a course
                    page.wait_for_selector('#board[data-lesson][data-outcome="playing"]')
                    shoot(page, out, f"learn-{size}")
                start_game(page, url)
                one_move(page)  # a move of each side: the last move is marked
                page.wait_for_function("document.querySelectorAll('#moves li').length >= 2")
                page.wait_for_selector('#status[data-mine="1"]')
                shoot(page, out, f"game-{scheme}-{size}")
                if scheme == "light":
                    start_game(page, url, clock="correspondence")
                    one_move(page)
                    page.wait_for_selector("#pending-move:not([hidden])")
                    shoot(page, out, f"confirm-move-{size}")
                context.close()
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
