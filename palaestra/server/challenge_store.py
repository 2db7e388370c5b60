"""Persistence of challenges to a named member (issue 29, part 4; migration 0009). Like
:class:`palaestra.server.seek_store.SeekStore`, the only code that talks SQL about them; the service
calls it from worker threads.

Every change of a challenge is an update guarded by its version and its status, in one
transaction: of two requests that answer the same challenge at once (two accepts, an accept and a
cancel; in one process or in several), exactly one wins and the other learns it lost
(:class:`ChallengeConflict`). A member's choice of who may challenge them is a column of their
account (``accounts.challenges_from``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from palaestra.server.account_store import ACCOUNTS, PLAYERS
from palaestra.server.db import Base, StorageError, Store, Then, guarded


class GameChallengeRow(Base):
    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    #: the member who challenges, and the member challenged (accounts.id; no foreign key: a
    #: deleted account's challenges are deleted with it, palaestra/server/account_store.py)
    challenger_id: Mapped[int] = mapped_column(sa.Integer)
    challenged_id: Mapped[int] = mapped_column(sa.Integer)
    game: Mapped[str] = mapped_column(sa.String(64))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    public: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.true())
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    #: open, starting (accepted, its game being made), accepted, declined, cancelled, expired,
    #: failed (the game could not be made)
    status: Mapped[str] = mapped_column(sa.String(16))
    decline_reason: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    version: Mapped[int] = mapped_column(sa.Integer, server_default="0")
    #: once accepted: the game's id and the challenger's seat in it
    game_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    challenger_seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: when it was answered (accepted, declined, cancelled, expired)
    answered_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)

    __table_args__ = (
        sa.Index("ix_challenges_challenged_status", "challenged_id", "status"),
        sa.Index("ix_challenges_challenger_status", "challenger_id", "status"),
    )


GAME_CHALLENGES = cast(sa.Table, GameChallengeRow.__table__)
OPEN = "open"
#: accepted, its game being made (by the request that accepted it)
STARTING = "starting"
ACCEPTED = "accepted"
DECLINED = "declined"
CANCELLED = "cancelled"
EXPIRED = "expired"
FAILED = "failed"
#: who may challenge a member (``accounts.challenges_from``)
FROM_EVERYONE = "everyone"
FROM_PLAYED = "played"
FROM_NOBODY = "nobody"
FROM_CHOICES = (FROM_EVERYONE, FROM_PLAYED, FROM_NOBODY)


class ChallengeConflict(StorageError):
    """The challenge was changed by another request meanwhile: read it again."""


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


@dataclass(frozen=True)
class StoredChallenge:
    id: str
    challenger_id: int
    challenged_id: int
    game: str
    options: dict[str, Any]
    time_control: dict[str, Any] | None
    rated: bool
    public: bool
    created_at: datetime
    expires_at: datetime
    status: str
    decline_reason: str | None = None
    version: int = 0
    game_id: str | None = None
    challenger_seat: int | None = None
    answered_at: datetime | None = None

    def status_at(self, now: datetime) -> str:
        """The status as of ``now``: an open challenge past its time is expired (whether or not
        a sweep wrote so yet)."""
        return EXPIRED if self.status == OPEN and self.expires_at <= now else self.status


def _challenge(row: Any) -> StoredChallenge:
    return StoredChallenge(
        str(row.id),
        int(row.challenger_id),
        int(row.challenged_id),
        str(row.game),
        dict(row.options),
        None if row.time_control is None else dict(row.time_control),
        bool(row.rated),
        bool(row.public),
        _aware(row.created_at),
        _aware(row.expires_at),
        str(row.status),
        row.decline_reason,
        int(row.version),
        row.game_id,
        row.challenger_seat,
        None if row.answered_at is None else _aware(row.answered_at),
    )


class ChallengeStore:
    """The ``challenges`` table and the accounts' ``challenges_from``, on the games' database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    @guarded
    def insert(self, challenge: StoredChallenge, then: Then | None = None) -> None:
        """Store a new challenge; ``then`` writes more in the same transaction (its notification)."""
        with self.store.writing() as conn:
            conn.execute(sa.insert(GAME_CHALLENGES).values(**challenge.__dict__))
            if then is not None:
                then(conn)

    @guarded
    def get(self, challenge_id: str) -> StoredChallenge | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(GAME_CHALLENGES).where(GAME_CHALLENGES.c.id == challenge_id)
            ).one_or_none()
            return None if row is None else _challenge(row)

    @guarded
    def of_member(self, account_id: int, since: datetime, limit: int = 100) -> list[StoredChallenge]:
        """The challenges made by or to ``account_id``: the open ones, and those answered since
        ``since`` (newest first)."""
        c = GAME_CHALLENGES.c
        query = (
            sa.select(GAME_CHALLENGES)
            .where(
                sa.or_(c.challenger_id == account_id, c.challenged_id == account_id),
                sa.or_(c.status == OPEN, c.answered_at >= since),
            )
            .order_by(c.created_at.desc(), c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [_challenge(r) for r in conn.execute(query)]

    @guarded
    def open_count(self, challenger_id: int, now: datetime) -> int:
        """How many challenges ``challenger_id`` has open (not expired)."""
        c = GAME_CHALLENGES.c
        query = sa.select(sa.func.count()).where(
            c.challenger_id == challenger_id, c.status == OPEN, c.expires_at > now
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    @guarded
    def change(self, challenge: StoredChallenge, **values: Any) -> StoredChallenge:
        """Set ``values`` if the row is still at ``challenge``'s version and status; the changed
        challenge, or :class:`ChallengeConflict` when another request changed it first."""
        c = GAME_CHALLENGES.c
        with self.store.writing() as conn:
            result = conn.execute(
                sa.update(GAME_CHALLENGES)
                .where(
                    c.id == challenge.id,
                    c.version == challenge.version,
                    c.status == challenge.status,
                )
                .values(version=challenge.version + 1, **values)
            )
            if result.rowcount != 1:
                raise ChallengeConflict(f"challenge {challenge.id} was changed meanwhile")
        return replace(challenge, version=challenge.version + 1, **values)

    @guarded
    def stale(self, now: datetime, starting_before: datetime, limit: int = 200) -> list[StoredChallenge]:
        """Open challenges past their time, and those accepted before ``starting_before`` whose
        game was not said to be made (their process died meanwhile, or is slow)."""
        c = GAME_CHALLENGES.c
        query = (
            sa.select(GAME_CHALLENGES)
            .where(
                sa.or_(
                    sa.and_(c.status == OPEN, c.expires_at <= now),
                    sa.and_(c.status == STARTING, c.answered_at < starting_before),
                )
            )
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [_challenge(r) for r in conn.execute(query)]

    # --- who may challenge whom -------------------------------------------------------------
    @guarded
    def challenges_from(self, account_id: int) -> str:
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(ACCOUNTS.c.challenges_from).where(ACCOUNTS.c.id == account_id)
            ).scalar_one_or_none()
        return str(value) if value in FROM_CHOICES else FROM_EVERYONE

    @guarded
    def set_challenges_from(self, account_id: int, value: str) -> None:
        assert value in FROM_CHOICES
        with self.store.writing() as conn:
            conn.execute(sa.update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(challenges_from=value))

    @guarded
    def have_played(self, first: int, second: int) -> bool:
        """Whether the two members held seats of one game (any game, finished or not)."""
        mine, theirs = PLAYERS.alias("mine"), PLAYERS.alias("theirs")
        query = (
            sa.select(mine.c.game_id)
            .join(theirs, theirs.c.game_id == mine.c.game_id)
            .where(mine.c.account_id == first, theirs.c.account_id == second)
            .limit(1)
        )
        with self.engine.connect() as conn:
            return conn.execute(query).first() is not None
