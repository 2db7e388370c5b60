"""Accounts, sessions, passkeys, ratings (issue 28; docs/accounts.md).

- ``accounts``: a member's name (as typed, and ``username_key``, its case-folded form, unique),
  the Argon2id hash of the password, when they joined and were last active, whether an operator
  closed the account;
- ``account_sessions``: server-side sign-in sessions (the SHA-256 of the cookie's id, the CSRF
  token, when it was made and last used); revocable by deleting the row;
- ``passkeys``: WebAuthn credentials of an account; ``webauthn_challenges``: the challenges of
  ceremonies under way (short-lived);
- ``ratings``: an account's OpenSkill rating (mu, sigma) and rated games per pool;
  ``rating_events``: one row per account and rated game (unique: a game is rated once);
- ``game_players``: which account holds which seat of which game (profiles, "my games");
- ``games.rated``: the creator chose a rated game.

Today's games upgrade unchanged: every seat is a guest's, every game casual.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(20), nullable=False),
        sa.Column("username_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("active_at", STAMP, nullable=False),
        sa.Column("closed_at", STAMP, nullable=True),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("seen_at", STAMP, nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("transports", sa.JSON, nullable=True),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("used_at", STAMP, nullable=True),
    )
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("expires", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", STAMP, nullable=False),
        sa.Index("ix_ratings_pool_mu", "pool", "mu"),
    )
    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("before_mu", sa.Float, nullable=False),
        sa.Column("before_sigma", sa.Float, nullable=False),
        sa.Column("at", STAMP, nullable=False),
        sa.UniqueConstraint("game_id", "account_id", name="uq_rating_events_game_account"),
        sa.Index("ix_rating_events_account_pool", "account_id", "pool", "at"),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Index("ix_game_players_account", "account_id", "created_at"),
    )


def downgrade() -> None:
    for table in (
        "game_players",
        "rating_events",
        "ratings",
        "webauthn_challenges",
        "passkeys",
        "account_sessions",
        "accounts",
    ):
        op.drop_table(table)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
