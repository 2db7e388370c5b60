"""Passkeys in a real Chromium (issue 28, item 3) with a virtual authenticator of the DevTools
protocol (WebAuthn domain): a member signs up, registers a passkey with
``navigator.credentials.create``, signs out, signs in with ``navigator.credentials.get`` (a
discoverable credential, no username) and deletes the account confirmed by the passkey. The
ceremonies run in the page's JavaScript against a real server process; the UI's buttons are
another test's business.

The page is served from ``http://localhost:PORT``: WebAuthn refuses an IP address as RP ID, and
localhost is a secure context over plain HTTP.
"""

from __future__ import annotations

from typing import Any

from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot  # noqa: F401 (the fixtures)

#: helpers the page gets: JSON fetches with the session's CSRF token, base64url <-> ArrayBuffer,
#: options from the server to the browser's form and the browser's answers back to JSON
HELPERS = """
window.pk = {
  csrf: null,
  async call(method, url, body) {
    const headers = {"content-type": "application/json"};
    if (this.csrf) headers["X-CSRF-Token"] = this.csrf;
    const r = await fetch(url, {method, headers, credentials: "same-origin",
                                body: body === undefined ? undefined : JSON.stringify(body)});
    return {status: r.status, body: await r.json()};
  },
  buf(text) {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - text.length % 4) % 4);
    return Uint8Array.from(atob(b64), c => c.charCodeAt(0)).buffer;
  },
  text(buffer) {
    let s = "";
    for (const byte of new Uint8Array(buffer)) s += String.fromCharCode(byte);
    return btoa(s).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  },
  descriptors(list) {
    return (list || []).map(d => ({...d, id: this.buf(d.id)}));
  },
  async create(options) {
    const publicKey = {...options, challenge: this.buf(options.challenge),
                       user: {...options.user, id: this.buf(options.user.id)},
                       excludeCredentials: this.descriptors(options.excludeCredentials)};
    const c = await navigator.credentials.create({publicKey});
    return {id: c.id, rawId: this.text(c.rawId), type: c.type,
            authenticatorAttachment: c.authenticatorAttachment,
            clientExtensionResults: c.getClientExtensionResults(),
            response: {clientDataJSON: this.text(c.response.clientDataJSON),
                       attestationObject: this.text(c.response.attestationObject),
                       transports: c.response.getTransports()}};
  },
  async get(options) {
    const publicKey = {...options, challenge: this.buf(options.challenge),
                       allowCredentials: this.descriptors(options.allowCredentials)};
    const c = await navigator.credentials.get({publicKey});
    return {id: c.id, rawId: this.text(c.rawId), type: c.type,
            authenticatorAttachment: c.authenticatorAttachment,
            clientExtensionResults: c.getClientExtensionResults(),
            response: {clientDataJSON: this.text(c.response.clientDataJSON),
                       authenticatorData: this.text(c.response.authenticatorData),
                       signature: this.text(c.response.signature),
                       userHandle: c.response.userHandle ? this.text(c.response.userHandle) : null}};
  },
};
"""

SIGN_UP = """async ([name, password]) => {
  const r = await pk.call("POST", "/api/account", {username: name, password});
  pk.csrf = r.body.csrf_token;
  return r;
}"""

REGISTER = """async (name) => {
  const offered = await pk.call("POST", "/api/account/passkeys/options");
  if (offered.status !== 200) return offered;
  const credential = await pk.create(offered.body.options);
  return await pk.call("POST", "/api/account/passkeys",
                       {challenge_id: offered.body.challenge_id, credential, name});
}"""

SIGN_OUT = """async () => {
  const r = await pk.call("DELETE", "/api/session");
  pk.csrf = null;
  return [r, await pk.call("GET", "/api/account")];
}"""

SIGN_IN = """async (username) => {
  const offered = await pk.call("POST", "/api/session/passkey/options", username ? {username} : {});
  if (offered.status !== 200) return offered;
  const credential = await pk.get(offered.body.options);
  const r = await pk.call("POST", "/api/session/passkey",
                          {challenge_id: offered.body.challenge_id, credential});
  pk.csrf = r.body.csrf_token;
  return {allowed: offered.body.options.allowCredentials, signedIn: r,
          me: await pk.call("GET", "/api/account")};
}"""

DELETE = """async () => {
  const offered = await pk.call("POST", "/api/account/passkey-proof/options");
  if (offered.status !== 200) return offered;
  const credential = await pk.get(offered.body.options);
  const r = await pk.call("DELETE", "/api/account",
                          {passkey: {challenge_id: offered.body.challenge_id, credential}});
  return [r, await pk.call("GET", "/api/account")];
}"""


def test_a_passkey_made_signed_in_with_and_confirming_deletion_in_chromium(
    server: ServerProcess,
    browser: Any,
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        authenticator = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                }
            },
        )["authenticatorId"]
        page.add_init_script(HELPERS)
        page.goto(f"http://localhost:{server.port}/")

        signed_up = page.evaluate(SIGN_UP, ["pk_browser", "correct horse battery"])
        assert signed_up["status"] == 201, signed_up
        made = page.evaluate(REGISTER, "Chromium")
        assert made["status"] == 201, made
        assert made["body"]["name"] == "Chromium"
        [stored] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        assert stored["isResidentCredential"] is True and stored["rpId"] == "localhost"
        assert stored["signCount"] == 1  # Chromium's virtual authenticator counts from the creation
        # the authenticator refuses a second passkey for the account: the server excluded the first
        again = page.evaluate(
            f"async () => {{ try {{ await ({REGISTER})('again'); return 'made'; }}"
            " catch (e) { return e.name; } }"
        )
        assert again == "InvalidStateError"

        signed_out, after = page.evaluate(SIGN_OUT)
        assert signed_out["status"] == 200 and after["status"] == 401
        found = page.evaluate(SIGN_IN, None)
        assert found["allowed"] == []  # no username: a discoverable credential names the account
        assert found["signedIn"]["status"] == 200, found
        assert found["signedIn"]["body"]["username"] == "pk_browser"
        assert found["me"]["status"] == 200 and found["me"]["body"]["username"] == "pk_browser"
        listed = page.evaluate("async () => await pk.call('GET', '/api/account/passkeys')")
        assert [p["name"] for p in listed["body"]] == ["Chromium"] and listed["body"][0]["used"]
        shot(page, "passkeys-signed-in")
        # with a username: the options allow that member's passkey, which the authenticator finds
        page.evaluate(SIGN_OUT)
        named = page.evaluate(SIGN_IN, "PK_BROWSER")
        assert [a["id"] for a in named["allowed"]] == [made_id(cdp, authenticator)]
        assert named["signedIn"]["status"] == 200 and named["me"]["body"]["username"] == "pk_browser"

        deleted, gone = page.evaluate(DELETE)
        assert deleted["status"] == 200 and deleted["body"] == {"deleted": True}, deleted
        assert gone["status"] == 401
        # the passkey is left on the authenticator but signs in to no account
        refused = page.evaluate(SIGN_IN, None)
        assert refused["signedIn"]["status"] == 401
        assert refused["signedIn"]["body"]["error"] == "bad_credentials"
    finally:
        context.close()


def made_id(cdp: Any, authenticator: str) -> str:
    """The base64url id of the one credential the virtual authenticator holds."""
    [stored] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    credential_id: str = stored["credentialId"]  # base64 (standard alphabet, padded)
    return credential_id.replace("+", "-").replace("/", "_").rstrip("=")
