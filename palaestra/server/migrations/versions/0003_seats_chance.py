"""Seats that belong to their players, and draws nobody can predict (issue 17).

- ``public``: the creator listed the game in the lobby (older games are not listed);
- ``hints``: the creator allows hints in a game between people;
- ``creator_hash``: SHA-256 of the creator's token (revokes and re-issues invitations);
- ``secret``: the per-game chance secret (shown in the record once the game is over; its SHA-256
  is the commitment every view shows). Older games keep drawing from their seed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("secret", sa.String(128), nullable=True))
        batch.create_index("ix_games_public_updated", ["public", "updated_at"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_public_updated")
        batch.drop_column("secret")
        batch.drop_column("creator_hash")
        batch.drop_column("hints")
        batch.drop_column("public")
