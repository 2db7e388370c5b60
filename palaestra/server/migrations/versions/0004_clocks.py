"""Clocks of online games (issue 21).

- ``clock``: the game's clock as JSON (time control, each seat's time at the last change, the
  running seat; palaestra/server/service/clock.py), NULL for a game without a time control;
- ``deadline``: when the running clock's flag falls (seconds since the epoch), indexed with the
  status, so that the servers' sweep finds the active games whose time ran out with one range
  scan (an index on ``deadline`` alone lost to the status index in SQLite's planner: a scan of
  every active game).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
        batch.create_index("ix_games_status_deadline", ["status", "deadline"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_status_deadline")
        batch.drop_column("deadline")
        batch.drop_column("clock")
