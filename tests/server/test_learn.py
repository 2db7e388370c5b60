"""Issue 30, "Learn to play": the API of the courses (``/api/learn/GAME``, a learner's try checked
on the engine) and a member's progress (``/api/account/lessons``); SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.core.lessons import course_of
from tests.server.accounts_helpers import PASSWORD, sign_in, sign_up
from tests.server.test_api import assert_error

GAMES = ("athos", "archimedes", "agamemnon")


def test_a_course_has_its_lessons_in_the_language_asked_for(client: TestClient) -> None:
    for game in GAMES:
        ids = [lesson.id for lesson in course_of(game).lessons]  # type: ignore[union-attr]
        english = client.get(f"/api/learn/{game}").json()
        german = client.get(f"/api/learn/{game}?lang=de").json()
        assert [lesson["id"] for lesson in english["lessons"]] == ids
        assert english["level"] == "beginner"
        for en, de in zip(english["lessons"], german["lessons"], strict=True):
            assert en["task"] and de["task"] and en["task"] != de["task"]
    meta = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    assert all(meta[game]["learn"] for game in GAMES)
    assert_error(client.get("/api/learn/nim"), 404, "lesson_not_found")  # a game without a course
    assert_error(client.get("/api/learn/athos?lang=xx"), 422, "invalid_request")


def test_the_pages_are_served_at_their_paths(client: TestClient) -> None:
    for path in ("/learn", "/learn/athos"):
        r = client.get(path)
        assert r.status_code == 200 and '<main id="app">' in r.text


def attempt(client: TestClient, game: str, lesson: str, moves: list[str], lang: str = "en") -> Any:
    return client.post(f"/api/learn/{game}/{lesson}?lang={lang}", json={"moves": moves})


def test_a_try_is_checked_on_the_engine_move_by_move(client: TestClient) -> None:
    start = attempt(client, "athos", "walking", []).json()
    assert start["outcome"] == "playing" and start["moves"] == []
    legal = {m["move"] for m in start["view"]["legal"]}
    assert {"j15-k16", "j15-i16", "j15-k14"} <= legal
    assert start["view"]["state"]["position"]["monks"][0] == ["j15", "B", "B"]
    half = attempt(client, "athos", "walking", ["j15-k16"]).json()
    assert half["outcome"] == "playing" and half["view"]["state"]["position"]["monks"][0][0] == "k16"
    done = attempt(client, "athos", "walking", ["j15-k16", "k16-summit"]).json()
    assert done["outcome"] == "done" and done["view"]["legal"] == []
    assert done["view"]["state"]["position"]["arrivals"] == [0]
    assert done["moves"] == ["j15-k16", "k16-summit"] and done["view"]["moves"][1]["player"] == 0


def test_a_wrong_try_is_refused_with_the_lessons_words_and_changes_nothing(client: TestClient) -> None:
    r = attempt(client, "athos", "walking", ["j15-k14"], lang="fr").json()
    assert r["outcome"] == "refused" and r["wrong"] == "j15-k14" and r["moves"] == []
    assert "descend" in r["explanation"]
    assert r["view"]["state"]["position"]["monks"][0][0] == "j15"  # the position before the try
    # an illegal move the lesson does not list: the engine's reason and the lesson's hint
    r = attempt(client, "athos", "walking", ["j15-j13"]).json()
    assert r["outcome"] == "refused" and r["reason"] and r["explanation"].startswith("Two steps")
    # a legal move that misses the goal in the moves allowed: failed, with the hint
    r = attempt(client, "athos", "walking", ["B-h1", "h1-i2"]).json()
    assert r["outcome"] == "failed" and r["view"]["legal"] == [] and r["moves"] == ["B-h1", "h1-i2"]
    # the solution's own moves are never a wrong try (j15-k16 after the flip)
    r = attempt(client, "athos", "flipping", ["flip k16", "j15-k16"]).json()
    assert r["outcome"] == "done"
    r = attempt(client, "athos", "flipping", ["j15-k16"]).json()
    assert r["outcome"] == "refused" and "rubble" in r["explanation"]


def test_bad_tries_get_a_clear_4xx(client: TestClient) -> None:
    assert_error(attempt(client, "athos", "nope", []), 404, "lesson_not_found")
    assert_error(attempt(client, "chess", "walking", []), 404, "lesson_not_found")
    r = client.post("/api/learn/athos/walking", json={"moves": ["x"] * 41})
    assert_error(r, 422, "invalid_request")
    assert_error(client.post("/api/learn/athos/walking", json={"moves": "j15-k16"}), 422, "invalid_request")


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.text(max_size=64).filter(bool), max_size=4))
def test_any_moves_get_an_answer_never_a_500(client: TestClient, moves: list[str]) -> None:
    r = attempt(client, "archimedes", "distance", moves)
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] in ("playing", "done", "refused", "failed")


@pytest.mark.slow  # password hashing
def test_a_members_progress_follows_them_and_is_checked(client: TestClient) -> None:
    assert_error(client.get("/api/account/lessons"), 401, "sign_in_required")
    ann = sign_up(client, "ann")
    assert ann.get("/api/account/lessons").json() == {"progress": {}}
    r = ann.request(
        "PUT", "/api/account/lessons", json={"progress": {"athos": ["flipping", "walking", "walking"]}}
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"progress": {"athos": ["walking", "flipping"]}}  # course order, once each
    again = sign_in(client, "ann")  # another browser
    assert again.get("/api/account/lessons").json() == {"progress": {"athos": ["walking", "flipping"]}}
    r = again.request(
        "PUT", "/api/account/lessons", json={"progress": {"athos": ["walking"], "archimedes": ["home"]}}
    )
    assert r.json()["progress"] == {"athos": ["walking"], "archimedes": ["home"]}
    # unknown games and lessons are refused and change nothing; a change needs the CSRF token
    bad: list[dict[str, Any]] = [{"chess": ["walking"]}, {"athos": ["nope"]}]
    for progress in bad:
        assert_error(
            ann.request("PUT", "/api/account/lessons", json={"progress": progress}), 400, "unknown_lesson"
        )
    r = ann.request("PUT", "/api/account/lessons", csrf=False, json={"progress": {}})
    assert_error(r, 403, "csrf")
    assert ann.get("/api/account/lessons").json()["progress"] == {
        "athos": ["walking"],
        "archimedes": ["home"],
    }
    assert ann.get("/api/account/export").json()["lessons"] == {"athos": ["walking"], "archimedes": ["home"]}
    # other members see nothing of it; deleting the account deletes it
    bob = sign_up(client, "bob")
    assert bob.get("/api/account/lessons").json() == {"progress": {}}
    assert ann.delete("/api/account", json={"password": PASSWORD}).status_code == 200
    carl = sign_up(client, "ann")  # the name is free again; nothing of the old progress
    assert carl.get("/api/account/lessons").json() == {"progress": {}}
