"""Accounts: register, log in (rate-limited), log out, and who a token belongs to.

Passwords are hashed with argon2 (``pwdlib``); a login is a random token that the client
keeps (a bearer token, or the same value in an HttpOnly cookie) and the database keeps only
its SHA-256. Failed logins count per account and per client address over a window
(``Settings.login_window_seconds``); past the limit, logins there are refused with 429 before
any password is checked.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from functools import cache

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from parlour.server.errors import Conflict, RateLimited, Refused, Unauthorized
from parlour.server.services.context import ServerContext
from parlour.storage.accounts import (
    AccountRow,
    NameTaken,
    add_failures,
    add_token,
    clear_failures,
    count_failures,
    create_account,
    find_account,
    prune_failures,
    revoke_token,
    token_account,
    update_password_hash,
)
from parlour.storage.db import write_transaction

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 _.-]*[A-Za-z0-9])?$")


@dataclass(frozen=True)
class Login:
    """A successful login: the account and the new token (shown to the client once)."""

    account: AccountRow
    token: str


@cache
def _hasher(fast: bool) -> PasswordHash:
    if fast:
        return PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    return PasswordHash((Argon2Hasher(),))


def token_hash(token: str) -> str:
    """The SHA-256 hex the database keeps for *token*."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> tuple[str, str]:
    """The trimmed display name and its folded key. Raises :class:`Refused` with the reason
    for a name that is too short, too long or has characters other than letters, digits,
    spaces, ``_``, ``.`` and ``-`` (starting and ending with a letter or digit)."""
    shown = " ".join(name.split())
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        raise Refused(f"a name has {NAME_MIN}-{NAME_MAX} characters, not {len(shown)}")
    if not _NAME.match(shown):
        raise Refused(
            "a name uses letters, digits, spaces, '_', '.' and '-', "
            "and starts and ends with a letter or digit"
        )
    return shown, shown.casefold()


def check_password(password: str) -> None:
    """Raises :class:`Refused` for a password shorter than 8 or longer than 128 characters."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refused(f"a password has {PASSWORD_MIN}-{PASSWORD_MAX} characters")


def _new_token(ctx: ServerContext, account: AccountRow) -> Login:
    token = secrets.token_urlsafe(32)
    now = ctx.now()
    with write_transaction(ctx.engine) as connection:
        add_token(
            connection,
            token_hash=token_hash(token),
            account_id=account.id,
            now=now,
            expires=now + timedelta(days=ctx.settings.token_days),
        )
    return Login(account, token)


def register(ctx: ServerContext, *, name: str, password: str) -> Login:
    """Create an account and log it in. Raises :class:`Refused` for a bad name or password
    and :class:`Conflict` for a name already taken."""
    shown, key = check_name(name)
    check_password(password)
    hashed = _hasher(ctx.settings.argon2_fast).hash(password)
    try:
        with write_transaction(ctx.engine) as connection:
            account_id = create_account(
                connection, name=shown, name_key=key, password_hash=hashed, now=ctx.now()
            )
    except NameTaken as err:
        raise Conflict(str(err)) from None
    return _new_token(ctx, AccountRow(account_id, shown, hashed))


def login(ctx: ServerContext, *, name: str, password: str, address: str) -> Login:
    """Check a name and password and log in. Raises :class:`RateLimited` past the failure
    limits and :class:`Unauthorized` for a wrong name or password (the same message for
    both)."""
    settings = ctx.settings
    key = " ".join(name.split()).casefold()[: NAME_MAX * 2]
    keys = [f"account:{key}", f"address:{address}"[:120]]
    now = ctx.now()
    since = now - timedelta(seconds=settings.login_window_seconds)
    with ctx.engine.connect() as connection:
        per_account = count_failures(connection, keys[0], since)
        per_address = count_failures(connection, keys[1], since)
        account = find_account(connection, key)
    if (
        per_account >= settings.max_failures_per_account
        or per_address >= settings.max_failures_per_address
    ):
        raise RateLimited(
            "too many failed logins: wait and try again",
            retry_after=settings.login_window_seconds,
        )
    hasher = _hasher(settings.argon2_fast)
    if account is None:
        hasher.verify_and_update(password[:PASSWORD_MAX], _dummy_hash(settings.argon2_fast))
        ok, new_hash = False, None
    else:
        ok, new_hash = hasher.verify_and_update(password[:PASSWORD_MAX], account.password_hash)
    with write_transaction(ctx.engine) as connection:
        if not ok:
            add_failures(connection, keys, now)
            prune_failures(connection, since)
        else:
            clear_failures(connection, keys[0])
            if new_hash is not None and account is not None:
                update_password_hash(connection, account.id, new_hash)
    if not ok or account is None:
        raise Unauthorized("wrong name or password")
    return _new_token(ctx, account)


@cache
def _dummy_hash(fast: bool) -> str:
    return _hasher(fast).hash(secrets.token_hex(16))


def logout(ctx: ServerContext, token: str) -> None:
    """Revoke *token*; it no longer authenticates anything (in this process at once; in other
    server processes within ``Settings.login_cache_seconds``)."""
    hashed = token_hash(token)
    ctx.logins.pop(hashed, None)
    with write_transaction(ctx.engine) as connection:
        revoke_token(connection, hashed)


def cached_login(ctx: ServerContext, token: str) -> AccountRow | None:
    """The account of *token* if it was checked within ``login_cache_seconds`` and has not
    expired; ``None`` otherwise (then ask :func:`authenticate`). No database access."""
    cached = ctx.logins.get(token_hash(token)) if 0 < len(token) <= 200 else None
    if cached is None:
        return None
    account, expires, until = cached
    return account if time.monotonic() < until and ctx.now() < expires else None


def authenticate(ctx: ServerContext, token: str) -> AccountRow | None:
    """The account a live *token* belongs to, or ``None``.

    A token found in the database is remembered for ``Settings.login_cache_seconds``
    (monotonic seconds), so most requests cost no query.
    """
    if not token or len(token) > 200:
        return None
    hashed = token_hash(token)
    now = ctx.now()
    cached = ctx.logins.get(hashed)
    if cached is not None:
        account, expires, until = cached
        if time.monotonic() < until and now < expires:
            return account
        ctx.logins.pop(hashed, None)
    with ctx.engine.connect() as connection:
        found = token_account(connection, hashed, now)
    if found is None:
        return None
    account, expires = found
    if ctx.settings.login_cache_seconds > 0:
        if len(ctx.logins) > 100_000:
            ctx.logins.clear()
        ctx.logins[hashed] = (account, expires, time.monotonic() + ctx.settings.login_cache_seconds)
    return account
