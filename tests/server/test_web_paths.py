"""The UI's pages at real paths (issue 28): a profile at /@/NAME and the leaderboards at
/leaderboard[/POOL] are the UI's page, whose router reads the path (docs/web.md, "Accounts in the
browser"), so that their links can be shared as they are."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", ["/@/bea", "/@/someone-else", "/leaderboard", "/leaderboard/nim", "/learn", "/learn/athos"]
)
def test_profile_and_leaderboard_paths_serve_the_page(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.text == client.get("/").text
    assert 'src="/static/app.js"' in r.text
    assert "content-security-policy" in r.headers


def test_other_paths_are_not_the_page(client: TestClient) -> None:
    assert client.get("/@/").status_code == 404
    assert client.get("/@/bea/games").status_code == 404
    assert client.get("/leaderboard/nim/extra").status_code == 404
    assert client.get("/learn/athos/walking").status_code == 404
