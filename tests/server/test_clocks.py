"""Clocks of online games (issue 21): time controls, the clock kept by the server, flag falls.

The clock logic (palaestra/server/service/clock.py) is pure and takes the time as an argument;
the API tests give the server a clock of their own (``hub.sessions.now``) and run the sweep
themselves, so nothing here waits for real time to pass and no timing is asserted.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from palaestra.core.errors import RecordError
from palaestra.core.outcome import Outcome
from palaestra.core.record import Record
from palaestra.server.app import create_app
from palaestra.server.db import make_engine
from palaestra.server.service.clock import Clock, TimeControl
from palaestra.server.service.hub import Hub
from palaestra.server.settings import Settings
from tests.server.test_api import HUMANS, INVITED, assert_error, code_of, create, play, wait_for

T0 = 1_800_000_000.0
PER_MOVE_30 = {"type": "per_move", "seconds": 30}
FISCHER_60_5 = {"type": "fischer", "seconds": 60, "increment": 5}


# --- the clock itself ---------------------------------------------------------------------------
def test_per_move_a_turn_gets_its_own_time_and_an_athos_like_turn_of_many_actions_is_one_turn() -> None:
    clock = Clock.new(TimeControl("per_move", 30), 2, T0).advance(0, T0)
    assert clock.running == 0 and clock.deadline() == T0 + 30
    clock = clock.advance(0, T0 + 10)  # seat 0 acted and is still to move: the same turn
    assert clock.left(0, T0 + 10) == 20 and clock.deadline() == T0 + 30
    clock = clock.advance(1, T0 + 25)  # the turn ended: seat 0's next turn has 30 s again
    assert clock.remaining == (30.0, 30.0) and clock.running == 1 and clock.deadline() == T0 + 55


def test_fischer_charges_the_turn_and_adds_the_increment_after_it() -> None:
    clock = Clock.new(TimeControl("fischer", 60, 5), 2, T0).advance(0, T0)
    clock = clock.advance(1, T0 + 12.5)
    assert clock.remaining == (52.5, 60.0)
    clock = clock.advance(0, T0 + 20.5)
    assert clock.remaining == (52.5, 57.0) and clock.left(0, T0 + 30.5) == 42.5


def test_no_clock_runs_for_chance_or_the_ai_and_the_turn_before_ends() -> None:
    clock = Clock.new(TimeControl("fischer", 60, 5), 2, T0).advance(0, T0)
    clock = clock.advance(None, T0 + 10)  # chance (or an AI seat) to move
    assert clock.running is None and clock.deadline() is None and clock.remaining == (55.0, 60.0)
    assert clock.left(1, T0 + 1000) == 60.0  # nothing runs while nobody's clock does


def test_a_fall_loses_or_hands_the_turn_to_the_ai_and_the_clock_restarts_as_the_control_says() -> None:
    lose = Clock.new(TimeControl("per_move", 30), 2, T0).advance(1, T0)
    assert lose.out_of_time(T0 + 29.9) is None and lose.out_of_time(T0 + 30) == 1
    fallen = lose.fall(T0 + 31)
    assert fallen.flagged == 1 and fallen.running is None and fallen.remaining == (30.0, 0.0)
    ai = Clock.new(TimeControl("fischer", 60, 5, "ai", "random"), 2, T0).advance(1, T0)
    fallen = ai.fall(T0 + 61)
    assert fallen.autoplay == 1 and fallen.running is None and fallen.timeouts == (0, 1)
    # the AI's actions of that turn run no clock; once the turn is over the seat gets its increment
    assert fallen.advance(1, T0 + 62).running is None
    after = fallen.advance(0, T0 + 63)
    assert after.autoplay is None and after.running == 0 and after.remaining == (60.0, 5.0)


def test_the_clock_survives_json() -> None:
    clock = Clock.new(TimeControl("fischer", 60, 5, "ai", "casual"), 3, T0).advance(2, T0 + 1)
    assert Clock.from_json(clock.to_json()) == clock


@given(
    steps=st.lists(
        st.tuples(st.sampled_from([0, 1, 2, None]), st.floats(min_value=0, max_value=100)), max_size=30
    ),
    per_move=st.booleans(),
)
def test_time_is_charged_only_to_the_running_seat_and_never_below_zero(
    steps: list[tuple[int | None, float]], per_move: bool
) -> None:
    control = TimeControl("per_move", 30) if per_move else TimeControl("fischer", 60, 2)
    clock = Clock.new(control, 3, T0)
    now = T0
    for seat, wait in steps:
        before = clock
        now += wait
        clock = clock.advance(seat, now)
        assert all(x >= 0 for x in clock.remaining)
        for other in range(3):
            if (other != before.running and other == seat) or other not in (before.running, seat):
                assert clock.remaining[other] == before.remaining[other]
        if before.running is not None and before.running == seat:  # the same turn goes on
            assert clock.remaining[seat] == pytest.approx(max(0.0, before.remaining[seat] - wait), abs=1e-6)
        assert clock.running == seat and (clock.deadline() is None) == (seat is None)


# --- the API --------------------------------------------------------------------------------------
class FakeTime:
    def __init__(self, start: float = T0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def app_without_sweeps(db_url: str) -> Any:
    """The app without its own sweep: the test sweeps when it wants."""
    return create_app(db_url, ai_delay=0.0, settings=Settings.from_env(clock_sweep_seconds=0.0))


@pytest.fixture
def timed(db_url: str) -> Iterator[tuple[TestClient, FakeTime]]:
    """A server whose clocks read a time the test sets (the sweep is run by the test)."""
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as c:
        hub_of(c).sessions.now = fake
        yield c, fake


def sweep(client: TestClient) -> int:
    acted: int = client.portal.call(hub_of(client).clocks.sweep)  # type: ignore[union-attr]
    return acted


@pytest.mark.slow
def test_meta_lists_the_time_controls(client: TestClient) -> None:
    tc = client.get("/api/meta").json()["time_controls"]
    kinds = {k["type"]: k for k in tc["kinds"]}
    assert kinds["per_move"]["seconds"] == {"min": 5, "max": 259200}
    assert kinds["fischer"]["increment"] == {"min": 0, "max": 600}
    assert (
        tc["on_timeout"] == ["lose", "ai"]
        and {"type": "fischer", "seconds": 600, "increment": 5} in tc["presets"]
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "control",
    [
        {"type": "per_move", "seconds": 4},
        {"type": "per_move", "seconds": 3 * 24 * 3600 + 1},
        {"type": "fischer", "seconds": 29, "increment": 0},
        {"type": "fischer", "seconds": 60, "increment": 601},
        {"type": "fischer", "seconds": 60, "increment": -1},
        {"type": "hourglass", "seconds": 60},
        {"type": "per_move", "seconds": 30, "on_timeout": "draw"},
        {"type": "per_move"},
        {"type": "per_move", "seconds": "thirty"},
    ],
)
def test_bad_time_controls_are_refused_and_create_nothing(
    client: TestClient, control: dict[str, Any]
) -> None:
    r = client.post(
        "/api/games", json={"game": "nim", "seats": HUMANS, "time_control": control, "public": True}
    )
    assert_error(r, 422, "invalid_request")
    assert "time_control" in r.json()["message"]
    assert client.get("/api/games").json() == []


def test_an_unknown_ai_level_for_turns_out_of_time_is_a_400(client: TestClient) -> None:
    control = {"type": "per_move", "seconds": 30, "on_timeout": "ai", "ai_level": "grandmaster"}
    r = client.post(
        "/api/games", json={"game": "nim", "seats": HUMANS, "time_control": control, "public": True}
    )
    assert_error(r, 400, "bad_time_control")
    assert client.get("/api/games").json() == []


def test_a_game_without_a_clock_has_none(client: TestClient) -> None:
    assert create(client)["game"]["clock"] is None


def test_the_view_carries_each_seats_clock_kept_by_the_server(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    created = create(client, time_control=FISCHER_60_5)
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    clock = created["game"]["clock"]
    assert clock["control"] == {
        "type": "fischer",
        "days": None,  # correspondence only (issue 29)
        "seconds": 60,
        "increment": 5,
        "on_timeout": "lose",
        "ai_level": None,
    }
    assert [s["running"] for s in clock["seats"]] == [True, False]
    assert clock["since"] == clock["now"] == "2027-01-15T08:00:00.000+00:00"
    fake.now += 12.25
    clock = client.get(f"/api/games/{gid}").json()["clock"]
    assert clock["seats"][0]["left"] == 47.75 and clock["seats"][0]["remaining"] == 60
    assert (
        clock["now"] == "2027-01-15T08:00:12.250+00:00"
        and clock["deadline"] == "2027-01-15T08:01:00.000+00:00"
    )
    view = play(client, gid, t0, 0, move="take 1").json()
    assert [(s["left"], s["running"]) for s in view["clock"]["seats"]] == [(52.75, False), (60, True)]
    fake.now += 30
    view = play(client, gid, t1, 1, move="take 1").json()
    assert [s["left"] for s in view["clock"]["seats"]] == [52.75, 35]
    # stored, not only in memory: a server on the same database reads the same clock
    assert hub_of(client).store.get(gid).clock["remaining"] == [52.75, 35.0]  # type: ignore[union-attr]


def test_a_flag_falls_without_any_request_and_the_seat_loses(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    created = create(client, time_control=PER_MOVE_30)
    gid, t0 = created["id"], created["seats"][0]["token"]
    play(client, gid, t0, 0, move="take 1")
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["game"]["status"] == "active"
        fake.now += 29.9
        assert sweep(client) == 0
        fake.now += 0.2
        assert sweep(client) == 1
        pushed = ws.receive_json()["game"]
    assert pushed["status"] == "finished" and pushed["clock"]["flagged"] == 1
    assert pushed["result"]["termination"] == "time" and pushed["result"]["seat"] == 1
    assert pushed["result"]["returns"] == [1.0, -1.0]
    assert pushed["result"]["text"] == "player 1 ran out of time"
    assert all(not s["running"] for s in pushed["clock"]["seats"]) and pushed["clock"]["deadline"] is None
    assert sweep(client) == 0  # acted on once
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["result"]["seat"] == 1 and record["ended"]
    replayed = Record.from_json(record)
    replayed.check_result(replayed.replay())  # the stored result agrees with the moves (`palaestra replay`)


def test_a_move_after_the_deadline_is_refused_and_ends_the_game_at_once(
    timed: tuple[TestClient, FakeTime],
) -> None:
    client, fake = timed
    created = create(client, time_control=PER_MOVE_30)
    gid, t0 = created["id"], created["seats"][0]["token"]
    fake.now += 30.5
    r = play(client, gid, t0, 0, move="take 1")
    assert_error(r, 409, "out_of_time")
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "finished" and view["ply"] == 0 and view["result"]["seat"] == 0
    assert_error(play(client, gid, t0, 0, move="take 1"), 409, "game_over")


@pytest.mark.slow
def test_out_of_time_the_ai_plays_the_turn_and_the_clock_restarts(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    control = {**PER_MOVE_30, "on_timeout": "ai", "ai_level": "random"}
    created = create(client, time_control=control, options={"stones": 9})
    gid, t0 = created["id"], created["seats"][0]["token"]
    assert created["game"]["clock"]["control"]["ai_level"] == "random"
    fake.now += 31
    assert sweep(client) == 1
    view = wait_for(client, gid, lambda v: v["ply"] == 1)
    assert view["status"] == "active" and view["moves"][0]["player"] == 0 and view["current_player"] == 1
    seats = view["clock"]["seats"]
    assert [(s["left"], s["running"], s["timeouts"]) for s in seats] == [(30, False, 1), (30, True, 0)]
    assert view["clock"]["autoplay"] is None
    assert_error(play(client, gid, t0, 1, move="take 1"), 409, "not_your_turn")


def test_the_ai_level_defaults_to_the_games_ai_seat(client: TestClient) -> None:
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "random"}]
    created = create(client, seats=seats, time_control={**PER_MOVE_30, "on_timeout": "ai"})
    assert created["game"]["clock"]["control"]["ai_level"] == "random"


def test_no_clock_runs_until_the_invited_player_joins(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    created = create(client, seats=INVITED, seed=None, time_control=PER_MOVE_30)
    gid = created["id"]
    assert not any(s["running"] for s in created["game"]["clock"]["seats"])
    fake.now += 1000
    assert sweep(client) == 0
    joined = client.post(f"/api/games/{gid}/join", json={"code": code_of(created, 1), "name": "Bo"}).json()
    clock = joined["game"]["clock"]
    assert [s["running"] for s in clock["seats"]] == [True, False] and clock["seats"][0]["left"] == 30


def test_resigning_stops_the_clocks(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    created = create(client, time_control=FISCHER_60_5)
    gid, t1 = created["id"], created["seats"][1]["token"]
    fake.now += 10
    view = client.post(f"/api/games/{gid}/resign", json={"token": t1}).json()
    assert view["clock"]["deadline"] is None and [s["left"] for s in view["clock"]["seats"]] == [50, 60]
    fake.now += 100
    assert sweep(client) == 0


def test_a_flag_fall_seen_by_two_servers_is_acted_on_once(db_url: str) -> None:
    fake = FakeTime()
    with (
        TestClient(app_without_sweeps(db_url)) as a,
        TestClient(app_without_sweeps(db_url)) as b,
    ):
        hub_of(a).sessions.now = fake
        hub_of(b).sessions.now = fake
        gid = create(a, time_control=PER_MOVE_30)["id"]
        assert b.get(f"/api/games/{gid}").json()["clock"]["seats"][0]["running"]  # B holds it too
        fake.now += 31
        assert sweep(a) == 1
        version = a.get(f"/api/games/{gid}").json()["version"]
        # B's copy in memory is stale: its write loses the version race, it takes the row as it is
        session = b.portal.call(hub_of(b).get, gid)  # type: ignore[union-attr]
        assert b.portal.call(hub_of(b).clocks.flag, session) is False  # type: ignore[union-attr]
        assert session.status == "finished" and session.version == version
        assert hub_of(a).clocks.falls == 1 and hub_of(b).clocks.falls == 0


# --- restarts -------------------------------------------------------------------------------------
def test_a_flag_that_fell_while_no_server_ran_is_acted_on_at_the_restart(db_url: str) -> None:
    """The clock of the seat to move keeps running while the server is down (docs/web.md): the
    game was made an hour ago (by the server's clock) with 30 s a move; the restarted server's
    first sweep finds the fall, with nobody asking."""
    fake = FakeTime(time.time() - 3600)
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        created = create(client, time_control=PER_MOVE_30)
        gid, t0 = created["id"], created["seats"][0]["token"]
        play(client, gid, t0, 0, move="take 2")  # seat 1 to move; its 30 s started an hour ago
    with TestClient(create_app(db_url, ai_delay=0.0)) as client:
        view = wait_for(client, gid, lambda v: v["status"] == "finished")
        assert view["result"]["seat"] == 1 and view["ply"] == 1 and view["clock"]["flagged"] == 1


def test_a_running_clock_survives_a_restart(db_url: str) -> None:
    fake = FakeTime()
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        created = create(client, time_control=FISCHER_60_5)
        gid, t0 = created["id"], created["seats"][0]["token"]
        fake.now += 20
        play(client, gid, t0, 0, move="take 1")
    fake.now += 7
    with TestClient(app_without_sweeps(db_url)) as client:
        hub_of(client).sessions.now = fake
        clock = client.get(f"/api/games/{gid}").json()["clock"]
        assert [(s["left"], s["running"]) for s in clock["seats"]] == [(45, False), (53, True)]


def test_an_undo_after_the_deadline_is_refused_and_ends_the_game_too(
    timed: tuple[TestClient, FakeTime],
) -> None:
    client, fake = timed
    created = create(client, time_control=PER_MOVE_30)
    gid, t0 = created["id"], created["seats"][0]["token"]
    fake.now += 31
    assert_error(client.post(f"/api/games/{gid}/undo", json={"token": t0, "ply": 0}), 409, "out_of_time")
    assert client.get(f"/api/games/{gid}").json()["result"]["seat"] == 0


def test_a_record_whose_loss_on_time_disagrees_with_the_ranking_is_refused(client: TestClient) -> None:
    created = create(client, time_control=PER_MOVE_30)
    doc = client.get(f"/api/games/{created['id']}/record").json()
    record = Record.from_json(doc)
    # a record of format 1 said it with a flag: read as the termination ``time`` of seat 0
    record.outcome = Outcome.from_json(
        {"returns": [1.0, -1.0], "scores": [0, 0], "text": "player 0 ran out of time", "timeout": 0}
    )
    with pytest.raises(RecordError, match="loss on time of player 0"):
        record.check_result(record.replay())
    record.outcome = dataclasses.replace(record.outcome, returns=(-1.0, 1.0))
    record.check_result(record.replay())


def test_with_three_players_a_fall_ends_the_game_like_a_resignation(
    timed: tuple[TestClient, FakeTime],
) -> None:
    """Athos with 3 players (docs/web.md, "Clocks"): the seat out of time ranks last, the two
    others share first place, and the record says why."""
    client, fake = timed
    seats = [{"kind": "human", "joined": True}] * 3
    created = create(
        client, game="athos", options={"players": 3}, seats=seats, seed=None, time_control=PER_MOVE_30
    )
    gid = created["id"]
    first = created["game"]["current_player"]
    assert [s["running"] for s in created["game"]["clock"]["seats"]] == [i == first for i in range(3)]
    fake.now += 30
    assert sweep(client) == 1
    view = client.get(f"/api/games/{gid}").json()
    returns = view["result"]["returns"]
    assert view["status"] == "finished" and view["result"]["termination"] == "time"
    assert view["result"]["seat"] == first
    assert returns[first] < min(r for i, r in enumerate(returns) if i != first)
    assert len({r for i, r in enumerate(returns) if i != first}) == 1
    record = Record.from_json(client.get(f"/api/games/{gid}/record").json())
    record.check_result(record.replay())


def test_migration_0004_down_and_up_again_leaves_games_without_a_clock(db_url: str) -> None:
    """Migration 0004 adds ``clock`` and ``deadline``; taken back (downgrade to 0003) and applied
    again, the rows it meets are games without a clock, which load and play as before."""
    with TestClient(app_without_sweeps(db_url)) as client:
        created = create(client, time_control=PER_MOVE_30)
        gid, t0 = created["id"], created["seats"][0]["token"]
        assert hub_of(client).store.get(gid).deadline is not None  # type: ignore[union-attr]
    engine = make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", "palaestra.server:migrations")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")
        assert "clock" not in {c["name"] for c in sa.inspect(connection).get_columns("games")}
    engine.dispose()
    with TestClient(app_without_sweeps(db_url)) as client:  # upgrades to head at start
        view = client.get(f"/api/games/{gid}").json()
        assert view["clock"] is None and view["status"] == "active"
        assert play(client, gid, t0, 0, move="take 1").status_code == 200


def test_a_row_that_does_not_load_does_not_stop_the_sweep(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    bad = create(client, time_control=PER_MOVE_30)["id"]
    good = create(client, time_control=PER_MOVE_30)["id"]
    hub = hub_of(client)
    hub.sessions.evict(hub.loaded[bad])
    with hub.store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE games SET record = :r WHERE id = :i"), {"r": '{"format": 99}', "i": bad})
    fake.now += 31
    assert sweep(client) == 1 and hub.clocks.broken == {bad}
    assert client.get(f"/api/games/{good}").json()["result"]["seat"] == 0
    assert sweep(client) == 0  # the broken one is not tried again
