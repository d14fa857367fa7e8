"""Accounts: register, log in, log out, who am I."""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request, Response, status

from parlour.server.deps import COOKIE, AccountDep, AddressDep, CtxDep, request_token
from parlour.server.schemas import (
    AccountOut,
    Credentials,
    ErrorOut,
    LoginOut,
    NewAccount,
    SessionOut,
)
from parlour.server.services import accounts

router = APIRouter(prefix="/auth", tags=["accounts"])
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
    429: {"model": ErrorOut},
}


def _set_cookie(response: Response, ctx: CtxDep, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=ctx.settings.token_days * 86_400,
        httponly=True,
        samesite="lax",
        secure=ctx.settings.cookie_secure,
        path="/",
    )


def _out(login: accounts.Login) -> LoginOut:
    return LoginOut(
        account=AccountOut(id=login.account.id, name=login.account.name), token=login.token
    )


@router.post(
    "/register", status_code=status.HTTP_201_CREATED, response_model=LoginOut, responses=ERRORS
)
def register(body: NewAccount, response: Response, ctx: CtxDep) -> LoginOut:
    """Create an account and log in: the token comes back and is set as an HttpOnly cookie.
    A name already taken (ignoring case) gets 409."""
    login = accounts.register(ctx, name=body.name, password=body.password)
    _set_cookie(response, ctx, login.token)
    return _out(login)


@router.post("/login", response_model=LoginOut, responses=ERRORS)
def login(body: Credentials, response: Response, ctx: CtxDep, address: AddressDep) -> LoginOut:
    """Log in. Wrong name or password: 401; too many failures for the account or the address
    within the window: 429 with ``Retry-After``."""
    login = accounts.login(ctx, name=body.name, password=body.password, address=address)
    _set_cookie(response, ctx, login.token)
    return _out(login)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
def logout(request: Request, response: Response, ctx: CtxDep, _account: AccountDep) -> None:
    """Revoke this login (the token or cookie stops working at once)."""
    token, _ = request_token(request)
    if token:
        accounts.logout(ctx, token)
    response.delete_cookie(COOKIE, path="/")


@router.get("/session", response_model=SessionOut)
async def session(request: Request, response: Response, ctx: CtxDep) -> SessionOut:
    """Who this browser is logged in as, or ``{"account": null}``: never an error, so a page
    can ask at load. A cookie that no longer logs in is deleted."""
    token, from_cookie = request_token(request)
    account = None
    if token is not None:
        account = accounts.cached_login(ctx, token)
        if account is None:
            account = await anyio.to_thread.run_sync(accounts.authenticate, ctx, token)
        if account is None and from_cookie:
            response.delete_cookie(COOKIE, path="/")
    return SessionOut(
        account=None if account is None else AccountOut(id=account.id, name=account.name)
    )


@router.get("/me", response_model=AccountOut, responses=ERRORS)
def me(account: AccountDep) -> AccountOut:
    """The logged-in account."""
    return AccountOut(id=account.id, name=account.name)
