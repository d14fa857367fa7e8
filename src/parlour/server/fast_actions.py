"""The hot request's short way: ``POST /tables/{table_id}/actions`` answered without
FastAPI's routing and dependency resolution (issue 21, CPU per action).

An action is nearly every request a busy server gets. Through FastAPI it walked the
router's matching over every route, solved four dependencies, validated the body and
wrapped each response message in several layers: about a quarter of the process's
CPU per action on PostgreSQL (py-spy, ``docs/server.md``). :class:`FastActions`, pure ASGI
middleware innermost in the app's stack (inside the body limit, metrics and the drain),
answers the plain case itself, with the same steps and the same answers as the route in
:mod:`.routers.play`:

- the request is ``POST /tables/<id>/actions`` (id 1 to 2**31 - 1, written plainly) with a
  JSON content type, a ``Authorization: Bearer`` token whose login this process checked
  lately (:func:`~.services.accounts.cached_login`: no thread, no query), and a body that
  :class:`~.schemas.ActionIn` accepts (the same model, in the same mode);
- then it calls :func:`~.services.play.submit_action_async` as the route does, and answers
  its result, or the error the app's handlers would answer (:mod:`.errors`).

Anything else (a cookie login, a token not checked lately, a bad body, another path) goes on
to FastAPI with the body as read, which answers as it always did: a refusal's wording comes
from one place. The route stays for the API docs and for those cases. Metrics label the
request with the route's path, as FastAPI does.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.engine.errors import ParlourError
from parlour.server.errors import (
    DATABASE_DOWN,
    ServerError,
    database_down_response,
    engine_error_response,
    server_error_response,
)
from parlour.server.schemas import ActionIn
from parlour.server.services import accounts, play
from parlour.server.services.context import ServerContext
from parlour.server.wire import dumps_bytes

PATH = re.compile(r"/tables/([1-9][0-9]{0,9})/actions")
"""The path of an action (a table id written plainly: no sign, no leading zero)."""
MAX_ID = 2**31 - 1
ROUTE_PATH = "/tables/{table_id}/actions"


class _Route:
    """What the metrics read of a route: its path template, as FastAPI's route has it."""

    def __init__(self, path: str) -> None:
        self.path = path


class FastActions:
    """Answer plain action requests directly (see the module docstring); pass the rest on."""

    def __init__(self, app: ASGIApp, ctx: ServerContext) -> None:
        self.app = app
        self.ctx = ctx
        self.route = _Route(ROUTE_PATH)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        match = PATH.fullmatch(scope["path"])
        token = _bearer(scope) if match is not None else None
        if match is None or token is None or int(match.group(1)) > MAX_ID:
            await self.app(scope, receive, send)
            return
        account = accounts.cached_login(self.ctx, token)
        if account is None:  # FastAPI asks the database in a thread, and answers 401
            await self.app(scope, receive, send)
            return
        body, more = await _read_body(receive)
        if more is not None:  # a disconnect before the end: let the app see it
            await self.app(scope, _replay(body, more, receive), send)
            return
        action = _valid(body)
        if action is None:
            await self.app(scope, _replay(body, None, receive), send)
            return
        scope["route"] = self.route
        try:
            outcome = await play.submit_action_async(
                self.ctx,
                table_id=int(match.group(1)),
                account_id=account.id,
                text=action.action,
                expected_version=action.version,
            )
        except ServerError as err:
            await server_error_response(err)(scope, receive, send)
            return
        except ParlourError as err:
            await engine_error_response(err)(scope, receive, send)
            return
        except DATABASE_DOWN as err:
            await database_down_response(err)(scope, receive, send)
            return
        payload = dumps_bytes(outcome.result)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-length", str(len(payload)).encode()),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})


def _bearer(scope: Scope) -> str | None:
    """The bearer token of a JSON request, or ``None`` (no token, a cookie, another type, or
    two of either header: FastAPI reads the first, so it decides)."""
    token = None
    json_body: bool | None = None
    for name, value in scope["headers"]:
        if name == b"authorization":
            if token is not None:
                return None  # two: FastAPI decides
            text = value.decode("latin-1")
            if text[:7].lower() != "bearer ":
                return None
            token = text[7:].strip()
        elif name == b"content-type":
            if json_body is not None:
                return None  # two: FastAPI decides
            json_body = value.split(b";", 1)[0].strip().lower() == b"application/json"
    return token if token and json_body else None


async def _read_body(receive: Receive) -> tuple[bytes, Message | None]:
    """The request's body, and the message that cut it short (a disconnect), if any."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), message
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), None


def _replay(body: bytes, last: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that gives *body* again (cut short by *last*, a disconnect, when
    given), then the real one's messages."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": last is not None}]
    if last is not None:
        pending.append(last)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


def _valid(body: bytes) -> ActionIn | None:
    """*body* as :class:`ActionIn`, validated as FastAPI does (JSON, then the model), or
    ``None`` when anything is wrong with it (FastAPI then answers the refusal)."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    try:
        return ActionIn.model_validate(value)
    except ValidationError:
        return None
