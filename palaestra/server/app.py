"""The ASGI app of ``palaestra serve``: the HTTP API, the websockets and the browser UI.

``create_app`` wires the parts together; the routes live in palaestra/server/api/ (one router per
concern) and the game logic in palaestra/server/service/ (docs/web.md, "Layout"). The API is
documented by its OpenAPI schema (``/openapi.json``, browsable at ``/docs``) and in docs/web.md.
Every error is JSON ``{"error": CODE, "message": TEXT}`` with a fitting status.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator

from fastapi import FastAPI

from palaestra import __version__
from palaestra.server.api import (
    accounts,
    challenges,
    games,
    learn,
    lobby,
    notifications,
    ops,
    passkeys,
    play,
    realtime,
    seats,
    web,
)
from palaestra.server.api.auth import SignInLimits, member_id
from palaestra.server.api.edge import BodyLimit, SecurityHeaders, Timing
from palaestra.server.api.errors import install_handlers
from palaestra.server.api.guards import Guards
from palaestra.server.broker import make_broker
from palaestra.server.db import Store, default_database_url
from palaestra.server.presence import WARNING, ServeLock
from palaestra.server.rules_pages import router as rules_router
from palaestra.server.service.hub import Hub
from palaestra.server.service.passwords import Hasher
from palaestra.server.settings import Settings

log = logging.getLogger("palaestra.server")


async def close_websockets(app: FastAPI, timeout: float = 2.0) -> None:
    """Close every websocket of ``app`` with 1001 ("going away") and wait until they are closed
    (at most ``timeout`` seconds): the server is about to stop (palaestra/server/serving.py)."""
    hub: Hub | None = getattr(app.state, "hub", None)
    if hub is None:
        return
    hub.sessions.close_watchers()
    hub.feed.close_watchers()
    guards: Guards = app.state.guards
    end = time.monotonic() + timeout
    while sum(guards.sockets.values()) > 0 and time.monotonic() < end:
        await asyncio.sleep(0.02)


def create_app(
    database_url: str | None = None,
    *,
    ai_delay: float = 0.4,
    settings: Settings | None = None,
    redis_url: str | None = None,
) -> FastAPI:
    """The app on a database (``database_url``, else the setting ``database_url``, else SQLite in
    the user's data directory). With a Redis URL (``redis_url``, else the setting) it is one of
    many processes on one database (docs/deploy.md): changes are announced over Redis and the
    server's moves are jobs for ``palaestra worker`` processes."""
    config = settings or Settings.from_env()
    url = database_url or config.database_url or default_database_url()
    redis_url = redis_url or config.redis_url or None
    guards = Guards(config)
    guards.member_of = member_id  # members' limits per account, guests' per address
    signin_limits = SignInLimits(config, redis_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url, pool_size=config.db_pool_size, max_overflow=config.db_max_overflow)
        app.state.store = store
        await asyncio.to_thread(store.migrate)
        queue = None
        if redis_url:
            from palaestra.server.worker import ArqQueue

            queue = ArqQueue(redis_url, search_timeout=config.search_timeout)
            await queue.start()
        lock = None
        if not redis_url:  # alone on the database, or warn: another process serves it without Redis
            lock = ServeLock(store.engine)
            if not await asyncio.to_thread(lock.acquire):
                log.warning(WARNING.format(where=lock.where(), every=config.version_poll_seconds))
        broker = make_broker(redis_url, store.versions, config.version_poll_seconds)
        broker.observe = guards.notice_delay.observe
        hub = Hub(
            store,
            ai_delay=ai_delay,
            broker=broker,
            queue=queue,
            searcher=queue,
            search_workers=config.search_workers,
            search_processes=config.search_processes,
            search_nice=config.search_nice,
            search_limit=config.search_limit_seconds,
            hasher=Hasher(config.hash_concurrency, config.hash_queue, config.hash_nice),
        )
        hub.sessions.on_action = guards.actions.inc
        hub.sessions.on_check = guards.version_checks.inc
        hub.sessions.idle_seconds = config.idle_evict_seconds
        hub.sessions.view_cache_games = config.view_cache_games
        hub.clocks.every = config.clock_sweep_seconds
        hub.abandon_after = config.abandon_after_seconds
        hub.claim_after = config.claim_after_seconds
        hub.lobby.seek_seconds = config.seek_seconds
        hub.lobby.leave_seconds = config.seek_leave_seconds
        hub.notifications.configure(config)
        if queue is not None:  # notifications are sent by the workers
            hub.notifications.enqueue = queue.notify
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            if queue is not None:
                await queue.stop()
            if lock is not None:
                lock.release()
            store.close()

    app = FastAPI(
        title="Palaestra",
        version=__version__,
        description="Play board games: games, seats, actions, records, live updates.",
        lifespan=lifespan,
    )
    app.state.guards = guards
    app.state.signin_limits = signin_limits
    install_handlers(app)

    def observe(method: str, route: str, status: str, seconds: float) -> None:
        guards.latency.labels(method, route, status).observe(seconds)

    # the routers are tried in this order for every request: the hot ones first (a seat's action,
    # a game's state; each route tried costs some µs in FastAPI's matching: docs/benchmarks.md)
    hot = (play.router, games.router, realtime.router, seats.router)
    for router in (
        *hot,
        lobby.router,
        challenges.router,
        accounts.router,
        notifications.router,
        passkeys.router,
        learn.router,
        ops.router,
        web.router,
    ):
        app.include_router(router)
    app.include_router(rules_router)  # /rules/GAME (palaestra/server/rules_pages.py)
    app.mount("/static", web.SafeStaticFiles(directory=web.STATIC), name="static")
    app.add_middleware(Timing, observe=observe)
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    return app
