"""Routes for operators: liveness, readiness, Prometheus metrics."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from palaestra.server.api.deps import GuardsDep, HubDep, StoreDep
from palaestra.server.api.errors import errors
from palaestra.server.api.responses import Status

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Alive: the process answers (no database access)", response_model=Status)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    summary="Ready: the database answers",
    response_model=Status,
    responses=errors("storage_unavailable", common=False),
)
async def readyz(store: StoreDep) -> dict[str, str]:
    await asyncio.to_thread(store.ping)  # StorageError: 503 storage_unavailable
    return {"status": "ready"}


@router.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse)
async def metrics(hub: HubDep, guards: GuardsDep) -> Response:
    loaded = hub.sessions.loaded
    guards.loaded.set(len(loaded))
    guards.active.set(sum(1 for s in loaded.values() if s.status == "active"))
    guards.searches_waiting.set(hub.pool.waiting)
    guards.searches_running.set(hub.pool.running)
    queue = hub.moves.queue
    if queue is not None:
        with contextlib.suppress(Exception):  # Redis away: the gauge keeps its last value
            guards.jobs_queued.set(await queue.queued())
    return Response(generate_latest(guards.registry), media_type=CONTENT_TYPE_LATEST)
