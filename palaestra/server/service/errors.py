"""The one error type of the service layer: what the client is told, with an HTTP status."""

from __future__ import annotations


class ApiError(Exception):
    """An error for the client: HTTP status, a short code and a message for a person.

    The API layer turns it into ``{"error": code, "message": message}`` with the status; the
    codes each route can answer are listed in its OpenAPI ``responses`` (palaestra/server/api/errors.py).
    """

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
