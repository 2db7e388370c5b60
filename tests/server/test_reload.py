"""Issue 18: a game another process moved on is reloaded from the copy held in memory, going on
with the moves it lacks (``advance``), not by parsing the stored position: the result must be the
session the row alone gives, for every game (Athos has undo: the state before the last action is
rebuilt too), and anything that is not a simple continuation (an undo) reads the row as before."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from palaestra.server.db import Store, StoredGame
from palaestra.server.service.hub import Hub
from palaestra.server.service.persistence import advance, session_from_stored
from palaestra.server.service.session import Session

HOT_SEAT = [{"kind": "human", "joined": True}, {"kind": "human", "joined": True}]


def rows_of_a_game(tmp_path: Path, game: str, seed: int, actions: int) -> list[StoredGame]:
    """The stored row after each of ``actions`` random legal actions (and an undo where offered)."""

    async def play() -> list[StoredGame]:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), ai_delay=0.0)
        await asyncio.to_thread(hub.store.migrate)
        await hub.start()
        rng = random.Random(seed)
        try:
            session, created = await hub.seats.create(game, {}, HOT_SEAT, seed=seed)
            rows = [hub.store.get(session.id)]
            for _ in range(actions):
                for _ in range(500):  # a chance draw is the server's move (runner.py)
                    if not session.state.is_chance_node():
                        break
                    await asyncio.sleep(0.01)
                state = session.state
                if state.is_terminal() or session.status != "active" or state.is_chance_node():
                    break
                token = str(created.tokens[state.current_player])
                undo = session.view().undo
                if undo is not None and rng.random() < 0.2:
                    await hub.play.undo(session.id, str(created.tokens[undo]), session.ply)
                else:
                    action = rng.choice(state.legal_actions())
                    await hub.play.act(session.id, token, session.ply, action, None)
                rows.append(hub.store.get(session.id))
            return [r for r in rows if r is not None]
        finally:
            await hub.stop()
            hub.store.close()

    return asyncio.run(play())


def same(a: Session, b: Session) -> None:
    assert a.state.to_json() == b.state.to_json()
    assert a.record.to_json() == b.record.to_json()
    assert (a.version, a.status, a.ply) == (b.version, b.status, b.ply)
    assert [(s.to_json(), x) for s, x in a.undo_stack] == [(s.to_json(), x) for s, x in b.undo_stack]
    assert a.view() == b.view()


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seed"), [("archimedes", 1), ("athos", 2), ("athos", 3), ("agamemnon", 4)])
def test_a_reload_from_the_copy_in_memory_is_the_session_the_row_gives(
    tmp_path: Path, game: str, seed: int
) -> None:
    rows = rows_of_a_game(tmp_path, game, seed, actions=40)
    assert len(rows) > 10
    rng = random.Random(seed)
    advanced = 0
    for _ in range(60):
        k, n = sorted(rng.sample(range(len(rows)), 2))
        base = session_from_stored(rows[k])
        from_row = session_from_stored(rows[n])
        from_copy = session_from_stored(rows[n], base)
        same(from_copy, from_row)
        if advance(base, base.game, from_row.record) is not None:
            advanced += 1
    assert advanced > 0  # the continuation path was taken, not only the row's


def test_a_copy_that_is_not_a_beginning_of_the_record_is_not_advanced(tmp_path: Path) -> None:
    rows = rows_of_a_game(tmp_path, "archimedes", 5, actions=6)
    later = session_from_stored(rows[-1])
    earlier = session_from_stored(rows[2])
    assert advance(later, later.game, earlier.record) is None  # the record is shorter (an undo)
    changed: Any = session_from_stored(rows[3])
    first = changed.record.moves[0]
    changed.record.moves[0] = type(first)(first.player, first.move + " ", first.at)
    assert advance(changed, changed.game, later.record) is None  # another first move
