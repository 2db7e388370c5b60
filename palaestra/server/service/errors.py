"""The one error type of the service layer: a domain error, free of HTTP.

A :class:`DomainError` says what went wrong as a short ``code`` (``"game_not_found"``,
``"not_your_turn"``) and a ``message`` for a person. It carries no HTTP status: the API edge
(palaestra/server/api/errors.py) answers ``{"error": code, "message": message}`` with the status
it finds for ``code`` in its catalogue ``CODES``, the only place where statuses are chosen
(docs/web.md, "Errors"). A code missing from that catalogue fails the tests
(tests/server/test_service_layer.py).
"""

from __future__ import annotations

#: codes that report a failure of the server (a stored game that does not load, no AI worker,
#: too many sign-ins being checked, the database away) rather than a refusal of the request:
#: they are never judged again on a fresher copy of the game, and never counted as a refusal
FAILURES = frozenset({"broken_game", "ai_unavailable", "busy", "storage_unavailable"})


class DomainError(Exception):
    """An error for the client: a short code and a message for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def failure(self) -> bool:
        """Whether this is a failure of the server (see :data:`FAILURES`), not a refusal."""
        return self.code in FAILURES
