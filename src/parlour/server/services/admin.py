"""What a server's host does from the command line (``parlour admin``), on the database
itself: list the accounts, reset a password, disable or enable an account, remove a table.

These run in their own process, beside any running server: a server trusts a checked login
for ``Settings.login_cache_seconds`` (5 s), so a disabled account's tokens stop working
there within that time, and its WebSockets close (4401) at their next message or update.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine

from parlour.engine.errors import ParlourError
from parlour.server.services.accounts import check_password, fold, hash_password
from parlour.storage.accounts import (
    AccountInfo,
    AccountRow,
    clear_failures,
    find_account,
    list_accounts,
    revoke_tokens,
    set_disabled,
    update_password_hash,
)
from parlour.storage.db import write_transaction
from parlour.storage.social import delete_chat
from parlour.storage.tables import delete_table, get_table


class AdminError(ParlourError):
    """A host's command that cannot be done: no such account or table, a bad password."""


@dataclass(frozen=True)
class Removed:
    """A removed table: its id, game and status when it was removed."""

    id: int
    game: str
    status: str


def users(engine: Engine, now: datetime) -> list[AccountInfo]:
    """Every account, oldest first (deleted ones under their placeholder name)."""
    with engine.connect() as connection:
        return list_accounts(connection, now)


def _account(engine: Engine, name: str) -> AccountRow:
    with engine.connect() as connection:
        account = find_account(connection, fold(name))
    if account is None:
        raise AdminError(f"no account named {name!r}")
    return account


def reset_password(engine: Engine, name: str, password: str) -> tuple[AccountRow, int]:
    """Give the account *name* the password *password* (8-128 characters), end every login
    of it and forget its failed logins; return the account and how many logins ended.
    Raises :class:`AdminError` for no such account or a bad password."""
    try:
        check_password(password)
    except Exception as err:  # Refused: a server error type; the host reads its reason
        raise AdminError(str(err)) from None
    account = _account(engine, name)
    hashed = hash_password(password)
    with write_transaction(engine) as connection:
        update_password_hash(connection, account.id, hashed)
        clear_failures(connection, f"account:{fold(account.name)}"[:120])
        return account, revoke_tokens(connection, account.id)


def disable(engine: Engine, name: str, now: datetime, *, disabled: bool = True) -> int:
    """Disable the account *name* (it cannot log in; its logins end; return how many) or,
    with ``disabled=False``, enable it again (returns 0). Raises :class:`AdminError` for no
    such account."""
    account = _account(engine, name)
    with write_transaction(engine) as connection:
        set_disabled(connection, account.id, now if disabled else None)
        return revoke_tokens(connection, account.id) if disabled else 0


def remove_table(engine: Engine, table_id: int) -> Removed:
    """Delete the table *table_id*, its seats and its log, whatever its status (a game in
    play ends for everyone; a server still holding it answers 404 from its next request).
    Raises :class:`AdminError` for no such table."""
    with write_transaction(engine) as connection:
        table = get_table(connection, table_id)
        if table is not None:
            delete_chat(connection, table_id)  # its chat goes with it
        if table is None or not delete_table(connection, table_id):
            raise AdminError(f"no table {table_id}")
    return Removed(table.id, table.game, table.status)
