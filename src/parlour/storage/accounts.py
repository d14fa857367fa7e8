"""Server accounts: people, their login tokens, and failed logins (for rate limiting).

Only data lives here; hashing, token making and the limits are the server's
(``parlour.server.services.accounts``). A token is stored as its SHA-256 hash, never as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import (
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
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from parlour.engine.errors import ParlourError
from parlour.storage.models import Base


class NameTaken(ParlourError):
    """An account name that another account already has (names compare case-insensitively)."""


class Account(Base):
    """A person with a name and a password hash. ``name_key`` is the name folded to lower case."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuthToken(Base):
    """A login: the SHA-256 hex of the bearer token or cookie, its account and its lifetime."""

    __tablename__ = "auth_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginFailure(Base):
    """One failed login, under ``key`` (``"account:<name_key>"`` or ``"address:<ip>"``)."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(120), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


@dataclass(frozen=True)
class AccountRow:
    """An account as read: ``id``, display ``name`` and the ``password_hash``."""

    id: int
    name: str
    password_hash: str


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


def find_account(connection: Connection, name_key: str) -> AccountRow | None:
    """The account whose folded name is *name_key*, or ``None``."""
    row = connection.execute(
        select(Account.id, Account.name, Account.password_hash).where(Account.name_key == name_key)
    ).first()
    return None if row is None else AccountRow(row.id, row.name, row.password_hash)


def account_names(connection: Connection, ids: list[int]) -> dict[int, str]:
    """Display names by account id (ids with no account are left out)."""
    if not ids:
        return {}
    rows = connection.execute(select(Account.id, Account.name).where(Account.id.in_(ids)))
    return {row.id: row.name for row in rows}


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
) -> tuple[AccountRow, datetime] | None:
    """The account a live token belongs to and when the token expires, or ``None`` (unknown,
    revoked or expired)."""
    accounts, tokens = cast(Table, Account.__table__), cast(Table, AuthToken.__table__)
    row = connection.execute(
        select(accounts.c.id, accounts.c.name, accounts.c.password_hash, tokens.c.expires_at)
        .join(tokens, tokens.c.account_id == accounts.c.id)
        .where(tokens.c.token_hash == token_hash, tokens.c.expires_at > now)
    ).first()
    if row is None:
        return None
    expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
    return AccountRow(row.id, row.name, row.password_hash), expires


def revoke_token(connection: Connection, token_hash: str) -> None:
    """Delete a token (log out). No error if it is already gone."""
    connection.execute(delete(AuthToken).where(AuthToken.token_hash == token_hash))


def update_password_hash(connection: Connection, account_id: int, password_hash: str) -> None:
    """Replace an account's hash (a rehash with newer parameters)."""
    connection.execute(
        update(Account).where(Account.id == account_id).values(password_hash=password_hash)
    )


def count_failures(connection: Connection, key: str, since: datetime) -> int:
    """Failed logins under *key* at or after *since*."""
    return int(
        connection.execute(
            select(func.count()).where(LoginFailure.key == key, LoginFailure.at >= since)
        ).scalar_one()
    )


def add_failures(connection: Connection, keys: list[str], now: datetime) -> None:
    """Record one failed login under each of *keys*."""
    connection.execute(insert(LoginFailure), [{"key": key, "at": now} for key in keys])


def clear_failures(connection: Connection, key: str) -> None:
    """Forget the failures under *key* (after a good login)."""
    connection.execute(delete(LoginFailure).where(LoginFailure.key == key))


def prune_failures(connection: Connection, before: datetime) -> None:
    """Forget every failure older than *before* (they no longer count)."""
    connection.execute(delete(LoginFailure).where(LoginFailure.at < before))
