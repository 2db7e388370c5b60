"""Routes of passkeys (issue 28, item 3; docs/accounts.md, "Passkeys"): a member registers,
lists and removes passkeys; anyone signs in with one; a member confirms the deletion of the
account with one (``DELETE /api/account`` takes a :class:`PasskeyAssertion`).

Each ceremony is two requests: options (with a ``challenge_id``) for ``navigator.credentials``,
then the browser's answer (the ``PublicKeyCredential`` as JSON, binary fields in base64url, as
``PublicKeyCredential.toJSON()`` gives it) with that ``challenge_id``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from palaestra.server.api.auth import Member, limits_of, set_session_cookie
from palaestra.server.api.errors import errors
from palaestra.server.api.guards import client_of
from palaestra.server.api.models import Strict, Text
from palaestra.server.api.responses import Out
from palaestra.server.passkey_store import CHALLENGE_ID_LENGTH
from palaestra.server.service.hub import Hub
from palaestra.server.service.passkeys import PasskeyService, RelyingParty
from palaestra.server.settings import Settings

router = APIRouter(prefix="/api", tags=["passkeys"])

ChallengeId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=CHALLENGE_ID_LENGTH,
        pattern=r"^[A-Za-z0-9_\-]+$",
        description="the challenge_id of the options this answers",
    ),
]
#: the browser's PublicKeyCredential as JSON; bounded by the body limit (max_body_bytes)
Credential = Annotated[
    dict[str, Any],
    Field(description="the PublicKeyCredential as JSON (toJSON(): id, rawId, type, response, ...)"),
]


class PasskeyAssertion(Strict):
    """An answer of ``navigator.credentials.get`` to the options of ``challenge_id``."""

    challenge_id: ChallengeId
    credential: Credential


class NewPasskey(Strict):
    challenge_id: ChallengeId
    credential: Credential
    name: Annotated[Text, Field(min_length=1, max_length=64)] = Field(
        "Passkey", description="what you call it (1 to 64 characters): 'phone', 'laptop', ..."
    )


class PasskeySignInRequest(Strict):
    username: Annotated[Text, Field(min_length=1, max_length=40)] | None = Field(
        None, description="offer only this member's passkeys (leave out: any passkey of this site)"
    )


class CeremonyOptions(Out):
    challenge_id: str = Field(description="send it back with the authenticator's answer")
    options: dict[str, Any] = Field(
        description="options for navigator.credentials.create / get (binary fields in base64url)"
    )


class PasskeyView(Out):
    id: int
    name: str
    created: str
    used: str | None = Field(description="when it last signed in or confirmed (null: never)")


class PasskeySignedIn(Out):
    username: str
    csrf_token: str = Field(description="send it as X-CSRF-Token with every signed-in change")


def passkeys_of(request: Request) -> PasskeyService:
    """The passkey service of the app's hub."""
    hub: Hub = request.app.state.hub
    return hub.passkeys


def relying_party(request: Request) -> RelyingParty:
    """The RP id and origin of a request: the settings ``rp_id`` and ``origin`` where set, else
    the request's host name and its ``scheme://host[:port]``."""
    settings: Settings = request.app.state.guards.settings
    rp_id = settings.rp_id or (request.url.hostname or "")
    origin = settings.origin or f"{request.url.scheme}://{request.url.netloc}"
    return RelyingParty(rp_id, origin.rstrip("/"))


async def limit_passkey_sign_in(request: Request) -> None:
    """Passkey sign-ins count against the client's sign-in limit (as password sign-ins do)."""
    await limits_of(request).hit("signin_client", client_of(request), "sign-in attempts")


@router.post(
    "/account/passkeys/options",
    summary="Options to create a passkey for your account (navigator.credentials.create)",
    response_model=CeremonyOptions,
    responses=errors("sign_in_required", "csrf", "too_many_passkeys"),
)
async def registration_options(request: Request, member: Member) -> dict[str, Any]:
    options = await passkeys_of(request).registration_options(member.account, relying_party(request))
    return options.doc()


@router.post(
    "/account/passkeys",
    status_code=201,
    summary="Keep a new passkey: the authenticator's answer to the options",
    response_model=PasskeyView,
    responses=errors(
        "sign_in_required",
        "csrf",
        "bad_passkey",
        "challenge_expired",
        "passkey_taken",
        "too_many_passkeys",
        body=True,
    ),
)
async def register(request: Request, member: Member, body: NewPasskey) -> dict[str, Any]:
    service = passkeys_of(request)
    return await service.register(
        member.account,
        body.challenge_id,
        body.credential,
        body.name.strip() or "Passkey",
        relying_party(request),
    )


@router.get(
    "/account/passkeys",
    summary="Your passkeys (id, name, created, last used)",
    response_model=list[PasskeyView],
    responses=errors("sign_in_required"),
)
async def listing(request: Request, member: Member) -> list[dict[str, Any]]:
    return await passkeys_of(request).listing(member.account)


@router.delete(
    "/account/passkeys/{passkey_id}",
    summary="Remove one of your passkeys",
    response_model=dict[str, bool],
    responses=errors("sign_in_required", "csrf", "passkey_not_found"),
)
async def remove(
    request: Request,
    member: Member,
    passkey_id: Annotated[int, Path(ge=1, le=2**63 - 1, description="the id of one of your passkeys")],
) -> dict[str, bool]:
    await passkeys_of(request).remove(member.account, passkey_id)
    return {"removed": True}


@router.post(
    "/account/passkey-proof/options",
    summary="Options to confirm it is you with one of your passkeys (before deleting the account)",
    response_model=CeremonyOptions,
    responses=errors("sign_in_required", "csrf", "passkey_not_found"),
)
async def proof_options(request: Request, member: Member) -> dict[str, Any]:
    options = await passkeys_of(request).proof_options(member.account, relying_party(request))
    return options.doc()


@router.post(
    "/session/passkey/options",
    summary="Options to sign in with a passkey (navigator.credentials.get); the username is optional",
    response_model=CeremonyOptions,
    responses=errors(body=True, limited=True),
)
async def sign_in_options(request: Request, body: PasskeySignInRequest | None = None) -> dict[str, Any]:
    await limit_passkey_sign_in(request)
    username = None if body is None else body.username
    options = await passkeys_of(request).sign_in_options(username, relying_party(request))
    return options.doc()


@router.post(
    "/session/passkey",
    summary="Sign in with a passkey: the authenticator's answer to the options (a new session)",
    response_model=PasskeySignedIn,
    responses=errors("bad_passkey", "challenge_expired", "bad_credentials", body=True, limited=True),
)
async def sign_in(request: Request, body: PasskeyAssertion) -> JSONResponse:
    await limit_passkey_sign_in(request)
    opened = await passkeys_of(request).sign_in(body.challenge_id, body.credential, relying_party(request))
    response = JSONResponse({"username": opened.account.username, "csrf_token": opened.csrf})
    set_session_cookie(request, response, opened.session_id)
    return response
