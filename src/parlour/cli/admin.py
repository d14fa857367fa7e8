"""``parlour admin``: a server host's commands on the server's database (``--database``, as
for ``parlour serve``): list the accounts, reset a password, disable or enable an account,
remove a table; back the database up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text
from sqlalchemy import Engine

from parlour.cli.common import console, fail
from parlour.cli.common import database as open_database
from parlour.cli.server import DATABASE_HELP

admin = typer.Typer(
    help="A game server's host: accounts (list, reset a password, disable) and tables.",
    no_args_is_help=True,
)
Database = Annotated[str | None, typer.Option(help=DATABASE_HELP, envvar="PARLOUR_DATABASE")]
Name = Annotated[str, typer.Argument(help="The account's name (case does not matter).")]


def _engine(url: str | None) -> Engine:
    # one that cannot be opened: the opener fails the command with one line, no traceback
    return open_database(url)


@admin.command("users")
def users_command(
    database: Database = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """List the server's accounts, oldest first.

    Each with its name, when it was made, whether it is disabled or deleted, and its live
    sessions.
    """
    from parlour.server.services.admin import users
    from parlour.server.settings import utcnow

    found = users(_engine(database), utcnow())
    if as_json:
        out = [
            {
                "id": a.id,
                "name": a.name,
                "created_at": a.created_at.isoformat(),
                "disabled": a.disabled_at is not None,
                "deleted": a.deleted_at is not None,
                "sessions": a.sessions,
            }
            for a in found
        ]
        print(json.dumps(out, indent=1))
        return
    if not found:
        console.print("No accounts.")
        return
    table = Table(title="Accounts")
    for column in ("id", "name", "created", "state", "sessions"):
        table.add_column(column)
    for a in found:
        state = "deleted" if a.deleted_at else "disabled" if a.disabled_at else "active"
        table.add_row(
            str(a.id), Text(a.name), a.created_at.strftime("%Y-%m-%d"), state, str(a.sessions)
        )
    console.print(table)


@admin.command("reset-password")
def reset_password_command(
    name: Name,
    password: Annotated[
        str,
        typer.Option(
            prompt="New password",
            hide_input=True,
            confirmation_prompt=True,
            help="The new password (8-128 characters; asked for when not given).",
        ),
    ],
    database: Database = None,
) -> None:
    """Give an account a new password (tell its owner); every login of it ends."""
    from parlour.server.services.admin import AdminError, reset_password

    try:
        account, ended = reset_password(_engine(database), name, password)
    except AdminError as err:
        fail(str(err))
    console.print(Text(f"{account.name}: password reset; {ended} session(s) ended."))


@admin.command("disable")
def disable_command(name: Name, database: Database = None) -> None:
    """Disable an account: it cannot log in, and its logins stop working.

    A running server notices within 5 seconds; its WebSockets close at their next message.
    """
    from parlour.server.services.admin import AdminError, disable
    from parlour.server.settings import utcnow

    try:
        ended = disable(_engine(database), name, utcnow())
    except AdminError as err:
        fail(str(err))
    console.print(Text(f"{name}: disabled; {ended} session(s) ended."))


@admin.command("enable")
def enable_command(name: Name, database: Database = None) -> None:
    """Enable a disabled account again (its owner logs in as before)."""
    from parlour.server.services.admin import AdminError, disable
    from parlour.server.settings import utcnow

    try:
        disable(_engine(database), name, utcnow(), disabled=False)
    except AdminError as err:
        fail(str(err))
    console.print(Text(f"{name}: enabled."))


@admin.command("remove-table")
def remove_table_command(
    table_id: Annotated[int, typer.Argument(help="The table's id.")],
    database: Database = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask before removing.")] = False,
) -> None:
    """Remove a table with its seats and its log, whatever its state.

    A game in play ends for everyone at it. Asks first unless --yes.
    """
    from parlour.server.services.admin import AdminError, remove_table

    engine = _engine(database)
    if not yes and not typer.confirm(f"Remove table {table_id} and its whole log?"):
        fail("nothing removed", code=1)
    try:
        removed = remove_table(engine, table_id)
    except AdminError as err:
        fail(str(err))
    console.print(f"table {removed.id} ({removed.game}, {removed.status}) removed.")


@admin.command("backup")
def backup_command(
    path: Annotated[Path, typer.Argument(help="The new file to copy the database to.")],
    database: Database = None,
) -> None:
    """Copy the server's SQLite database to PATH while the server runs (SQLite's online
    backup). To restore: stop the server, then copy PATH over the database file (or serve
    PATH with --database sqlite:///PATH). PostgreSQL: use pg_dump (docs/server.md)."""
    from parlour.engine.errors import ParlourError
    from parlour.paths import default_database_url
    from parlour.storage.backup import backup

    url = database or default_database_url()
    if url.startswith("sqlite"):
        _engine(url)  # brought to the newest schema first, like every admin command
    try:
        size = backup(url, path)
    except ParlourError as err:
        fail(str(err))
    console.print(f"backed up to {path} ({size:,} bytes)")
