"""Persistence of a member's progress in the courses "Learn to play" (``GET/PUT
/api/account/lessons``; migration 0010): one row per account, the lessons done per game as JSON
(``{"GAME": ["LESSON", ...]}``). The service reads and writes it from worker threads; deleting an
account deletes its row (``AccountStore.delete``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from palaestra.server.db import Base, Store, guarded


class LessonProgressRow(Base):
    __tablename__ = "lesson_progress"

    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"), primary_key=True)
    progress: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


LESSONS = cast(sa.Table, LessonProgressRow.__table__)


class LessonStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    @guarded
    def progress(self, account_id: int) -> dict[str, list[str]]:
        """The lessons the member has done, per game (``{}`` before the first)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(LESSONS.c.progress).where(LESSONS.c.account_id == account_id)
            ).one_or_none()
        return {} if row is None else {str(k): [str(x) for x in v] for k, v in dict(row.progress).items()}

    @guarded
    def save(self, account_id: int, progress: dict[str, list[str]]) -> None:
        """Replace the member's progress (one row per account, written in one transaction)."""
        now = datetime.now(UTC)
        with self.store.writing() as conn:
            changed = conn.execute(
                sa.update(LESSONS)
                .where(LESSONS.c.account_id == account_id)
                .values(progress=progress, updated_at=now)
            ).rowcount
            if changed:
                return
            try:
                with conn.begin_nested():  # two first saves at once: the second updates
                    conn.execute(
                        sa.insert(LESSONS).values(account_id=account_id, progress=progress, updated_at=now)
                    )
            except IntegrityError:
                conn.execute(
                    sa.update(LESSONS)
                    .where(LESSONS.c.account_id == account_id)
                    .values(progress=progress, updated_at=now)
                )
