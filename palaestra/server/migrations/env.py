"""Alembic environment of the Palaestra web app (run by ``palaestra.server.db.migrate``)."""

from __future__ import annotations

from alembic import context

from palaestra.server.db import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only through palaestra.server.db.migrate
    raise RuntimeError("run the migrations through palaestra.server.db.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
