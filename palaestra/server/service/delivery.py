"""Sending the outbox's rows (issue 29, part 9; docs/deploy.md, "Notifications").

:class:`Deliverer` sends one row of the outbox (palaestra/server/notify_store.py) by its channel:

- ``page``: the member's pages hear the new unread count (their websocket, across processes
  over Redis); the row itself is the page's list.
- ``push``: Web Push (``pywebpush``: the payload encrypted for each of the member's browsers,
  signed with the server's VAPID key). A push service that answers 404 or 410 says the
  subscription is gone: it is removed.
- ``email``: one message by SMTP (``PALAESTRA_SMTP_URL``), with the standard library's
  ``smtplib`` in a worker thread: a few messages a minute need no asynchronous client, and the
  library has no dependency to keep. Its ``Message-ID`` is made from the row, the same at every
  try.

Exactly once: the sender first *claims* the row (a guarded update: of two senders exactly one
gets it) for ``claim`` seconds and renews the claim every third of that while it sends, so a
slow send is never taken by another sender. It marks the row sent after the send. A sender killed
mid-send stops renewing: once the claim runs out the row is due again and the next sender sends
it, with the same Message-ID. A failed try is tried again after ``retry * 2**(tries-1)`` seconds
(at most an hour), ``max_tries`` times in all. What this guarantees is in docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import re
import smtplib
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, parseaddr
from importlib import resources
from typing import Any
from urllib.parse import unquote, urlsplit

from palaestra.server.db import StorageError
from palaestra.server.notify_store import LANGUAGES, NotifyStore, Outgoing, Subscription

log = logging.getLogger("palaestra.server.notifications")

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: the longest pause between two tries of a row (seconds)
MAX_PAUSE = 3600.0


@functools.cache
def catalogue(language: str) -> dict[str, Any]:
    """The server's texts of notifications in ``language`` (palaestra/i18n/notify.LANG.json)."""
    lang = language if language in LANGUAGES else "en"
    text = resources.files("palaestra.i18n").joinpath(f"notify.{lang}.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def _fill(template: str, data: dict[str, Any]) -> str:
    """``template`` with each ``{name}`` replaced by ``data[name]`` in one pass (a name that
    holds braces is shown as it is)."""
    return _PLACEHOLDER.sub(lambda m: str(data[m.group(1)]) if m.group(1) in data else m.group(0), template)


def link_of(data: dict[str, Any], origin: str) -> str:
    """The page the notification opens: its ``url`` (a path of the app), absolute with ``origin``."""
    path = str(data.get("url") or "/")
    if not path.startswith("/") or path.startswith("//"):
        path = "/"
    return origin.rstrip("/") + path


def render(kind: str, data: dict[str, Any], language: str) -> tuple[str, str]:
    """The title and text of a notification in ``language``."""
    texts = catalogue(language)[kind]
    return _fill(texts["title"], data), _fill(texts["body"], data)


@dataclass(frozen=True)
class SmtpTarget:
    """Where e-mail goes: ``smtp://[user:password@]host[:port]`` (STARTTLS when the server
    offers it) or ``smtps://...`` (TLS from the start)."""

    host: str
    port: int
    user: str | None
    password: str | None
    implicit_tls: bool


def parse_smtp_url(url: str) -> SmtpTarget:
    """The SMTP server of ``PALAESTRA_SMTP_URL``; ValueError (saying what is wrong, never the
    password) for anything else."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError("the SMTP URL must start with smtp:// or smtps://")
    if not parts.hostname:
        raise ValueError("the SMTP URL names no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("the SMTP URL takes no path, query or fragment")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("the SMTP URL's port is not a number from 1 to 65535") from None
    implicit = parts.scheme == "smtps"
    user = None if parts.username is None else unquote(parts.username)
    password = None if parts.password is None else unquote(parts.password)
    return SmtpTarget(parts.hostname, port or (465 if implicit else 25), user, password, implicit)


class Gone(Exception):
    """Nothing to send to (no address, no subscription left): the row is dropped, not retried."""


class Deliverer:
    """Sends rows of the outbox. ``announce(account, unread)`` tells the member's pages (all
    processes); ``vapid`` is the VAPID key pair (``{"private": PEM, "public": base64url}``)."""

    def __init__(
        self,
        store: NotifyStore,
        *,
        announce: Callable[[int, int], Awaitable[None]],
        vapid: Callable[[], dict[str, str]],
        smtp_url: str = "",
        smtp_from: str = "Palaestra <palaestra@localhost>",
        origin: str = "",
        push_contact: str = "mailto:palaestra@localhost",
        push_allow_http: bool = False,
        claim: float = 30.0,
        retry: float = 10.0,
        max_tries: int = 8,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.announce = announce
        self.vapid = vapid
        self.smtp = parse_smtp_url(smtp_url) if smtp_url else None
        self.smtp_from = smtp_from
        self.origin = origin
        self.push_contact = push_contact
        self.push_allow_http = push_allow_http
        self.claim = claim
        self.retry = retry
        self.max_tries = max_tries
        self.now = now
        #: rows sent by this process, by channel (for the tests and /metrics)
        self.sent: dict[str, int] = {"page": 0, "push": 0, "email": 0}
        #: the sends under way (``drain``)
        self.inflight: set[asyncio.Task[str]] = set()

    async def deliver(self, row_id: int) -> str:
        """Send the row if it is due and nobody else holds it; what happened, in words.

        The send and its record run in a task of their own: a cancel of the caller (arq cancels
        the jobs of a worker stopped with SIGTERM) leaves them to finish, since a send under way
        in a thread goes on regardless and, unrecorded, would be sent again by another sender
        once the claim runs out. ``drain`` waits for them before the process stops."""
        now = self.now()
        row = await asyncio.to_thread(self.store.claim, row_id, now, now + self.claim)
        if row is None:
            return "not due, or held by another sender"
        task = asyncio.get_running_loop().create_task(self._deliver(row))
        self.inflight.add(task)
        task.add_done_callback(self.inflight.discard)
        return await asyncio.shield(task)

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the sends under way to end and be recorded."""
        if self.inflight:
            await asyncio.wait(set(self.inflight), timeout=timeout)

    async def _deliver(self, row: Outgoing) -> str:
        beat = asyncio.get_running_loop().create_task(self._renew(row.id))
        try:
            await self._send(row)
        except Gone as why:
            log.info("notification %d dropped: %s", row.id, why)
            await asyncio.to_thread(self.store.finish, row.id, "dropped")
            return f"dropped: {why}"
        except Exception as err:  # any failure of the channel: tried again later
            return await self._failed(row, err)
        finally:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
        await asyncio.to_thread(self.store.finish, row.id, "sent")
        self.sent[row.channel] += 1
        return "sent"

    async def _renew(self, row_id: int) -> None:
        while True:
            await asyncio.sleep(self.claim / 3)
            try:
                await asyncio.to_thread(self.store.renew, row_id, self.now() + self.claim)
            except StorageError as err:  # the claim may run out: another sender may send it again
                log.warning("the claim of notification %d could not be renewed: %s", row_id, err)

    async def _failed(self, row: Outgoing, err: Exception) -> str:
        if row.tries >= self.max_tries:
            log.error(
                "notification %d (%s) failed for good after %d tries: %r", row.id, row.channel, row.tries, err
            )
            await asyncio.to_thread(self.store.finish, row.id, "failed")
            return f"failed: {err!r}"
        pause = min(MAX_PAUSE, self.retry * 2 ** (row.tries - 1))
        log.warning("notification %d (%s) not sent (%r); again in %.0f s", row.id, row.channel, err, pause)
        await asyncio.to_thread(self.store.later, row.id, self.now() + pause)
        return f"again in {pause:.0f} s: {err!r}"

    async def _send(self, row: Outgoing) -> None:
        if row.channel == "page":
            await self.announce(row.account, await asyncio.to_thread(self.store.unread, row.account))
        elif row.channel == "push":
            await self._push(row)
        elif row.channel == "email":
            await asyncio.to_thread(self._email, row)
        else:
            raise Gone(f"no channel {row.channel!r}")

    # --- Web Push ---------------------------------------------------------------------------
    async def _push(self, row: Outgoing) -> None:
        subscriptions = await asyncio.to_thread(self.store.subscriptions, row.account)
        done = set(row.progress.get("pushed", []))
        todo = [s for s in subscriptions if s.id not in done]
        if not subscriptions:
            raise Gone("the member has no push subscription")
        title, body = render(row.kind, row.data, row.language)
        payload = json.dumps(
            {"title": title, "body": body, "url": link_of(row.data, ""), "kind": row.kind, "tag": row.event},
            ensure_ascii=False,
        )
        failures = []
        for subscription in todo:
            try:
                sent = await asyncio.to_thread(self._push_one, subscription, payload)
            except Exception as err:
                failures.append(err)
                continue
            if sent:
                done.add(subscription.id)
                await asyncio.to_thread(self.store.progress, row.id, {"pushed": sorted(done)})
        if failures:
            raise failures[0]
        if not done:
            raise Gone("every push subscription of the member is gone")

    def _push_one(self, subscription: Subscription, payload: str) -> bool:
        """Push to one browser; False if its subscription is gone (and removed)."""
        from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

        from palaestra.server.service.push import check_endpoint

        check_endpoint(subscription.endpoint, allow_http=self.push_allow_http)
        try:
            webpush(
                {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                payload,
                vapid_private_key=self.vapid()["private"],
                vapid_claims={"sub": self.push_contact},
                ttl=24 * 3600,
                timeout=10,
            )
        except WebPushException as err:
            status = getattr(err.response, "status_code", None)
            if status in (404, 410):
                log.info("push subscription %d is gone (%s): removed", subscription.id, status)
                self.store.drop_subscription(subscription.id)
                return False
            raise
        return True

    # --- e-mail -----------------------------------------------------------------------------
    def message(self, row: Outgoing, to: str) -> EmailMessage:
        """The e-mail of a row: in the member's language, its Message-ID made from the row."""
        title, body = render(row.kind, row.data, row.language)
        texts = catalogue(row.language)
        link = link_of(row.data, self.origin)
        settings = link_of({"url": "/#/settings"}, self.origin)
        message = EmailMessage()
        message["Subject"] = title
        message["From"] = self.smtp_from
        message["To"] = to
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = message_id(row, self.smtp_from)
        message["Auto-Submitted"] = "auto-generated"
        opening = _fill(texts["open"], {"link": link})
        footer = _fill(texts["footer"], {"settings": settings})
        text = f"{body}\n\n{opening}\n\n-- \n{footer}\n"
        message.set_content(text)
        message["Content-Language"] = row.language  # after set_content, which sets the Content-* anew
        return message

    def _email(self, row: Outgoing) -> None:
        target = self.smtp
        if target is None:
            raise Gone("e-mail is not configured (PALAESTRA_SMTP_URL)")
        to = self.store.settings(row.account).email
        if not to:
            raise Gone("the member has no e-mail address")
        message = self.message(row, to)
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if target.implicit_tls:
            client = smtplib.SMTP_SSL(target.host, target.port, timeout=30, context=context)
        else:
            client = smtplib.SMTP(target.host, target.port, timeout=30)
        with client:
            client.ehlo()
            if not target.implicit_tls and client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
            if target.user is not None:
                client.login(target.user, target.password or "")
            client.send_message(message)


def message_id(row: Outgoing, sender: str) -> str:
    """The same Message-ID at every try of a row (receivers drop a second copy of a message):
    the row's id and a digest of its event, member and channel, at the sender's domain."""
    domain = parseaddr(sender)[1].rpartition("@")[2] or "palaestra.invalid"
    digest = hashlib.sha256(f"{row.event}\n{row.account}\n{row.channel}".encode()).hexdigest()[:16]
    return f"<notification.{row.id}.{digest}@{domain}>"
