"""A software WebAuthn authenticator for API tests: an EC P-256 key per credential, attestation
"none", authenticator data with flags and a sign count, the client data a browser would write.
Its answers are real: the server verifies them with the ``webauthn`` library like a browser's."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftCredential:
    credential_id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0


@dataclass
class SoftAuthenticator:
    """Holds discoverable credentials; ``counting``: the sign count grows with each use (False:
    always 0, as many platform authenticators do)."""

    origin: str = "http://testserver"
    counting: bool = True
    credentials: list[SoftCredential] = field(default_factory=list)

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        doc = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(doc).encode()

    def create(
        self, options: dict[str, Any], origin: str | None = None, *, reuse: SoftCredential | None = None
    ) -> dict[str, Any]:
        """``navigator.credentials.create`` with the server's options: a new credential (or, as
        no honest authenticator would, ``reuse``'s id and key again)."""
        rp_id = options["rp"]["id"]
        excluded = {e["id"] for e in options.get("excludeCredentials", [])}
        assert not any(b64url(c.credential_id) in excluded for c in self.credentials if c.rp_id == rp_id)
        if reuse is not None:
            cred = reuse
        else:
            cred = SoftCredential(
                secrets.token_bytes(32),
                ec.generate_private_key(ec.SECP256R1()),
                rp_id,
                unb64url(options["user"]["id"]),
            )
            self.credentials.append(cred)
        numbers = cred.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        )
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + struct.pack(">I", cred.sign_count)
            + bytes(16)  # AAGUID
            + struct.pack(">H", len(cred.credential_id))
            + cred.credential_id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64url(cred.credential_id),
            "rawId": b64url(cred.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self, options: dict[str, Any], origin: str | None = None, *, credential: SoftCredential | None = None
    ) -> dict[str, Any]:
        """``navigator.credentials.get``: an assertion by an allowed credential (any of the RP's
        when the options allow any), or by ``credential`` whatever the options say."""
        if credential is None:
            allowed = {a["id"] for a in options.get("allowCredentials", [])}
            usable = [
                c
                for c in self.credentials
                if c.rp_id == options["rpId"] and (not allowed or b64url(c.credential_id) in allowed)
            ]
            assert usable, "no credential fits the options"
            credential = usable[-1]
        if self.counting:
            credential.sign_count += 1
        auth_data = (
            hashlib.sha256(credential.rp_id.encode()).digest()
            + bytes([UP | UV])
            + struct.pack(">I", credential.sign_count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = credential.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64url(credential.credential_id),
            "rawId": b64url(credential.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(credential.user_handle),
            },
            "clientExtensionResults": {},
        }
