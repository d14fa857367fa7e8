"""``parlour connect``'s screens before a game: log in or sign up, the lobby and My games,
a new table, and one table's lobby (seats, invite link, join, vote, start, leave).

Each screen talks to the server through the app's :class:`~.client.ServerClient` and shows a
refusal with the server's reason (``#status``), changing nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Footer,
    Header,
    Input,
    Label,
    Select,
    Static,
)

from parlour.tui.common.clock import time_left, whose_turn
from parlour.tui.connect.client import ServerRefused

if TYPE_CHECKING:
    from parlour.tui.connect.app import ConnectApp

JSON = Any

INVITE_LINK = re.compile(r"table/(\d+)(?:\S*?[?&]invite=([A-Za-z0-9_-]+))?")
"""An invite link: ``http://host/#/table/12?invite=CODE``."""


def parse_table_ref(text: str) -> tuple[int, str | None] | None:
    """The table id and invite code in *text* (a table number or an invite link), or
    ``None``."""
    text = text.strip()
    if text.isdigit():
        return int(text), None
    match = INVITE_LINK.search(text)
    if match is None:
        return None
    return int(match.group(1)), match.group(2)


def invite_link(url: str, table: JSON, code: str | None = None) -> str:
    """The link that lets a friend join *table*: with its invite code (the table's, shown
    to its creator, or *code*, the one it was opened with), when it has one."""
    code = table.get("invite_code") or code
    return f"{url}/#/table/{table['id']}" + (f"?invite={code}" if code else "")


def parse_options(text: str) -> dict[str, Any]:
    """``"target=5000 entry=500 specials=false"`` as options: numbers as ints, ``true`` and
    ``false`` as booleans, anything else as text. Raises :class:`ValueError` for a word
    without ``=``."""
    options: dict[str, Any] = {}
    for word in text.replace(",", " ").split():
        name, equals, value = word.partition("=")
        if not equals or not name:
            raise ValueError(f"{word!r}: write options as name=value")
        key = name.strip().replace("-", "_")
        low = value.strip().lower()
        if low in ("true", "false"):
            options[key] = low == "true"
        elif re.fullmatch(r"-?\d+", low):
            options[key] = int(low)
        else:
            options[key] = value.strip()
    return options


def option_text(name: str, option: JSON) -> str:
    """One option of a game (as ``GET /games`` lists it) the way the server takes it on a
    new table: ``target=10000 (5000..20000, a multiple of 500): points to win``, values
    written as the form's options box takes them. A file option (a word list) is one a
    server refuses: it is said to be fixed at its default."""
    default = option.get("default")
    shown = str(default).lower() if isinstance(default, bool) else str(default)
    if option.get("file"):
        return f"{name}: always {shown} at a server (it takes no file)"
    return f"{name}={shown} ({option.get('allowed', '')}): {option.get('help', '')}"


def refused_options(options: dict[str, Any], game: JSON) -> str | None:
    """Why the server would refuse *options* for *game* before any value is checked (an
    unknown name, or a file option), or ``None``."""
    known = game.get("options") or {}
    for name in options:
        option = known.get(name)
        if option is None:
            listed = ", ".join(n for n in known if n != "players") or "none"
            return f"{game.get('title', 'this game')} has no option {name!r} (options: {listed})"
        if option.get("file"):
            return f"{name} cannot be set at a server: it plays with {option.get('default')}"
    return None


def seat_text(table: JSON) -> str:
    """The seats of *table* as one line: ``ann, CPU (strong), open``."""
    names = []
    for seat in table["seats"]:
        if seat["kind"] == "open":
            names.append("open")
        else:
            names.append(str(seat.get("name") or seat.get("level")))
    return ", ".join(names)


def turn_text(table: JSON) -> str:
    """Whose turn at *table* and the clock's time left (``your turn · 2d 3h left``)."""
    if table["status"] != "active":
        return str(table["status"])
    names = [str(s.get("name") or s.get("level") or "open") for s in table["seats"]]
    parts = [whose_turn(table["to_move"], table.get("you"), names)]
    left = time_left(table.get("deadline"))
    if left:
        parts.append(f"{left} left")
    return " · ".join(p for p in parts if p)


class Status(Static):
    """A line saying what happened (a refusal in the warning colour)."""

    DEFAULT_CSS = "Status { height: auto; margin: 0 1; } Status.-warning { color: $warning; }"

    def say(self, text: str, *, warning: bool = False) -> None:
        """Show *text*."""
        self.update(text)
        self.set_class(warning, "-warning")


class ConnectScreen(Screen[None]):
    """A screen of the connect app: ``client`` and ``status`` helpers."""

    @property
    def connect(self) -> ConnectApp:
        """The app (typed)."""
        from parlour.tui.connect.app import ConnectApp

        assert isinstance(self.app, ConnectApp)
        return self.app

    def say(self, text: str, *, warning: bool = False) -> None:
        """Show *text* on this screen's status line."""
        self.query_one(Status).say(text, warning=warning)


class LoginScreen(ConnectScreen):
    """Log in or sign up (name and password; remember the login on this computer)."""

    DEFAULT_CSS = """
    LoginScreen Vertical { width: 60; height: auto; margin: 1 2; }
    LoginScreen Input { margin: 0 0 1 0; }
    LoginScreen Horizontal { height: auto; }
    LoginScreen Button { margin: 0 1 0 0; }
    """

    def __init__(self, note: str = "") -> None:
        super().__init__()
        self.note = note

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical():
            yield Label(f"Log in to {self.connect.url}")
            yield Input(placeholder="name", id="name")
            yield Input(placeholder="password", password=True, id="password")
            yield Checkbox("Remember this login on this computer", id="remember")
            with Horizontal():
                yield Button("Log in", id="login", variant="primary")
                yield Button("Sign up", id="signup")
        yield Status(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()
        if self.note:
            self.say(self.note, warning=True)

    @on(Input.Submitted, "#name")
    def _next(self) -> None:
        self.query_one("#password", Input).focus()

    @on(Input.Submitted, "#password")
    @on(Button.Pressed, "#login")
    def _login(self) -> None:
        self._send(sign_up=False)

    @on(Button.Pressed, "#signup")
    def _signup(self) -> None:
        self._send(sign_up=True)

    def _send(self, *, sign_up: bool) -> None:
        name = self.query_one("#name", Input).value.strip()
        password = self.query_one("#password", Input).value
        if not name or not password:
            self.say("Write a name and a password.", warning=True)
            return
        self.say("Signing up…" if sign_up else "Logging in…")
        self._log_in(name, password, sign_up, self.query_one("#remember", Checkbox).value)

    @work(exclusive=True, group="login")
    async def _log_in(self, name: str, password: str, sign_up: bool, remember: bool) -> None:
        try:
            await self.connect.client.login(name, password, sign_up=sign_up)
        except ServerRefused as err:
            self.say(err.detail, warning=True)
            return
        self.connect.logged_in(remember=remember)


class LobbyScreen(ConnectScreen):
    """My games and the open tables. Enter opens the table under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New table"),
        Binding("j", "join", "Join by id or link"),
        Binding("r", "refresh", "Refresh"),
        Binding("q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    LobbyScreen DataTable { height: auto; max-height: 12; margin: 0 1 1 1; }
    LobbyScreen Label { margin: 0 1; text-style: bold; }
    LobbyScreen #join { display: none; margin: 0 1; }
    LobbyScreen #join.-open { display: block; }
    """

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll():
            yield Label("My games")
            yield DataTable(id="mine", cursor_type="row")
            yield Label("Open tables")
            yield DataTable(id="open", cursor_type="row")
            yield Input(placeholder="a table number or an invite link, then Enter", id="join")
        yield Status(id="status")
        yield Footer()

    def on_mount(self) -> None:
        account = self.connect.client.account or {}
        self.sub_title = f"{account.get('name', '')} at {self.connect.url}"
        for table_id, columns in (
            ("#mine", ("table", "game", "players", "turn")),
            ("#open", ("table", "game", "creator", "players")),
        ):
            self.query_one(table_id, DataTable).add_columns(*columns)
        self.action_refresh()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    @work(exclusive=True, group="lobby")
    async def action_refresh(self) -> None:
        """Fetch My games and the open tables again."""
        client = self.connect.client
        try:
            mine = await client.tables(mine=True)
            open_tables = await client.tables()
        except ServerRefused as err:
            self.say(err.detail, warning=True)
            return
        if not self.is_current:  # left meanwhile (a table opened): nothing to draw
            return
        try:
            self._draw(mine, open_tables)
        except NoMatches:  # taken down meanwhile (the app closes to play a table)
            return

    def _draw(self, mine: list[JSON], open_tables: list[JSON]) -> None:
        """Fill My games and the open tables (raises ``NoMatches`` once taken down)."""
        table = self.query_one("#mine", DataTable)
        table.clear()
        for t in mine:
            table.add_row(str(t["id"]), t["title"], seat_text(t), turn_text(t), key=str(t["id"]))
        lobby = self.query_one("#open", DataTable)
        lobby.clear()
        mine_ids = {t["id"] for t in mine}
        for t in open_tables:
            if t["id"] not in mine_ids:
                lobby.add_row(
                    str(t["id"]), t["title"], t["creator"], seat_text(t), key=str(t["id"])
                )
        if not mine and not open_tables:
            self.say("No tables yet: N makes one.")
        else:
            self.say(f"{len(mine)} of my games, {len(open_tables)} open tables.")
        if not isinstance(self.focused, (Input, DataTable)):  # a box being typed in keeps it
            (table if mine else lobby).focus()

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.connect.open_table(int(event.row_key.value), None)

    def action_new(self) -> None:
        """N: make a new table."""
        self.app.push_screen(NewTableScreen())

    def action_join(self) -> None:
        """J: join a table by number or invite link."""
        box = self.query_one("#join", Input)
        box.add_class("-open")
        box.focus()

    @on(Input.Submitted, "#join")
    def _join(self, event: Input.Submitted) -> None:
        ref = parse_table_ref(event.value)
        if ref is None:
            self.say("Write a table number or paste an invite link.", warning=True)
            return
        event.input.value = ""
        event.input.remove_class("-open")
        self.connect.open_table(*ref)


class NewTableScreen(ConnectScreen):
    """A new table: the game, the seats (``me``, ``open``, ``cpu:<level>``), the options,
    open or by invite, the turn clock."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", "Back")]
    DEFAULT_CSS = """
    NewTableScreen VerticalScroll { margin: 0 1; }
    NewTableScreen Input, NewTableScreen Select { margin: 0 0 1 0; }
    NewTableScreen #about { color: $text-muted; margin: 0 0 1 0; }
    """

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll():
            yield Select[str]([], prompt="game", id="game")
            yield Static(id="about", markup=False)
            yield Label("Seats: me, open (a person joins), cpu:<level>")
            yield Input(id="seats")
            yield Label("Options: name=value, separated by spaces (blank: the defaults)")
            yield Input(id="options")
            yield Select[str](
                [("open: anyone may join", "open"), ("invite only: join by link", "invite")],
                value="open",
                allow_blank=False,
                id="visibility",
            )
            yield Label("Turn clock: days per move (1, 2, 3, 5, 7, 14; blank: none)")
            yield Input(id="clock")
            yield Button("Create table", id="create", variant="primary")
        yield Status(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.games: dict[str, JSON] = {}
        self._default_seats = ""
        # focused before the games arrive, so a Tab typed at once goes on to the seats
        self.query_one("#game", Select).focus()
        self._load_games()

    @work(exclusive=True, group="games")
    async def _load_games(self) -> None:
        try:
            games = await self.connect.client.games()
        except ServerRefused as err:
            self.say(err.detail, warning=True)
            return
        self.games = {g["name"]: g for g in games}
        try:
            select = self.query_one("#game", Select)
        except NoMatches:  # the screen closed meanwhile
            return
        select.set_options([(g["title"], g["name"]) for g in games])
        if games:
            select.value = games[0]["name"]
        if self.focused is None or isinstance(self.focused, VerticalScroll):
            select.focus()  # keys act at once: Enter opens the list of games

    @on(Select.Changed, "#game")
    def _game_chosen(self, event: Select.Changed) -> None:
        game = self.games.get(str(event.value))
        if game is None:
            return
        levels = game.get("bot_levels") or []
        seats = self.query_one("#seats", Input)
        if seats.value.strip() in ("", self._default_seats):  # seats typed are kept
            self._default_seats = "me," + (f"cpu:{levels[-1]}" if levels else "open")
            seats.value = self._default_seats
        options = game.get("options") or {}
        about = [f"{game['title']}: {game.get('min_players')}-{game.get('max_players')} players"]
        if levels:
            about.append("computer levels: " + ", ".join(levels))
        for name, option in options.items():
            if name != "players":
                about.append(option_text(name, option))
        self.query_one("#about", Static).update("\n".join(about))

    @on(Button.Pressed, "#create")
    def _create(self) -> None:
        game = self.query_one("#game", Select).value
        if not isinstance(game, str):
            self.say("Choose a game.", warning=True)
            return
        seats = [s.strip() for s in self.query_one("#seats", Input).value.split(",") if s.strip()]
        try:
            options = parse_options(self.query_one("#options", Input).value)
        except ValueError as err:
            self.say(str(err), warning=True)
            return
        refusal = refused_options(options, self.games.get(game, {}))
        if refusal:
            self.say(refusal, warning=True)
            return
        clock = self.query_one("#clock", Input).value.strip()
        if clock and not clock.isdigit():
            self.say("The turn clock is a number of days, or blank.", warning=True)
            return
        body = {
            "game": game,
            "seats": seats,
            "options": options,
            "visibility": self.query_one("#visibility", Select).value,
            "clock_days": int(clock) if clock else None,
            "start": "open" not in seats,  # no one to wait for: begin at once
        }
        self._send(body)

    @work(exclusive=True, group="create")
    async def _send(self, body: JSON) -> None:
        try:
            table = await self.connect.client.create(body)
        except ServerRefused as err:
            self.say(err.detail, warning=True)
            return
        self.app.pop_screen()
        self.connect.show_table(table, table.get("invite_code"))


class TableLobbyScreen(ConnectScreen):
    """One table before its start: the seats, the invite link, and join, vote (the
    crossword's vote to begin), start, leave. Follows the table: it changes as others
    join, and the game opens once it starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "lobby('join')", "Join"),
        Binding("v", "lobby('vote')", "Vote to begin"),
        Binding("s", "lobby('start')", "Start"),
        Binding("l", "lobby('leave')", "Leave"),
        Binding("r", "refresh", "Refresh"),
        Binding("escape", "app.pop_screen", "Back"),
    ]
    DEFAULT_CSS = "TableLobbyScreen #info { margin: 1 2; height: auto; }"

    def __init__(self, table: JSON, invite: str | None) -> None:
        super().__init__()
        self.table = table
        self.invite = invite

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="info", markup=False)
        yield Status(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.show()
        self._follow()

    def show(self) -> None:
        """Draw the table."""
        t = self.table
        self.sub_title = f"table {t['id']} · {t['title']}"
        lines = [f"{t['title']} (table {t['id']}), {t['status']}", f"Seats: {seat_text(t)}"]
        if t.get("options"):
            lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in t["options"].items()))
        lines.append(f"Turn clock: {t['clock_days']} days" if t.get("clock_days") else "No clock")
        if t.get("votes"):
            lines.append(f"Votes to begin: {len(t['votes'])} (seats {t['votes']})")
        if t.get("start_refusal"):
            lines.append(f"Not yet: {t['start_refusal']}")
        lines.append(f"Invite link: {invite_link(self.connect.url, t, self.invite)}")
        self.query_one("#info", Static).update("\n".join(lines))

    @work(exclusive=True, group="follow")
    async def _follow(self) -> None:
        await self.connect.client.follow(self.table["id"], self._heard, self.invite)

    def _heard(self, message: JSON) -> None:
        if message.get("type") in ("table", "update"):
            self.action_refresh()

    @work(exclusive=True, group="refresh")
    async def action_refresh(self) -> None:
        """Fetch the table again (the game opens if it has started)."""
        try:
            self.table = await self.connect.client.table(self.table["id"], self.invite)
        except ServerRefused as err:
            self.say(err.detail, warning=True)
            return
        if self.table["status"] != "lobby":
            self.connect.play(self.table["id"], self.invite)
            return
        self.show()

    @work(exclusive=True, group="lobby")
    async def action_lobby(self, what: str) -> None:
        """Join, vote, start or leave the table."""
        try:
            await self.connect.client.lobby(self.table["id"], what, self.invite)
        except ServerRefused as err:
            self.say(err.detail, warning=True)
            return
        if what == "leave":
            self.app.pop_screen()
            return
        self.say({"join": "You sit at the table.", "vote": "Your vote is in."}.get(what, ""))
        self.action_refresh()
