"""The service layer is free of HTTP, and every domain error code has its one HTTP status.

Issue 32: the service raises :class:`DomainError` with a code; the API edge answers it with the
status that ``CODES`` gives the code (palaestra/server/api/errors.py), the only place where a
status is chosen. These tests read the source (AST) so that a new code, or an HTTP status that
creeps back into the service, fails here and not in production.
"""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from palaestra.server.api.errors import CODES, install_handlers, status_of
from palaestra.server.api.guards import RateLimited
from palaestra.server.service.errors import FAILURES, DomainError
from palaestra.server.service.passwords import HasherBusy

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "palaestra" / "server"
SERVICE = SERVER / "service"
#: where a code is not a literal: the worker passes on the code a search job answered with
#: (itself raised by the service, so checked there)
PASSED_ON = {"worker.py"}
HTTP_MODULES = ("palaestra.server.api", "fastapi", "starlette", "http")


def modules(folder: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(folder.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def error_classes(tree: ast.Module) -> set[str]:
    """``DomainError`` and the classes of this module that derive from it."""
    names = {"DomainError"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) in names for b in node.bases):
            names.add(node.name)
    return names


def raised_codes(path: Path, tree: ast.Module) -> Iterator[tuple[int, ast.expr | None]]:
    """``(line, code)`` of every ``DomainError(code, message)`` and of every
    ``super().__init__(code, message)`` in a class deriving from it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "DomainError":
            yield node.lineno, node.args[0] if node.args else None
        if isinstance(node, ast.ClassDef) and node.name in error_classes(tree) - {"DomainError"}:
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "__init__"
                    and isinstance(call.func.value, ast.Call)
                    and getattr(call.func.value.func, "id", None) == "super"
                ):
                    yield call.lineno, call.args[0] if call.args else None


def test_every_code_raised_is_in_the_catalogue() -> None:
    unknown, found = [], set()
    for path, tree in modules(SERVER):
        for line, code in raised_codes(path, tree):
            where = f"{path.relative_to(ROOT)}:{line}"
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                found.add(code.value)
                if code.value not in CODES:
                    unknown.append(f"{where}: {code.value!r} is not in CODES")
            elif path.name not in PASSED_ON:
                unknown.append(f"{where}: the code is not a string literal (cannot be checked)")
    assert not unknown, "\n".join(unknown)
    # the scan does find the errors (a scan that found none would pass any code)
    assert {"game_not_found", "not_your_turn", "rate_limited", "busy", "broken_game"} <= found


def test_the_service_layer_names_no_http() -> None:
    """No module of the service imports the API layer or a web framework, or passes a number that
    looks like an HTTP status to a domain error."""
    bad = []
    for path, tree in modules(SERVICE):
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                names = []
            for name in names:
                if any(name == m or name.startswith(m + ".") for m in HTTP_MODULES):
                    bad.append(f"{where}:{node.lineno}: imports {name}")
            if isinstance(node, ast.Name) and node.id == "ApiError":
                bad.append(f"{where}:{node.lineno}: names ApiError")
            if isinstance(node, ast.Attribute) and node.attr in ("status_code", "http_status"):
                bad.append(f"{where}:{node.lineno}: reads .{node.attr}")
        for line, code in raised_codes(path, tree):
            if isinstance(code, ast.Constant) and isinstance(code.value, int):
                bad.append(f"{where}:{line}: a domain error with a number ({code.value})")
    assert not bad, "\n".join(bad)


def test_failures_are_the_codes_answered_with_5xx() -> None:
    """What the service treats as a failure of the server (never judged again, never a refusal)
    is exactly what the edge answers with a 5xx status."""
    assert {code for code, (status, _) in CODES.items() if status >= 500} == FAILURES
    assert DomainError("broken_game", "x").failure and not DomainError("game_over", "x").failure


@pytest.fixture
def client() -> TestClient:
    app = FastAPI()
    install_handlers(app)

    @app.get("/raise/{code}")
    async def raise_code(code: str) -> None:
        raise DomainError(code, f"a {code} for the test")

    @app.get("/limited")
    async def limited() -> None:
        raise RateLimited("tries", 7)

    @app.get("/busy")
    async def busy() -> None:
        raise HasherBusy()

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize("code", sorted(CODES))
def test_the_edge_answers_each_code_with_its_status(client: TestClient, code: str) -> None:
    answer = client.get(f"/raise/{code}")
    assert answer.status_code == CODES[code][0]
    assert answer.json() == {"error": code, "message": f"a {code} for the test"}


def test_subclasses_keep_their_extras(client: TestClient) -> None:
    limited = client.get("/limited")
    assert (limited.status_code, limited.headers["Retry-After"]) == (429, "7")
    assert limited.json()["error"] == "rate_limited"
    busy = client.get("/busy")
    assert (busy.status_code, busy.json()["error"]) == (503, "busy")


def test_an_unknown_code_is_logged_and_answered_500(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="palaestra.server"):
        answer = client.get("/raise/no_such_code_at_all")
    assert answer.status_code == 500
    assert "no_such_code_at_all" in caplog.text
    assert status_of(DomainError("game_not_found", "x")) == 404
