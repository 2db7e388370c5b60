"""The web app: ``palaestra serve`` (FastAPI on uvicorn, SQLAlchemy + Alembic, static UI)."""

from __future__ import annotations


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    redis_url: str | None = None,
    access_log: bool = False,
) -> None:
    """Run the web app until interrupted (the database is migrated at start). The URLs given here
    override the settings ``PALAESTRA_DATABASE_URL`` and ``PALAESTRA_REDIS_URL``. ``access_log``:
    a line per HTTP request (uvicorn's access log), off by default (docs/deploy.md)."""
    from palaestra.server.app import create_app
    from palaestra.server.db import default_database_url
    from palaestra.server.serving import run
    from palaestra.server.settings import Settings

    settings = Settings.from_env()
    url = database_url or settings.database_url or default_database_url()
    redis_url = redis_url or settings.redis_url or None
    shared = f", Redis: {_safe(redis_url)}" if redis_url else ""
    print(f"Palaestra on http://{host}:{port}/  (database: {_safe(url)}{shared})", flush=True)
    run(create_app(url, redis_url=redis_url, settings=settings), host, port, access_log=access_log)


def _safe(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


__all__ = ["serve"]
