"""Who is asking: the sign-in cookie, its CSRF token, and the limits on signing in (issue 28).

- The session cookie is ``HttpOnly`` and ``SameSite=Lax``; behind HTTPS (the request's scheme,
  as uvicorn sees it with ``--proxy-headers``, or ``PALAESTRA_SECURE_COOKIES=1``) it is also
  ``Secure`` and named with the ``__Host-`` prefix (no ``Domain``, path ``/``), so no other site
  or subdomain can set or read it.
- Unsafe requests (POST, PUT, PATCH, DELETE) that the cookie authenticates must carry the session's
  CSRF token in ``X-CSRF-Token``; without it they get 403 ``csrf``. Requests that a seat token
  authenticates are not authenticated by the cookie: they need no CSRF token.
- Signing in and up is limited with the ``limits`` library (the same as every other limit here):
  sign-in attempts per account and per client, sign-ups per client. With ``--redis-url`` the
  counts live in Redis, shared by every process (the async storage: no call blocks the loop).
"""

from __future__ import annotations

import secrets
import time
from typing import Annotated

from fastapi import Depends, Request
from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection
from starlette.responses import Response

from palaestra.server.account_store import SignedIn
from palaestra.server.api.guards import RateLimited, client_of
from palaestra.server.service.errors import DomainError
from palaestra.server.service.hub import Hub
from palaestra.server.settings import Settings

COOKIE = "palaestra_session"
SECURE_COOKIE = "__Host-palaestra_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SignInLimits:
    """Sign-in and sign-up limits, in memory or (several processes) in Redis."""

    def __init__(self, settings: Settings, redis_url: str | None = None) -> None:
        storage: Storage = (
            RedisStorage(limits_uri(redis_url), implementation="redispy") if redis_url else MemoryStorage()
        )
        self.storage = storage
        self.limiter = MovingWindowRateLimiter(storage)
        self.rates: dict[str, RateLimitItem] = {
            "signin_account": parse(settings.rate_signin_account),
            "signin_client": parse(settings.rate_signin_client),
            "signup": parse(settings.rate_signup),
        }

    async def hit(self, what: str, key: str, label: str) -> None:
        item = self.rates[what]
        if not await self.limiter.hit(item, what, key):
            reset, _ = await self.limiter.get_window_stats(item, what, key)
            raise RateLimited(label, max(1, int(reset - time.time()) + 1))


def limits_uri(redis_url: str) -> str:
    """The ``limits`` library's name of a Redis URL (``redis://``, ``rediss://`` or a socket's
    ``unix://``) for its async storage."""
    if redis_url.startswith("unix://"):
        return "async+redis+unix://" + redis_url.removeprefix("unix://")
    return "async+" + redis_url


def secure(request: Request) -> bool:
    settings: Settings = request.app.state.guards.settings
    return settings.secure_cookies or request.url.scheme == "https"


def session_cookie(connection: HTTPConnection) -> str | None:
    return connection.cookies.get(SECURE_COOKIE) or connection.cookies.get(COOKIE)


def set_session_cookie(request: Request, response: Response, session_id: str) -> None:
    """The cookie of a new sign-in (its id is new at every sign-in)."""
    https = secure(request)
    response.set_cookie(
        SECURE_COOKIE if https else COOKIE,
        session_id,
        max_age=30 * 24 * 3600,
        path="/",
        secure=https,
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    https = secure(request)
    response.delete_cookie(
        SECURE_COOKIE if https else COOKIE, path="/", secure=https, httponly=True, samesite="lax"
    )


def check_csrf(request: Request, signed_in: SignedIn) -> None:
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not secrets.compare_digest(sent.encode(), signed_in.csrf.encode()):
        raise DomainError(
            "csrf", f"a signed-in request that changes something needs the {CSRF_HEADER} header"
        )


async def member_of(request: Request, *, required: bool) -> SignedIn | None:
    """The signed-in member of a request's cookie (CSRF checked for unsafe methods), or None;
    ``required``: 401 ``sign_in_required`` without one."""
    hub: Hub = request.app.state.hub
    signed_in = await hub.accounts.session(session_cookie(request))
    if signed_in is None:
        if required:
            raise DomainError("sign_in_required", "sign in first")
        return None
    check_csrf(request, signed_in)
    return signed_in


async def _optional(request: Request) -> SignedIn | None:
    return await member_of(request, required=False)


async def _required(request: Request) -> SignedIn:
    found = await member_of(request, required=True)
    assert found is not None
    return found


#: the signed-in member, or None for a guest (a cookie that authenticates an unsafe request
#: must come with the CSRF token)
MaybeMember = Annotated[SignedIn | None, Depends(_optional)]
#: the signed-in member (401 without)
Member = Annotated[SignedIn, Depends(_required)]


async def member_id(connection: HTTPConnection) -> int | None:
    """The account of the connection's session cookie, for rate-limit keys (``Guards.key_of``)."""
    hub: Hub = connection.app.state.hub
    return await hub.accounts.member_id(session_cookie(connection))


def limits_of(request: Request) -> SignInLimits:
    found: SignInLimits = request.app.state.signin_limits
    return found


async def limit_sign_in(request: Request, username: str) -> None:
    """Count a sign-in attempt for the client and for the account (by name: the same for names
    that exist and names that do not, so the limit tells nothing)."""
    checks = limits_of(request)
    await checks.hit("signin_client", client_of(request), "sign-in attempts")
    await checks.hit("signin_account", username.casefold()[:40], "sign-in attempts for this account")


async def limit_sign_up(request: Request) -> None:
    await limits_of(request).hit("signup", client_of(request), "sign-ups")
