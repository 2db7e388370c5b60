"""A change counter per game (``version``): actions, undos, joins and resignations.

The ply alone cannot order updates once an undo takes a move back; clients keep the view with the
highest version, and every write is guarded by the version it read.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE games SET version = ply")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
