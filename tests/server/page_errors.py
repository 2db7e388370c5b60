"""Every browser test fails on any uncaught page error (issue 30).

The browsers of the tests (the ``browser`` fixture of test_browser.py) are :class:`CheckedBrowser`:
every page of every context they make reports its uncaught errors to :data:`ERRORS`, which the
autouse fixture of conftest.py empties before each test and requires empty after it."""

from __future__ import annotations

from typing import Any

#: the uncaught page errors of the running test: "URL: error"
ERRORS: list[str] = []


class CheckedBrowser:
    """A Playwright browser whose contexts' pages report their uncaught errors to ERRORS."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.on("page", watch)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        watch(page)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def watch(page: Any) -> None:
    page.on("pageerror", lambda error: ERRORS.append(f"{page.url}: {error}"))
