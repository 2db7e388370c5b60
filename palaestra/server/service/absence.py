"""Who is still there (issue 29, part 7): the websockets of each seat of each game, and since when
a seat has had none, so that the others of a real-time game may claim the win from a player whose
connections have all been gone for ``claim_after_seconds`` (docs/web.md, "Claiming the win").

A websocket counts for a seat once it says whose it is: the cookie of a signed-in member holding
the seat, or a first message ``{"type": "seat", "token": TOKEN}``. Kept in this process's memory:
with several processes a player may be connected to another one, so only the process that saw the
last socket of the seat close can count the absence (a claim sent elsewhere is refused).
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Absence:
    """Sockets per (game, seat), and when the last one of a seat closed."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.sockets: dict[tuple[str, int], int] = {}
        self.left: dict[tuple[str, int], float] = {}

    def arrive(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        self.sockets[key] = self.sockets.get(key, 0) + 1
        self.left.pop(key, None)

    def leave(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        count = self.sockets.get(key, 0) - 1
        if count > 0:
            self.sockets[key] = count
            return
        self.sockets.pop(key, None)
        self.left[key] = self.clock()

    def gone_for(self, game_id: str, seat: int) -> float | None:
        """Seconds since the seat's last socket closed; None while it has one, or never had one."""
        if (game_id, seat) in self.sockets:
            return None
        since = self.left.get((game_id, seat))
        return None if since is None else self.clock() - since

    def forget(self, game_id: str) -> None:
        """Drop a game's entries (it has ended)."""
        for table in (self.sockets, self.left):
            for key in [k for k in table if k[0] == game_id]:
                del table[key]
