"""Challenges to a named member (issue 29, part 4; docs/web.md, "Challenges").

- ``challenges``: a member's offer of a game to another member: the game, its options, the time
  control, rated or casual, public or not; when it was made and when it expires; its status
  (``open``, ``starting``, ``accepted``, ``declined``, ``cancelled``, ``expired``, ``failed``), the
  reason of a decline and its version (every answer is an update guarded by it and by the status:
  of two accepts exactly one makes a game); once accepted, the game and the challenger's seat in it.
- ``accounts.challenges_from``: who may challenge the member: ``everyone`` (the default),
  ``played`` (people they have played) or ``nobody``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenger_id", sa.Integer, nullable=False),
        sa.Column("challenged_id", sa.Integer, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("time_control", sa.JSON, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("public", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("expires_at", STAMP, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("decline_reason", sa.String(16), nullable=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("challenger_seat", sa.Integer, nullable=True),
        sa.Column("answered_at", STAMP, nullable=True),
        sa.Index("ix_challenges_challenged_status", "challenged_id", "status"),
        sa.Index("ix_challenges_challenger_status", "challenger_id", "status"),
    )
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(
            sa.Column("challenges_from", sa.String(16), nullable=False, server_default="everyone")
        )


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("challenges_from")
    op.drop_table("challenges")
