"""``parlour connect URL``'s app before a game: log in (unless a token is given), the lobby,
new tables and a table's lobby. It closes with the table to play (:class:`Choice`); the
command then opens the game's own app on it (:func:`~.tables.table_app`) and comes back
here when that closes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import work

from parlour.tui.common.keys import KeysInTurn
from parlour.tui.connect.client import ServerClient, ServerRefused
from parlour.tui.connect.screens import LobbyScreen, LoginScreen, TableLobbyScreen
from parlour.tui.connect.tables import remember_token


@dataclass(frozen=True)
class Choice:
    """The table to play: its id, the invite code it was opened with, and the login."""

    table: int
    invite: str | None
    token: str


class ConnectApp(KeysInTurn[Choice]):
    """Log in, then the lobby; closes with a :class:`Choice` (``None``: the user quit).

    *token* (``PARLOUR_TOKEN``, or a remembered login) skips the log-in screen while it
    still logs in; *table* opens that table at once (its lobby if it has not started).
    """

    TITLE = "parlour connect"

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        table: int | None = None,
        invite: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.client = ServerClient(url, token)
        self.url = self.client.url
        self.first_table = table
        self.first_invite = invite

    def on_mount(self) -> None:
        if self.client.token:
            self._check_token()
        else:
            self.push_screen(LoginScreen())

    @work(exclusive=True, group="me")
    async def _check_token(self) -> None:
        try:
            await self.client.me()
        except ServerRefused as err:
            self.client.token = None
            self.push_screen(LoginScreen(note=f"Log in again: {err.detail}"))
            return
        self.logged_in(remember=False)

    def logged_in(self, *, remember: bool) -> None:
        """After a login: remember it if asked (0600 in the data directory), then the
        lobby, or the table asked for."""
        assert self.client.token is not None
        if remember:
            remember_token(self.url, self.client.token)
        if isinstance(self.screen, LoginScreen):
            self.pop_screen()
        self.push_screen(LobbyScreen())
        if self.first_table is not None:
            table, self.first_table = self.first_table, None
            self.open_table(table, self.first_invite)

    @work(exclusive=True, group="open")
    async def open_table(self, table_id: int, invite: str | None) -> None:
        """Open *table_id*: its lobby before the start, else close with it to play."""
        try:
            table = await self.client.table(table_id, invite)
        except ServerRefused as err:
            screen = self.screen
            if hasattr(screen, "say"):
                screen.say(err.detail, warning=True)
            return
        self.show_table(table, invite)

    def show_table(self, table: dict[str, Any], invite: str | None) -> None:
        """Show *table* (a ``GET /tables/{id}`` answer): its lobby, or play it."""
        if table["status"] == "lobby":
            self.push_screen(TableLobbyScreen(table, invite))
        else:
            self.play(table["id"], invite)

    def play(self, table_id: int, invite: str | None) -> None:
        """Close with the table to play."""
        assert self.client.token is not None
        self.exit(Choice(table_id, invite, self.client.token))

    async def on_unmount(self) -> None:
        await self.client.close()
