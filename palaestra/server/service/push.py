"""Web Push subscriptions from browsers (issue 29, part 9): the strict parser of
``POST /api/account/push`` and the VAPID key pair of the server.

A subscription is what the browser's ``PushSubscription.toJSON()`` gives: ``{"endpoint": URL,
"keys": {"p256dh": KEY, "auth": SECRET}, "expirationTime": null}``. The endpoint is where the
server will post: an ``https`` URL of a push service, by host name (no address, no user, no
fragment). Only a test or debug setting (``PALAESTRA_PUSH_ALLOW_HTTP``, never in production)
allows ``http://127.0.0.1`` and ``http://localhost`` endpoints: the tests' local push service.
The keys are base64url (RFC 7515, with or without padding): ``p256dh`` an uncompressed point of
P-256 (65 bytes, checked to lie on the curve), ``auth`` 16 bytes.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: the longest endpoint stored (push services use some 200 to 500 characters)
MAX_ENDPOINT = 1024
_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_LOCAL = ("127.0.0.1", "localhost")


class BadSubscription(ValueError):
    """A subscription that is not one (the message says why; 400 ``bad_subscription``)."""


@dataclass(frozen=True)
class PushSubscription:
    endpoint: str
    p256dh: str
    auth: str


def b64url_bytes(text: Any, length: int, what: str) -> bytes:
    """The ``length`` bytes of a base64url text; BadSubscription for anything else."""
    if not isinstance(text, str) or not _B64URL.fullmatch(text) or len(text) > 4 * length:
        raise BadSubscription(f"{what} must be base64url text")
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"{what} must be base64url text") from None
    if len(raw) != length:
        raise BadSubscription(f"{what} must be {length} bytes, not {len(raw)}")
    return raw


def encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def check_endpoint(endpoint: Any, *, allow_http: bool = False) -> str:
    """The endpoint if the server may post to it; BadSubscription otherwise."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise BadSubscription(f"endpoint must be a URL of at most {MAX_ENDPOINT} characters")
    if not endpoint.isascii() or any(c.isspace() or ord(c) < 32 for c in endpoint):
        raise BadSubscription("endpoint must be a URL without spaces or control characters")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        raise BadSubscription("endpoint is not a URL") from None
    local = allow_http and host in _LOCAL
    if parts.scheme != "https" and not (local and parts.scheme == "http"):
        raise BadSubscription("endpoint must be an https URL")
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        raise BadSubscription("endpoint must name a host, without user, password or fragment")
    if not local:
        check_public_host(host)
    return endpoint


def check_public_host(host: str) -> None:
    """A push service's host is a public name: not an address, not this machine (the server
    would otherwise post wherever a member points it)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise BadSubscription("endpoint must name its host, not an address")
    if "." not in host or host.endswith(".localhost") or host == "localhost":
        raise BadSubscription("endpoint must be on a push service's public host")


def parse_subscription(doc: Any, *, allow_http: bool = False) -> PushSubscription:
    """A browser's subscription from the JSON body; BadSubscription (why) for anything else."""
    if not isinstance(doc, dict):
        raise BadSubscription("a subscription is a JSON object")
    extra = set(doc) - {"endpoint", "keys", "expirationTime"}
    if extra:
        raise BadSubscription(f"unknown fields: {', '.join(sorted(map(str, extra)))}")
    expiration = doc.get("expirationTime")
    if expiration is not None and (isinstance(expiration, bool) or not isinstance(expiration, int | float)):
        raise BadSubscription("expirationTime must be null or a number")
    endpoint = check_endpoint(doc.get("endpoint"), allow_http=allow_http)
    keys = doc.get("keys")
    if not isinstance(keys, dict) or set(keys) != {"p256dh", "auth"}:
        raise BadSubscription("keys must be an object with p256dh and auth only")
    point = b64url_bytes(keys["p256dh"], 65, "keys.p256dh")
    auth = b64url_bytes(keys["auth"], 16, "keys.auth")
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("keys.p256dh is not a P-256 public key") from None
    return PushSubscription(endpoint, encode(point), encode(auth))


def make_vapid_keys() -> dict[str, str]:
    """A new VAPID key pair: the private key (PEM, for pywebpush) and the public key as browsers
    take it (``applicationServerKey``: the uncompressed point, base64url)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"private": encode(private), "public": encode(public)}
