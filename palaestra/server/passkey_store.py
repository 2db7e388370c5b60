"""Persistence of passkeys and WebAuthn challenges (issue 28; docs/accounts.md, "Passkeys").

The tables ``passkeys`` and ``webauthn_challenges`` are made by migration 0006 (their rows are
declared in palaestra/server/account_store.py). A passkey row holds what verifies a sign-in: the
credential id (base64url), the public key (COSE), the authenticator's sign count, a name the
member chose, and the transports the browser reported; never a secret. A challenge row lives a few
minutes and is taken once: taking deletes it, so a challenge can never be answered twice.
The service calls these methods from worker threads (``asyncio.to_thread``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from palaestra.server.account_store import CHALLENGES, PASSKEYS
from palaestra.server.db import StorageError, Store, guarded

#: the longest credential id (base64url) and challenge id the columns hold
CREDENTIAL_ID_LENGTH = 1400
CHALLENGE_ID_LENGTH = 64


class PasskeyTaken(StorageError):
    """This credential id is registered already (to this account or another)."""


class TooManyPasskeys(StorageError):
    """The account holds the most passkeys allowed."""


@dataclass(frozen=True)
class Passkey:
    id: int
    account_id: int
    credential_id: str
    public_key: bytes
    sign_count: int
    name: str
    transports: list[str]
    created_at: datetime
    used_at: datetime | None


@dataclass(frozen=True)
class Challenge:
    """A challenge handed out with WebAuthn options: for ``purpose`` ("register", "sign_in",
    "prove"), of ``account_id`` where the ceremony is for one account."""

    id: str
    challenge: str
    purpose: str
    account_id: int | None
    expires: float


def _aware(stamp: datetime | None) -> datetime | None:
    if stamp is None:
        return None
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def _passkey(row: Any) -> Passkey:
    created = _aware(row.created_at)
    assert created is not None
    return Passkey(
        int(row.id),
        int(row.account_id),
        str(row.credential_id),
        bytes(row.public_key),
        int(row.sign_count or 0),
        str(row.name),
        [str(t) for t in (row.transports or [])],
        created,
        _aware(row.used_at),
    )


class PasskeyStore:
    """Passkeys and challenges, on the engine of the games' :class:`Store` (one database)."""

    #: a challenge must be answered within this many seconds
    CHALLENGE_SECONDS = 300.0

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # --- passkeys ---------------------------------------------------------------------------
    @guarded
    def add(
        self,
        account_id: int,
        credential_id: str,
        public_key: bytes,
        sign_count: int,
        name: str,
        transports: list[str],
        most: int,
    ) -> Passkey:
        """Store a verified credential of ``account_id`` (at most ``most`` per account)."""
        now = datetime.now(UTC)
        try:
            with self.store.writing() as conn:
                held = conn.execute(
                    sa.select(sa.func.count())
                    .select_from(PASSKEYS)
                    .where(PASSKEYS.c.account_id == account_id)
                ).scalar()
                if int(held or 0) >= most:
                    raise TooManyPasskeys(f"an account holds at most {most} passkeys")
                new_id = conn.execute(
                    sa.insert(PASSKEYS).values(
                        account_id=account_id,
                        credential_id=credential_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        name=name,
                        transports=transports,
                        created_at=now,
                        used_at=None,
                    )
                ).inserted_primary_key
        except IntegrityError:
            raise PasskeyTaken("this passkey is registered already") from None
        assert new_id is not None
        return Passkey(
            int(new_id[0]), account_id, credential_id, public_key, sign_count, name, transports, now, None
        )

    @guarded
    def of_account(self, account_id: int) -> list[Passkey]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(PASSKEYS).where(PASSKEYS.c.account_id == account_id).order_by(PASSKEYS.c.id)
            )
            return [_passkey(r) for r in rows]

    @guarded
    def count(self, account_id: int) -> int:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(sa.func.count()).select_from(PASSKEYS).where(PASSKEYS.c.account_id == account_id)
            ).scalar()
        return int(found or 0)

    @guarded
    def by_credential(self, credential_id: str) -> Passkey | None:
        if len(credential_id) > CREDENTIAL_ID_LENGTH:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(PASSKEYS).where(PASSKEYS.c.credential_id == credential_id)
            ).one_or_none()
        return None if row is None else _passkey(row)

    @guarded
    def delete(self, account_id: int, passkey_id: int) -> bool:
        """Remove a passkey of ``account_id`` (False: it has none with this id)."""
        with self.store.writing() as conn:
            gone = conn.execute(
                sa.delete(PASSKEYS).where(PASSKEYS.c.id == passkey_id, PASSKEYS.c.account_id == account_id)
            )
        return bool(gone.rowcount)

    @guarded
    def used(self, passkey_id: int, sign_count: int) -> None:
        """A passkey signed in: its new sign count (never lowered) and the time."""
        with self.store.writing() as conn:
            conn.execute(
                sa.update(PASSKEYS)
                .where(PASSKEYS.c.id == passkey_id)
                .values(
                    sign_count=sa.case(
                        (PASSKEYS.c.sign_count < sign_count, sign_count), else_=PASSKEYS.c.sign_count
                    ),
                    used_at=datetime.now(UTC),
                )
            )

    # --- challenges -------------------------------------------------------------------------
    @guarded
    def put_challenge(self, challenge: str, purpose: str, account_id: int | None) -> str:
        """Keep a challenge for ``CHALLENGE_SECONDS``; returns its id (a secret). Expired
        challenges are swept away on the way."""
        now = time.time()
        challenge_id = secrets.token_urlsafe(24)
        with self.store.writing() as conn:
            conn.execute(sa.delete(CHALLENGES).where(CHALLENGES.c.expires < now))
            conn.execute(
                sa.insert(CHALLENGES).values(
                    id=challenge_id,
                    challenge=challenge,
                    purpose=purpose,
                    account_id=account_id,
                    expires=now + self.CHALLENGE_SECONDS,
                )
            )
        return challenge_id

    @guarded
    def take_challenge(self, challenge_id: str) -> Challenge | None:
        """The challenge of this id, deleted as it is taken: None if it is unknown, taken already
        (also by a request at the same time: only one delete removes the row) or expired."""
        if len(challenge_id) > CHALLENGE_ID_LENGTH:
            return None
        with self.store.writing() as conn:
            row = conn.execute(sa.select(CHALLENGES).where(CHALLENGES.c.id == challenge_id)).one_or_none()
            if row is None:
                return None
            taken = conn.execute(sa.delete(CHALLENGES).where(CHALLENGES.c.id == challenge_id))
        if taken.rowcount != 1 or float(row.expires) < time.time():
            return None
        return Challenge(
            str(row.id),
            str(row.challenge),
            str(row.purpose),
            None if row.account_id is None else int(row.account_id),
            float(row.expires),
        )
