"""Seeks of the lobby (issue 29; docs/web.md, "Lobby").

- ``seeks``: an offer to play, open to anyone: the game, its options and player count, its
  rating pool, the time control, rated or casual, an optional rating range; who posted it (an
  account, or a guest known only by a hash of a secret) and the hash of the seek token that lets
  the poster cancel it; when it was made, when it expires and when its poster was last seen; its
  status (``open``, ``starting``, ``started``, ``cancelled``, ``expired``, ``left``) and version
  (every change is an update guarded by it: of two acceptors of the last place exactly one wins);
  the places taken so far (an account or a guest's hash, a name, and the hash of the place's
  secret, from which the seat token is derived: no token is stored) and the game it started.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("time_control", sa.JSON, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("rating_min", sa.Integer, nullable=True),
        sa.Column("rating_max", sa.Integer, nullable=True),
        sa.Column("poster_account", sa.Integer, nullable=True),
        sa.Column("poster_key", sa.String(80), nullable=False),
        sa.Column("poster_hash", sa.String(64), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("expires_at", STAMP, nullable=False),
        sa.Column("seen_at", STAMP, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("places", sa.JSON, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Index("ix_seeks_status_created", "status", "created_at"),
    )


def downgrade() -> None:
    op.drop_table("seeks")
