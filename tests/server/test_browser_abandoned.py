"""An abandoned game in a real Chromium (issue 17): a server started on a database where a game
went idle marks it at start; its page says so in the page's language and offers no move, and the
player's own list in the lobby tags it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from palaestra.server.db import GameRow, Store
from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, shot  # noqa: F401 (the fixture)

STATUS = {
    "en": "Abandoned: nobody moved for a long time",
    "de": "Liegen gelassen: lange hat niemand gezogen",
    "fr": "Abandonnée : personne n’a joué depuis longtemps",
}
TAG = {"en": "abandoned", "de": "liegen gelassen", "fr": "abandonnée"}


@pytest.fixture(scope="module")
def left_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, dict[str, Any]]]:
    db = f"sqlite:///{tmp_path_factory.mktemp('abandoned') / 'web.sqlite3'}"
    first = ServerProcess(db).start()
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
    body = {"game": "nim", "seats": seats, "public": True}
    created = httpx.post(first.url + "/api/games", json=body, timeout=10).json()
    first.stop()
    store = Store(db)
    with store.engine.begin() as conn:  # nobody moved for 40 days
        old = datetime.now(UTC) - timedelta(days=40)
        conn.execute(sa.update(GameRow).where(GameRow.id == created["id"]).values(updated_at=old))
    store.close()
    server = ServerProcess(db).start()  # the default: 30 days; the sweep at start marks it
    yield server, created
    server.stop()


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_an_abandoned_game_says_so_and_offers_no_move(
    left_game: tuple[ServerProcess, dict[str, Any]], browser: Any, lang: str, tmp_path: Path
) -> None:
    server, created = left_game
    gid = created["id"]
    assert httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()["status"] == "abandoned"
    context = browser.new_context(viewport={"width": 1200, "height": 850}, locale=lang)
    page = context.new_page()
    page.goto(server.url + "/")
    # this browser holds the seat (as after creating the game here)
    token = created["seats"][0]["token"]
    page.evaluate(
        """([gid, token]) => {
          const mine = JSON.parse(localStorage.getItem("palaestra.games") || "{}");
          mine[gid] = {game: "nim", tokens: {0: token}};
          localStorage.setItem("palaestra.games", JSON.stringify(mine));
        }""",
        [gid, token],
    )
    page.goto(f"{server.url}/#/game/{gid}")
    status = page.locator("#status")
    status.wait_for()
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert status.inner_text() == STATUS[lang]
    assert page.locator("[data-action]").count() == 0  # no move offered
    shot(page, f"abandoned-{lang}")
    page.goto(server.url + "/")
    tag = page.locator(f'#my-games li[data-game="{gid}"] .tag')
    tag.wait_for()
    assert tag.inner_text() == TAG[lang]
    context.close()
