"""Domain errors of the server and their one mapping to HTTP.

Routes never catch errors: services raise these (or the engine's
:class:`~parlour.engine.errors.ParlourError`), and the handlers here turn them into a JSON
body ``{"detail": <reason>, "code": <name>, ...}`` with the right status.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sqlalchemy_errors
from starlette.exceptions import HTTPException as StarletteHTTPException

from parlour.engine.errors import IllegalMove, InvalidNotation, ParlourError


class ServerError(Exception):
    """Base of the server's errors: an HTTP ``status``, a short ``code``, and a reason."""

    status = 400
    code = "bad_request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body: ``detail``, ``code`` and any extra fields."""
        return {"detail": self.detail, "code": self.code, **self.extra}


class Unauthorized(ServerError):
    """No valid login (401)."""

    status = 401
    code = "unauthorized"


class Forbidden(ServerError):
    """Logged in, but not allowed: another player's seat, not the creator (403)."""

    status = 403
    code = "forbidden"


class NotFound(ServerError):
    """No such table or account, or one this account may not see (404)."""

    status = 404
    code = "not_found"


class Conflict(ServerError):
    """The request clashes with the table's state: seat taken, game started (409)."""

    status = 409
    code = "conflict"


class NotYourTurn(Conflict):
    """An action the rules refuse because another seat is to move; the reason names who,
    by name (409)."""

    code = "not_your_turn"


class StaleVersion(Conflict):
    """The action was made against an old version; ``current`` carries the table now (409)."""

    code = "stale_version"


class Refused(ServerError):
    """A well-formed request the rules or limits refuse, with the reason (422)."""

    status = 422
    code = "refused"


class TooLarge(ServerError):
    """A request body over the limit (413)."""

    status = 413
    code = "too_large"


class RateLimited(ServerError):
    """Too many failed logins or sign-ups; try again after ``retry_after`` seconds (429)."""

    status = 429
    code = "rate_limited"


class Unavailable(ServerError):
    """The server cannot answer now (503): the database does not (with ``retry_after``,
    seconds, sent as ``Retry-After``), or its writer stopped and it can store nothing."""

    status = 503
    code = "unavailable"


DATABASE_RETRY_SECONDS = 5
"""The ``Retry-After`` of a 503 while the database does not answer (seconds)."""
DATABASE_DOWN = (
    sqlalchemy_errors.OperationalError,  # refused, reset, timed out, locked: try again
    sqlalchemy_errors.InterfaceError,
    sqlalchemy_errors.TimeoutError,  # no connection free in the pool
)
"""The database errors that say the database is not answering (not that a request is bad)."""
log = logging.getLogger("parlour.server")


def engine_code(err: ParlourError) -> str:
    if isinstance(err, IllegalMove):
        return "illegal_move"
    if isinstance(err, InvalidNotation):
        return "invalid_notation"
    return type(err).__name__.lower()


def _plain(where: str, problem: str) -> str:
    """One problem as a person reads it: ``name: <reason>``, without the ``body.`` prefix."""
    field = where.removeprefix("body").removeprefix(".")
    return f"{field}: {problem}" if field else problem


_PLAIN_WORDS = {
    "string_too_short": "too short: at least {min_length} {characters}",
    "string_too_long": "too long: at most {max_length} {characters}",
    "missing": "missing",
}
"""Pydantic's error types put in a person's words (its own words, such as "String should
have at least 8 characters", are kept for the others); ``{characters}`` agrees with the
length (1 character)."""


def _problem(item: Mapping[str, Any]) -> str:
    """One pydantic error's reason in plain words (:data:`_PLAIN_WORDS`)."""
    words = _PLAIN_WORDS.get(str(item.get("type", "")))
    if words is not None:
        ctx = dict(item.get("ctx") or {})
        length = ctx.get("min_length", ctx.get("max_length"))
        ctx["characters"] = "character" if length == 1 else "characters"
        try:
            return words.format(**ctx)
        except (KeyError, IndexError):
            pass
    return str(item.get("msg", "")).removeprefix("Value error, ")  # pydantic's


def invalid_request(errors: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The 422 answer to a body the wire models (:mod:`parlour.server.schemas`) refuse, from
    pydantic's *errors*: ``{"detail": "action: <reason>; ...", "code": "invalid_request",
    "problems": [{"where", "problem"}, ...]}``. REST routes and the WebSocket both answer it."""
    problems = []
    for item in errors:
        where = ".".join(str(p) for p in item.get("loc", ()))
        problem = _problem(item)
        if item.get("type") == "json_invalid":  # FastAPI's: ("body", position), no reason
            loc = tuple(item.get("loc", ()))
            reason = str((item.get("ctx") or {}).get("error", "")) or "it cannot be read"
            at = f" (at character {loc[-1]})" if len(loc) > 1 else ""
            where, problem = "body", f"the body is not JSON: {reason}{at}"
        problems.append({"where": where, "problem": problem})
    text = "; ".join(_plain(p["where"], p["problem"]) for p in problems) or "invalid request"
    return {"detail": text, "code": "invalid_request", "problems": problems}


def server_error_response(err: ServerError) -> JSONResponse:
    """The answer to *err*: its status and body, ``Retry-After`` when it has one, and
    ``WWW-Authenticate: Bearer`` for a 401."""
    headers = {}
    if "retry_after" in err.extra:
        headers["Retry-After"] = str(err.extra["retry_after"])
    if isinstance(err, Unauthorized):
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(err.body(), status_code=err.status, headers=headers)


def database_down_response(err: Exception) -> JSONResponse:
    """The 503 answer when the database does not answer (*err*, one of
    :data:`DATABASE_DOWN`), logged as a warning."""
    log.warning("the database is not answering: %s", type(err).__name__)
    down = Unavailable(
        "the database is not answering: try again shortly",
        retry_after=DATABASE_RETRY_SECONDS,
    )
    return server_error_response(down)


def engine_error_response(err: ParlourError) -> JSONResponse:
    """The 422 answer to the engine's refusal *err* (``detail``, ``code``)."""
    return JSONResponse({"detail": str(err), "code": engine_code(err)}, status_code=422)


def install(app: FastAPI) -> None:
    """Register the handlers that map errors to responses on *app*."""

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, err: ServerError) -> JSONResponse:
        return server_error_response(err)

    async def _database_down(_request: Request, err: Exception) -> JSONResponse:
        return database_down_response(err)

    for kind in DATABASE_DOWN:
        app.add_exception_handler(kind, _database_down)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, _err: Exception) -> JSONResponse:
        # the error is still logged with its traceback (by the server); the client gets
        # the documented shape, not a plain-text page
        return JSONResponse(
            {"detail": "the server failed to answer this request", "code": "internal_error"},
            status_code=500,
        )

    @app.exception_handler(ParlourError)
    async def _engine_error(_request: Request, err: ParlourError) -> JSONResponse:
        return engine_error_response(err)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse(invalid_request(err.errors()), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, err: StarletteHTTPException) -> JSONResponse:
        if err.status_code == 400 and isinstance(err.__cause__, UnicodeDecodeError):
            # FastAPI's "There was an error parsing the body": bad JSON, said as such (422)
            problem = {"where": "body", "problem": "the body is not JSON: it is not UTF-8 text"}
            body = {"detail": problem["problem"], "code": "invalid_request", "problems": [problem]}
            return JSONResponse(body, status_code=422)
        return JSONResponse(
            {"detail": str(err.detail), "code": "http_error"},
            status_code=err.status_code,
            headers=getattr(err, "headers", None),
        )
