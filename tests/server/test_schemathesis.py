"""Issue 17, "done means": a bounded, seeded schemathesis run against the app finds 0 server errors.

Every operation of the OpenAPI schema (``/openapi.json``) gets requests schemathesis generates from
it, inside the schema (positive) and outside it (negative: wrong types, missing fields, values out
of their bounds), on an unknown game id, an active game and a finished one. No answer may be a 5xx
(the database is up; a 503 would be a bug here too), and every error answered must be documented
by its operation in the schema, status and code (issue 17, "the OpenAPI schema documents every
response and error"). Bounded and repeatable: ``EXAMPLES`` cases
per operation, mode and game, with hypothesis derandomized (the same cases on every run), about
6 s of CPU per database on this machine. SQLite and PostgreSQL.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode

from palaestra.server.app import create_app
from palaestra.server.settings import Settings
from tests.server.test_api import HUMANS
from tests.server.test_openapi import documented_codes

pytestmark = pytest.mark.slow

#: cases per operation, generation mode and game id
EXAMPLES = 6
#: the rate limits are not what is tested here
UNLIMITED = Settings(
    rate_create="100000/minute",
    rate_actions="100000/minute",
    rate_hints="100000/minute",
    rate_analysis="100000/minute",
)


@pytest.fixture
def fuzzed(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, ai_delay=0.0, settings=UNLIMITED)
    with TestClient(app, raise_server_exceptions=False) as client:  # a bug answers 500 here
        yield client


def send(client: TestClient, case: Any) -> Any:
    """Send a schemathesis case through the test client (its requests-style arguments)."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    assert not kwargs.get("cookies")  # the API reads no cookie
    body: dict[str, Any] = {}
    if "json" in kwargs:
        body["json"] = kwargs["json"]
    if "data" in kwargs:
        body["content"] = kwargs["data"]
    return client.request(
        kwargs["method"],
        kwargs["url"],
        headers=kwargs.get("headers"),
        params=kwargs.get("params"),
        **body,
    )


def test_schemathesis_finds_no_server_error(fuzzed: TestClient) -> None:
    client = fuzzed
    raw = client.get("/openapi.json").json()
    schema = schemathesis.openapi.from_dict(raw)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    active = client.post("/api/games", json={"game": "nim", "seats": HUMANS, "public": True}).json()
    done = client.post("/api/games", json={"game": "nim", "options": {"stones": 1}, "seats": HUMANS}).json()
    first = {"token": done["seats"][0]["token"], "ply": 0, "action": 1}
    assert client.post(f"/api/games/{done['id']}/actions", json=first).json()["status"] == "finished"
    answered: list[int] = []
    server_errors: list[str] = []
    undocumented: set[tuple[str, str, int, str]] = set()
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    for operation, mode, game_id in itertools.product(operations, modes, (None, active["id"], done["id"])):
        if game_id is not None and "{game_id}" not in operation.path:
            continue
        fixed = {"game_id": game_id} if game_id is not None else None
        cases = operation.as_strategy(generation_mode=mode, path_parameters=fixed)

        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=cases)
        def check(case: Any) -> None:
            response = send(client, case)
            answered.append(response.status_code)
            status = response.status_code
            if status >= 500:
                server_errors.append(f"{case.method} {case.formatted_path}: {status} {response.text}")
            elif status >= 400:  # every error answered is documented by its operation, with its code
                code = response.json()["error"]
                path, method = case.operation.path, case.operation.method
                if code not in documented_codes(raw["paths"][path][method.lower()], status):
                    undocumented.add((method, path, status, code))

        try:
            check()
        except Unsatisfiable:  # no negative case for an operation without inputs
            assert mode is GenerationMode.NEGATIVE
    assert server_errors == []
    assert undocumented == set()
    assert len(answered) > 250
    assert {200, 400, 403, 404, 409, 422} <= set(answered)  # the run reached deep, not only the edge
