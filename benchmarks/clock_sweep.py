"""The clock sweep's query (``Store.due``, docs/web.md "Clocks"): CPU time per call.

Every ``palaestra serve`` process asks the database every ``clock_sweep_seconds`` (0.5 s) for the
active games whose clock ran out. This fills a throwaway SQLite database with GAMES active games
(half with a running clock, none due) and prints the CPU time (``time.process_time``) of one
``due`` call, next to a one-row read (``Store.version``) for comparison, and the query plan.

    python benchmarks/clock_sweep.py [GAMES] [CALLS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from palaestra.server.db import GameRow, Store


def cpu_ms(call: Callable[[], object], calls: int) -> float:
    for _ in range(5):
        call()
    start = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - start) / calls * 1000


def main(games: int = 20000, calls: int = 1000) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'sweep.sqlite3'}")
        store.migrate()
        now = time.time()
        stamp = datetime.now(UTC)
        rows = [
            {
                "id": f"g{i}",
                "game": "nim",
                "options": {},
                "seats": [],
                "seed": 1,
                "ply": 0,
                "version": 0,
                "status": "active",
                "record": {},
                "snapshot": {},
                "created_at": stamp,
                "updated_at": stamp,
                "deadline": now + 1000 + i if i % 2 else None,
            }
            for i in range(games)
        ]
        with store.engine.begin() as conn:
            conn.execute(sa.insert(GameRow), rows)
            plan = conn.execute(
                sa.text(
                    "EXPLAIN QUERY PLAN SELECT id FROM games WHERE deadline <= :now AND status = 'active'"
                    " ORDER BY deadline LIMIT 100"
                ),
                {"now": now},
            ).all()
        print(f"{games} active games, {games // 2} with a running clock, none due; {calls} calls")
        print("plan:", "; ".join(str(row[-1]) for row in plan))
        print(f"Store.due:     {cpu_ms(lambda: store.due(now), calls):.3f} ms CPU per call")
        print(f"Store.version: {cpu_ms(lambda: store.version('g1'), calls):.3f} ms CPU per call")
        store.close()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
