"""JSON logs (``parlour serve --json-logs``): one JSON object per line on standard error.

Each line has ``time`` (ISO 8601, UTC), ``level`` (``INFO``, ``ERROR``...), ``logger``,
``message``, and where known ``request_id`` (the request's ``X-Request-ID``, or one made up
and sent back in that header) and ``table_id`` (from the request's path, or a server record
about a table); a record with a traceback has ``exception``.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
TABLE_ID: contextvars.ContextVar[int | None] = contextvars.ContextVar("table_id", default=None)
_GIVEN_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_TABLE_PATH = re.compile(r"^/tables/(\d{1,10})(?:/|$)")


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            out["request_id"] = request_id
        table_id = getattr(record, "table_id", None) or TABLE_ID.get() or _table_of(record)
        if table_id is not None:
            out["table_id"] = table_id
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def _table_of(record: logging.LogRecord) -> int | None:
    """The table of the server's ``"table %s: ..."`` records."""
    if isinstance(record.msg, str) and record.msg.startswith("table %s") and record.args:
        first = record.args[0] if isinstance(record.args, tuple) else None
        if isinstance(first, int):
            return first
    return None


def log_config(level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` configuration (uvicorn's ``log_config``) sending the
    server's and uvicorn's records to standard error as JSON lines at *level*."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    loggers = ("uvicorn", "uvicorn.error", "uvicorn.access", "parlour")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"json": handler},
        "loggers": {
            name: {"handlers": ["json"], "level": level.upper(), "propagate": False}
            for name in loggers
        },
    }


class RequestIds:
    """Gives each HTTP request and WebSocket an id (``X-Request-ID`` when the client or the
    proxy sent a sensible one) and notes the table its path names, for the log lines."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), b"")
        text = given.decode("latin-1")
        request_id = text if _GIVEN_ID.fullmatch(text) else secrets.token_hex(8)
        found = _TABLE_PATH.match(scope.get("path", ""))
        request_token = REQUEST_ID.set(request_id)
        table_token = TABLE_ID.set(int(found.group(1)) if found else None)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            REQUEST_ID.reset(request_token)
            TABLE_ID.reset(table_token)
