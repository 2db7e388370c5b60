"""Rated games (issue 28; docs/accounts.md): the rating of a finished rated game, written in the
transaction that stores its result.

``rating_writer`` is ``Sessions.on_finish``: when a write finishes a rated game it returns the
work that reads the players' ratings (locked on PostgreSQL), rates the game with OpenSkill
(palaestra/server/service/ratings.py) and stores the new ratings. The write is guarded by the
game's version and ``rating_events`` has one row per game and account, so of two processes that
finish one game at the same moment exactly one stores the result and its ratings.
"""

from __future__ import annotations

import logging

from sqlalchemy.engine import Connection

from palaestra.core.outcome import Termination
from palaestra.core.record import Record
from palaestra.server.account_store import RatingUpdate, read_ratings, write_ratings
from palaestra.server.db import Then
from palaestra.server.service.ratings import (
    Account,
    Anchor,
    Participant,
    Rating,
    anchor_rating,
    is_aborted,
    move_counts,
    pool_of,
    rated_result,
)
from palaestra.server.service.session import Session

log = logging.getLogger("palaestra.server")


def rating_writer(session: Session, record: Record) -> Then | None:
    """The ratings to write with the result of ``session`` (None: not rated, or aborted: a seat
    made fewer than two moves)."""
    outcome = record.outcome
    if not session.rated or outcome is None or outcome.termination is Termination.ABORT:
        return None
    game = session.game
    returns = list(outcome.returns)
    moves = move_counts((m.player for m in record.moves), game.num_players)
    if len(returns) != game.num_players or is_aborted(moves):
        return None
    pool = pool_of(game)
    seats = list(session.seats)
    accounts = [s.account for s in seats if s.kind == "human" and s.account is not None]

    def write(conn: Connection) -> None:
        current = read_ratings(conn, pool.id, accounts)
        taking_part: list[Participant] = []
        for seat in seats:
            if seat.kind == "ai":
                level = seat.level or "random"
                try:
                    anchor = anchor_rating(pool.id, level)
                except KeyError:  # checked at creation; anchors removed since: not rated
                    log.error("game %s: the AI level %s has no rating in %s", session.id, level, pool.id)
                    return
                taking_part.append(Anchor(level, anchor))
            elif seat.account is None:  # a member who deleted their account: counted, not kept
                taking_part.append(Anchor("deleted", Rating()))
            else:
                stored = current.get(seat.account)
                before = Rating() if stored is None else Rating(stored.mu, stored.sigma, stored.games)
                taking_part.append(Account(str(seat.account), before))
        try:
            rated = rated_result(game, taking_part, returns, moves)
        except ValueError as err:  # a result the maths cannot rate: the game still ends
            log.error("game %s: its result cannot be rated: %s", session.id, err)
            return
        if rated is None:
            return
        updates = []
        for part in taking_part:
            if isinstance(part, Account):
                new = rated[part.key]
                updates.append(
                    RatingUpdate(int(part.key), new.mu, new.sigma, part.rating.mu, part.rating.sigma)
                )
        write_ratings(conn, session.id, pool.id, updates)

    return write
