"""Correspondence clocks (issue 29): 1, 2, 3, 7 or 14 days per move, kept by the clock machinery
of issue 21 (docs/web.md, "Clocks") and surviving restarts. Time is faked as in test_clocks.py."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.app import create_app
from palaestra.server.service.clock import DAY, Clock, TimeControl
from tests.server.test_api import HUMANS, assert_error, create, play, wait_for
from tests.server.test_clocks import T0, FakeTime, app_without_sweeps, hub_of, sweep
from tests.server.test_lobby import guest

THREE_DAYS = {"type": "correspondence", "days": 3}


def test_a_correspondence_turn_has_its_days_and_is_not_carried_over() -> None:
    control = TimeControl.from_json(THREE_DAYS)
    assert control.seconds == 3 * DAY and control.days == 3
    clock = Clock.new(control, 2, T0).advance(0, T0)
    clock = clock.advance(1, T0 + DAY)  # seat 0 used a day; its next turn has 3 days again
    assert clock.remaining == (3 * DAY, 3 * DAY) and clock.deadline() == T0 + 4 * DAY
    assert Clock.from_json(clock.to_json()) == clock
    assert clock.to_json()["control"] == {
        "type": "correspondence",
        "days": 3,
        "seconds": 3 * DAY,
        "on_timeout": "lose",
    }


def test_meta_lists_correspondence_with_its_days_and_presets(client: TestClient) -> None:
    tc = client.get("/api/meta").json()["time_controls"]
    kinds = {k["type"]: k for k in tc["kinds"]}
    assert kinds["correspondence"]["days"] == [1, 2, 3, 7, 14]
    assert {"type": "correspondence", "days": 3} in tc["presets"]


@pytest.mark.slow
@pytest.mark.parametrize("days", [0, 4, 5, 15, -1, 3.5, "3", "three", None, True])
def test_bad_days_are_422_and_create_nothing(client: TestClient, days: Any) -> None:
    control = {"type": "correspondence", "days": days}
    r = client.post(
        "/api/games", json={"game": "nim", "seats": HUMANS, "time_control": control, "public": True}
    )
    assert_error(r, 422, "invalid_request")
    assert "time_control" in r.json()["message"]
    assert client.get("/api/games").json() == []


def test_missing_days_are_422(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={"game": "nim", "seats": HUMANS, "time_control": {"type": "correspondence"}},
    )
    assert_error(r, 422, "invalid_request")


@pytest.mark.slow
@pytest.mark.parametrize("days", [1, 2, 3, 7, 14])
def test_each_allowed_days_gives_that_many_days_per_move(client: TestClient, days: int) -> None:
    clock = create(client, time_control={"type": "correspondence", "days": days})["game"]["clock"]
    assert clock["control"]["days"] == days and clock["control"]["seconds"] == days * DAY
    assert clock["seats"][0]["running"] and clock["seats"][0]["left"] == pytest.approx(days * DAY, abs=5)


def test_three_days_a_move_a_move_resets_the_turn_and_an_old_turn_loses_by_the_sweep(
    db_url: str,
) -> None:
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        created = create(client, time_control=THREE_DAYS)
        gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
        clock = created["game"]["clock"]
        assert clock["control"] == {
            "type": "correspondence",
            "days": 3,
            "seconds": 3 * DAY,
            "increment": None,
            "on_timeout": "lose",
            "ai_level": None,
        }
        assert clock["deadline"] == "2027-01-18T08:00:00.000+00:00"  # three days after T0
        fake.now += 2 * DAY + 23 * 3600  # 2 days 23 hours: still within the turn
        assert sweep(client) == 0
        view = play(client, gid, t0, 0, move="take 1").json()
        assert [(s["left"], s["running"]) for s in view["clock"]["seats"]] == [
            (3 * DAY, False),
            (3 * DAY, True),
        ]
        fake.now += 2 * DAY
        view = play(client, gid, t1, 1, move="take 1").json()  # seat 1 moves after 2 days
        assert [s["left"] for s in view["clock"]["seats"]] == [3 * DAY, 3 * DAY]  # each turn fresh
        fake.now += 3 * DAY - 1
        assert sweep(client) == 0
        fake.now += 2  # seat 0's turn is older than 3 days
        assert sweep(client) == 1
        view = client.get(f"/api/games/{gid}").json()
        assert view["status"] == "finished" and view["clock"]["flagged"] == 0
        assert view["result"]["termination"] == "time" and view["result"]["seat"] == 0
        assert view["result"]["returns"] == [-1.0, 1.0]
        assert sweep(client) == 0


def test_a_move_after_three_days_is_refused_out_of_time(db_url: str) -> None:
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        created = create(client, time_control=THREE_DAYS)
        gid, t0 = created["id"], created["seats"][0]["token"]
        fake.now += 3 * DAY + 1
        assert_error(play(client, gid, t0, 0, move="take 1"), 409, "out_of_time")
        assert client.get(f"/api/games/{gid}").json()["result"]["seat"] == 0


def test_across_a_restart_the_new_servers_first_sweep_ends_the_game_on_time(db_url: str) -> None:
    """Create, stop the app, let the time pass the deadline, start a new app on the same
    database: its first sweep finds the fallen flag in the stored row."""
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        created = create(client, time_control=THREE_DAYS)
        gid, t0 = created["id"], created["seats"][0]["token"]
        fake.now += DAY
        play(client, gid, t0, 0, move="take 2")  # seat 1 to move: its 3 days end at T0 + 4 days
    fake.now += 3 * DAY + 60  # no server runs meanwhile
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        assert sweep(client) == 1  # the new server's first sweep
        view = client.get(f"/api/games/{gid}").json()
        assert view["status"] == "finished" and view["ply"] == 1
        assert view["result"]["seat"] == 1 and view["clock"]["flagged"] == 1
        assert view["clock"]["control"]["days"] == 3


def test_a_turn_that_ran_out_while_down_is_ended_by_a_real_servers_own_sweep(db_url: str) -> None:
    """The same with the server's own periodic sweep and clock: the game was made four days ago."""
    fake = FakeTime(time.time() - 4 * DAY)
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        gid = create(client, time_control=THREE_DAYS)["id"]
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        view = wait_for(client, gid, lambda v: v["status"] == "finished")
        assert view["result"]["seat"] == 0 and view["clock"]["flagged"] == 0


def test_a_running_correspondence_clock_survives_a_restart(db_url: str) -> None:
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        gid = create(client, time_control=THREE_DAYS)["id"]
    fake.now += DAY + 3600
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        assert sweep(client) == 0
        clock = client.get(f"/api/games/{gid}").json()["clock"]
        assert [(s["left"], s["running"]) for s in clock["seats"]] == [
            (2 * DAY - 3600, True),
            (3 * DAY, False),
        ]


def test_play_now_pairs_two_correspondence_seeks_and_the_game_has_its_days(client: TestClient) -> None:
    """The lobby's presets offer correspondence: "Play now" with it pairs equal days only."""
    body = {"game": "nim", "options": {}, "time_control": {"type": "correspondence", "days": 1}}
    first = client.post("/api/lobby/play-now", json=body, headers=guest(1))
    assert first.status_code == 201, first.text
    other = {**body, "time_control": THREE_DAYS}
    assert client.post("/api/lobby/play-now", json=other, headers=guest(2)).status_code == 201  # not 1 day
    paired = client.post("/api/lobby/play-now", json=body, headers=guest(3))
    assert paired.status_code == 200, paired.text
    clock = client.get(f"/api/games/{paired.json()['game']}").json()["clock"]
    assert clock["control"]["days"] == 1 and clock["control"]["seconds"] == DAY
    bad = {**body, "time_control": {"type": "correspondence", "days": 10}}
    assert_error(client.post("/api/lobby/play-now", json=bad, headers=guest(4)), 422, "invalid_request")


@pytest.mark.slow
def test_out_of_days_the_ai_plays_the_turn_and_the_next_turn_has_its_days_again(db_url: str) -> None:
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        control = {"type": "correspondence", "days": 1, "on_timeout": "ai", "ai_level": "random"}
        gid = create(client, time_control=control, options={"stones": 9})["id"]
        fake.now += DAY + 1
        assert sweep(client) == 1
        view = wait_for(client, gid, lambda v: v["ply"] == 1)
        assert view["status"] == "active" and view["moves"][0]["player"] == 0
        seats = view["clock"]["seats"]
        assert [(s["left"], s["running"], s["timeouts"]) for s in seats] == [(DAY, False, 1), (DAY, True, 0)]
