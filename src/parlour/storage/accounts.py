"""Server accounts: people, their login tokens, and counted attempts (for rate limits).

Only data lives here; hashing, token making and the limits are the server's
(``parlour.server.services.accounts``). A token is stored as its SHA-256 hash, never as is.
An account is never deleted: a deleted one keeps its row under a placeholder name (so the
seats it held in finished games still name someone), with no password and no login.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from parlour.engine.errors import ParlourError
from parlour.storage.models import Base


class NameTaken(ParlourError):
    """An account name that another account already has (names compare case-insensitively)."""


class Account(Base):
    """A person with a name and a password hash. ``name_key`` is the name folded to lower case.

    ``disabled_at`` is set while a host has disabled the account (no login, no token works);
    ``deleted_at`` once its owner deleted it (the name is then a placeholder)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AuthToken(Base):
    """A login: the SHA-256 hex of the bearer token or cookie, its account, its lifetime and
    when it was last used (to the minute, see ``touch_token``)."""

    __tablename__ = "auth_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LoginFailure(Base):
    """One counted attempt under ``key``: a failed (or still running) login under
    ``"account:<name_key>"`` and ``"address:<ip>"``, a sign-up under ``"signup:<ip>"``."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(120), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


@dataclass(frozen=True)
class AccountRow:
    """An account as read: ``id``, display ``name``, the ``password_hash``, and whether a
    host has disabled it."""

    id: int
    name: str
    password_hash: str
    disabled: bool = False


@dataclass(frozen=True)
class TokenRow:
    """A login as its owner may see it: the token's hash (never shown whole), when it was
    made, last used (``None``: not since it was made) and expires (UTC)."""

    token_hash: str
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime


@dataclass(frozen=True)
class AccountInfo:
    """An account as a host lists it: ``sessions`` is its number of live logins."""

    id: int
    name: str
    created_at: datetime
    disabled_at: datetime | None
    deleted_at: datetime | None
    sessions: int


_ACCOUNTS = cast(Table, Account.__table__)
_TOKENS = cast(Table, AuthToken.__table__)


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored here is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _utc_or_none(moment: datetime | None) -> datetime | None:
    return None if moment is None else _utc(moment)


def create_account(
    connection: Connection, *, name: str, name_key: str, password_hash: str, now: datetime
) -> int:
    """Insert an account; return its id. Raises :class:`NameTaken` if the name is in use."""
    try:
        with connection.begin_nested():
            result = connection.execute(
                insert(Account).values(
                    name=name, name_key=name_key, password_hash=password_hash, created_at=now
                )
            )
    except IntegrityError:
        raise NameTaken(f"the name {name!r} is taken") from None
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _live_account(connection: Connection, where: ColumnElement[bool]) -> AccountRow | None:
    row = connection.execute(
        select(Account.id, Account.name, Account.password_hash, Account.disabled_at).where(
            where, Account.deleted_at.is_(None)
        )
    ).first()
    if row is None:
        return None
    return AccountRow(row.id, row.name, row.password_hash, row.disabled_at is not None)


def find_account(connection: Connection, name_key: str) -> AccountRow | None:
    """The account whose folded name is *name_key*, or ``None`` (a deleted account no longer
    has its name)."""
    return _live_account(connection, Account.name_key == name_key)


def get_account(connection: Connection, account_id: int) -> AccountRow | None:
    """The live (not deleted) account *account_id*, or ``None``."""
    return _live_account(connection, Account.id == account_id)


def account_names(connection: Connection, ids: list[int]) -> dict[int, str]:
    """Display names by account id (ids with no account are left out)."""
    if not ids:
        return {}
    rows = connection.execute(select(Account.id, Account.name).where(Account.id.in_(ids)))
    return {row.id: row.name for row in rows}


def list_accounts(connection: Connection, now: datetime) -> list[AccountInfo]:
    """Every account (deleted ones too), oldest first, with its live logins counted."""
    live = (
        select(func.count())
        .where(_TOKENS.c.account_id == _ACCOUNTS.c.id, _TOKENS.c.expires_at > now)
        .scalar_subquery()
    )
    rows = connection.execute(
        select(
            _ACCOUNTS.c.id,
            _ACCOUNTS.c.name,
            _ACCOUNTS.c.created_at,
            _ACCOUNTS.c.disabled_at,
            _ACCOUNTS.c.deleted_at,
            live.label("sessions"),
        ).order_by(_ACCOUNTS.c.id)
    )
    return [
        AccountInfo(
            row.id,
            row.name,
            _utc(row.created_at),
            _utc_or_none(row.disabled_at),
            _utc_or_none(row.deleted_at),
            int(row.sessions),
        )
        for row in rows
    ]


def add_token(
    connection: Connection, *, token_hash: str, account_id: int, now: datetime, expires: datetime
) -> None:
    """Store a new login token (by its hash)."""
    connection.execute(
        insert(AuthToken).values(
            token_hash=token_hash, account_id=account_id, created_at=now, expires_at=expires
        )
    )


def token_account(
    connection: Connection, token_hash: str, now: datetime
) -> tuple[AccountRow, datetime, datetime | None] | None:
    """The account a live token belongs to, when the token expires and when it was last
    used, or ``None`` (unknown, revoked or expired token, or a disabled or deleted
    account)."""
    row = connection.execute(
        select(
            _ACCOUNTS.c.id,
            _ACCOUNTS.c.name,
            _ACCOUNTS.c.password_hash,
            _TOKENS.c.expires_at,
            _TOKENS.c.last_used_at,
        )
        .join(_TOKENS, _TOKENS.c.account_id == _ACCOUNTS.c.id)
        .where(
            _TOKENS.c.token_hash == token_hash,
            _TOKENS.c.expires_at > now,
            _ACCOUNTS.c.disabled_at.is_(None),
            _ACCOUNTS.c.deleted_at.is_(None),
        )
    ).first()
    if row is None:
        return None
    account = AccountRow(row.id, row.name, row.password_hash)
    return account, _utc(row.expires_at), _utc_or_none(row.last_used_at)


def touch_token(connection: Connection, token_hash: str, now: datetime) -> None:
    """Note that the token was used at *now*."""
    connection.execute(
        update(AuthToken).where(AuthToken.token_hash == token_hash).values(last_used_at=now)
    )


def account_tokens(connection: Connection, account_id: int, now: datetime) -> list[TokenRow]:
    """The account's live logins, newest first."""
    rows = connection.execute(
        select(
            AuthToken.token_hash, AuthToken.created_at, AuthToken.last_used_at, AuthToken.expires_at
        )
        .where(AuthToken.account_id == account_id, AuthToken.expires_at > now)
        .order_by(AuthToken.created_at.desc(), AuthToken.token_hash)
    )
    return [
        TokenRow(
            row.token_hash,
            _utc(row.created_at),
            _utc_or_none(row.last_used_at),
            _utc(row.expires_at),
        )
        for row in rows
    ]


def revoke_token(connection: Connection, token_hash: str) -> None:
    """Delete a token (log out). No error if it is already gone."""
    connection.execute(delete(AuthToken).where(AuthToken.token_hash == token_hash))


def revoke_tokens(connection: Connection, account_id: int, *, keep: str | None = None) -> int:
    """Delete every token of *account_id* but the one whose hash is *keep*; return how many."""
    query = delete(AuthToken).where(AuthToken.account_id == account_id)
    if keep is not None:
        query = query.where(AuthToken.token_hash != keep)
    return int(connection.execute(query).rowcount)


def update_password_hash(connection: Connection, account_id: int, password_hash: str) -> None:
    """Replace an account's hash (a new password, or a rehash with newer parameters)."""
    connection.execute(
        update(Account).where(Account.id == account_id).values(password_hash=password_hash)
    )


def set_disabled(connection: Connection, account_id: int, when: datetime | None) -> bool:
    """Disable the live account *account_id* from *when* (``None``: enable it again);
    ``False`` if there is no such account."""
    result = connection.execute(
        update(Account)
        .where(Account.id == account_id, Account.deleted_at.is_(None))
        .values(disabled_at=when)
    )
    return result.rowcount == 1


def mark_deleted(
    connection: Connection, account_id: int, *, placeholder: str, now: datetime
) -> None:
    """Delete an account the only way that keeps finished games readable: its name becomes
    *placeholder* (its old name is free for anyone), its password hash matches nothing and
    its tokens are gone."""
    revoke_tokens(connection, account_id)
    connection.execute(
        update(Account)
        .where(Account.id == account_id)
        .values(
            name=placeholder,
            name_key=f"#deleted-{account_id}",  # '#' is in no name: never taken, never found
            password_hash="!",
            deleted_at=now,
        )
    )


# --- counted attempts -----------------------------------------------------------------------

_LOCK_SPACE = 0x706C7231  # "plr1": the advisory-lock namespace of attempt keys


def _lock_keys(connection: Connection, keys: Sequence[str]) -> None:
    """Serialize the counting of *keys* with every other transaction that counts them: on
    PostgreSQL a transaction advisory lock per key (taken in one order, so two transactions
    never deadlock); SQLite's write transactions (``BEGIN IMMEDIATE``) are exclusive
    already, across threads and processes."""
    if connection.dialect.name != "postgresql":
        return
    numbers = sorted(
        {int.from_bytes(hashlib.sha256(k.encode()).digest()[:4], "big", signed=True) for k in keys}
    )
    for number in numbers:
        connection.execute(
            text("SELECT pg_advisory_xact_lock(:space, :key)"),
            {"space": _LOCK_SPACE, "key": number},
        )


def count_failures(connection: Connection, key: str, since: datetime) -> int:
    """Attempts counted under *key* at or after *since*."""
    return int(
        connection.execute(
            select(func.count()).where(LoginFailure.key == key, LoginFailure.at >= since)
        ).scalar_one()
    )


def reserve_attempts(
    connection: Connection, limits: Sequence[tuple[str, int, datetime]], now: datetime
) -> list[int] | None:
    """Count one attempt under each key of *limits* (``(key, limit, since)``) if every key
    has fewer than its *limit* attempts at or after its *since*; return the new rows' ids,
    or ``None`` (nothing counted) when a key is at its limit.

    Atomic: call it in a write transaction; two transactions counting the same key take
    turns (see :func:`_lock_keys`), so at most *limit* attempts are ever let through."""
    _lock_keys(connection, [key for key, _, _ in limits])
    for key, limit, since in limits:
        if count_failures(connection, key, since) >= limit:
            return None
    ids = []
    for key, _, _ in limits:
        result = connection.execute(insert(LoginFailure).values(key=key, at=now))
        inserted = result.inserted_primary_key
        assert inserted is not None
        ids.append(int(inserted[0]))
    return ids


def forget_attempts(connection: Connection, ids: Sequence[int]) -> None:
    """Uncount the attempts *ids* (a login that turned out right)."""
    if ids:
        connection.execute(delete(LoginFailure).where(LoginFailure.id.in_(list(ids))))


def add_failures(connection: Connection, keys: list[str], now: datetime) -> None:
    """Record one failed login under each of *keys*."""
    connection.execute(insert(LoginFailure), [{"key": key, "at": now} for key in keys])


def clear_failures(connection: Connection, key: str) -> None:
    """Forget the attempts under *key* (after a good login)."""
    connection.execute(delete(LoginFailure).where(LoginFailure.key == key))


def prune_failures(connection: Connection, before: datetime) -> None:
    """Forget every attempt older than *before* (they no longer count)."""
    connection.execute(delete(LoginFailure).where(LoginFailure.at < before))
