"""``parlour connect`` against a real server on loopback (uvicorn in a thread, the real app,
a temporary SQLite database): Textual's pilot drives the connect app and each game's app
at server tables; a second account plays through REST."""

from __future__ import annotations

import asyncio
import itertools
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widgets import Button, Header, Input, RichLog, Select

from parlour.engine.state import State
from parlour.games.crossword.notation import Pass
from parlour.server import Settings, create_app
from parlour.tui.common.modals import ConfirmScreen
from parlour.tui.common.source import ServerTable
from parlour.tui.common.table import Pace, TableApp, TableScreen
from parlour.tui.connect.app import Choice, ConnectApp
from parlour.tui.connect.client import ServerClient
from parlour.tui.connect.screens import (
    LobbyScreen,
    LoginScreen,
    NewTableScreen,
    TableLobbyScreen,
    parse_table_ref,
)
from parlour.tui.connect.tables import remember_token, remembered_token, table_app, tokens_path
from tests.helpers import free_port
from tests.quick_game import QUICK_GAME
from tests.tui.helpers import type_fast

SIZE = (100, 36)
names = itertools.count()


@dataclass
class Script:
    """The server's chance source: the rolls queued for a game are drawn first, in order."""

    rolls: dict[str, list[str]] = field(default_factory=dict)

    def __call__(self, state: State, seed: str) -> str | None:
        queue = self.rolls.get(state.game.spec.name)
        return queue.pop(0) if queue else None


@dataclass
class Server:
    url: str
    script: Script

    def register(self, prefix: str = "ann") -> str:
        """A new account's token."""
        answer = httpx.post(
            f"{self.url}/auth/register",
            json={"name": f"{prefix}{next(names)}", "password": "password123"},
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["token"])

    def rest(self, token: str, method: str, path: str, body: Any = None) -> Any:
        answer = httpx.request(
            method, self.url + path, json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code < 400, answer.text
        return answer.json()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    import uvicorn

    home = tmp_path_factory.mktemp("connect")
    script = Script()
    seeds = itertools.count()
    settings = Settings(
        database_url=f"sqlite:///{home / 'server.db'}",
        argon2_fast=True,
        max_signups_per_address=0,
        sweep_seconds=0,
        poll_seconds=0,
        chance_script=script,
        new_seed=lambda: f"connect-{next(seeds)}",
    )
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield Server(f"http://127.0.0.1:{port}", script)
    finally:
        uv.should_exit = True
        thread.join(15)


@pytest.fixture(autouse=True)
def no_rolls_left(server: Server) -> Iterator[None]:
    """Each test queues its own rolls: none are left for the next one."""
    server.script.rolls.clear()
    yield
    server.script.rolls.clear()


async def until(pilot: Pilot[Any], check: Callable[[], object], what: str) -> None:
    """Let the app run until *check()* holds (at most 6,000 turns of its loop).

    A check that queries a widget not mounted yet has not held yet: a screen is
    ``app.screen`` as soon as it is pushed, before its widgets are composed (the lobby's
    ``#status`` was missing once in CI, stop 31)."""
    for _ in range(6000):
        try:
            if check():
                return
        except NoMatches:
            pass
        await pilot.pause(0.01)
    raise AssertionError(f"never happened: {what}")


def showing(app: Any, screen: type) -> bool:
    """Whether *app* shows a *screen* whose widgets are all mounted (``app.screen`` is
    the new screen from its push on, before its compose has run)."""
    return isinstance(app.screen, screen) and app.screen.is_mounted


def table_screen(app: TableApp) -> TableScreen:
    return app.table


def remote(app: TableApp) -> ServerTable:
    source = app.table.remote
    assert source is not None
    return source


def moves(server: Server, token: str, table_id: int) -> list[str]:
    return [e["move"] for e in server.rest(token, "GET", f"/tables/{table_id}")["events"]]


def history(state: State) -> list[str]:
    return [state.action_to_string(a) for _, a in state.history]


def new_table(server: Server, token: str, game: str, seats: list[str], **body: Any) -> Any:
    return server.rest(
        token,
        "POST",
        "/tables",
        {"game": game, "seats": seats, "start": "open" not in seats, **body},
    )


def open_app(server: Server, token: str, table_id: int) -> TableApp:
    client = ServerClient(server.url, token)
    data = server.rest(token, "GET", f"/tables/{table_id}")
    return table_app(client, data, pace=Pace.instant())


async def connected(pilot: Pilot[Any], app: TableApp) -> None:
    await until(pilot, lambda: app.table.connection == "connected", "connected")


# --- logging in, the lobby, a new table ---------------------------------------------------


async def test_sign_up_make_a_table_with_a_computer_and_play_a_move(server: Server) -> None:
    server.script.rolls["ten-thousand"] = ["roll 1 1 1 2 3 4", "roll 2 3 4 6 6 2"]
    name = f"kim{next(names)}"
    app = ConnectApp(server.url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: showing(app, LoginScreen), "the log-in screen")
        app.screen.query_one("#name", Input).value = name
        app.screen.query_one("#password", Input).value = "password123"
        app.screen.query_one("#signup", Button).press()
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
        await pilot.press("n")
        await until(pilot, lambda: showing(app, NewTableScreen), "the new table")
        game = app.screen.query_one("#game", Select)
        await until(pilot, lambda: game.value == "crossword", "the games listed")
        game.value = "ten-thousand"
        seats = app.screen.query_one("#seats", Input)
        await until(pilot, lambda: seats.value.startswith("me,cpu:"), "the seats filled in")
        seats.value = "me,cpu:cautious"
        app.screen.query_one("#create", Button).press()
        await until(pilot, lambda: app.return_value is not None, "the table to play")
    choice = app.return_value
    assert isinstance(choice, Choice)
    table = server.rest(choice.token, "GET", f"/tables/{choice.table}")
    assert table["game"] == "ten-thousand" and table["status"] == "active"
    assert table["seats"][0]["name"] == name

    game_app = open_app(server, choice.token, choice.table)
    async with game_app.run_test(size=SIZE) as pilot:
        await connected(pilot, game_app)
        source = remote(game_app)
        await until(pilot, source.person_to_move, "my turn")
        assert source.state.roll == (1, 1, 1, 2, 3, 4)  # type: ignore[attr-defined]
        assert "your turn" in game_app.table.sub_title
        version = source.version
        await pilot.press("1", "2", "3", "b")
        await until(pilot, lambda: source.version > version, "the server's answer")
        assert moves(server, choice.token, choice.table)[:2] == [
            "roll 1 1 1 2 3 4",
            "keep 1 1 1 bank",
        ]
        await until(pilot, lambda: not game_app.table.pending, "the computer's turn shown")
        server_table = server.rest(choice.token, "GET", f"/tables/{choice.table}")
        assert source.state.scores[0] == 1000  # type: ignore[attr-defined]
        assert server_table["view"]["scores"][0] == 1000
        assert history(source.state) == [e["move"] for e in server_table["events"]]


async def test_a_token_skips_the_log_in_and_a_dead_one_asks_for_it(server: Server) -> None:
    token = server.register()
    table = new_table(server, token, QUICK_GAME, ["me", "cpu"])
    app = ConnectApp(server.url, token, table=table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.return_value is not None, "the table chosen")
    assert app.return_value == Choice(table["id"], None, token)

    app = ConnectApp(server.url, "not-a-token")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: showing(app, LoginScreen), "the log-in screen")
        await pilot.pause()
        assert "Log in again" in str(app.screen.query_one("#status").render())


async def test_a_lobby_refresh_that_ends_as_the_lobby_is_taken_down_draws_nothing(
    server: Server,
) -> None:
    """The lobby fetches its tables again whenever it comes back (a new table's screen
    closed), and the app may close at the same time to play the new table: a fetch that
    ends after the lobby's widgets went draws nothing instead of failing the app (a
    traceback instead of the table, in about 2 runs of 5 of the sign-up test)."""
    token = server.register()
    app = ConnectApp(server.url, token)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
        lobby = app.screen
        await until(
            pilot, lambda: "N makes one" in str(lobby.query_one("#status").render()), "drawn"
        )
        await lobby.query_one("#mine").remove()  # taken down while a fetch was under way
        worker = lobby.action_refresh()  # type: ignore[func-returns-value]
        await worker.wait()
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.return_value is None
    assert app._exception is None


async def test_the_new_table_screen_opens_with_the_game_chooser_focused(server: Server) -> None:
    """Keys act at once on the new table's form: Enter opens the list of games (nothing
    had the focus, so a first key did nothing until Tab)."""
    token = server.register()
    app = ConnectApp(server.url, token)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
        await pilot.press("n")
        await until(pilot, lambda: showing(app, NewTableScreen), "the new table")
        game = app.screen.query_one("#game", Select)
        await until(pilot, lambda: game.value == "crossword", "the games listed")
        await until(pilot, lambda: app.focused is game, "the game chooser focused")


def test_a_remembered_login_is_readable_by_its_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOUR_HOME", str(tmp_path))
    assert remembered_token("http://127.0.0.1:1") is None
    path = remember_token("http://127.0.0.1:1", "secret-token")
    assert path == tokens_path() and path.parent == tmp_path
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert remembered_token("http://127.0.0.1:1") == "secret-token"
    remember_token("http://127.0.0.1:1", None)
    assert remembered_token("http://127.0.0.1:1") is None


def test_invite_links_and_table_numbers() -> None:
    assert parse_table_ref("12") == (12, None)
    assert parse_table_ref("http://h:8000/#/table/7?invite=Ab_3-x") == (7, "Ab_3-x")
    assert parse_table_ref("no table") is None


# --- playing ------------------------------------------------------------------------------


async def test_a_refused_move_shows_the_servers_reason_and_changes_nothing(
    server: Server,
) -> None:
    server.script.rolls["ten-thousand"] = ["roll 1 2 3 4 6 6"]
    token = server.register()
    table = new_table(server, token, "ten-thousand", ["me", "cpu:cautious"])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "my turn")
        version, before = source.version, source.state.to_json()
        await pilot.press("2", "r")  # a lone 2 does not score
        await until(pilot, lambda: "refused" in str(app.table.message), "the refusal")  # type: ignore[attr-defined]
        assert "The server refused it:" in app.table.message  # type: ignore[attr-defined]
        assert "score" in app.table.message  # type: ignore[attr-defined]
        assert source.version == version and source.state.to_json() == before
        assert moves(server, token, table["id"]) == ["roll 1 2 3 4 6 6"]
        assert app.table.waiting is False


async def test_two_accounts_see_each_others_moves(server: Server) -> None:
    server.script.rolls["ten-thousand"] = ["roll 1 1 1 2 3 4", "roll 5 5 5 2 3 4"]
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, ann, "ten-thousand", ["me", "open"])
    server.rest(bob, "POST", f"/tables/{table['id']}/join", {"invite": None})
    server.rest(ann, "POST", f"/tables/{table['id']}/start")
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "ann's turn")
        await pilot.press("1", "2", "3", "b")
        await until(pilot, lambda: not source.person_to_move(), "bob's turn")
        bobs = server.rest(bob, "GET", f"/tables/{table['id']}")
        assert [e["move"] for e in bobs["events"]][:2] == ["roll 1 1 1 2 3 4", "keep 1 1 1 bank"]
        assert bobs["view"]["roll"] == [2, 3, 4, 5, 5, 5]
        server.rest(
            bob,
            "POST",
            f"/tables/{table['id']}/actions",
            {"action": "keep 5 5 5 bank", "version": bobs["version"]},
        )
        await until(pilot, lambda: "keep 5 5 5 bank" in history(source.state), "bob's move")
        await until(pilot, lambda: not app.table.pending, "bob's move shown")
        assert source.state.scores == [1000, 500]  # type: ignore[attr-defined]
        lines = [strip.text for strip in app.table.query_one("#history", RichLog).lines]
        bob_name = bobs["seats"][1]["name"]
        assert any(f"{bob_name} banked 500" in line for line in lines), lines


async def test_a_dropped_socket_reconnects_and_resyncs(server: Server) -> None:
    server.script.rolls["greedy"] = []
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, bob, "greedy", ["me", "open"])
    server.rest(ann, "POST", f"/tables/{table['id']}/join", {"invite": None})
    server.rest(bob, "POST", f"/tables/{table['id']}/start")
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        link = app.table.settings.link
        assert isinstance(link, ServerClient)
        link.retry_seconds = (3600.0,)  # reconnects only when told: no race with bob's move
        link.drop()
        await until(pilot, lambda: app.table.connection == "reconnecting", "the loss shown")
        assert "reconnecting" in app.table.sub_title
        bobs = server.rest(bob, "GET", f"/tables/{table['id']}")
        action = bobs["legal"][0]
        server.rest(
            bob,
            "POST",
            f"/tables/{table['id']}/actions",
            {"action": action, "version": bobs["version"]},
        )
        now = server.rest(ann, "GET", f"/tables/{table['id']}")
        assert source.version < now["version"]  # the socket is down: nothing heard yet
        link.reconnect_now()
        await until(pilot, lambda: source.version == now["version"], "the resync")
        await until(pilot, lambda: not app.table.pending, "the moves shown")
        assert history(source.state) == [e["move"] for e in now["events"]]
        assert app.table.connection == "connected"
        assert source.view == now["view"]


GAMES = {
    "ten-thousand": "cpu:cautious",
    "greedy": "cpu:easy",
    QUICK_GAME: "cpu:hold-20",
    "crossword": "cpu:easy",
    "rummy": "cpu:easy",
}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_plays_a_move_at_a_server_table(server: Server, game: str) -> None:
    token = server.register()
    table = new_table(server, token, game, ["me", GAMES[game]])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "my turn")
        version = source.version
        state = source.state
        if game == "crossword":
            action = Pass()
        else:
            assert source.legal
            action = state.parse_action(source.legal[0], player=source.you)
        text = state.action_to_string(action)
        assert app.table.play(action) is False  # sent: the server's answer applies it
        await until(pilot, lambda: source.version > version, "the server's answer")
        assert text in moves(server, token, table["id"])
        await until(
            pilot,
            lambda: (
                (source.person_to_move() or source.status == "finished") and not app.table.pending
            ),
            "my turn again, every move shown",
        )
        now = server.rest(token, "GET", f"/tables/{table['id']}")
        assert source.version == now["version"]
        # the app's state is the seat's view: what it observes is what the server sends it
        # (the crossword's "unseen" tiles are the placeholders' count, not worked out here)
        assert source.view == now["view"]
        ours = source.state.observation(source.you)
        assert {k: v for k, v in ours.items() if k != "unseen"} == {
            k: v for k, v in now["view"].items() if k != "unseen"
        }


async def test_the_crossword_app_holds_only_its_seats_observation(server: Server) -> None:
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, ann, "crossword", ["me", "open"], options={"turn_mode": "daily"})
    server.rest(bob, "POST", f"/tables/{table['id']}/join", {"invite": None})
    for token in (ann, bob):  # the vote lobby: a full table begins by itself
        if server.rest(token, "GET", f"/tables/{table['id']}")["status"] == "lobby":
            server.rest(token, "POST", f"/tables/{table['id']}/vote")
    assert server.rest(ann, "GET", f"/tables/{table['id']}")["status"] == "active"
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=(120, 40)) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "ann may play today")
        anns = server.rest(ann, "GET", f"/tables/{table['id']}")
        bobs = server.rest(bob, "GET", f"/tables/{table['id']}")
        me, other = source.you, 1 - (source.you or 0)
        state = source.state
        assert state.racks[me] == anns["view"]["rack"]  # type: ignore[attr-defined]
        assert state.racks[other] == "?" * 7 != bobs["view"]["rack"]  # type: ignore[attr-defined]
        assert set(state.bag) == {"?"}  # type: ignore[attr-defined]
        assert source.view == anns["view"]
        assert "rack" not in str(source.view).replace("rack_sizes", "").replace(
            f"'rack': '{anns['view']['rack']}'", ""
        )
        assert f"day {anns['view']['day']}" in app.table.sub_title
        # daily mode: both may play today; ann passes through the app, bob stays to move
        version = source.version
        app.table.play(Pass())
        await until(pilot, lambda: source.version > version, "the pass taken")
        assert "pass" in moves(server, ann, table["id"])
        assert source.to_move_seats == [other]


async def test_a_server_table_is_left_with_escape_and_goes_on(server: Server) -> None:
    token = server.register()
    table = new_table(server, token, "greedy", ["me", "cpu"])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: showing(app, ConfirmScreen), "the confirm")
        assert "goes on at the server" in str(app.screen.query_one("#question").render())
        await pilot.press("y")
        await until(pilot, lambda: app.return_value is not None, "the app closed")
    assert app.return_value is not None and app.return_value.outcome == "server"
    assert server.rest(token, "GET", f"/tables/{table['id']}")["status"] == "active"


async def test_join_and_vote_in_a_tables_lobby_then_the_game_opens(server: Server) -> None:
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, ann, "crossword", ["me", "open", "open"], visibility="invite")
    code = table["invite_code"]
    assert code
    app = ConnectApp(server.url, bob, table=table["id"], invite=code)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: showing(app, TableLobbyScreen), "the lobby")
        info = app.screen.query_one("#info")
        link = f"/#/table/{table['id']}?invite={code}"
        await until(pilot, lambda: link in str(info.render()), "the invite link shown")
        await pilot.press("j")
        await until(pilot, lambda: "bob" in str(info.render()), "bob seated")
        await pilot.press("v")
        await until(pilot, lambda: "Votes to begin: 1" in str(info.render()), "bob's vote")
        server.rest(ann, "POST", f"/tables/{table['id']}/vote")  # two votes of two people
        await until(pilot, lambda: app.return_value is not None, "the game opened")
    assert app.return_value == Choice(table["id"], code, bob)
    assert server.rest(bob, "GET", f"/tables/{table['id']}")["status"] == "active"


async def test_another_seats_crossword_play_is_shown(server: Server) -> None:
    server.script.rolls["crossword"] = ["draw AEINRST", "draw CATSDOG"]
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, bob, "crossword", ["me", "open"])
    server.rest(ann, "POST", f"/tables/{table['id']}/join", {"invite": None})
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=(120, 40)) as pilot:
        await connected(pilot, app)
        source = remote(app)
        bobs = server.rest(bob, "GET", f"/tables/{table['id']}")
        assert bobs["view"]["rack"] == "AEINRST"
        server.rest(
            bob,
            "POST",
            f"/tables/{table['id']}/actions",
            {"action": "RETAINS H8 across", "version": bobs["version"]},
        )
        await until(pilot, lambda: source.person_to_move(), "ann's turn")
        bob_name = bobs["seats"][0]["name"]
        preview = str(app.table.query_one("#preview").render())
        assert f"{bob_name} played RETAINS H8 across for" in preview
        assert source.state.board.letter(7 * 15 + 7) == "R"  # type: ignore[attr-defined]
        assert sorted(source.state.racks[1]) == sorted("CATSDOG")  # type: ignore[attr-defined]


async def test_a_crossword_play_sent_from_the_prompt_closes_the_prompt(server: Server) -> None:
    """Once the server takes the seat's play, the prompt closes and its preview leaves the
    board (it hid the other seat's next play, drawn over by the old word's tiles)."""
    server.script.rolls["crossword"] = ["draw AEINRST", "draw CATSDOG"]
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, ann, "crossword", ["me", "open"])
    server.rest(bob, "POST", f"/tables/{table['id']}/join", {"invite": None})
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=(120, 40)) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "ann's turn")
        command = app.table.query_one("#command", Input)
        await pilot.press("enter")
        await until(pilot, lambda: command.display, "the prompt open")
        await pilot.press(*"retains h8 across")
        await until(pilot, lambda: app.table.ghost, "the play previewed")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: showing(app, ConfirmScreen), "the confirm")
        await pilot.press("y")
        await until(pilot, lambda: not source.person_to_move(), "the play taken")
        await until(pilot, lambda: not command.display, "the prompt closed")
        assert command.value == "" and app.table.ghost == ()  # type: ignore[attr-defined]


async def test_a_server_crossword_table_shows_its_status_line(server: Server) -> None:
    """The crossword's screen, like every game's, shows the table, whose turn and the
    connection in a header at a server table (a local game keeps the rows for the board)."""
    ann = server.register("ann")
    table = new_table(server, ann, "crossword", ["me", "cpu:easy"])
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=(120, 40)) as pilot:
        await connected(pilot, app)
        header = app.table.query_one(Header)
        await until(pilot, lambda: "connected" in app.table.sub_title, "the status line")
        await pilot.pause()
        shown = app.table.sub_title
        assert f"table {table['id']}" in shown and header.region.height >= 1
        assert header.region.y == 0 and header.display


def test_the_connect_command_refuses_a_bad_address_and_forgets_a_login(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from parlour.cli.main import app

    monkeypatch.setenv("PARLOUR_HOME", str(tmp_path))
    runner = CliRunner()
    out = runner.invoke(app, ["connect", "ftp://example.org"])
    assert out.exit_code == 2 and "not a server address" in out.output
    remember_token("http://127.0.0.1:9", "kept")
    out = runner.invoke(app, ["connect", "127.0.0.1:9", "--forget"])
    assert out.exit_code == 0 and "Forgot the login for http://127.0.0.1:9" in out.output
    assert remembered_token("http://127.0.0.1:9") is None


async def test_a_refused_sign_up_shows_the_reason_on_the_screen(server: Server) -> None:
    """The status line under the buttons is on the screen (the buttons' row does not push
    it off the bottom)."""
    app = ConnectApp(server.url)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: showing(app, LoginScreen), "the log-in screen")
        app.screen.query_one("#name", Input).value = f"lee{next(names)}"
        app.screen.query_one("#password", Input).value = "short"
        app.screen.query_one("#signup", Button).press()
        status = app.screen.query_one("#status")
        await until(
            pilot,
            lambda: "password: too short: at least 8 characters" in str(status.render()),
            "the reason",
        )
        await pilot.pause()
        region = status.region
        assert region.height >= 1 and region.bottom <= app.screen.size.height - 1, region


async def test_a_log_in_and_a_table_number_typed_fast_all_arrive(server: Server) -> None:
    """Keys typed in a burst (as through SSH) as each field or screen opens all arrive: the
    name, Enter (the password field takes the focus), the password, Enter, then J and a
    table number in the lobby's join box, which a refresh of the lobby leaves focused."""
    name = f"fay{next(names)}"
    httpx.post(f"{server.url}/auth/register", json={"name": name, "password": "password123"})
    app = ConnectApp(server.url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: showing(app, LoginScreen), "the log-in screen")
        await type_fast(pilot, *name, "enter", *"password123", "enter")
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
        lobby = app.screen
        shown = lobby.query_one("#status")
        await until(pilot, lambda: "tables" in str(shown.render()), "the lobby's tables")
        await type_fast(pilot, "j", "1", "2")
        box = lobby.query_one("#join", Input)
        assert (app.focused, box.value) == (box, "12")
        worker = lobby.action_refresh()  # a refresh (on coming back to the lobby, say)
        await worker.wait()
        await pilot.pause()
        assert app.focused is box  # it took the focus to its tables: the next keys were lost


def footer_labels(app: TableApp) -> dict[str, str]:
    """The keys the footer shows and their labels (as Textual's Footer lists them)."""
    return {
        key: active.binding.description
        for key, active in app.screen.active_bindings.items()
        if active.binding.show
    }


LOCAL_LABELS = {"End game", "Restart", "Quit (saved)", "Quit", "Play again (F8)"}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_server_tables_footer_and_dialogs_say_what_they_do_there(
    server: Server, game: str
) -> None:
    """At a server table Esc is "Leave table" in the footer and in its confirm (the local
    game's End game, Restart and Quit (saved) are neither shown nor run), F8 restarts
    nothing, and Ctrl+Q leaves; the game goes on at the server."""
    token = server.register()
    table = new_table(server, token, game, ["me", GAMES[game]])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        await until(pilot, remote(app).person_to_move, "my turn")
        labels = footer_labels(app)
        assert not LOCAL_LABELS & set(labels.values()), labels
        leave_keys = {key for key, label in labels.items() if label == "Leave table"}
        # Esc leaves in every game; the crossword shows it as Q (Esc there closes the prompt
        # first), Rummy as both, as their Quit was
        assert leave_keys == {"crossword": {"q"}, "rummy": {"q", "escape"}}.get(game, {"escape"})
        await pilot.press("f8")
        await pilot.pause()
        assert app.screen is app.table  # no restart confirm
        await pilot.press("escape")
        await until(pilot, lambda: showing(app, ConfirmScreen), "the confirm")
        question = str(app.screen.query_one("#question").render())
        assert question.startswith("Leave the table? The game goes on at the server")
        assert "nothing is saved on this computer" in question
        buttons = [str(b.label) for b in app.screen.query(Button)]
        assert buttons == ["Leave table (Y)", "Keep playing (N)"]
        await pilot.press("n")
        await until(pilot, lambda: app.screen is app.table, "the confirm closed")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_value is not None, "the app closed")
    assert app.return_value is not None and app.return_value.outcome == "server"
    assert server.rest(token, "GET", f"/tables/{table['id']}")["status"] == "active"


async def test_the_new_table_form_describes_options_as_the_server_takes_them(
    server: Server,
) -> None:
    """The crossword's word list is not offered as "... or a file" (the server refuses any
    file option): the form says it is fixed, and refuses it before asking the server."""
    token = server.register()
    app = ConnectApp(server.url, token)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
        await pilot.press("n")
        await until(pilot, lambda: showing(app, NewTableScreen), "the new table")
        form = app.screen
        game = form.query_one("#game", Select)
        await until(pilot, lambda: game.value == "crossword", "the games listed")
        about = form.query_one("#about")
        await until(pilot, lambda: "lexicon" in str(about.render()), "the options described")
        lines = str(about.render()).splitlines()
        assert "lexicon: always enable at a server (it takes no file)" in lines
        stack = "max_stack=0 (0..): most tiles one square may hold (0: no limit; 1: no covering)"
        assert stack in lines
        assert "file," not in str(about.render()) and "or a file" not in str(about.render())
        form.query_one("#options", Input).value = "lexicon=/usr/share/dict/words"
        form.query_one("#create", Button).press()
        status = form.query_one("#status")
        await until(pilot, lambda: "cannot be set" in str(status.render()), "the refusal")
        assert str(status.render()) == "lexicon cannot be set at a server: it plays with enable"
        form.query_one("#options", Input).value = "colour=red"
        form.query_one("#create", Button).press()
        await until(pilot, lambda: "no option" in str(status.render()), "the refusal")
        assert str(status.render()).startswith("Crossword has no option 'colour' (options: ")
        assert isinstance(app.screen, NewTableScreen)  # nothing was created


async def test_the_header_follows_the_replay_and_says_your_turn_only_when_it_is(
    server: Server,
) -> None:
    """The computer's moves arrive at once but are shown one by one at a pace a person can
    follow: meanwhile the header says whose moves are being shown, not "your turn" (the
    server's turn, which the screen has not reached)."""
    # me: 1 1 1 then bank; the computer: 1 2 3 3 4 6 (the 1 scores), then whatever it does
    server.script.rolls["ten-thousand"] = ["roll 1 1 1 2 3 4", "roll 1 2 3 3 4 6"]
    token = server.register()
    table = new_table(server, token, "ten-thousand", ["me", "cpu:cautious"])
    client = ServerClient(server.url, token)
    data = server.rest(token, "GET", f"/tables/{table['id']}")
    # a pace slow enough that polling sees the replay on a loaded machine (a poll may take
    # far longer than its 10 ms there)
    app = table_app(client, data, pace=Pace(look=0.4, turn=0.4))
    seen: list[tuple[int, str]] = []
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "my turn")
        await until(pilot, lambda: not app.table.pending, "the first roll shown")
        assert "your turn" in app.table.sub_title
        version = source.version

        def record() -> None:
            seen.append((len(app.table.pending), app.table.sub_title))

        def watch() -> bool:
            record()
            return source.person_to_move() and not app.table.pending

        await pilot.press("1", "2", "3", "b")
        # recorded from the press on: the replay may begin before the answer is seen
        await until(pilot, lambda: record() or source.version > version, "the server's answer")

        await until(pilot, watch, "the computer's turn shown, my turn again")
        assert "your turn" in app.table.sub_title
    cpu = "cpu:cautious's moves"
    replaying = [title for pending, title in seen if pending]
    assert replaying, "the replay was never seen"
    assert not [t for t in replaying if "your turn" in t], replaying
    assert [t for t in replaying if f"showing {cpu}" in t], replaying


async def test_a_move_that_never_reached_the_server_is_not_called_refused(server: Server) -> None:
    """With the server gone, a move cannot be sent: the screen says it was not sent, not
    that the server refused it, and nothing changes."""
    server.script.rolls["ten-thousand"] = ["roll 1 2 3 4 6 6"]
    token = server.register()
    table = new_table(server, token, "ten-thousand", ["me", "cpu:cautious"])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "my turn")
        version, before = source.version, source.state.to_json()
        link = app.table.settings.link
        assert isinstance(link, ServerClient)
        link.url = "http://127.0.0.1:9"  # the discard port: nothing answers there
        link._http.base_url = link.url  # type: ignore[attr-defined]
        await pilot.press("1", "b")
        await until(pilot, lambda: "Not sent" in str(app.table.message), "the message")  # type: ignore[attr-defined]
        message = str(app.table.message)  # type: ignore[attr-defined]
        assert message.startswith("Not sent (the server does not answer: ")
        assert message.endswith("): play it again once connected.")
        assert "refused" not in message
        assert source.version == version and source.state.to_json() == before
        assert app.table.waiting is False


async def test_a_rummy_wait_message_goes_once_the_table_moves_on(server: Server) -> None:
    """A key typed while the server had not answered says "Wait…"; the message went on
    being shown through the computer's turn into the person's own (Rummy's state is
    rebuilt from the server's view, so no move's line replaced it)."""
    token = server.register()
    table = new_table(server, token, "rummy", ["me", "cpu:easy"])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "my turn")
        version = source.version
        app.table.explain("Wait…")  # a key typed while a move was on its way was told so
        await pilot.press("s")  # draw from the stock: the server's answer moves the table on
        await until(pilot, lambda: source.version > version, "the draw taken")
        await until(pilot, lambda: not app.table.pending, "the table caught up")
        assert app.table.message == ""  # type: ignore[attr-defined]


async def test_seats_typed_before_the_games_arrive_are_kept(server: Server) -> None:
    """N, Tab and the seats typed at once (a burst through tmux or SSH) while the form still
    fetches the games: Tab goes from the game chooser to the seats as it does once they are
    listed, and the game's default seats, filled in when the games arrive, do not replace
    what was typed (found through tmux: the typed seats were lost or overwritten)."""
    token = server.register()
    app = ConnectApp(server.url, token)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
        client = app.client
        games = client.games
        arrived = asyncio.Event()

        async def held_games() -> list[Any]:
            await arrived.wait()  # the server is slow to answer
            return await games()

        client.games = held_games  # type: ignore[method-assign]
        await type_fast(pilot, "n", "tab", *"me,open")
        form = app.screen
        assert isinstance(form, NewTableScreen)
        seats = form.query_one("#seats", Input)
        assert (app.focused, seats.value) == (seats, "me,open")
        arrived.set()
        game = form.query_one("#game", Select)
        await until(pilot, lambda: game.value == "crossword", "the games listed")
        await pilot.pause()
        assert seats.value == "me,open" and app.focused is seats
        game.value = "ten-thousand"  # another game chosen: still the seats typed
        await pilot.pause()
        assert seats.value == "me,open"


async def test_a_server_crossword_shows_your_rack_while_another_seat_plays(
    server: Server,
) -> None:
    """At a server table the rack on screen is always this terminal's own: while another
    seat is to move (a person, perhaps for days) it is shown with who is to play, not
    hidden behind "bob is thinking..." (found playing through tmux: nothing to plan with)."""
    server.script.rolls["crossword"] = ["draw AEINRST", "draw CATSDOG"]
    ann = server.register("ann")
    bob = server.register("bob")
    table = new_table(server, bob, "crossword", ["me", "open"])
    server.rest(ann, "POST", f"/tables/{table['id']}/join", {"invite": None})
    app = open_app(server, ann, table["id"])
    async with app.run_test(size=(120, 40)) as pilot:
        await connected(pilot, app)
        bob_name = server.rest(bob, "GET", f"/tables/{table['id']}")["seats"][0]["name"]
        ann_name = server.rest(ann, "GET", f"/tables/{table['id']}")["seats"][1]["name"]
        rack = str(app.table.query_one("#rack").render())
        assert rack.startswith(f"{ann_name}'s rack: ")
        assert sorted(t[0] for t in rack.split(": ", 1)[1].split()[:7]) == sorted("CATSDOG")
        assert rack.rstrip().endswith(f"({bob_name} to play)")


async def test_the_coach_at_a_server_table_comes_from_the_server(server: Server) -> None:
    """C at an unrated server table shows the server's figures for your decision (the
    terminal said "not offered at a server table here"); at a rated table the panel gives
    the server's refusal. Six 1s at 0 to 0: banking 8,000 is best (99.9%, as in the web
    client's test)."""
    token = server.register()
    for rated, expected in (
        (False, "★ keep 1 1 1 1 1 1 bank  win 99.9%"),
        (True, "Coach: the coach is not offered at rated tables"),
    ):
        server.script.rolls["ten-thousand"] = ["roll 1 1 1 1 1 1"]
        table = new_table(server, token, "ten-thousand", ["me", "cpu:cautious"], rated=rated)
        app = open_app(server, token, table["id"])
        async with app.run_test(size=(100, 40)) as pilot:
            await connected(pilot, app)
            await until(pilot, remote(app).person_to_move, "my turn")
            panel = app.table.query_one("#coach")
            await pilot.press("c")
            shown = lambda p=panel, e=expected: e in str(p.render())  # noqa: E731
            await until(pilot, shown, "the coach's answer")
            if not rated:
                lines = str(panel.render()).splitlines()
                assert lines[0] == expected
                assert lines[1] == "  keep 1 1 1 1 1 1 roll  win 98.3%"


async def test_a_rummy_hint_goes_once_the_table_moves_on(server: Server) -> None:
    """M with no card selected says to select the cards first; once a draw moves the table
    on, the hint goes (it stayed up after the person's own draw and meld, found through
    the door), while a server's refusal is kept."""
    token = server.register()
    table = new_table(server, token, "rummy", ["me", "cpu:easy"])
    app = open_app(server, token, table["id"])
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot, app)
        source = remote(app)
        await until(pilot, source.person_to_move, "my turn")
        screen = app.table
        await pilot.press("m")
        assert screen.message.startswith("Select the cards of a set or a run first")  # type: ignore[attr-defined]
        version = source.version
        await pilot.press("s")  # draw from the stock: the server's answer moves the table on
        await until(pilot, lambda: source.version > version, "the draw taken")
        await until(pilot, lambda: not screen.pending, "the table caught up")
        assert screen.message == ""  # type: ignore[attr-defined]
        await pilot.press("s")  # a second draw: refused by the server, in its words
        await until(pilot, lambda: "refused" in screen.message, "the refusal")  # type: ignore[attr-defined]
        await pilot.pause(0.3)
        assert screen.message.startswith("The server refused it: ")  # type: ignore[attr-defined]
