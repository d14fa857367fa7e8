"""Typed dependencies the routes declare: the context, the account, the client address.

A request is authenticated by ``Authorization: Bearer <token>`` (API clients) or by the
``parlour_session`` cookie (browsers; HttpOnly, SameSite=Lax). A cookie-authenticated request
that changes something must come from this site: a browser sends ``Origin`` and it must
match the host.
"""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from parlour.server.errors import Forbidden, Unauthorized
from parlour.server.services import accounts
from parlour.server.services.context import ServerContext
from parlour.storage.accounts import AccountRow

COOKIE = "parlour_session"


async def get_ctx(request: Request) -> ServerContext:
    """The app's :class:`ServerContext`."""
    ctx: ServerContext = request.app.state.ctx
    return ctx


CtxDep = Annotated[ServerContext, Depends(get_ctx)]


def request_token(request: Request) -> tuple[str | None, bool]:
    """The token the request carries and whether it came from the cookie."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip(), False
    cookie = request.cookies.get(COOKIE)
    return (cookie, True) if cookie else (None, False)


def same_origin(connection: HTTPConnection) -> bool:
    """True unless the request (or WebSocket handshake) carries an ``Origin`` that is not
    this host."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    host = connection.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


async def optional_account(request: Request) -> AccountRow | None:
    """The logged-in account, or ``None`` for an anonymous request. (Dependencies are
    ``async`` and flat: a recently checked token costs no thread and no nested dependency;
    the database is asked in a thread.)"""
    token, from_cookie = request_token(request)
    if token is None:
        return None
    ctx: ServerContext = request.app.state.ctx
    account = accounts.cached_login(ctx, token)
    if account is None:
        account = await anyio.to_thread.run_sync(accounts.authenticate, ctx, token)
    if account is None:
        raise Unauthorized("your login has expired or was revoked: log in again")
    if from_cookie and request.method not in ("GET", "HEAD") and not same_origin(request):
        raise Forbidden("cross-site request refused")
    return account


async def current_account(request: Request) -> AccountRow:
    """The logged-in account; 401 without one."""
    account = await optional_account(request)
    if account is None:
        raise Unauthorized("log in first (a bearer token or the session cookie)")
    return account


AccountDep = Annotated[AccountRow, Depends(current_account)]
MaybeAccountDep = Annotated[AccountRow | None, Depends(optional_account)]


async def client_address(request: Request) -> str:
    """The client's address (for login rate limits)."""
    return request.client.host if request.client else "unknown"


AddressDep = Annotated[str, Depends(client_address)]
