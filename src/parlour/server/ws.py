"""The WebSocket: one per player session, at ``/ws``; it pushes each change of the tables it
follows and accepts actions too.

Authentication: the session cookie (a browser on this site: the ``Origin`` must match), an
``Authorization: Bearer`` header, or ``?token=`` (hidden from every log record: see
:func:`hide_tokens_in_logs`). Anonymous sockets may follow open tables as
spectators. Once the login is revoked (logout) or expires, the socket is closed with code
4401 at its next message either way (from the client, or an update for it).

Client to server (JSON objects in text frames, at most ``Settings.max_ws_message_chars``
characters; a binary frame is answered ``error`` ``bad_message``, like any bad message):

- ``{"type": "follow", "table": 7, "invite": null}``: get ``update`` now and after each change;
- ``{"type": "unfollow", "table": 7}``;
- ``{"type": "action", "table": 7, "action": "keep 1 5 roll", "version": 3, "ref": "a1"}``:
  answered by ``ack`` (``ref``, ``version``) or ``error``; the change itself comes as an
  ``update`` to every follower. Its fields besides ``type``, ``table`` and ``ref`` are the
  REST body's (:class:`~parlour.server.schemas.ActionIn`, validated by that model: same
  limits, and the same ``invalid_request`` answer with the same ``detail``);
- ``{"type": "ping"}``: answered by ``pong``.

Server to client: ``hello`` (the account), ``update`` (table, version, status, you, to_move,
your_turn, deadline, view, legal, events since the last update, result), ``turn`` (it is your
turn at a table you do not follow), ``table`` (a lobby changed: fetch it again), ``ack``,
``error`` (``status``, ``code``, ``detail``, ``ref``; a stale action carries ``current``),
``pong``; ``notification`` (one of the account's, :mod:`.services.notifications`) and
``chat`` (a line of a followed table's chat, :mod:`.services.chat`). A client that
reconnects follows again and gets the whole table at its version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any
from urllib.parse import unquote_plus

import anyio.to_thread
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from parlour.engine.errors import ParlourError
from parlour.server.deps import COOKIE, same_origin
from parlour.server.errors import NotFound, ServerError, engine_code, invalid_request
from parlour.server.hub import Follower, Hub
from parlour.server.schemas import ActionIn
from parlour.server.services import accounts, play
from parlour.server.services.cache import current_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.lobby import may_see
from parlour.server.wire import dumps, loads
from parlour.storage.tables import LOBBY, get_seats, get_table

router = APIRouter()
log = logging.getLogger("parlour.server")

MAX_ID = 2**31 - 1
"""The largest table id (as the REST paths): a larger number would overflow the database's
integer, not merely miss."""
ENVELOPE = frozenset({"type", "table", "ref"})
"""The fields of a message that are the socket's own; the others are the REST body's."""

BINARY_REFUSED = {
    "type": "error",
    "status": 400,
    "code": "bad_message",
    "detail": "messages are JSON text frames, not binary ones",
}
"""The answer to a binary frame (the socket stays open)."""

LOGGERS = ("uvicorn.error", "uvicorn.access", "parlour.server")
"""The loggers whose records :func:`hide_tokens_in_logs` cleans: uvicorn writes each
WebSocket's and each request's path with its query string."""

_PARAMETER = re.compile(r"([?&;])([^=&;#\s\"']*)=([^&;#\s\"']*)")
_SECRET_KEYS = frozenset({"token", "access_token"})


def _hide_value(match: re.Match[str]) -> str:
    start, key, _value = match.groups()
    if unquote_plus(key).strip().lower() in _SECRET_KEYS:
        return f"{start}{key}=[hidden]"
    return match.group(0)


def hide_token(text: str) -> str:
    """*text* with the value of every ``token`` (or ``access_token``) query parameter
    replaced by ``[hidden]``, however its name is written (any case, percent-encoded, after
    ``&`` or ``;``).

    >>> hide_token('"WebSocket /ws?token=abc123&x=1" [accepted]')
    '"WebSocket /ws?token=[hidden]&x=1" [accepted]'
    >>> hide_token("/ws?%74oken=abc123 /ws?;TOK%45N=abc123")
    '/ws?%74oken=[hidden] /ws?;TOK%45N=[hidden]'
    """
    return _PARAMETER.sub(_hide_value, text)


class HideTokens(logging.Filter):
    """A filter that rewrites a record's message and string arguments with
    :func:`hide_token` (arguments keep their places: uvicorn's access formatter reads them
    by position)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Clean *record* in place; never drops it."""
        if isinstance(record.msg, str):
            record.msg = hide_token(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hide_token(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: hide_token(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def hide_tokens_in_logs() -> None:
    """Install :class:`HideTokens` on each of :data:`LOGGERS` (once): a login's token never
    reaches a log in clear."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTokens) for f in logger.filters):
            logger.addFilter(HideTokens())


def _token(websocket: WebSocket) -> tuple[str | None, bool]:
    header = websocket.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip(), False
    query = websocket.query_params.get("token")
    if query:
        return query, False
    cookie = websocket.cookies.get(COOKIE)
    return (cookie, True) if cookie else (None, False)


def _follow(
    ctx: ServerContext, hub: Hub, follower: Follower, table_id: int, invite: str | None
) -> None:
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
        seats = get_seats(connection, table_id) if table else []
    if table is None or not may_see(table, seats, follower.account_id, invite):
        raise NotFound(f"no table {table_id}")
    if table.status == LOBBY or table.status == "cancelled":
        hub.follow(follower, table_id, invite)
        return
    with ctx.cache.lock(table_id):
        current_entry(ctx, table_id)
        hub.follow(follower, table_id, invite)


def _error(err: Exception, ref: Any) -> dict[str, Any]:
    if isinstance(err, ServerError):
        return {"type": "error", "status": err.status, "ref": ref, **err.body()}
    code = engine_code(err) if isinstance(err, ParlourError) else "refused"
    return {"type": "error", "status": 422, "ref": ref, "code": code, "detail": str(err)}


@router.websocket("/ws")
async def socket(websocket: WebSocket) -> None:
    """The player session's WebSocket (see the module docstring)."""
    ctx: ServerContext = websocket.app.state.ctx
    hub: Hub = websocket.app.state.hub
    token, from_cookie = _token(websocket)
    account = None
    if token is not None:
        account = await anyio.to_thread.run_sync(accounts.authenticate, ctx, token)
        bad_origin = from_cookie and not same_origin(websocket)
        if account is None or bad_origin:
            await websocket.close(code=4401, reason="log in first")
            return
    await websocket.accept()
    follower = Follower(account.id if account else None)
    hub.add(follower)
    hashed = accounts.token_hash(token) if token is not None else None  # once per socket
    sender = asyncio.create_task(_send_loop(ctx, websocket, follower, token, hashed))
    try:
        await websocket.send_text(
            dumps(
                {
                    "type": "hello",
                    "account": None
                    if account is None
                    else {"id": account.id, "name": account.name},
                }
            )
        )
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
            if token is not None and not await _still_logged_in(ctx, token, hashed):
                # logged out (or the login expired) since the socket opened: it no longer
                # acts, follows or watches as the account
                await websocket.close(code=4401, reason="log in again")
                return
            text = frame.get("text")
            if not isinstance(text, str):  # a binary frame: a bad message like any other
                await websocket.send_text(dumps(BINARY_REFUSED))
                continue
            try:
                reply = await _handle(ctx, hub, follower, text)
            except (WebSocketDisconnect, RuntimeError):
                raise
            except Exception:  # a bug on one message must not drop the player's socket
                log.exception("WebSocket message failed: %.200s", text)
                reply = {
                    "type": "error",
                    "status": 500,
                    "ref": _ref_of(text),
                    "code": "internal",
                    "detail": "the server failed on this message: try again",
                }
            if reply is not None:
                await websocket.send_text(dumps(reply))
    except (WebSocketDisconnect, RuntimeError):
        # the client went away (Starlette raises a RuntimeError subclass when the sending
        # side noticed first); nothing to clean up but the follower
        pass
    finally:
        hub.remove(follower)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


def _ref_of(text: str) -> Any:
    """The ``ref`` of a message (so the client's pending action hears its answer), or None."""
    try:
        message = loads(text)
    except (ValueError, RecursionError):
        return None
    return message.get("ref") if isinstance(message, dict) else None


async def _still_logged_in(ctx: ServerContext, token: str, hashed: str | None) -> bool:
    """Whether the socket's login still holds (revoked at logout, or expired): a dictionary
    look-up, and a query at most every ``login_cache_seconds``."""
    if accounts.cached_login(ctx, token, hashed) is not None:
        return True
    return await anyio.to_thread.run_sync(accounts.authenticate, ctx, token) is not None


async def _send_loop(
    ctx: ServerContext,
    websocket: WebSocket,
    follower: Follower,
    token: str | None,
    hashed: str | None,
) -> None:
    while True:
        text = await follower.queue.get()
        if text is None:
            await websocket.close(code=1013, reason="too far behind: reconnect")
            return
        if token is not None and not await _still_logged_in(ctx, token, hashed):
            # logged out since: the account's views (its rack, its hand) stop here
            await websocket.close(code=4401, reason="log in again")
            return
        await websocket.send_text(text)


async def _handle(ctx: ServerContext, hub: Hub, follower: Follower, text: str) -> Any:
    if len(text) > ctx.settings.max_ws_message_chars:
        return {
            "type": "error",
            "status": 413,
            "code": "too_large",
            "detail": f"a message has at most {ctx.settings.max_ws_message_chars} characters",
        }
    try:
        message = loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." 2,000 deep
        return {"type": "error", "status": 400, "code": "bad_json", "detail": "not JSON"}
    if not isinstance(message, dict):
        return {
            "type": "error",
            "status": 400,
            "code": "bad_message",
            "detail": "a message is a JSON object with a 'type'",
        }
    kind = message.get("type")
    ref = message.get("ref")
    table = message.get("table")
    try:
        if kind == "ping":
            return {"type": "pong", "ref": ref}
        if kind in ("follow", "unfollow", "action") and (
            not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= MAX_ID
        ):
            return {
                "type": "error",
                "status": 422,
                "code": "bad_message",
                "ref": ref,
                "detail": "'table' must be a table id (a positive integer)",
            }
        if kind == "follow":
            assert isinstance(table, int)
            invite = message.get("invite")
            if invite is not None and not isinstance(invite, str):
                invite = None
            await anyio.to_thread.run_sync(_follow, ctx, hub, follower, table, invite)
            return None
        if kind == "unfollow":
            assert isinstance(table, int)
            hub.unfollow(follower, table)
            return None
        if kind == "action":
            assert isinstance(table, int)
            table_id = table
            if follower.account_id is None:
                return {
                    "type": "error",
                    "status": 401,
                    "code": "unauthorized",
                    "ref": ref,
                    "detail": "log in first",
                }
            try:
                body = ActionIn.model_validate(
                    {k: v for k, v in message.items() if k not in ENVELOPE}
                )
            except ValidationError as err:
                return {"type": "error", "status": 422, "ref": ref, **invalid_request(err.errors())}
            outcome = await play.submit_action_async(
                ctx,
                table_id=table_id,
                account_id=follower.account_id,
                text=body.action,
                expected_version=body.version,
                answer=False,  # the hub sends this socket the table with the others
            )
            return {"type": "ack", "ref": ref, "table": table, "version": outcome.entry.version}
        return {
            "type": "error",
            "status": 422,
            "code": "bad_message",
            "ref": ref,
            "detail": "'type' is follow, unfollow, action or ping",
        }
    except (ServerError, ParlourError) as err:
        return _error(err, ref)
