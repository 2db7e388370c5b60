"""Passkeys (issue 28, item 3; docs/accounts.md, "Passkeys"): WebAuthn credentials with which a
member signs in instead of the password, or confirms the deletion of the account.

Every ceremony has two steps. The server hands out options with a fresh challenge (kept a few
minutes, under a secret challenge id: palaestra/server/passkey_store.py); the browser's
authenticator answers it (``navigator.credentials.create`` or ``.get``) and the server verifies the
answer with the ``webauthn`` library against the challenge (taken once), the relying party id and
the origin. Free of HTTP: the API passes the :class:`RelyingParty` a request speaks to.

The credential a client sends is untrusted JSON: anything that does not parse is 400
``bad_passkey`` and changes nothing (the challenge stays); a well-formed answer that does not
verify uses up its challenge.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    RegistrationCredential,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from palaestra.server.account_store import Account, AccountStore
from palaestra.server.passkey_store import (
    CREDENTIAL_ID_LENGTH,
    Challenge,
    Passkey,
    PasskeyStore,
    PasskeyTaken,
    TooManyPasskeys,
)
from palaestra.server.service.accounts import AccountService, Opened, bad_credentials
from palaestra.server.service.errors import DomainError

RP_NAME = "Palaestra"
#: the most passkeys one account may hold
MOST_PASSKEYS = 20
REGISTER, SIGN_IN, PROVE = "register", "sign_in", "prove"
#: what a parser of untrusted credentials may raise besides the library's own errors (bad
#: base64 is a ValueError, odd JSON types TypeErrors, ...)
MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, IndexError, OverflowError)


@dataclass(frozen=True)
class RelyingParty:
    """Who the browser talks to: the RP id (a host name, no port) and the expected origin."""

    id: str
    origin: str


@dataclass(frozen=True)
class Options:
    """WebAuthn options for the browser (the JSON of ``options_to_json``) and their challenge id."""

    challenge_id: str
    options: dict[str, Any]

    def doc(self) -> dict[str, Any]:
        return {"challenge_id": self.challenge_id, "options": self.options}


def user_handle(account: Account) -> bytes:
    """The WebAuthn user id of an account: stable, reveals nothing, never that of another account
    (an id the database reuses after a deletion comes with another creation time)."""
    return hashlib.sha256(
        f"palaestra-account:{account.id}:{account.created_at.isoformat()}".encode()
    ).digest()[:16]


def bad_passkey(why: str) -> DomainError:
    return DomainError("bad_passkey", f"the passkey's answer is not valid: {why}")


def challenge_expired() -> DomainError:
    return DomainError(
        "challenge_expired",
        "the challenge is unknown, used already, expired or for another purpose: ask for new options",
    )


def wrong_passkey() -> DomainError:
    return DomainError("wrong_passkey", "the passkey does not confirm it is you")


def passkey_doc(passkey: Passkey) -> dict[str, Any]:
    return {
        "id": passkey.id,
        "name": passkey.name,
        "created": passkey.created_at.isoformat(timespec="seconds"),
        "used": None if passkey.used_at is None else passkey.used_at.isoformat(timespec="seconds"),
    }


def _descriptor(passkey: Passkey) -> PublicKeyCredentialDescriptor:
    transports = [AuthenticatorTransport(t) for t in passkey.transports if t in _TRANSPORTS]
    return PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.credential_id), transports=transports)


_TRANSPORTS = {t.value for t in AuthenticatorTransport}


def _json(options: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(options_to_json(options))
    return doc


def parse_registration(credential: Mapping[str, Any]) -> RegistrationCredential:
    try:
        return parse_registration_credential_json(dict(credential))
    except MALFORMED as err:
        raise bad_passkey(str(err) or type(err).__name__) from None


def parse_authentication(credential: Mapping[str, Any]) -> AuthenticationCredential:
    try:
        parsed = parse_authentication_credential_json(dict(credential))
    except MALFORMED as err:
        raise bad_passkey(str(err) or type(err).__name__) from None
    if not parsed.raw_id or len(bytes_to_base64url(parsed.raw_id)) > CREDENTIAL_ID_LENGTH:
        raise bad_passkey("no credential id, or one too long")
    return parsed


class PasskeyService:
    """Registering, listing and removing passkeys; signing in and confirming with one."""

    def __init__(self, store: PasskeyStore, accounts: AccountService) -> None:
        self.store = store
        self.accounts = accounts
        self.account_store: AccountStore = accounts.store
        #: the key of the stand-in credential ids offered for names without passkeys (see
        #: :meth:`sign_in_options`); one per process
        self._decoy_key = secrets.token_bytes(32)

    # --- registering ------------------------------------------------------------------------
    async def registration_options(self, account: Account, rp: RelyingParty) -> Options:
        """Options to create a passkey for ``account``: discoverable where the authenticator can
        (resident key preferred), user verification preferred, its own passkeys excluded."""
        held = await asyncio.to_thread(self.store.of_account, account.id)
        if len(held) >= MOST_PASSKEYS:
            raise self._too_many()
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=account.username,
            user_id=user_handle(account),
            user_display_name=account.username,
            timeout=int(PasskeyStore.CHALLENGE_SECONDS * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.PREFERRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[_descriptor(p) for p in held],
        )
        return await self._handed_out(options, REGISTER, account.id)

    async def register(
        self,
        account: Account,
        challenge_id: str,
        credential: Mapping[str, Any],
        name: str,
        rp: RelyingParty,
    ) -> dict[str, Any]:
        """Verify the authenticator's answer to :meth:`registration_options` and keep the passkey."""
        parsed = parse_registration(credential)
        challenge = await self._take(challenge_id, REGISTER, account.id)
        try:
            verified = await asyncio.to_thread(
                lambda: verify_registration_response(
                    credential=parsed,
                    expected_challenge=base64url_to_bytes(challenge.challenge),
                    expected_rp_id=rp.id,
                    expected_origin=rp.origin,
                )
            )
        except MALFORMED as err:
            raise bad_passkey(str(err) or type(err).__name__) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if len(credential_id) > CREDENTIAL_ID_LENGTH:
            raise bad_passkey("the credential id is too long")
        transports = sorted({t.value for t in parsed.response.transports or []})
        try:
            passkey = await asyncio.to_thread(
                self.store.add,
                account.id,
                credential_id,
                verified.credential_public_key,
                verified.sign_count,
                name,
                transports,
                MOST_PASSKEYS,
            )
        except PasskeyTaken:
            raise DomainError("passkey_taken", "this passkey is registered already") from None
        except TooManyPasskeys:
            raise self._too_many() from None
        return passkey_doc(passkey)

    @staticmethod
    def _too_many() -> DomainError:
        return DomainError(
            "too_many_passkeys", f"an account holds at most {MOST_PASSKEYS} passkeys: remove one first"
        )

    async def listing(self, account: Account) -> list[dict[str, Any]]:
        return [passkey_doc(p) for p in await asyncio.to_thread(self.store.of_account, account.id)]

    async def remove(self, account: Account, passkey_id: int) -> None:
        if not await asyncio.to_thread(self.store.delete, account.id, passkey_id):
            raise DomainError("passkey_not_found", "you have no passkey with this id")

    # --- signing in -------------------------------------------------------------------------
    async def sign_in_options(self, username: str | None, rp: RelyingParty) -> Options:
        """Options to sign in. Without a username any passkey of this site the authenticator holds
        may answer (a discoverable credential names its account). With one, its passkeys are
        allowed; a name that is unknown, closed or without passkeys gets the same kind of answer:
        a stand-in credential id derived from the name (the same each time in this process), so
        the answer does not tell whether the name exists (the allowed ids come without their
        transports, which the stand-in could not show)."""
        allowed: list[PublicKeyCredentialDescriptor] = []
        account_id: int | None = None
        if username is not None:
            account = (
                await asyncio.to_thread(self.account_store.by_name, username) if len(username) <= 20 else None
            )
            held = (
                []
                if account is None or account.closed
                else await asyncio.to_thread(self.store.of_account, account.id)
            )
            if held and account is not None:
                # without transports: the stand-in has none to show either
                allowed = [
                    PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in held
                ]
                account_id = account.id
            else:
                allowed = [PublicKeyCredentialDescriptor(id=self._decoy(username))]
        options = generate_authentication_options(
            rp_id=rp.id,
            timeout=int(PasskeyStore.CHALLENGE_SECONDS * 1000),
            allow_credentials=allowed,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return await self._handed_out(options, SIGN_IN, account_id)

    def _decoy(self, username: str) -> bytes:
        return hmac.new(self._decoy_key, username.casefold().encode("utf-8", "replace"), "sha256").digest()

    async def sign_in(self, challenge_id: str, credential: Mapping[str, Any], rp: RelyingParty) -> Opened:
        """A new session for the account whose passkey answered :meth:`sign_in_options`; 401
        ``bad_credentials`` for an answer that does not verify (unknown passkey, wrong signature,
        another account than the name asked for, a closed account)."""
        parsed = parse_authentication(credential)
        challenge = await self._take(challenge_id, SIGN_IN, None)
        passkey = await self._verified(parsed, challenge, rp)
        if passkey is None or (
            challenge.account_id is not None and challenge.account_id != passkey.account_id
        ):
            raise bad_credentials()
        account = await asyncio.to_thread(self.account_store.by_id, passkey.account_id)
        if account is None or (
            parsed.response.user_handle and parsed.response.user_handle != user_handle(account)
        ):
            raise bad_credentials()
        return await self.accounts.open_for(account)

    # --- confirming (deleting the account) --------------------------------------------------
    async def proof_options(self, account: Account, rp: RelyingParty) -> Options:
        """Options to confirm it is you with one of your passkeys (before deleting the account)."""
        held = await asyncio.to_thread(self.store.of_account, account.id)
        if not held:
            raise DomainError("passkey_not_found", "you have no passkey: confirm with your password")
        options = generate_authentication_options(
            rp_id=rp.id,
            timeout=int(PasskeyStore.CHALLENGE_SECONDS * 1000),
            allow_credentials=[_descriptor(p) for p in held],
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return await self._handed_out(options, PROVE, account.id)

    async def prove(
        self, account: Account, challenge_id: str, credential: Mapping[str, Any], rp: RelyingParty
    ) -> None:
        """Pass if one of the account's passkeys answered :meth:`proof_options`; else 403
        ``wrong_passkey``."""
        parsed = parse_authentication(credential)
        challenge = await self._take(challenge_id, PROVE, account.id)
        passkey = await self._verified(parsed, challenge, rp)
        if passkey is None or passkey.account_id != account.id:
            raise wrong_passkey()

    # --- the steps every ceremony shares ----------------------------------------------------
    async def _handed_out(self, options: Any, purpose: str, account_id: int | None) -> Options:
        challenge = bytes_to_base64url(options.challenge)
        challenge_id = await asyncio.to_thread(self.store.put_challenge, challenge, purpose, account_id)
        return Options(challenge_id, _json(options))

    async def _take(self, challenge_id: str, purpose: str, account_id: int | None) -> Challenge:
        """The challenge, used up; refused when unknown, used, expired, or handed out for
        another purpose or (``account_id`` given) another account."""
        challenge = await asyncio.to_thread(self.store.take_challenge, challenge_id)
        if challenge is None or challenge.purpose != purpose:
            raise challenge_expired()
        if account_id is not None and challenge.account_id != account_id:
            raise challenge_expired()
        return challenge

    async def _verified(
        self, parsed: AuthenticationCredential, challenge: Challenge, rp: RelyingParty
    ) -> Passkey | None:
        """The stored passkey that signed this answer (its sign count and use recorded), or None
        when the passkey is unknown or the answer does not verify. Where the authenticator keeps a
        sign count, it must have grown since the last use (a cloned authenticator is refused)."""
        passkey = await asyncio.to_thread(self.store.by_credential, bytes_to_base64url(parsed.raw_id))
        if passkey is None:
            return None
        try:
            verified = await asyncio.to_thread(
                lambda: verify_authentication_response(
                    credential=parsed,
                    expected_challenge=base64url_to_bytes(challenge.challenge),
                    expected_rp_id=rp.id,
                    expected_origin=rp.origin,
                    credential_public_key=passkey.public_key,
                    credential_current_sign_count=passkey.sign_count,
                )
            )
        except MALFORMED:
            return None
        await asyncio.to_thread(self.store.used, passkey.id, verified.new_sign_count)
        return passkey
