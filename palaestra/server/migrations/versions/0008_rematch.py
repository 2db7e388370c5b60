"""Rematches (issue 29, part 6; docs/web.md, "Rematch").

- ``games.rematch``: a finished game's rematch, or null: ``{"offered_by": SEAT, "hashes": {SEAT:
  HASH}}`` while offered (the hash of the token the offering seat will hold in the new game, when
  it holds its seat by token), and ``"game": NEW_ID`` once accepted.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rematch", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch")
