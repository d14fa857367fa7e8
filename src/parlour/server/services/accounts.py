"""Accounts: register and log in (rate-limited), log out, who a token belongs to, and what a
person does with their own account (change the password, see and end sessions, delete it).

Passwords are hashed with argon2 (``pwdlib``); a login is a random token that the client
keeps (a bearer token, or the same value in an HttpOnly cookie) and the database keeps only
its SHA-256.

Limits are counted *before* any password is checked, in one write transaction with the
check of the count (:func:`~parlour.storage.accounts.reserve_attempts`), so concurrent
requests (threads or server processes on one database) can never get more guesses through
than the limit: a login attempt is counted under the account's name and the client address
over ``Settings.login_window_seconds`` and uncounted if the password was right; a sign-up
counts under the address over ``Settings.signup_window_seconds`` and stays counted.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy.exc import SQLAlchemyError

from parlour.server.errors import Conflict, Forbidden, NotFound, RateLimited, Refused, Unauthorized
from parlour.server.services.context import ServerContext
from parlour.server.services.lobby import leave_table
from parlour.storage.accounts import (
    AccountRow,
    NameTaken,
    account_tokens,
    add_token,
    clear_failures,
    create_account,
    find_account,
    forget_attempts,
    get_account,
    mark_deleted,
    prune_failures,
    reserve_attempts,
    revoke_token,
    revoke_tokens,
    token_account,
    touch_token,
    update_password_hash,
)
from parlour.storage.db import write_transaction
from parlour.storage.social import forget_mail
from parlour.storage.tables import (
    FINISHED,
    LOBBY,
    count_unfinished,
    get_seats,
    tables_of_account,
)

log = logging.getLogger("parlour.server")

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
SESSION_ID_CHARS = 16
"""A session's public id: the first hex characters of its token's SHA-256 (never the token)."""
TOUCH_SECONDS = 60
"""A login's ``last_used_at`` is written at most once a minute (a query per minute of use)."""
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 _.-]*[A-Za-z0-9])?$")


@dataclass(frozen=True)
class Login:
    """A successful login: the account and the new token (shown to the client once)."""

    account: AccountRow
    token: str


@dataclass(frozen=True)
class Session:
    """One login of an account as its owner sees it: the public ``id``, when it was made,
    last used (``None``: not since) and expires, and whether it is the one asking."""

    id: str
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime
    current: bool


@cache
def _hasher(fast: bool) -> PasswordHash:
    if fast:
        return PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    return PasswordHash((Argon2Hasher(),))


def normal_password(password: str) -> str:
    """*password* in Unicode normal form NFKC, the form it is hashed and checked in, so the
    same password typed with composed or decomposed accents ("\u00fc" or "u" and U+0308)
    logs in (NIST SP 800-63B, 5.1.1.2: passwords are normalised with NFKC or NFKD)."""
    return unicodedata.normalize("NFKC", password)


def hash_password(password: str, *, fast: bool = False) -> str:
    """The argon2 hash of *password* in :func:`normal_password`'s form (*fast*: cheap
    parameters, for tests only)."""
    return _hasher(fast).hash(normal_password(password))


def _blank(c: str) -> bool:
    """Whether the character *c* shows nothing: a space of any kind (``str.isspace``), or
    an invisible control or format character (categories Cc and Cf: zero-width spaces and
    joiners, the byte-order mark, the soft hyphen)."""
    return c.isspace() or unicodedata.category(c) in ("Cc", "Cf")


def token_hash(token: str) -> str:
    """The SHA-256 hex the database keeps for *token*."""
    return hashlib.sha256(token.encode()).hexdigest()


def fold(name: str) -> str:
    """The key a name is found by: spaces collapsed, case folded."""
    return " ".join(name.split()).casefold()


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
    """Raises :class:`Refused` for a password shorter than 8 or longer than 128 characters,
    or one of only blanks (spaces, tabs, invisible characters such as zero-width spaces: what
    a guesser tries first)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refused(f"a password has {PASSWORD_MIN}-{PASSWORD_MAX} characters")
    if all(map(_blank, password)):
        raise Refused("a password has more than spaces in it")


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


def _oldest_counted(ctx: ServerContext, now: datetime) -> datetime:
    """Attempts before this no longer count for any limit (they may be pruned)."""
    settings = ctx.settings
    return now - timedelta(
        seconds=max(settings.login_window_seconds, settings.signup_window_seconds)
    )


def register(ctx: ServerContext, *, name: str, password: str, address: str | None = None) -> Login:
    """Create an account and log it in. Raises :class:`Refused` for a bad name or password,
    :class:`Conflict` for a name already taken and :class:`RateLimited` when *address* has
    made ``Settings.max_signups_per_address`` accounts within the window (``None``: a
    sign-up by the host, not counted). The password is hashed only after the name was found
    free and the sign-up counted."""
    shown, key = check_name(name)
    check_password(password)
    settings = ctx.settings
    now = ctx.now()
    with write_transaction(ctx.engine) as connection:
        if find_account(connection, key) is not None:
            raise Conflict(f"the name {shown!r} is taken")
        if address is not None and settings.max_signups_per_address > 0:
            since = now - timedelta(seconds=settings.signup_window_seconds)
            limits = [(f"signup:{address}"[:120], settings.max_signups_per_address, since)]
            if reserve_attempts(connection, limits, now) is None:
                raise RateLimited(
                    "too many new accounts from this address: wait and try again",
                    retry_after=settings.signup_window_seconds,
                )
            prune_failures(connection, _oldest_counted(ctx, now))
    hashed = hash_password(password, fast=settings.argon2_fast)
    try:
        with write_transaction(ctx.engine) as connection:
            account_id = create_account(
                connection, name=shown, name_key=key, password_hash=hashed, now=ctx.now()
            )
    except NameTaken as err:  # taken since the check: the sign-up stays counted
        raise Conflict(str(err)) from None
    return _new_token(ctx, AccountRow(account_id, shown, hashed))


def _reserve_guess(ctx: ServerContext, name_key: str, address: str | None) -> list[int]:
    """Count one password guess for the account *name_key* (and *address*) before it is
    checked; raises :class:`RateLimited` (nothing counted) past a limit."""
    settings = ctx.settings
    now = ctx.now()
    since = now - timedelta(seconds=settings.login_window_seconds)
    limits = [(f"account:{name_key}"[:120], settings.max_failures_per_account, since)]
    if address is not None:
        limits.append((f"address:{address}"[:120], settings.max_failures_per_address, since))
    with write_transaction(ctx.engine) as connection:
        reserved = reserve_attempts(connection, limits, now)
        if reserved is not None:
            prune_failures(connection, _oldest_counted(ctx, now))
    if reserved is None:
        raise RateLimited(
            "too many failed logins: wait and try again",
            retry_after=settings.login_window_seconds,
        )
    return reserved


def _guess_was_right(
    ctx: ServerContext, reserved: list[int], name_key: str, account_id: int, new_hash: str | None
) -> None:
    """Uncount a guess that was right, forget the account's failures, store a rehash."""
    with write_transaction(ctx.engine) as connection:
        forget_attempts(connection, reserved)
        clear_failures(connection, f"account:{name_key}"[:120])
        if new_hash is not None:
            update_password_hash(connection, account_id, new_hash)


def _verify(ctx: ServerContext, password: str, stored: str | None) -> tuple[bool, str | None]:
    """Whether *password* matches *stored* (``None``: no such account; a dummy hash is
    checked so both take as long) and the rehash to store, if any. The password is checked in
    :func:`normal_password`'s form; a hash stored before passwords were normalised is also
    checked against the password as typed, and a match stores the normalised form's hash."""
    hasher = _hasher(ctx.settings.argon2_fast)
    typed = password[:PASSWORD_MAX]
    normal = normal_password(typed)
    if stored is None:  # as many checks as for an account: its absence takes as long
        dummy = _dummy_hash(ctx.settings.argon2_fast)
        hasher.verify_and_update(normal, dummy)
        if normal != typed:
            hasher.verify(typed, dummy)
        return False, None
    try:
        ok, new_hash = hasher.verify_and_update(normal, stored)
        if not ok and normal != typed and hasher.verify(typed, stored):
            return True, hasher.hash(normal)
        return ok, new_hash
    except Exception:  # a hash nothing can read (damaged, or an account with no password)
        log.warning("an account's stored password hash cannot be read")
        return False, None


def login(ctx: ServerContext, *, name: str, password: str, address: str) -> Login:
    """Check a name and password and log in. Raises :class:`RateLimited` past the failure
    limits (checked and counted before the password is), :class:`Unauthorized` for a wrong
    name or password (the same message for both) and :class:`Forbidden` for an account a
    host has disabled."""
    key = fold(name)[: NAME_MAX * 2]
    reserved = _reserve_guess(ctx, key, address)
    with ctx.engine.connect() as connection:
        account = find_account(connection, key)
    ok, new_hash = _verify(ctx, password, None if account is None else account.password_hash)
    if not ok or account is None:
        raise Unauthorized("wrong name or password")
    _guess_was_right(ctx, reserved, key, account.id, new_hash)
    if account.disabled:
        raise Forbidden("this account is disabled: ask the server's host")
    return _new_token(ctx, account)


@cache
def _dummy_hash(fast: bool) -> str:
    return _hasher(fast).hash(secrets.token_hex(16))


def _forget_logins(ctx: ServerContext, account_id: int, *, keep: str | None = None) -> None:
    """Drop the account's checked tokens (but *keep*, a hash) from this process's memory."""
    for hashed, (account, _, _) in list(ctx.logins.items()):
        if account.id == account_id and hashed != keep:
            ctx.logins.pop(hashed, None)


def logout(ctx: ServerContext, token: str) -> None:
    """Revoke *token*; it no longer authenticates anything (in this process at once; in other
    server processes within ``Settings.login_cache_seconds``)."""
    hashed = token_hash(token)
    ctx.logins.pop(hashed, None)
    with write_transaction(ctx.engine) as connection:
        revoke_token(connection, hashed)


def logout_everywhere(ctx: ServerContext, account_id: int) -> int:
    """Revoke every login of the account (this one too); return how many there were."""
    _forget_logins(ctx, account_id)
    with write_transaction(ctx.engine) as connection:
        return revoke_tokens(connection, account_id)


def _check_own_password(
    ctx: ServerContext, account_id: int, password: str, address: str | None
) -> AccountRow:
    """The account, once *password* is its password: counted as a login guess (so a stolen
    session cannot try passwords faster than a login can). Raises :class:`RateLimited` and
    :class:`Forbidden` (wrong password)."""
    with ctx.engine.connect() as connection:
        account = get_account(connection, account_id)
    if account is None:
        raise Unauthorized("your login has expired or was revoked: log in again")
    key = fold(account.name)
    reserved = _reserve_guess(ctx, key, address)
    ok, new_hash = _verify(ctx, password, account.password_hash)
    if not ok:
        raise Forbidden("the current password is wrong")
    _guess_was_right(ctx, reserved, key, account.id, new_hash)
    return account


def change_password(
    ctx: ServerContext,
    *,
    account_id: int,
    token: str | None,
    current: str,
    new: str,
    address: str | None,
) -> int:
    """Replace the account's password once *current* is right. Every other login of the
    account is revoked (this one, *token*, stays); returns how many were. Raises
    :class:`Refused` for a bad new password, :class:`Forbidden` for a wrong current one and
    :class:`RateLimited` as a login would."""
    check_password(new)
    account = _check_own_password(ctx, account_id, current, address)
    hashed = hash_password(new, fast=ctx.settings.argon2_fast)
    keep = None if token is None else token_hash(token)
    _forget_logins(ctx, account.id, keep=keep)
    with write_transaction(ctx.engine) as connection:
        update_password_hash(connection, account.id, hashed)
        return revoke_tokens(connection, account.id, keep=keep)


def sessions(ctx: ServerContext, account_id: int, token: str | None) -> list[Session]:
    """The account's live logins, newest first; ``current`` marks the one *token* is."""
    mine = None if token is None else token_hash(token)
    with ctx.engine.connect() as connection:
        rows = account_tokens(connection, account_id, ctx.now())
    return [
        Session(
            id=row.token_hash[:SESSION_ID_CHARS],
            created_at=row.created_at,
            last_used_at=row.last_used_at,
            expires_at=row.expires_at,
            current=row.token_hash == mine,
        )
        for row in rows
    ]


def revoke_session(ctx: ServerContext, account_id: int, session_id: str) -> None:
    """Revoke the account's login whose public id is *session_id*. Raises :class:`NotFound`
    when the account has no such login."""
    with write_transaction(ctx.engine) as connection:
        rows = account_tokens(connection, account_id, ctx.now())
        found = [r for r in rows if r.token_hash[:SESSION_ID_CHARS] == session_id]
        if len(session_id) != SESSION_ID_CHARS or not found:
            raise NotFound(f"you have no session {session_id!r}")
        for row in found:
            revoke_token(connection, row.token_hash)
            ctx.logins.pop(row.token_hash, None)


def placeholder_name(account_id: int) -> str:
    """The name a deleted account's seats show (finished games keep it)."""
    return f"deleted player {account_id}"


def delete_account(
    ctx: ServerContext, *, account_id: int, password: str, address: str | None
) -> None:
    """Delete the account once *password* is right.

    Refused with :class:`Conflict` (nothing changed) while the account plays at a game in
    play: finish it (or let the clock hand the seat to a computer player) first. The
    account first leaves every table still in the lobby (its own are cancelled, as when a
    creator leaves). Then its name becomes :func:`placeholder_name` (the old one is free),
    its password and every login are gone; finished games show the placeholder. Raises
    :class:`Forbidden` for a wrong password and :class:`RateLimited` as a login would."""
    account = _check_own_password(ctx, account_id, password, address)
    with ctx.engine.connect() as connection:
        playing = tables_of_account(connection, account.id, statuses=("active",))
        waiting = tables_of_account(connection, account.id, statuses=(LOBBY,))
    playing = [t for t in playing if _still_seated(ctx, t, account.id)]
    if playing:
        where = ", ".join(str(t) for t in sorted(playing))
        raise Conflict(
            f"you are playing at table {where}: an account is deleted once its games are over",
            tables=sorted(playing),
        )
    for table_id in waiting:
        leave_table(ctx, table_id=table_id, account_id=account.id)
    with write_transaction(ctx.engine) as connection:
        if count_unfinished(connection, account.id):
            raise Conflict("a table you sit at has just started: try again once it is over")
        mark_deleted(
            connection, account.id, placeholder=placeholder_name(account.id), now=ctx.now()
        )
        forget_mail(connection, account.id)  # the address and unsent mail go with the account
        finished = tables_of_account(connection, account.id, statuses=(FINISHED,))
    _forget_logins(ctx, account.id)
    ctx.names[account.id] = placeholder_name(account.id)
    for table_id in finished:  # their names are in memory: read them again
        ctx.cache.drop(table_id)


def _still_seated(ctx: ServerContext, table_id: int, account_id: int) -> bool:
    """Whether the account holds a seat of its own at *table_id* (not one the clock took)."""
    with ctx.engine.connect() as connection:
        seats = get_seats(connection, table_id)
    return any(s.account_id == account_id and not s.removed for s in seats)


def cached_login(ctx: ServerContext, token: str, hashed: str | None = None) -> AccountRow | None:
    """The account of *token* if it was checked within ``login_cache_seconds`` and has not
    expired; ``None`` otherwise (then ask :func:`authenticate`). No database access.
    *hashed* is ``token_hash(token)`` when the caller keeps it (a WebSocket asks at every
    message: the hash is most of the cost)."""
    if not 0 < len(token) <= 200:
        return None
    cached = ctx.logins.get(hashed if hashed is not None else token_hash(token))
    if cached is None:
        return None
    account, expires, until = cached
    return account if time.monotonic() < until and ctx.now() < expires else None


def authenticate(ctx: ServerContext, token: str) -> AccountRow | None:
    """The account a live *token* belongs to, or ``None`` (unknown, revoked or expired
    token; disabled or deleted account).

    A token found in the database is remembered for ``Settings.login_cache_seconds``
    (monotonic seconds), so most requests cost no query; its ``last_used_at`` is written at
    most every :data:`TOUCH_SECONDS`.
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
    account, expires, last_used = found
    if last_used is None or now - last_used >= timedelta(seconds=TOUCH_SECONDS):
        try:
            with write_transaction(ctx.engine) as connection:
                touch_token(connection, hashed, now)
        except SQLAlchemyError as err:  # "last used" is a hint: never refuse a login for it
            log.warning("a login's last use was not written: %s", type(err).__name__)
    if ctx.settings.login_cache_seconds > 0:
        if len(ctx.logins) > 100_000:
            ctx.logins.clear()
        ctx.logins[hashed] = (account, expires, time.monotonic() + ctx.settings.login_cache_seconds)
    return account
