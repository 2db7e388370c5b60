"""Settings of the web app: every limit in one place, each overridable by an environment variable
``PALAESTRA_<NAME>`` (for example ``PALAESTRA_MAX_BODY_BYTES=32768``). docs/web.md lists them."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Settings:
    #: requests with a larger body are refused (413) without being read
    max_body_bytes: int = 64 * 1024
    #: PostgreSQL connection pool: steady connections and extra ones at peaks
    db_pool_size: int = 10
    db_max_overflow: int = 10
    #: per-client rate limits ("N/second|minute|hour", the ``limits`` library's notation)
    rate_create: str = "30/minute"
    rate_actions: str = "600/minute"
    rate_hints: str = "30/minute"
    rate_analysis: str = "60/minute"
    #: websockets per client and in all
    ws_per_client: int = 32
    ws_total: int = 2000
    #: games untouched this long (seconds) and not watched are dropped from memory (kept stored)
    idle_evict_seconds: float = 300.0
    #: how often (seconds) each process asks the database for games whose clock ran out (0: never;
    #: flags then fall only when the player to move sends a request)
    clock_sweep_seconds: float = 0.5
    #: active games nobody changed this long (seconds; default 30 days) become ``abandoned``:
    #: kept and shown, but no move is accepted any more; 0 turns this off
    abandon_after_seconds: float = 30 * 24 * 3600.0
    #: AI searches (AI moves, hints, analysis) running at once in this process; more wait their
    #: turn, round-robin between games (palaestra/server/service/pool.py)
    search_workers: int = 2
    #: with --redis-url: how long a hint or analysis waits for a worker's answer (then 503)
    search_timeout: float = 30.0
    #: accounts (docs/accounts.md): sign-in attempts per account and per client, sign-ups per client
    rate_signin_account: str = "10/5minutes"
    rate_signin_client: str = "30/minute"
    rate_signup: str = "10/hour"
    #: Argon2id hashes computed at once (each takes 19 MiB) and waiting at most; more: 503 busy
    hash_concurrency: int = 2
    hash_queue: int = 64
    #: how much lower the hashing threads run than the event loop (Linux nice steps; 0: the same)
    hash_nice: int = 10
    #: mark the session cookie Secure (with the __Host- prefix) even when the request's scheme is
    #: http (a TLS proxy that does not tell uvicorn); https requests always get it
    secure_cookies: bool = False
    #: passkeys (docs/accounts.md): the WebAuthn relying party's id, a domain name without port
    #: (empty: the host name of each request) and the origin browsers sign in on,
    #: ``scheme://host[:port]`` (empty: the scheme, host and port of each request); set both
    #: behind a proxy that does not pass the public host and scheme on
    rp_id: str = ""
    origin: str = ""
    #: the lobby (issue 29): a seek expires this long (seconds) after it was posted, and ends
    #: sooner when its poster was not seen this long (no lobby websocket holding it, no poll)
    seek_seconds: float = 1800.0
    seek_leave_seconds: float = 60.0

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Defaults, then ``PALAESTRA_*`` environment variables, then ``overrides``."""
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = os.environ.get(f"PALAESTRA_{f.name.upper()}")
            if raw is not None:
                default: Any = f.default
                if isinstance(default, bool):
                    values[f.name] = raw.lower() in ("1", "true", "yes", "on")
                else:
                    values[f.name] = type(default)(raw)
        values.update(overrides)
        return cls(**values)
