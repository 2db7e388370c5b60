"""A game's transitions are its session's (issue 32): each computes the game after a change, a
``Change``, from the game as it is, or refuses with a ``DomainError``; none stores, tells anyone
or changes the session. ``Sessions.commit`` stores a change, then installs it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from palaestra.core.outcome import Termination
from palaestra.core.record import Record
from palaestra.server.db import Store
from palaestra.server.service.clock import Clock, TimeControl
from palaestra.server.service.errors import DomainError
from palaestra.server.service.persistence import load_server_game
from palaestra.server.service.session import Seat, Session
from palaestra.server.service.sessions import Sessions

T0 = 1_000_000.0


def a_session(*, clock: bool = False, on_timeout: str = "lose") -> Session:
    """A game of nim between two people, seat 0 to move, 7 stones; with a clock of 30 s a move
    (seat 0's running since ``T0``), the server's time held at ``T0``."""
    game = load_server_game("nim", {})
    seats = [Seat("human", "A", joined=True, creator=True), Seat("human", "B", joined=True, creator=True)]
    stamp = datetime.now(UTC)
    session = Session(
        "g1",
        game,
        seats,
        1,
        game.new_initial_state(1),
        Record.start(game, ["A", "B"], 1),
        "active",
        stamp,
        stamp,
        now=lambda: T0,
    )
    if clock:
        control = TimeControl("per_move", 30.0, on_timeout=on_timeout, ai_level="random")
        session.clock = Clock.new(control, 2, T0).advance(0, T0)
    return session


def snapshot(session: Session) -> tuple[object, ...]:
    return (
        session.state.to_json(),
        session.record.to_json(),
        session.status,
        session.version,
        session.clock,
        len(session.undo_stack),
        [s.to_json() for s in session.seats],
    )


def test_an_action_is_computed_without_changing_the_session() -> None:
    session = a_session()
    before = snapshot(session)
    change = session.act(0, 0, None, "take 2")
    assert snapshot(session) == before
    assert change.row == "game" and change.status == "active" and change.action == 2
    assert change.state.pile == 5 and change.state is not session.state  # type: ignore[attr-defined]
    assert [m.move for m in change.record.moves] == ["take 2"] and session.record.moves == []
    assert change.undo_stack == [(session.state, 2)] and change.seats is session.seats


@pytest.mark.parametrize(
    ("seat", "ply", "move", "code"),
    [
        (0, 1, "take 1", "stale_action"),
        (1, 0, "take 1", "not_your_turn"),
        (0, 0, "take 3", "illegal_action"),
        (0, 0, "pass", "bad_notation"),
    ],
)
def test_a_refused_action_changes_nothing(seat: int, ply: int, move: str, code: str) -> None:
    session = a_session()
    before = snapshot(session)
    with pytest.raises(DomainError) as refused:
        session.act(seat, ply, None, move)
    assert refused.value.code == code and snapshot(session) == before


def test_a_resignation_ends_the_game_in_the_change_only() -> None:
    session = a_session(clock=True)
    change = session.resign(1)
    assert session.status == "active" and session.record.outcome is None
    assert change.status == "finished" and change.record.outcome is not None
    assert change.record.outcome.termination is Termination.RESIGNATION
    assert change.clock is not None and change.clock.running is None  # the clocks stop
    session.status = "finished"  # as once the change is installed
    with pytest.raises(DomainError) as refused:
        session.resign(0)
    assert refused.value.code == "game_over"


def test_the_flag_falls_only_once_the_time_is_up() -> None:
    session = a_session(clock=True)
    assert session.flag_fall(T0 + 29.0) is None
    before = snapshot(session)
    change = session.flag_fall(T0 + 31.0)
    assert change is not None and snapshot(session) == before
    assert change.status == "finished" and change.clock is not None and change.clock.flagged == 0
    assert change.record.outcome is not None and change.record.outcome.termination is Termination.TIME
    assert change.state is session.state  # no move was made


def test_with_on_timeout_ai_the_fall_gives_the_turn_to_the_ai() -> None:
    session = a_session(clock=True, on_timeout="ai")
    change = session.flag_fall(T0 + 31.0)
    assert change is not None and change.status == "active" and change.record is session.record
    assert change.clock is not None and change.clock.autoplay == 0 and change.clock.flagged is None


def test_an_undo_is_refused_once_the_turn_has_passed() -> None:
    session = a_session()
    change = session.act(0, 0, None, "take 1")
    session.state, session.record, session.undo_stack = change.state, change.record, change.undo_stack
    before = snapshot(session)
    with pytest.raises(DomainError) as refused:
        session.undo_from_stack(0, 1)  # seat 1 is to move now
    assert refused.value.code == "cannot_undo" and snapshot(session) == before


def test_commit_stores_the_change_then_installs_it(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    store.migrate()

    async def run() -> None:
        sessions = Sessions(store)
        session = a_session()
        await sessions.insert(session, None, None)
        change = session.act(0, 0, None, "take 2")
        await sessions.commit(session, change)
        assert session.version == 1 and session.state is change.state and session.record is change.record
        row = store.get("g1")
        assert row is not None and row.version == 1 and row.ply == 1 and row.snapshot["pile"] == 5
        # a change computed on a copy the row has left behind is refused; the session takes the row
        stale = session.act(1, 1, None, "take 1")
        store.update(
            "g1",
            expect_version=1,
            version=2,
            ply=1,
            status="finished",
            record=row.record,
            snapshot=row.snapshot,
        )
        with pytest.raises(DomainError) as lost:
            await sessions.commit(session, stale)
        assert lost.value.code == "conflict" and session.version == 2 and session.status == "finished"
        assert store.get("g1").ply == 1  # type: ignore[union-attr]
        await sessions.stop_background()

    try:
        asyncio.run(run())
    finally:
        store.close()
