"""Persistence of notifications (issue 29, part 9; migration 0011; docs/web.md, "Notifications").

The outbox is the ``notifications`` table: :func:`queue_events` writes its rows inside the
transaction of the change that causes them (``Store.update(..., then=...)``), one per event,
member and channel, the unique key refusing a second row for the same three. A sender then takes
a row by *claiming* it (an update guarded by its status: of two senders exactly one wins) for
``claim`` seconds, renews the claim while it sends, and marks it sent, or pending again later (a
retry), or failed or dropped. Like :class:`palaestra.server.db.Store` this is the only code that
talks SQL about notifications; the service calls it from worker threads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from palaestra.server.db import Base, Store, guarded

#: the kinds of notification and the channels they go by
KINDS = ("your_turn", "challenge", "game_ended", "rematch_offered")
CHANNELS = ("page", "push", "email")
#: a channel the member never set: the page on, the others off until the member turns them on
DEFAULTS = {"page": True, "push": False, "email": False}
#: push subscriptions kept per member (browsers); a new one beyond replaces the oldest
MAX_SUBSCRIPTIONS = 20
#: the languages of the messages (those of the page, static/i18n.js)
LANGUAGES = ("en", "de", "fr")


class MemberSettingsRow(Base):
    __tablename__ = "member_settings"

    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"), primary_key=True)
    language: Mapped[str] = mapped_column(sa.String(8), server_default="en")
    email: Mapped[str | None] = mapped_column(sa.String(254), nullable=True)
    channels: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


class PushSubscriptionRow(Base):
    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"), index=True)
    endpoint: Mapped[str] = mapped_column(sa.String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(sa.String(100))
    auth: Mapped[str] = mapped_column(sa.String(32))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


class NotificationRow(Base):
    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    event: Mapped[str] = mapped_column(sa.String(128))
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("accounts.id"))
    channel: Mapped[str] = mapped_column(sa.String(8))
    kind: Mapped[str] = mapped_column(sa.String(24))
    data: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    language: Mapped[str] = mapped_column(sa.String(8))
    status: Mapped[str] = mapped_column(sa.String(8))
    tries: Mapped[int] = mapped_column(sa.Integer, server_default="0")
    next_at: Mapped[float] = mapped_column(sa.Float)
    claimed_until: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    #: what a row sent to several places has done already (the push subscriptions sent to)
    progress: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    read_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)

    __table_args__ = (
        sa.UniqueConstraint("event", "account_id", "channel", name="uq_notifications_event_member_channel"),
        sa.Index("ix_notifications_status_next", "status", "next_at"),
        sa.Index("ix_notifications_member_channel", "account_id", "channel", "read_at"),
    )


class ServerSecretRow(Base):
    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    value: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


SETTINGS = cast(sa.Table, MemberSettingsRow.__table__)
SUBSCRIPTIONS = cast(sa.Table, PushSubscriptionRow.__table__)
NOTES = cast(sa.Table, NotificationRow.__table__)
SECRETS = cast(sa.Table, ServerSecretRow.__table__)
#: the tables that name an account (emptied of it when the account is deleted)
MEMBER_TABLES = (NOTES, SUBSCRIPTIONS, SETTINGS)


@dataclass(frozen=True)
class Event:
    """Something to tell a member: ``key`` names the event (the same key, member and channel
    are queued once), ``kind`` one of :data:`KINDS`, ``data`` what the message shows."""

    key: str
    account: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class MemberSettings:
    language: str
    email: str | None
    channels: dict[str, dict[str, bool]]


@dataclass(frozen=True)
class Outgoing:
    """A claimed row of the outbox, to send."""

    id: int
    event: str
    account: int
    channel: str
    kind: str
    data: dict[str, Any]
    language: str
    tries: int
    progress: dict[str, Any]


@dataclass(frozen=True)
class Subscription:
    id: int
    endpoint: str
    p256dh: str
    auth: str


def channels_of(stored: Any) -> dict[str, dict[str, bool]]:
    """Every kind's channels: those stored (``{KIND: {CHANNEL: bool}}``), the defaults for the rest."""
    stored = stored if isinstance(stored, dict) else {}
    out: dict[str, dict[str, bool]] = {}
    for kind in KINDS:
        mine = stored.get(kind) if isinstance(stored.get(kind), dict) else {}
        out[kind] = {c: bool(mine.get(c, DEFAULTS[c])) for c in CHANNELS}
    return out


def _insert(conn: Connection, table: sa.Table) -> Any:
    """An INSERT of the connection's dialect that can ignore a row whose unique key exists."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def queue_events(conn: Connection, events: Sequence[Event], *, email: bool, now: float) -> list[int]:
    """Queue ``events`` in the transaction of ``conn``: a row for each channel the member has on
    (e-mail only when ``email``, the server can send it, and the member gave an address). A row
    whose (event, member, channel) exists is not written again. Returns the ids of new rows."""
    if not events:
        return []
    accounts = sorted({e.account for e in events})
    found = {
        int(r.account_id): r
        for r in conn.execute(sa.select(SETTINGS).where(SETTINGS.c.account_id.in_(accounts)))
    }
    stamp = datetime.fromtimestamp(now, UTC)
    ids: list[int] = []
    for event in events:
        row = found.get(event.account)
        channels = channels_of(None if row is None else row.channels)[event.kind]
        language = "en" if row is None or row.language not in LANGUAGES else str(row.language)
        for channel in CHANNELS:
            if not channels[channel] or (channel == "email" and (not email or row is None or not row.email)):
                continue
            statement = (
                _insert(conn, NOTES)
                .values(
                    event=event.key,
                    account_id=event.account,
                    channel=channel,
                    kind=event.kind,
                    data=event.data,
                    language=language,
                    status="pending",
                    tries=0,
                    next_at=now,
                    created_at=stamp,
                )
                .on_conflict_do_nothing(index_elements=["event", "account_id", "channel"])
                .returning(NOTES.c.id)
            )
            new = conn.execute(statement).scalar()
            if new is not None:
                ids.append(int(new))
    return ids


def _outgoing(row: Any) -> Outgoing:
    return Outgoing(
        int(row.id),
        str(row.event),
        int(row.account_id),
        str(row.channel),
        str(row.kind),
        dict(row.data),
        str(row.language),
        int(row.tries),
        dict(row.progress or {}),
    )


class NotifyStore:
    """Notification rows, on the engine of the games' :class:`Store` (one database)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # --- members' settings ------------------------------------------------------------------
    @guarded
    def settings(self, account_id: int) -> MemberSettings:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(SETTINGS).where(SETTINGS.c.account_id == account_id)).one_or_none()
        if row is None:
            return MemberSettings("en", None, channels_of(None))
        return MemberSettings(str(row.language), row.email, channels_of(row.channels))

    @guarded
    def put_settings(
        self,
        account_id: int,
        *,
        language: str | None = None,
        email: str | None = None,
        clear_email: bool = False,
        channels: dict[str, dict[str, bool]] | None = None,
    ) -> MemberSettings:
        """Change what is given (``channels``: merged into the stored ones); the new settings."""
        with self.store.writing() as conn:
            row = conn.execute(sa.select(SETTINGS).where(SETTINGS.c.account_id == account_id)).one_or_none()
            merged = channels_of(None if row is None else row.channels)
            for kind, switches in (channels or {}).items():
                merged[kind].update(switches)
            values: dict[str, Any] = {"channels": merged, "updated_at": datetime.now(UTC)}
            if language is not None:
                values["language"] = language
            if email is not None or clear_email:
                values["email"] = email
            if row is None:
                values.setdefault("language", "en")
                conn.execute(sa.insert(SETTINGS).values(account_id=account_id, **values))
            else:
                conn.execute(sa.update(SETTINGS).where(SETTINGS.c.account_id == account_id).values(values))
        return self.settings(account_id)

    # --- the outbox -------------------------------------------------------------------------
    @guarded
    def queue(self, events: Sequence[Event], *, email: bool, now: float) -> list[int]:
        """Queue ``events`` in a transaction of their own (a change with no game row to write)."""
        with self.store.writing() as conn:
            return queue_events(conn, events, email=email, now=now)

    @guarded
    def due(self, now: float, limit: int = 100) -> list[int]:
        """Rows to send now: pending and due, or claimed by a sender that stopped renewing."""
        query = (
            sa.select(NOTES.c.id)
            .where(
                sa.or_(
                    sa.and_(NOTES.c.status == "pending", NOTES.c.next_at <= now),
                    sa.and_(NOTES.c.status == "sending", NOTES.c.claimed_until < now),
                )
            )
            .order_by(NOTES.c.next_at)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [int(r[0]) for r in conn.execute(query)]

    @guarded
    def claim(self, row_id: int, now: float, until: float) -> Outgoing | None:
        """Take the row to send it until ``until`` (None: not due, or another sender holds it).
        The update is guarded by the row's status and times: of two senders exactly one wins."""
        with self.store.writing() as conn:
            won = conn.execute(
                sa.update(NOTES)
                .where(
                    NOTES.c.id == row_id,
                    sa.or_(
                        sa.and_(NOTES.c.status == "pending", NOTES.c.next_at <= now),
                        sa.and_(NOTES.c.status == "sending", NOTES.c.claimed_until < now),
                    ),
                )
                .values(status="sending", claimed_until=until, tries=NOTES.c.tries + 1)
            )
            if won.rowcount != 1:
                return None
            row = conn.execute(sa.select(NOTES).where(NOTES.c.id == row_id)).one()
        return _outgoing(row)

    @guarded
    def renew(self, row_id: int, until: float) -> None:
        with self.store.writing() as conn:
            conn.execute(
                sa.update(NOTES)
                .where(NOTES.c.id == row_id, NOTES.c.status == "sending")
                .values(claimed_until=until)
            )

    @guarded
    def progress(self, row_id: int, progress: dict[str, Any]) -> None:
        with self.store.writing() as conn:
            conn.execute(sa.update(NOTES).where(NOTES.c.id == row_id).values(progress=progress))

    @guarded
    def finish(self, row_id: int, status: str) -> None:
        """The row is done: ``sent``, ``failed`` (no more tries) or ``dropped`` (nowhere to send)."""
        with self.store.writing() as conn:
            conn.execute(
                sa.update(NOTES)
                .where(NOTES.c.id == row_id)
                .values(status=status, claimed_until=None, sent_at=datetime.now(UTC))
            )

    @guarded
    def later(self, row_id: int, next_at: float) -> None:
        """Try the row again at ``next_at`` (a failed try)."""
        with self.store.writing() as conn:
            conn.execute(
                sa.update(NOTES)
                .where(NOTES.c.id == row_id)
                .values(status="pending", claimed_until=None, next_at=next_at)
            )

    @guarded
    def rows(self, account_id: int | None = None) -> list[dict[str, Any]]:
        """Every row (of an account), oldest first: for the tests and the operators."""
        query = sa.select(NOTES).order_by(NOTES.c.id)
        if account_id is not None:
            query = query.where(NOTES.c.account_id == account_id)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # --- the page's list --------------------------------------------------------------------
    @guarded
    def unread(self, account_id: int) -> int:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(sa.func.count())
                .select_from(NOTES)
                .where(NOTES.c.account_id == account_id, NOTES.c.channel == "page", NOTES.c.read_at.is_(None))
            ).scalar()
        return int(found or 0)

    @guarded
    def page_items(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The member's notifications in the page, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(NOTES.c.id, NOTES.c.kind, NOTES.c.data, NOTES.c.created_at, NOTES.c.read_at)
                .where(NOTES.c.account_id == account_id, NOTES.c.channel == "page")
                .order_by(NOTES.c.id.desc())
                .limit(limit)
            )
            return [dict(r._mapping) for r in rows]

    @guarded
    def mark_read(self, account_id: int, ids: Iterable[int] | None) -> int:
        """Mark the member's page notifications ``ids`` (None: all) read; how many were unread."""
        query = sa.update(NOTES).where(
            NOTES.c.account_id == account_id, NOTES.c.channel == "page", NOTES.c.read_at.is_(None)
        )
        if ids is not None:
            query = query.where(NOTES.c.id.in_(list(ids)))
        with self.store.writing() as conn:
            return int(conn.execute(query.values(read_at=datetime.now(UTC))).rowcount)

    # --- Web Push subscriptions -------------------------------------------------------------
    @guarded
    def subscribe(self, account_id: int, endpoint: str, p256dh: str, auth: str) -> None:
        """Store a browser's subscription (an endpoint stored already now belongs to this member,
        with these keys: a browser signed in to another account); a member keeps the newest
        ``MAX_SUBSCRIPTIONS``."""
        with self.store.writing() as conn:
            conn.execute(sa.delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.endpoint == endpoint))
            conn.execute(
                sa.insert(SUBSCRIPTIONS).values(
                    account_id=account_id,
                    endpoint=endpoint,
                    p256dh=p256dh,
                    auth=auth,
                    created_at=datetime.now(UTC),
                )
            )
            kept = (
                sa.select(SUBSCRIPTIONS.c.id)
                .where(SUBSCRIPTIONS.c.account_id == account_id)
                .order_by(SUBSCRIPTIONS.c.id.desc())
                .limit(MAX_SUBSCRIPTIONS)
            )
            conn.execute(
                sa.delete(SUBSCRIPTIONS).where(
                    SUBSCRIPTIONS.c.account_id == account_id,
                    SUBSCRIPTIONS.c.id.not_in(sa.select(kept.subquery().c.id)),
                )
            )

    @guarded
    def unsubscribe(self, account_id: int, endpoint: str | None) -> int:
        """Remove the member's subscription of ``endpoint`` (None: all of them); how many."""
        query = sa.delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.account_id == account_id)
        if endpoint is not None:
            query = query.where(SUBSCRIPTIONS.c.endpoint == endpoint)
        with self.store.writing() as conn:
            return int(conn.execute(query).rowcount)

    @guarded
    def drop_subscription(self, subscription_id: int) -> None:
        """The push service said the subscription is gone (404, 410)."""
        with self.store.writing() as conn:
            conn.execute(sa.delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.id == subscription_id))

    @guarded
    def subscriptions(self, account_id: int) -> list[Subscription]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(SUBSCRIPTIONS)
                .where(SUBSCRIPTIONS.c.account_id == account_id)
                .order_by(SUBSCRIPTIONS.c.id)
            )
            return [Subscription(int(r.id), str(r.endpoint), str(r.p256dh), str(r.auth)) for r in rows]

    # --- secrets shared by every process ----------------------------------------------------
    @guarded
    def secret(self, name: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The secret ``name``, made by ``make`` and stored if there is none yet. Of processes
        starting together the first insert wins and every one reads that one back."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(SECRETS.c.value).where(SECRETS.c.name == name)).one_or_none()
        if row is not None:
            return dict(row.value)
        made = make()
        with self.store.writing() as conn:
            conn.execute(
                _insert(conn, SECRETS)
                .values(name=name, value=made, created_at=datetime.now(UTC))
                .on_conflict_do_nothing(index_elements=["name"])
            )
            stored = conn.execute(sa.select(SECRETS.c.value).where(SECRETS.c.name == name)).one()
        return dict(stored.value)
