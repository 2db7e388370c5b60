"""Settings of the web app: every limit in one place, each overridable by an environment variable
``PALAESTRA_<NAME>`` (for example ``PALAESTRA_MAX_BODY_BYTES=32768``). docs/web.md lists them.

They are a ``pydantic-settings`` class (issue 32): the library reads and converts the environment
(numbers, ``1/0/true/false/yes/no/on/off`` for switches), and a value that does not convert is
refused with an error that names its variable (:class:`SettingsError`), instead of a hand-written
loop of ``type(default)(raw)``. ``Settings(...)`` alone takes the defaults and its arguments;
:meth:`Settings.from_env` adds the environment. The database and Redis URLs are settings too
(``PALAESTRA_DATABASE_URL``, ``PALAESTRA_REDIS_URL``), which the options of the command line
override (``palaestra serve --database-url ... --redis-url ...``); the address and the port are
options only.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from palaestra.core.errors import PalaestraError

PREFIX = "PALAESTRA_"


class SettingsError(PalaestraError, ValueError):
    """A ``PALAESTRA_*`` variable whose value is not one the setting takes (the message names it;
    ``palaestra serve`` shows it as it is and exits with status 1)."""


class Settings(BaseSettings):
    """The limits of one app; frozen. See the comments of each field (and docs/web.md)."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, frozen=True, extra="forbid")

    #: the database, a SQLAlchemy URL (empty: a SQLite file in the user's data directory), and
    #: Redis, ``redis://HOST:PORT/DB`` or ``unix:///PATH`` (empty: one process alone on its
    #: database); ``--database-url`` and ``--redis-url`` override them. Left out of the repr
    #: (their passwords)
    database_url: str = Field("", repr=False)
    redis_url: str = Field("", repr=False)
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
    #: what one websocket may send and leave unread (issue 31); over a limit it is closed with
    #: 1008 and counted (``palaestra_websockets_closed_total{limit}``): messages a second (a burst
    #: of twice as many is allowed; the UI sends a ping every 25 s), bytes a message, and bytes of
    #: states and answers waiting to be sent to a client that does not read them
    ws_messages_per_second: float = 5.0
    ws_max_message_bytes: int = 4096
    ws_max_pending_bytes: int = 1024 * 1024
    #: games untouched this long (seconds) and not watched are dropped from memory (kept stored)
    idle_evict_seconds: float = 300.0
    #: the games whose latest view (and its JSON) stays cached, the ones used last; the others
    #: make theirs again when next read (some 25 KB a game: issue 31, docs/deploy.md)
    view_cache_games: int = 500
    #: how often (seconds) each process asks the database for games whose clock ran out (0: never;
    #: flags then fall only when the player to move sends a request)
    clock_sweep_seconds: float = 0.5
    #: active games nobody changed this long (seconds; default 30 days) become ``abandoned``:
    #: kept and shown, but no move is accepted any more; 0 turns this off
    abandon_after_seconds: float = 30 * 24 * 3600.0
    #: a real-time game's seat to move whose websockets have all been gone this long (seconds)
    #: may be claimed lost by the others (issue 29: POST /api/games/{id}/claim)
    claim_after_seconds: float = 60.0
    #: AI searches (AI moves, hints, analysis) running at once in this process; more wait their
    #: turn, round-robin between games (palaestra/server/service/pool.py)
    search_workers: int = 2
    #: run those searches in ``search_workers`` child processes (issue 31: pure-Python searches in
    #: this process hold the GIL and starve its event loop), each ``search_nice`` Linux nice steps
    #: below the event loop; off: in threads of this process
    search_processes: bool = True
    search_nice: int = 10
    #: with search_processes: a search still running after this many seconds is stopped (its
    #: child process ended; the game's runner stops until the game is loaded again; 0: never)
    search_limit_seconds: float = 120.0
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
    #: without --redis-url: how often (seconds) the process reads the stored versions of the games
    #: it holds, to hear of changes made by another process on the same database (0: never; a
    #: game is then checked on each request, and websockets hear of this process's changes only)
    version_poll_seconds: float = 1.0
    #: notifications (issue 29; docs/deploy.md, "Notifications"): e-mail goes out only with an
    #: SMTP server, ``smtp://user:password@host:port`` (STARTTLS when offered) or ``smtps://``,
    #: from ``smtp_from``; the contact of the VAPID claims of Web Push (a mailto: or https: URL)
    smtp_url: str = ""
    smtp_from: str = "Palaestra <palaestra@localhost>"
    push_contact: str = "mailto:palaestra@localhost"
    #: tests and debugging only, never in production: accept push endpoints on
    #: http://127.0.0.1 and http://localhost (a local test push service)
    push_allow_http: bool = False
    #: a sender holds a notification this long (seconds; renewed while it sends) before another
    #: may take it; a failed try is tried again after ``notify_retry_seconds`` (doubling, at
    #: most an hour), ``notify_max_tries`` times in all; rows due are looked for every
    #: ``notify_poll_seconds`` (by the web process without Redis, by the workers with it)
    notify_claim_seconds: float = 30.0
    notify_retry_seconds: float = 10.0
    notify_max_tries: int = 8
    notify_poll_seconds: float = 5.0

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """``Settings(...)``: the defaults and the arguments only (tests build them so)."""
        return (init_settings,)

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Defaults, then ``PALAESTRA_*`` environment variables, then ``overrides``. A variable
        that does not convert raises :class:`SettingsError` naming it and its value."""
        try:
            read = _FromEnvironment(**overrides)
        except ValidationError as err:
            problems = []
            for error in err.errors():
                name = str(error["loc"][0]) if error["loc"] else "?"
                where = name if name in overrides else f"{PREFIX}{name.upper()}"
                problems.append(f"{where}={error.get('input')!r}: {error['msg']}")
            raise SettingsError("; ".join(problems)) from None
        return cls(**{name: getattr(read, name) for name in cls.model_fields})


class _FromEnvironment(Settings):
    """The same settings, read from the environment as well (below the arguments)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings)
