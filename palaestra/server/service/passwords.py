"""Names and passwords of accounts (issue 28): the rules they follow and the Argon2id hashing.

- A username is 3 to 20 letters, digits, ``_`` and ``-`` (ASCII: a name others can type and that
  cannot pass for another), unique without regard to case, not one of :data:`RESERVED`.
- A password has at least 10 characters and is not one of the ~20,000 most common passwords
  (the list Django ships, by Royce Williams; ``palaestra/server/data/common-passwords.txt.gz``),
  compared without regard to case.
- Only an Argon2id hash is stored, made by ``argon2-cffi`` (the reference binding of the winner of
  the Password Hashing Competition) with OWASP's first recommended parameters: 19 MiB of memory,
  2 iterations, 1 lane (some 20 ms of CPU). Hashing runs in a pool of its own threads, at most
  ``concurrency`` at once and at most ``queue`` waiting: a flood of sign-ins neither blocks the
  event loop nor takes more than ``concurrency`` × 19 MiB; beyond the queue it is refused at once
  (:class:`HasherBusy`). On Linux the hashing threads run at a lower priority (nice 10, set per
  thread): when the CPU is short, game actions go first and sign-ins wait (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import os
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from palaestra.server.service.errors import DomainError

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
MIN_PASSWORD = 10
MAX_PASSWORD = 256
#: names nobody may take: they would pass for the service, its staff or its pages
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "system",
        "palaestra",
        "moderator",
        "mod",
        "staff",
        "support",
        "help",
        "official",
        "api",
        "static",
        "rules",
        "learn",
        "lobby",
        "leaderboard",
        "account",
        "accounts",
        "login",
        "logout",
        "signin",
        "signup",
        "settings",
        "anonymous",
        "guest",
        "deleted",
        "deleted-player",
        "nobody",
        "null",
        "undefined",
        "none",
        "me",
        "ai",
        "bot",
        "random",
        "beginner",
        "casual",
        "strong",
        "expert",
        "chance",
        "www",
        "mail",
    }
)

#: OWASP Password Storage Cheat Sheet, Argon2id: m=19 MiB, t=2, p=1
OWASP_TIME_COST = 2
OWASP_MEMORY_KIB = 19 * 1024
OWASP_PARALLELISM = 1


def check_username(name: str) -> str:
    """The name if it may be taken (not yet checked: whether another account has it)."""
    if not USERNAME.fullmatch(name):
        raise DomainError(
            "bad_username",
            "a username has 3 to 20 characters: letters, digits, '_' and '-'",
        )
    if name.casefold() in RESERVED:
        raise DomainError("bad_username", f"the name {name!r} is reserved")
    return name


@functools.cache
def common_passwords() -> frozenset[str]:
    data = resources.files("palaestra.server.data").joinpath("common-passwords.txt.gz").read_bytes()
    return frozenset(line.strip() for line in gzip.decompress(data).decode().splitlines() if line.strip())


def check_password(password: str, username: str | None = None) -> str:
    """The password if it is strong enough to keep (length, not common, not the name)."""
    if len(password) < MIN_PASSWORD:
        raise DomainError("weak_password", f"a password has at least {MIN_PASSWORD} characters")
    lowered = password.casefold()
    if lowered in common_passwords():
        raise DomainError("weak_password", "this password is one of the most common ones: choose another")
    if username is not None and username.casefold() in lowered and len(lowered) < len(username) + 6:
        raise DomainError("weak_password", "a password must not be your username with little added")
    return password


class HasherBusy(DomainError):
    def __init__(self) -> None:
        super().__init__("busy", "the server is busy with sign-ins; try again in a moment")


#: the niceness the hashing threads add to the process's (Linux: per thread); 0 leaves them be
HASH_NICE = 10


def _lower_priority(nice: int) -> None:
    """Run this (hashing) thread ``nice`` steps lower in priority, where the system allows it."""
    if nice and hasattr(os, "setpriority") and hasattr(threading, "get_native_id"):
        with contextlib.suppress(OSError):
            current = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), current + nice)


class Hasher:
    """Argon2id in threads, bounded (see the module docstring)."""

    def __init__(self, concurrency: int = 2, queue: int = 64, nice: int = HASH_NICE) -> None:
        self.hasher = PasswordHasher(
            time_cost=OWASP_TIME_COST, memory_cost=OWASP_MEMORY_KIB, parallelism=OWASP_PARALLELISM
        )
        self.concurrency = concurrency
        self.queue = queue
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0
        self._threads = ThreadPoolExecutor(
            concurrency, "argon2", initializer=_lower_priority, initargs=(nice,)
        )

    @functools.cached_property
    def decoy(self) -> str:
        """A hash of a password nobody knows, verified for unknown names: the same work (and so
        the same timing class) as a wrong password of a real account. Made on first use, in a
        hashing thread."""
        return self.hasher.hash(secrets.token_urlsafe(24))

    async def _run(self, work: functools.partial[str] | functools.partial[bool]) -> object:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        if self._waiting >= self.queue + self.concurrency:
            raise HasherBusy()
        self._waiting += 1
        try:
            async with self._slots:
                return await asyncio.get_running_loop().run_in_executor(self._threads, work)
        finally:
            self._waiting -= 1

    async def hash(self, password: str) -> str:
        return str(await self._run(functools.partial(self.hasher.hash, password)))

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored or self.decoy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: no such account; the decoy is checked,
        so the answer takes as long)."""
        ok = await self._run(functools.partial(self._verify, stored, password))
        return bool(ok) and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
