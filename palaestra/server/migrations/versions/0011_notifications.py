"""Notifications (issue 29, part 9; docs/web.md, "Notifications"; docs/deploy.md).

- ``member_settings``: one row per account that changed a notification setting or whose page told
  its language: the language of its messages (``en``, ``de``, ``fr``), an optional e-mail address
  (not verified: stored as the member typed it) and the channels of each kind of notification
  (JSON ``{KIND: {CHANNEL: bool}}``; a kind or channel missing takes the default: the page on,
  push and e-mail off).
- ``push_subscriptions``: the Web Push subscriptions of the members' browsers (endpoint, keys).
- ``notifications``: the outbox, and the page's list. One row per event, member and channel
  (unique: an event is never queued twice), written in the transaction of the change that causes
  it; its kind, the message's data and language; its status (``pending``, ``sending`` while a
  sender holds it until ``claimed_until``, ``sent``, ``failed`` after the last try, ``dropped``
  when there was nothing to send to), tries, the time of the next try, when it was sent, and for
  the page's rows when the member read it.
- ``server_secrets``: secrets made once and shared by every process (the VAPID key pair of Web
  Push, ``vapid``), by name.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "member_settings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("language", sa.String(8), nullable=False, server_default="en"),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("channels", sa.JSON, nullable=False),
        sa.Column("updated_at", STAMP, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event", sa.String(128), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("progress", sa.JSON, nullable=True),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("sent_at", STAMP, nullable=True),
        sa.Column("read_at", STAMP, nullable=True),
        sa.UniqueConstraint("event", "account_id", "channel", name="uq_notifications_event_member_channel"),
        sa.Index("ix_notifications_status_next", "status", "next_at"),
        sa.Index("ix_notifications_member_channel", "account_id", "channel", "read_at"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.JSON, nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
    )


def downgrade() -> None:
    for table in ("server_secrets", "notifications", "push_subscriptions", "member_settings"):
        op.drop_table(table)
