"""Passkeys (issue 28, item 3; docs/accounts.md, "Passkeys"): registering, listing and removing
them, signing in with one, confirming an account's deletion with one. The authenticator is a
software one (tests/server/soft_authenticator.py) whose answers the server verifies with the real
``webauthn`` library. Tests that take ``client`` run on SQLite and on PostgreSQL."""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.server.api.auth import COOKIE
from palaestra.server.api.errors import CODES
from palaestra.server.app import create_app
from palaestra.server.db import Store
from palaestra.server.passkey_store import PasskeyStore
from palaestra.server.service.passkeys import MOST_PASSKEYS
from palaestra.server.settings import Settings
from tests.server.accounts_helpers import PASSWORD, Member, opened, sign_up
from tests.server.soft_authenticator import SoftAuthenticator, b64url, unb64url
from tests.server.test_accounts import db_rows
from tests.server.test_api import assert_error

OPTIONS = "/api/account/passkeys/options"
PASSKEYS = "/api/account/passkeys"
SIGN_IN_OPTIONS = "/api/session/passkey/options"
SIGN_IN = "/api/session/passkey"
PROOF_OPTIONS = "/api/account/passkey-proof/options"


def register(member: Member, authenticator: SoftAuthenticator, name: str = "laptop") -> dict[str, Any]:
    r = member.post(OPTIONS)
    assert r.status_code == 200, r.text
    offered = r.json()
    answer = authenticator.create(offered["options"])
    made = member.post(
        PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": answer, "name": name}
    )
    assert made.status_code == 201, made.text
    out: dict[str, Any] = made.json()
    return out


def sign_in_options(client: TestClient, username: str | None = None) -> dict[str, Any]:
    r = client.post(SIGN_IN_OPTIONS, json={} if username is None else {"username": username})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def passkey_sign_in(client: TestClient, authenticator: SoftAuthenticator, username: str | None = None) -> Any:
    offered = sign_in_options(client, username)
    answer = authenticator.get(offered["options"])
    r = client.post(SIGN_IN, json={"challenge_id": offered["challenge_id"], "credential": answer})
    client.cookies.clear()
    return r


def count(db_url: str, table: str) -> int:
    return int(db_rows(db_url, f"SELECT COUNT(*) AS n FROM {table}")[0].n)


# --- the whole ceremony ------------------------------------------------------------------------------
@pytest.mark.slow
def test_register_a_passkey_then_sign_in_with_it_instead_of_the_password(
    client: TestClient, db_url: str
) -> None:
    member = sign_up(client, "Keyholder")
    authenticator = SoftAuthenticator()
    offered = member.post(OPTIONS).json()
    options = offered["options"]
    assert options["rp"] == {"id": "testserver", "name": "Palaestra"}
    assert options["user"]["name"] == "Keyholder" and len(unb64url(options["user"]["id"])) == 16
    assert options["authenticatorSelection"]["residentKey"] == "preferred"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["excludeCredentials"] == [] and options["attestation"] == "none"
    answer = authenticator.create(options)
    made = member.post(
        PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": answer, "name": "phone"}
    )
    assert made.status_code == 201, made.text
    assert made.json()["name"] == "phone" and set(made.json()) == {"id", "name", "created", "used"}
    # a second registration excludes the passkey the member holds
    again = member.post(OPTIONS).json()["options"]
    assert [e["id"] for e in again["excludeCredentials"]] == [answer["id"]]
    assert again["excludeCredentials"][0]["transports"] == ["internal"]
    # signed out (a fresh browser): no username, any passkey of this site may answer
    offered = sign_in_options(client)
    assert offered["options"]["rpId"] == "testserver" and offered["options"]["allowCredentials"] == []
    r = client.post(
        SIGN_IN,
        json={"challenge_id": offered["challenge_id"], "credential": authenticator.get(offered["options"])},
    )
    assert r.status_code == 200, r.text
    signed = opened(client, r, "Keyholder")
    assert r.json()["username"] == "Keyholder"
    assert signed.cookie != member.cookie
    assert signed.get("/api/account").json()["username"] == "Keyholder"
    [listed] = signed.get(PASSKEYS).json()
    assert listed["id"] == made.json()["id"] and listed["name"] == "phone" and listed["used"] is not None
    # what is stored: the credential id, the public key, the sign count, the name; no secret
    [row] = db_rows(db_url, "SELECT credential_id, public_key, sign_count, name, transports FROM passkeys")
    assert row.credential_id == answer["id"] and row.sign_count == 1 and row.name == "phone"
    assert bytes(row.public_key)[:1] == b"\xa5"  # a COSE key: a CBOR map of 5 entries
    assert count(db_url, "account_sessions") == 2


@pytest.mark.slow
def test_a_passkey_of_one_member_signs_in_only_that_member(client: TestClient) -> None:
    ada, bob = sign_up(client, "ada_k"), sign_up(client, "bob_k")
    ada_key, bob_key = SoftAuthenticator(), SoftAuthenticator()
    register(ada, ada_key)
    register(bob, bob_key)
    assert passkey_sign_in(client, bob_key).json()["username"] == "bob_k"
    assert passkey_sign_in(client, ada_key, "ADA_K").json()["username"] == "ada_k"
    # a challenge asked for ada's passkeys, answered by bob's: refused
    offered = sign_in_options(client, "ada_k")
    answer = bob_key.get(offered["options"], credential=bob_key.credentials[0])
    r = client.post(SIGN_IN, json={"challenge_id": offered["challenge_id"], "credential": answer})
    assert_error(r, 401, "bad_credentials")
    assert "set-cookie" not in r.headers


def test_a_username_without_passkeys_gets_the_same_kind_of_answer_as_one_with(client: TestClient) -> None:
    member = sign_up(client, "holder")
    authenticator = SoftAuthenticator()
    register(member, authenticator)
    sign_up(client, "keyless")
    known = sign_in_options(client, "holder")["options"]["allowCredentials"]
    assert [a["id"] for a in known] == [b64url(authenticator.credentials[0].credential_id)]
    for name in ("nobody_here", "keyless"):
        first = sign_in_options(client, name)["options"]["allowCredentials"]
        second = sign_in_options(client, name.upper())["options"]["allowCredentials"]
        assert len(first) == 1 and first == second  # the same stand-in each time: nothing to tell
        assert len(unb64url(first[0]["id"])) == len(authenticator.credentials[0].credential_id)
        assert set(first[0]) == set(known[0]) == {"id", "type"} and first[0]["id"] != known[0]["id"]
    nobody = sign_in_options(client, "nobody_here")["options"]["allowCredentials"]
    assert nobody != sign_in_options(client, "keyless")["options"]["allowCredentials"]


# --- sign-in, CSRF, single use, expiry ---------------------------------------------------------------
def test_passkey_routes_of_the_account_need_sign_in_and_the_csrf_token(client: TestClient) -> None:
    member = sign_up(client, "guarded")
    registered = register(member, SoftAuthenticator())
    for method, url in (
        ("POST", OPTIONS),
        ("POST", PASSKEYS),
        ("GET", PASSKEYS),
        ("DELETE", f"{PASSKEYS}/{registered['id']}"),
        ("POST", PROOF_OPTIONS),
    ):
        body = {"challenge_id": "x", "credential": {}} if url == PASSKEYS and method == "POST" else None
        assert_error(client.request(method, url, json=body), 401, "sign_in_required")
        if method != "GET":
            assert_error(member.request(method, url, csrf=False, json=body), 403, "csrf")
    assert len(member.get(PASSKEYS).json()) == 1


def test_a_challenge_is_answered_once(client: TestClient, db_url: str) -> None:
    member = sign_up(client, "once")
    authenticator = SoftAuthenticator()
    offered = member.post(OPTIONS).json()
    answer = authenticator.create(offered["options"])
    body = {"challenge_id": offered["challenge_id"], "credential": answer, "name": "first"}
    assert member.post(PASSKEYS, json=body).status_code == 201
    assert_error(member.post(PASSKEYS, json=body), 400, "challenge_expired")
    assert count(db_url, "passkeys") == 1
    # a sign-in answer replayed
    offered = sign_in_options(client)
    body = {"challenge_id": offered["challenge_id"], "credential": authenticator.get(offered["options"])}
    assert client.post(SIGN_IN, json=body).status_code == 200
    client.cookies.clear()
    assert_error(client.post(SIGN_IN, json=body), 400, "challenge_expired")
    assert count(db_url, "account_sessions") == 2
    # a challenge is used up by a well-formed answer that fails too: no second try against it
    offered = sign_in_options(client)
    wrong = authenticator.get(offered["options"], origin="http://elsewhere.example")
    body = {"challenge_id": offered["challenge_id"], "credential": wrong}
    assert_error(client.post(SIGN_IN, json=body), 401, "bad_credentials")
    body["credential"] = authenticator.get(offered["options"])
    assert_error(client.post(SIGN_IN, json=body), 400, "challenge_expired")
    assert count(db_url, "webauthn_challenges") == 0


@pytest.mark.slow
def test_a_challenge_expires_and_expired_ones_are_swept(client: TestClient, db_url: str) -> None:
    member = sign_up(client, "slowpoke")
    authenticator = SoftAuthenticator()
    offered = member.post(OPTIONS).json()
    answer = authenticator.create(offered["options"])
    for _ in range(3):
        sign_in_options(client)
    assert count(db_url, "webauthn_challenges") == 4
    with_expiry = db_rows(db_url, "SELECT expires FROM webauthn_challenges")
    assert all(290 < row.expires - time.time() <= 300 for row in with_expiry)  # five minutes
    age_challenges(db_url)
    body = {"challenge_id": offered["challenge_id"], "credential": answer, "name": "late"}
    assert_error(member.post(PASSKEYS, json=body), 400, "challenge_expired")
    assert member.get(PASSKEYS).json() == []
    assert count(db_url, "webauthn_challenges") == 3
    sign_in_options(client)  # handing out a challenge sweeps the expired ones away
    assert count(db_url, "webauthn_challenges") == 1


def age_challenges(db_url: str) -> None:
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE webauthn_challenges SET expires = expires - 301"))
    finally:
        engine.dispose()


def test_a_challenge_serves_only_its_own_purpose_and_account(client: TestClient) -> None:
    ada, bob = sign_up(client, "ada_p"), sign_up(client, "bob_p")
    authenticator = SoftAuthenticator()
    register(ada, authenticator)
    # ada's registration challenge answered by bob
    offered = ada.post(OPTIONS).json()
    answer = SoftAuthenticator().create(offered["options"])
    body = {"challenge_id": offered["challenge_id"], "credential": answer}
    assert_error(bob.post(PASSKEYS, json=body), 400, "challenge_expired")
    # a proof challenge used to sign in, a sign-in challenge used as a proof
    proof = ada.post(PROOF_OPTIONS).json()
    body = {"challenge_id": proof["challenge_id"], "credential": authenticator.get(proof["options"])}
    assert_error(client.post(SIGN_IN, json=body), 400, "challenge_expired")
    offered = sign_in_options(client)
    body = {"challenge_id": offered["challenge_id"], "credential": authenticator.get(offered["options"])}
    assert_error(ada.request("DELETE", "/api/account", json={"passkey": body}), 400, "challenge_expired")
    assert ada.get("/api/account").status_code == 200


def test_registration_needs_the_right_origin_and_rp_id(client: TestClient) -> None:
    member = sign_up(client, "origins")
    for origin, rp_id in (("http://evil.example", None), (None, "evil.example")):
        offered = member.post(OPTIONS).json()
        options = copy.deepcopy(offered["options"])
        if rp_id:
            options["rp"]["id"] = rp_id
        answer = SoftAuthenticator().create(options, origin=origin)
        r = member.post(PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": answer})
        assert_error(r, 400, "bad_passkey")
    assert member.get(PASSKEYS).json() == []


def test_the_rp_id_and_origin_come_from_the_settings_behind_a_proxy(tmp_path: Path) -> None:
    config = Settings.from_env(rp_id="play.example.org", origin="https://play.example.org")
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", ai_delay=0.0, settings=config)
    ) as client:
        member = sign_up(client, "proxied")
        offered = member.post(OPTIONS).json()
        assert offered["options"]["rp"]["id"] == "play.example.org"
        authenticator = SoftAuthenticator(origin="https://play.example.org")
        answer = authenticator.create(offered["options"])
        assert (
            member.post(
                PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": answer}
            ).status_code
            == 201
        )
        assert passkey_sign_in(client, authenticator).json()["username"] == "proxied"
        authenticator.origin = "http://testserver"  # the request's own origin is not the public one
        assert_error(passkey_sign_in(client, authenticator), 401, "bad_credentials")


@pytest.mark.slow
def test_the_sign_count_must_grow_where_the_authenticator_keeps_one(client: TestClient) -> None:
    member = sign_up(client, "counter")
    counting = SoftAuthenticator()
    register(member, counting)
    assert passkey_sign_in(client, counting).status_code == 200
    assert passkey_sign_in(client, counting).status_code == 200
    counting.credentials[0].sign_count = 1  # a clone of the authenticator, behind the original
    assert_error(passkey_sign_in(client, counting), 401, "bad_credentials")
    # an authenticator that keeps no count (always 0) signs in every time
    still = SoftAuthenticator(counting=False)
    register(member, still, name="no count")
    for _ in range(3):
        assert passkey_sign_in(client, still).status_code == 200


@pytest.mark.slow
def test_passkey_sign_in_counts_against_the_sign_in_limit(tmp_path: Path) -> None:
    config = Settings.from_env(rate_signin_client="4/minute")
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 'l.sqlite3'}", ai_delay=0.0, settings=config)
    ) as client:
        member = sign_up(client, "limited")
        authenticator = SoftAuthenticator()
        register(member, authenticator)
        assert passkey_sign_in(client, authenticator).status_code == 200  # options + answer: 2
        assert passkey_sign_in(client, authenticator).status_code == 200
        r = client.post(SIGN_IN_OPTIONS, json={})
        assert_error(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1


# --- listing and removing ----------------------------------------------------------------------------
def test_members_list_and_remove_only_their_own_passkeys(client: TestClient, db_url: str) -> None:
    ada, bob = sign_up(client, "ada_l"), sign_up(client, "bob_l")
    laptop, phone = SoftAuthenticator(), SoftAuthenticator()
    first = register(ada, laptop, "laptop")
    second = register(ada, phone, "phone")
    register(bob, SoftAuthenticator(), "bob's")
    assert [p["name"] for p in ada.get(PASSKEYS).json()] == ["laptop", "phone"]
    assert [p["name"] for p in bob.get(PASSKEYS).json()] == ["bob's"]
    assert_error(bob.delete(f"{PASSKEYS}/{first['id']}"), 404, "passkey_not_found")
    assert_error(ada.delete(f"{PASSKEYS}/999999"), 404, "passkey_not_found")
    assert_error(ada.delete(f"{PASSKEYS}/0"), 422, "invalid_request")
    assert count(db_url, "passkeys") == 3
    assert ada.delete(f"{PASSKEYS}/{first['id']}").json() == {"removed": True}
    assert [p["id"] for p in ada.get(PASSKEYS).json()] == [second["id"]]
    # the removed passkey signs in no more; the other still does
    assert_error(passkey_sign_in(client, laptop), 401, "bad_credentials")
    assert passkey_sign_in(client, phone).json()["username"] == "ada_l"


def test_a_passkey_name_is_bounded(client: TestClient) -> None:
    member = sign_up(client, "namer")
    for name, status in (("x" * 65, 422), ("tab\there", 422), ("", 422)):
        offered = member.post(OPTIONS).json()
        answer = SoftAuthenticator().create(offered["options"])
        r = member.post(
            PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": answer, "name": name}
        )
        assert_error(r, status, "invalid_request")
    assert member.get(PASSKEYS).json() == []


# --- deleting the account with a passkey -------------------------------------------------------------
@pytest.mark.slow
def test_delete_the_account_confirmed_by_a_passkey(client: TestClient, db_url: str) -> None:
    leaving, other = sign_up(client, "leaving_k"), sign_up(client, "other_k")
    assert_error(leaving.post(PROOF_OPTIONS), 404, "passkey_not_found")
    mine, theirs = SoftAuthenticator(), SoftAuthenticator()
    register(leaving, mine)
    register(other, theirs)
    proof = leaving.post(PROOF_OPTIONS).json()
    assert [a["id"] for a in proof["options"]["allowCredentials"]] == [
        b64url(mine.credentials[0].credential_id)
    ]
    # neither proof, or both: 400
    assert_error(leaving.request("DELETE", "/api/account", json={}), 400, "bad_request")
    both = {"password": PASSWORD, "passkey": {"challenge_id": proof["challenge_id"], "credential": {}}}
    assert_error(leaving.request("DELETE", "/api/account", json=both), 400, "bad_request")
    # another member's passkey does not confirm
    wrong = theirs.get(proof["options"], credential=theirs.credentials[0])
    body = {"passkey": {"challenge_id": proof["challenge_id"], "credential": wrong}}
    assert_error(leaving.request("DELETE", "/api/account", json=body), 403, "wrong_passkey")
    assert leaving.get("/api/account").status_code == 200
    proof = leaving.post(PROOF_OPTIONS).json()
    body = {"passkey": {"challenge_id": proof["challenge_id"], "credential": mine.get(proof["options"])}}
    r = leaving.request("DELETE", "/api/account", json=body)
    assert r.status_code == 200 and r.json() == {"deleted": True}, r.text
    assert_error(leaving.get("/api/account"), 401, "sign_in_required")
    assert count(db_url, "passkeys") == 1 and count(db_url, "accounts") == 1
    assert_error(passkey_sign_in(client, mine), 401, "bad_credentials")
    assert passkey_sign_in(client, theirs).json()["username"] == "other_k"


# --- malformed answers: 4xx, nothing changes ---------------------------------------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
base64ish = st.one_of(
    st.binary(max_size=80).map(b64url),
    st.text(alphabet="ABCabc019-_=+/!. ", max_size=40),
)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("passkeys") / "fuzz.sqlite3"
    config = Settings.from_env(rate_signin_client="1000000/minute", rate_signup="1000000/hour")
    with TestClient(create_app(f"sqlite:///{db}", ai_delay=0.0, settings=config)) as c:
        yield c


@st.composite
def mangled(draw: st.DrawFn, valid: dict[str, Any]) -> dict[str, Any]:
    """A valid answer with some of its fields replaced, removed or added (or any JSON object)."""
    if draw(st.integers(0, 5)) == 0:
        out: dict[str, Any] = draw(st.dictionaries(st.text(max_size=12), json_values, max_size=6))
        return out
    doc = copy.deepcopy(valid)
    for _ in range(draw(st.integers(1, 3))):
        where = (
            doc if draw(st.booleans()) else doc["response"] if isinstance(doc.get("response"), dict) else doc
        )
        key = draw(st.sampled_from([*sorted(where), "extra"]))
        action = draw(st.integers(0, 3))
        if action == 0:
            where.pop(key, None)
        elif action == 3 and isinstance(where.get(key), str) and key != "type":
            # binary data cut or with bytes overwritten (CBOR, authenticator data, client data)
            try:
                raw = bytearray(unb64url(where[key]))
            except ValueError:  # not base64url (an earlier mangling)
                raw = bytearray(where[key].encode())
            at = len(raw) * draw(st.integers(0, 100)) // 100  # (lengths vary: a DER signature's)
            patch = draw(st.binary(max_size=8))
            cut = draw(st.booleans())
            raw[at:] = patch if cut else patch + raw[at + len(patch) :]
            where[key] = b64url(bytes(raw))
        elif action == 1:
            where[key] = draw(base64ish)
        else:
            where[key] = draw(json_values)
    return doc


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_malformed_registrations_get_4xx_and_change_nothing(
    fuzz_client: TestClient, data: st.DataObject
) -> None:
    member = fuzz_member(fuzz_client, "fuzzreg")
    offered = member.post(OPTIONS).json()
    valid = SoftAuthenticator().create(offered["options"])
    credential = data.draw(mangled(valid))
    r = member.post(PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": credential})
    if r.status_code == 201:  # the mangling left the answer intact (an unknown field added)
        member.delete(f"{PASSKEYS}/{r.json()['id']}")
    else:
        assert 400 <= r.status_code < 500, r.text
        assert r.json()["error"] in CODES
    assert member.get(PASSKEYS).json() == []


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_malformed_sign_ins_and_proofs_get_4xx_and_change_nothing(
    fuzz_client: TestClient, data: st.DataObject
) -> None:
    member = fuzz_member(fuzz_client, "fuzzsign")
    authenticator = FUZZ_KEYS.setdefault("fuzzsign", SoftAuthenticator(counting=False))
    if not authenticator.credentials:
        register(member, authenticator)
    offered = sign_in_options(fuzz_client)
    credential = data.draw(mangled(authenticator.get(offered["options"])))
    r = fuzz_client.post(SIGN_IN, json={"challenge_id": offered["challenge_id"], "credential": credential})
    fuzz_client.cookies.clear()
    if r.status_code != 200:  # (200: the mangling left the answer intact)
        assert 400 <= r.status_code < 500, r.text
        assert r.json()["error"] in CODES and "set-cookie" not in r.headers
    proof = member.post(PROOF_OPTIONS).json()
    credential = data.draw(mangled(authenticator.get(proof["options"])))
    r = member.request(
        "DELETE",
        "/api/account",
        json={"passkey": {"challenge_id": proof["challenge_id"], "credential": credential}},
    )
    if r.status_code == 200:
        FUZZ_MEMBERS.pop("fuzzsign")
        FUZZ_KEYS.pop("fuzzsign")
    else:
        assert 400 <= r.status_code < 500, r.text
        assert member.get("/api/account").json()["username"] == "fuzzsign"
        assert len(member.get(PASSKEYS).json()) == 1


FUZZ_MEMBERS: dict[str, Member] = {}
FUZZ_KEYS: dict[str, SoftAuthenticator] = {}


def fuzz_member(client: TestClient, name: str) -> Member:
    if name not in FUZZ_MEMBERS:
        FUZZ_MEMBERS[name] = sign_up(client, name)
    return FUZZ_MEMBERS[name]


def test_a_signed_in_cookie_is_set_like_a_password_sign_in(client: TestClient) -> None:
    member = sign_up(client, "cookies")
    authenticator = SoftAuthenticator()
    register(member, authenticator)
    r = passkey_sign_in(client, authenticator)
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert set(r.json()) == {"username", "csrf_token"}


# --- every error is documented -----------------------------------------------------------------------
@pytest.mark.slow
def test_too_many_passkeys_are_refused(client: TestClient, db_url: str) -> None:
    member = sign_up(client, "collector")
    for i in range(MOST_PASSKEYS - 1):
        register(member, SoftAuthenticator(), f"key {i}")
    # two ceremonies begun with one place left: the second to finish is refused
    first, second = member.post(OPTIONS).json(), member.post(OPTIONS).json()
    for offered, status in ((first, 201), (second, 409)):
        answer = SoftAuthenticator().create(offered["options"])
        r = member.post(PASSKEYS, json={"challenge_id": offered["challenge_id"], "credential": answer})
        assert r.status_code == status, r.text
    assert_error(r, 409, "too_many_passkeys")
    assert_error(member.post(OPTIONS), 409, "too_many_passkeys")
    assert count(db_url, "passkeys") == MOST_PASSKEYS


@pytest.mark.slow
def test_every_error_of_the_passkey_routes_is_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    seen: list[tuple[str, str, Any]] = []

    def check(method: str, template: str, response: Any) -> Any:
        seen.append((method, template, response))
        return response

    ada, bob = sign_up(client, "ada_doc"), sign_up(client, "bob_doc")
    key = SoftAuthenticator()
    made = register(ada, key)
    check("post", OPTIONS, client.post(OPTIONS))
    check("post", OPTIONS, ada.post(OPTIONS, csrf=False))
    check("post", PASSKEYS, ada.post(PASSKEYS, json={"challenge_id": "x", "credential": {"id": 1}}))
    check("post", PASSKEYS, ada.post(PASSKEYS, json={"challenge_id": "x" * 65, "credential": {}}))
    check("post", PASSKEYS, ada.post(PASSKEYS, content=b"{", headers={"content-type": "application/json"}))
    check(
        "post",
        PASSKEYS,
        ada.post(PASSKEYS, content=b"x" * 70_000, headers={"content-type": "application/json"}),
    )
    offered = bob.post(OPTIONS).json()
    answer = SoftAuthenticator().create(offered["options"], reuse=key.credentials[0])  # ada's credential
    body = {"challenge_id": offered["challenge_id"], "credential": answer}
    check("post", PASSKEYS, bob.post(PASSKEYS, json=body))
    check("post", PASSKEYS, bob.post(PASSKEYS, json=body))
    check("get", PASSKEYS, client.get(PASSKEYS))
    check("delete", PASSKEYS + "/{passkey_id}", bob.delete(f"{PASSKEYS}/{made['id']}"))
    check("delete", PASSKEYS + "/{passkey_id}", bob.delete(f"{PASSKEYS}/x"))
    check("post", PROOF_OPTIONS, bob.post(PROOF_OPTIONS))
    check("post", SIGN_IN_OPTIONS, client.post(SIGN_IN_OPTIONS, json={"username": "a" * 41}))
    check(
        "post",
        SIGN_IN_OPTIONS,
        client.post(SIGN_IN_OPTIONS, content=b"[", headers={"content-type": "application/json"}),
    )
    offered = sign_in_options(client)
    body = {
        "challenge_id": offered["challenge_id"],
        "credential": key.get(offered["options"], origin="http://x"),
    }
    check("post", SIGN_IN, client.post(SIGN_IN, json=body))
    check("post", SIGN_IN, client.post(SIGN_IN, json=body))
    check("post", SIGN_IN, client.post(SIGN_IN, json={"challenge_id": "x", "credential": {}}))
    proof = ada.post(PROOF_OPTIONS).json()
    stranger = SoftAuthenticator()
    register(bob, stranger)
    wrong = {
        "challenge_id": proof["challenge_id"],
        "credential": stranger.get(proof["options"], credential=stranger.credentials[0]),
    }
    check("delete", "/api/account", ada.request("DELETE", "/api/account", json={"passkey": wrong}))
    check("delete", "/api/account", ada.request("DELETE", "/api/account", json={}))
    check(
        "delete",
        "/api/account",
        ada.request("DELETE", "/api/account", json={"passkey": {"challenge_id": "x", "credential": {}}}),
    )
    check("delete", "/api/account", ada.request("DELETE", "/api/account", json={"passkey": wrong}))
    codes = set()
    for method, template, response in seen:
        assert response.status_code >= 400, (method, template, response.text)
        code = response.json()["error"]
        codes.add(code)
        doc = schema["paths"][template][method]["responses"].get(str(response.status_code), {})
        assert f"`{code}`" in doc.get("description", ""), (
            f"{method} {template}: {response.status_code} {code}"
        )
    assert codes == {
        "sign_in_required",
        "csrf",
        "bad_passkey",
        "invalid_request",
        "malformed_json",
        "body_too_large",
        "passkey_taken",
        "challenge_expired",
        "passkey_not_found",
        "bad_credentials",
        "wrong_passkey",
        "bad_request",
    }


def test_a_challenge_taken_by_many_requests_at_once_goes_to_one(db_url: str) -> None:
    """Requests answering one challenge at the same moment (threads, as the service runs the
    store): exactly one gets it, on SQLite and on PostgreSQL."""
    store = Store(db_url)
    store.migrate()
    try:
        passkeys = PasskeyStore(store)
        for _ in range(5):
            challenge_id = passkeys.put_challenge("abc", "sign_in", None)
            start = threading.Barrier(6)

            def take(challenge_id: str = challenge_id, start: threading.Barrier = start) -> bool:
                start.wait()
                return passkeys.take_challenge(challenge_id) is not None

            with ThreadPoolExecutor(6) as pool:
                taken = list(pool.map(lambda _: take(), range(6)))
            assert taken.count(True) == 1, taken
    finally:
        store.close()
