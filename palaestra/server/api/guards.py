"""Per-client limits and metrics at the edge (issue 17: "Limits, all configurable"; operations).

- A client is a signed-in member's account when the request carries a live session cookie (so
  members behind one address, a NAT, each have their own limits), else its address (guests;
  issue 31, finding 7). ``Guards.key_of`` tells which (the app wires it to the accounts).
- Rate limits use the ``limits`` library (a well-kept, storage-agnostic implementation of moving
  windows, the engine under slowapi; its Redis storage is a one-line change for several
  processes, issue 18). A client is its IP address as the ASGI server sees it (behind a proxy, run
  uvicorn with ``--proxy-headers``). Over the limit: 429 ``rate_limited`` with ``Retry-After``.
- Websockets: at most ``ws_per_client`` per client and ``ws_total`` in all; one more is closed at
  once with code 1013 ("try again later"). Each may send ``ws_messages_per_second`` messages of
  ``ws_max_message_bytes`` at most, and leave ``ws_max_pending_bytes`` unread; beyond, it is closed
  with 1008 ("policy violation") and counted (palaestra/server/api/realtime.py).
- Metrics use ``prometheus-client`` (the reference Python client): one registry per app.
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable
from typing import Any

import limits.storage
from fastapi import Request
from limits import parse
from limits.strategies import MovingWindowRateLimiter
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from starlette.websockets import WebSocket

from palaestra.server.service.errors import DomainError
from palaestra.server.settings import Settings


class MemoryStorage(limits.storage.MemoryStorage):
    """``limits``' memory storage, expiring old entries on the caller's thread at most once per
    ``every`` seconds. The library's own storage starts a timer thread (``threading.Timer``, 10 ms)
    whenever the previous one has ended, so under load a thread per 10 ms: some 3 % of the
    server's CPU per action (docs/benchmarks.md). Expiry only frees memory: the moving window
    reads the time of its entries, so the limits are the same."""

    def __init__(self, every: float = 1.0) -> None:
        super().__init__()
        self.every = every
        self._next_expiry = 0.0

    # replaces the private ``MemoryStorage.__schedule_expiry`` (name-mangled), called by every
    # ``acquire_entry``, ``incr`` and ``decr`` (limits 3.10 to 5.x)
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now >= self._next_expiry:
            self._next_expiry = now + self.every
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


class RateLimited(DomainError):
    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__("rate_limited", f"too many {what} from this client; try again in {retry_after} s")
        self.retry_after = retry_after


def client_of(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client is not None else "unknown"


class Guards:
    """The limits and metrics of one app."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: the account of a request's live session, if any (set by the app: the accounts)
        self.member_of: Callable[[Request | WebSocket], Awaitable[int | None]] | None = None
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.rates = {
            "create": parse(settings.rate_create),
            "actions": parse(settings.rate_actions),
            "hints": parse(settings.rate_hints),
            "analysis": parse(settings.rate_analysis),
        }
        self.sockets: Tally[str] = Tally()
        self.registry = CollectorRegistry()
        # the process's memory, CPU seconds and open files (process_resident_memory_bytes, ...)
        ProcessCollector(registry=self.registry)
        self.latency = Histogram(
            "palaestra_request_seconds",
            "HTTP request latency",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.actions = Counter(
            "palaestra_actions", "actions applied (players, AI, chance)", registry=self.registry
        )
        self.loaded = Gauge("palaestra_games_loaded", "games held in memory", registry=self.registry)
        self.active = Gauge(
            "palaestra_games_active", "loaded games still being played", registry=self.registry
        )
        self.searches_waiting = Gauge(
            "palaestra_searches_waiting", "AI searches waiting for the search pool", registry=self.registry
        )
        self.searches_running = Gauge(
            "palaestra_searches_running", "AI searches running in the search pool", registry=self.registry
        )
        self.websockets = Gauge("palaestra_websockets", "open websockets", registry=self.registry)
        self.ws_closed = Counter(
            "palaestra_websockets_closed",
            "websockets closed with 1008 for going over a limit (rate: messages a second, size: "
            "bytes a message, pending: bytes unread by the client)",
            ["limit"],
            registry=self.registry,
        )
        self.rejected = Counter(
            "palaestra_rate_limited", "requests refused by a rate limit", ["what"], registry=self.registry
        )
        # with --redis-url (docs/deploy.md)
        self.jobs_queued = Gauge(
            "palaestra_jobs_queued",
            "jobs for the workers (server moves, searches) waiting or running in Redis",
            registry=self.registry,
        )
        self.notice_delay = Histogram(
            "palaestra_notice_delay_seconds",
            "change notices of other processes heard: seconds from the stored change to hearing of it",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.version_checks = Counter(
            "palaestra_version_checks",
            "reads of a game's version before using the copy in memory (where the change notices "
            "cannot vouch for it)",
            registry=self.registry,
        )

    async def key_of(self, connection: Request | WebSocket) -> str:
        """Whose limits a request counts against: ``member:ID`` for a live session's account,
        else ``ip:ADDRESS``."""
        if self.member_of is not None:
            account = await self.member_of(connection)
            if account is not None:
                return f"member:{account}"
        return f"ip:{client_of(connection)}"

    def hit(self, what: str, key: str) -> None:
        """Count one request of kind ``what`` for ``key`` (``key_of``); 429 over its limit."""
        item = self.rates[what]
        if not self.limiter.hit(item, what, key):
            self.rejected.labels(what).inc()
            reset, _ = self.limiter.get_window_stats(item, what, key)
            raise RateLimited(what, max(1, int(reset - time.time()) + 1))

    def open_socket(self, websocket: WebSocket, key: str) -> bool:
        """Count a websocket of ``key`` (``key_of``); False over the caps."""
        total = sum(self.sockets.values())
        if self.sockets[key] >= self.settings.ws_per_client or total >= self.settings.ws_total:
            return False
        self.sockets[key] += 1
        websocket.state.limit_key = key
        self.websockets.set(total + 1)
        return True

    def close_socket(self, websocket: WebSocket) -> None:
        key: str = websocket.state.limit_key
        self.sockets[key] -= 1
        if self.sockets[key] <= 0:
            del self.sockets[key]
        self.websockets.set(sum(self.sockets.values()))


def limit(what: str) -> Any:
    """A FastAPI dependency applying the rate limit ``what``. It is ``async`` although it never
    waits: FastAPI runs a plain function dependency in a worker thread, a hop that cost a tenth of
    the server's CPU per action (docs/benchmarks.md); the memory storage of ``limits`` is quick."""

    async def dependency(request: Request) -> None:
        guards: Guards = request.app.state.guards
        guards.hit(what, await guards.key_of(request))

    return dependency
