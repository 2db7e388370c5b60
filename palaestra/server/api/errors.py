"""Errors at the edge: one JSON shape ``{"error": CODE, "message": TEXT}`` for every failure, and
the catalogue of codes that each route documents in its OpenAPI ``responses``.

The service layer raises :class:`DomainError` with a code and no HTTP status; ``CODES`` below is the
one place where a code gets its status, and :func:`status_of` the one place where it is looked up.

``errors("game_not_found", ...)`` gives a route's ``responses=``: every status its codes use, each
described by the codes it can carry. Every route can also answer 503 ``storage_unavailable``
(database down) and 422 ``invalid_request`` (parameters out of bounds); routes with a body 400
``malformed_json`` and 413 ``body_too_large``; rate-limited ones 429 ``rate_limited``.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from palaestra.server.api.guards import RateLimited
from palaestra.server.api.responses import ErrorBody
from palaestra.server.db import StorageError
from palaestra.server.service.errors import DomainError

log = logging.getLogger("palaestra.server")

#: every error code the API answers, with its status and meaning
CODES: dict[str, tuple[int, str]] = {
    "malformed_json": (400, "the body is not a JSON object"),
    "bad_request": (400, "the request contradicts itself (e.g. both 'action' and 'move')"),
    "bad_options": (400, "unknown game or options it does not take"),
    "option_not_allowed": (400, "an option the web app does not offer (a file on the server)"),
    "bad_seats": (400, "seats do not fit the game (count, kind, AI level)"),
    "seed_not_allowed": (400, "a chosen seed in a game with an invited player"),
    "bad_ply": (400, "no such move in this game"),
    "bad_time_control": (400, "a time control the server cannot run (an unknown AI level)"),
    "bad_rated": (400, "a rated game without what it needs (a clock; no hints, seed or hot seat)"),
    "bad_seek": (400, "a seek that contradicts itself (a rating range on a casual seek, min above max)"),
    "bad_challenge": (400, "a challenge to yourself"),
    "unknown_lesson": (400, "lessons done name a game without a course, or a lesson its course lacks"),
    "bad_username": (400, "a username of 3 to 20 letters, digits, '_' or '-', not reserved"),
    "weak_password": (400, "a password shorter than 10 characters, or a common one"),
    "bad_passkey": (400, "the passkey's answer is malformed, or (registering) does not verify"),
    "bad_subscription": (400, "not a Web Push subscription: an https endpoint, keys p256dh and auth"),
    "challenge_expired": (400, "the passkey challenge is unknown, used, expired or for another purpose"),
    "bad_credentials": (401, "unknown username or wrong password (the same answer for both)"),
    "sign_in_required": (401, "sign in first (a member's request, or a rated game)"),
    "csrf": (403, "a signed-in change without the session's X-CSRF-Token header"),
    "wrong_password": (403, "the password given to confirm is wrong"),
    "wrong_passkey": (403, "the passkey given to confirm is not yours or does not verify"),
    "wrong_token": (403, "the token or code does not belong to a seat of this game"),
    "not_creator": (403, "only the game's creator may do this"),
    "not_poster": (403, "only the poster of a seek may withdraw it"),
    "challenge_refused": (403, "the member does not accept challenges (from you: you have not played)"),
    "not_challenged": (403, "only the member challenged accepts or declines a challenge"),
    "not_challenger": (403, "only the challenger cancels a challenge"),
    "hints_off": (403, "hints are off in this game between people"),
    "game_not_found": (404, "no game with this id"),
    "no_such_seat": (404, "the game has no such seat"),
    "user_not_found": (404, "no member has this username"),
    "no_such_pool": (404, "no rating pool has this id"),
    "seek_not_found": (404, "no seek with this id"),
    "challenge_not_found": (404, "you have no challenge with this id"),
    "passkey_not_found": (404, "you have no passkey with this id (or none at all)"),
    "not_found": (404, "no such file or page"),
    "lesson_not_found": (404, "the game has no course, or its course no such lesson"),
    "game_over": (409, "the game is over"),
    "game_abandoned": (409, "nobody moved for a long time: the game was set aside (kept, read-only)"),
    "stale_action": (409, "the action was meant for another ply: reload"),
    "not_your_turn": (409, "another seat is to move"),
    "waiting_for_players": (409, "an invited player has not joined yet: nobody moves before"),
    "conflict": (409, "the game was changed by another request at the same time: reload"),
    "cannot_undo": (409, "nothing of yours to take back now"),
    "cannot_rematch": (409, "the game has not finished, or a seat of it was never taken"),
    "cannot_claim": (409, "no win to claim: not a real-time game, or the player to move is not gone"),
    "cannot_abort": (409, "every seat has moved: the game can no longer be aborted"),
    "out_of_time": (409, "the seat's time ran out (it lost, or the AI plays its turn)"),
    "no_hint": (409, "no move to hint at now"),
    "not_finished": (409, "analysis is for finished games"),
    "no_invitation": (409, "the seat is not offered by invitation"),
    "seat_taken": (409, "the invitation was used: the seat is taken"),
    "username_taken": (409, "another account has this username (compared without regard to case)"),
    "already_seated": (409, "you hold a seat of this rated game already"),
    "own_seek": (409, "this is your own seek: somebody else accepts it"),
    "out_of_range": (409, "a rating is outside the seek's rating range (or the acceptor's)"),
    "passkey_taken": (409, "this passkey is registered already"),
    "too_many_passkeys": (409, "the account holds the most passkeys allowed (20): remove one first"),
    "too_many_challenges": (409, "you have the most open challenges allowed (20): cancel one first"),
    "invitation_used": (410, "the invitation was used already"),
    "invitation_revoked": (410, "the invitation was withdrawn by the creator"),
    "seek_gone": (410, "the seek is no longer open (taken, withdrawn, expired, or its poster left)"),
    "challenge_gone": (410, "the challenge is no longer open (accepted, declined, cancelled, expired)"),
    "body_too_large": (413, "the body is larger than max_body_bytes"),
    "invalid_request": (422, "a field or parameter breaks its bounds"),
    "illegal_action": (422, "the action is not legal now (the message cites the rule)"),
    "bad_notation": (422, "the move is not in the game's notation"),
    "rate_limited": (429, "too many requests of this kind from this client (see Retry-After)"),
    "busy": (503, "too many sign-ins being checked at once; try again in a moment"),
    "broken_game": (500, "the stored game cannot be loaded or shown (logged for the operator)"),
    "storage_unavailable": (503, "the database does not answer; nothing was changed, try again"),
    "ai_unavailable": (503, "no AI worker answered in time (several server processes); try again"),
}
#: codes every route that touches the database may answer
COMMON = ("invalid_request", "storage_unavailable")
#: codes of every route with a JSON body
WITH_BODY = ("malformed_json", "body_too_large")


def errors(
    *codes: str, body: bool = False, limited: bool = False, common: bool = True
) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may answer ``codes`` (plus the common ones)."""
    every = list(codes) + (list(COMMON) if common else [])
    every += (list(WITH_BODY) if body else []) + (["rate_limited"] if limited else [])
    by_status: dict[int, list[str]] = {}
    for code in every:
        status, _ = CODES[code]
        if code not in by_status.setdefault(status, []):
            by_status[status].append(code)
    return {
        status: {
            "model": ErrorBody,
            "description": "; ".join(f"`{c}`: {CODES[c][1]}" for c in names),
        }
        for status, names in sorted(by_status.items())
    }


def status_of(err: DomainError) -> int:
    """The HTTP status of a domain error: its code's in ``CODES``. A code missing there is a bug
    (tests/server/test_service_layer.py finds them): logged, and answered as 500."""
    known = CODES.get(err.code)
    if known is None:
        log.error("domain error with a code missing from CODES: %r (%s)", err.code, err.message)
        return 500
    return known[0]


def error_response(status: int, code: str, message: str) -> JSONResponse:
    # a message may quote what the client sent: never let its bad text break the answer
    safe = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": code, "message": safe}, status_code=status)


#: statuses of Starlette's and FastAPI's own errors (400: a body FastAPI could not parse, such as
#: JSON nested too deep for the parser)
HTTP_CODES = {400: "malformed_json", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def install_handlers(app: FastAPI) -> None:
    """Every exception becomes the JSON error shape; an unexpected one is logged, never shown."""

    @app.exception_handler(DomainError)
    async def domain_error(request: Request, err: DomainError) -> JSONResponse:
        response = error_response(status_of(err), err.code, err.message)
        if isinstance(err, RateLimited):
            response.headers["Retry-After"] = str(err.retry_after)
        return response

    @app.exception_handler(StorageError)
    async def storage_error(request: Request, err: StorageError) -> JSONResponse:
        return error_response(503, "storage_unavailable", str(err))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, err: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", "an unexpected error; it has been logged")

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, err: RequestValidationError) -> JSONResponse:
        problems = err.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return error_response(400, "malformed_json", "the request body is not valid JSON")
        if any(tuple(p.get("loc", ())) == ("body",) for p in problems):
            return error_response(400, "malformed_json", "the request body must be a JSON object")
        parts = []
        for p in problems[:3]:
            where = ".".join(str(x) for x in p.get("loc", ()) if x != "body")
            parts.append(f"{where or 'body'}: {p.get('msg', 'invalid')}")
        return error_response(422, "invalid_request", "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        return error_response(err.status_code, HTTP_CODES.get(err.status_code, "http_error"), str(err.detail))
