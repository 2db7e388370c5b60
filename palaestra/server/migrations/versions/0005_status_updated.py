"""An index for the abandoned-games sweep (issue 17; docs/deploy.md, "The next bottlenecks").

``ix_games_status_updated`` (``status``, ``updated_at``): the sweep selects the active games
unchanged since a moment, oldest first; without the index that query reads every active game,
every 30 s in every process. (The lobby's ``ix_games_public_updated`` dates from 0003.)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.create_index("ix_games_status_updated", ["status", "updated_at"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_status_updated")
