"""Settings for the whole suite.

Hypothesis's default deadline (200 ms an example) is a timing assertion in disguise: on a shared
machine, or in a first example that imports a module, a correct example can take longer and fail.
Timings are measured by benchmarks/, never asserted in tests, so no example has a deadline here.

The tests come in tiers (docs/testing.md): ``browser``, ``services`` and ``slow`` are pytest marks,
set here from the fixtures a test uses where that is certain, and by hand in the modules otherwise;
``--quick`` runs the rest.
"""

import pytest
from hypothesis import settings

settings.register_profile("palaestra", deadline=None)
settings.load_profile("palaestra")


# --- test tiers (docs/testing.md) -------------------------------------------------------------------
#: a test that uses one of these fixtures drives a real browser (Playwright + Chromium)
BROWSER_FIXTURES = frozenset({"browser"})
#: a test that uses one of these fixtures needs a service or a process of its own: a PostgreSQL
#: cluster, a Redis server, server and worker processes (tests/server/conftest.py, test_browser.py,
#: test_cluster.py)
SERVICE_FIXTURES = frozenset({"postgres", "redis_server", "cluster", "server"})
TIERS = ("browser", "services", "slow")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--quick",
        action="store_true",
        help="the quick tier: leave out the tests marked browser, services or slow (docs/testing.md)",
    )


def tier_of(item: pytest.Item) -> str | None:
    """The tier a test belongs to by what it uses, or None (then only its own marks say)."""
    names = set(getattr(item, "fixturenames", ()))
    if names & BROWSER_FIXTURES:
        return "browser"
    callspec = getattr(item, "callspec", None)
    on_postgres = callspec is not None and callspec.params.get("db_url") == "postgresql"
    if names & SERVICE_FIXTURES or on_postgres:
        return "services"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by the fixtures it uses (the marks by hand stay), and with ``--quick`` leave
    out every test of the three tiers."""
    for item in items:
        tier = tier_of(item)
        if tier is not None:
            item.add_marker(tier)
    if config.getoption("--quick"):
        tiered = [any(item.get_closest_marker(t) for t in TIERS) for item in items]
        config.hook.pytest_deselected(items=[item for item, t in zip(items, tiered, strict=True) if t])
        items[:] = [item for item, t in zip(items, tiered, strict=True) if not t]
