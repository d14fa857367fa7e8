"""``parlour connect URL``: play a server's tables in the terminal apps."""

from __future__ import annotations

import asyncio
import os
from typing import Annotated, Any

import typer

from parlour.cli.common import console, fail

TOKEN_VARIABLE = "PARLOUR_TOKEN"
"""A bearer token (from ``POST /auth/login``) that skips the log-in screen."""


def connect(
    url: Annotated[str, typer.Argument(help="The server's address: http://host:port")],
    table: Annotated[
        int | None, typer.Option("--table", help="Open this table at once.", min=1)
    ] = None,
    invite: Annotated[
        str | None, typer.Option(help="The invite code of an invite-only --table.")
    ] = None,
    forget: Annotated[
        bool, typer.Option("--forget", help="Forget the login remembered for this server.")
    ] = False,
) -> None:
    """Play at a parlour server: log in or sign up, the lobby and My games, new tables,
    and every game in its terminal app, live. PARLOUR_TOKEN (a login's token) skips the
    log-in; the token is written to disk only if you tick "remember" (0600, data
    directory)."""
    from parlour.engine.errors import ParlourError
    from parlour.tui.connect.app import ConnectApp
    from parlour.tui.connect.client import ServerClient, ServerRefused, base_url
    from parlour.tui.connect.tables import remember_token, remembered_token, table_app

    try:
        address = base_url(url)
    except ValueError as err:
        fail(str(err))
    if forget:
        remember_token(address, None)
        console.print(f"Forgot the login for {address}.")
        return
    token = os.environ.get(TOKEN_VARIABLE) or remembered_token(address)

    def fetch(table_id: int, code: str | None) -> Any:
        async def get() -> Any:
            client = ServerClient(address, token)
            try:
                return await client.table(table_id, code)
            finally:
                await client.close()

        try:
            return asyncio.run(get())
        except ServerRefused as err:
            fail(f"table {table_id}: {err.detail}")

    first = table
    while True:
        data = None
        if first is not None and token:  # straight to a game in play: no lobby on the way
            data = fetch(first, invite)
            if data["status"] == "lobby":
                data = None
        if data is None:
            choice = ConnectApp(address, token, table=first, invite=invite).run()
            if choice is None:
                return
            token = choice.token
            data = fetch(choice.table, choice.invite)
        try:
            app = table_app(ServerClient(address, token), data)
        except ParlourError as err:
            fail(str(err))
        app.run()
        if table is not None:  # --table: one table, then done
            return
        first = None
