"""Accounts: register, log in, log out, who am I; and one's own account: the password,
the sessions, logging out everywhere, deleting it.

Routes that hash or check a password run in the account threads (``Settings.hash_workers``,
``ServerContext.hashing``), never in the request threads the lobby and the games use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from fastapi import APIRouter, Path, Request, Response, status

from parlour.server.deps import COOKIE, AccountDep, AddressDep, CtxDep, request_token
from parlour.server.schemas import (
    AccountOut,
    Credentials,
    ErrorOut,
    LoginOut,
    LoginSessionOut,
    NewAccount,
    PasswordChange,
    PasswordCheck,
    SessionOut,
)
from parlour.server.services import accounts
from parlour.server.services.context import ServerContext

router = APIRouter(prefix="/auth", tags=["accounts"])
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut},
    403: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
    429: {"model": ErrorOut},
}
T = TypeVar("T")


async def _hashing(ctx: ServerContext, work: Callable[[], T]) -> T:
    """Run account work that hashes passwords in the account threads."""
    return await anyio.to_thread.run_sync(work, limiter=ctx.hashing)


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
async def register(
    body: NewAccount, response: Response, ctx: CtxDep, address: AddressDep
) -> LoginOut:
    """Create an account and log in: the token comes back and is set as an HttpOnly cookie.
    A name already taken (ignoring case) gets 409; more than
    ``Settings.max_signups_per_address`` sign-ups from one address within the window get
    429 with ``Retry-After``."""
    login = await _hashing(
        ctx,
        lambda: accounts.register(ctx, name=body.name, password=body.password, address=address),
    )
    _set_cookie(response, ctx, login.token)
    return _out(login)


@router.post("/login", response_model=LoginOut, responses=ERRORS)
async def login(
    body: Credentials, response: Response, ctx: CtxDep, address: AddressDep
) -> LoginOut:
    """Log in. Wrong name or password: 401; an account the host disabled: 403; too many
    failures for the account or the address within the window: 429 with ``Retry-After``."""
    login = await _hashing(
        ctx, lambda: accounts.login(ctx, name=body.name, password=body.password, address=address)
    )
    _set_cookie(response, ctx, login.token)
    return _out(login)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
def logout(request: Request, response: Response, ctx: CtxDep, _account: AccountDep) -> None:
    """Revoke this login (the token or cookie stops working at once)."""
    token, _ = request_token(request)
    if token:
        accounts.logout(ctx, token)
    response.delete_cookie(COOKIE, path="/")


@router.post("/logout-all", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
def logout_all(response: Response, ctx: CtxDep, account: AccountDep) -> None:
    """Revoke every login of this account, this one included (every browser and API client
    must log in again; their WebSockets close with 4401)."""
    accounts.logout_everywhere(ctx, account.id)
    response.delete_cookie(COOKIE, path="/")


@router.post("/password", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
async def change_password(
    body: PasswordChange, request: Request, ctx: CtxDep, account: AccountDep, address: AddressDep
) -> None:
    """Change the password, given the current one (wrong: 403; counted as a failed login,
    so 429 past the login limits). Every other login of the account is revoked; this one
    stays."""
    token, _ = request_token(request)
    await _hashing(
        ctx,
        lambda: accounts.change_password(
            ctx,
            account_id=account.id,
            token=token,
            current=body.current,
            new=body.new,
            address=address,
        ),
    )


@router.get("/sessions", response_model=list[LoginSessionOut], responses=ERRORS)
def list_sessions(request: Request, ctx: CtxDep, account: AccountDep) -> list[LoginSessionOut]:
    """This account's live logins, newest first (``current``: the one asking)."""
    token, _ = request_token(request)
    return [
        LoginSessionOut(
            id=s.id,
            created_at=s.created_at.isoformat(),
            last_used_at=None if s.last_used_at is None else s.last_used_at.isoformat(),
            expires_at=s.expires_at.isoformat(),
            current=s.current,
        )
        for s in accounts.sessions(ctx, account.id, token)
    ]


@router.delete("/sessions/{session_id}", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
def revoke_session(
    session_id: Annotated[str, Path(min_length=1, max_length=64)],
    request: Request,
    response: Response,
    ctx: CtxDep,
    account: AccountDep,
) -> None:
    """Revoke one of this account's logins by its id (404 if it has none such). Revoking
    this one logs this client out."""
    token, _ = request_token(request)
    current = token is not None and accounts.token_hash(token).startswith(session_id)
    accounts.revoke_session(ctx, account.id, session_id)
    if current:
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


@router.delete("/me", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
async def delete_me(
    body: PasswordCheck, response: Response, ctx: CtxDep, account: AccountDep, address: AddressDep
) -> None:
    """Delete this account, given its password (wrong: 403, counted as a failed login).
    Refused with 409 while the account plays a game in play (``tables`` lists them); it
    leaves the tables still in the lobby (its own are cancelled). Finished games keep the
    seat under a placeholder name ("deleted player <id>"); the name is free again; every
    login ends."""
    await _hashing(
        ctx,
        lambda: accounts.delete_account(
            ctx, account_id=account.id, password=body.password, address=address
        ),
    )
    response.delete_cookie(COOKIE, path="/")
