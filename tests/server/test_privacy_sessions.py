"""Randomized multi-account sessions on every game: accounts join and leave tables, start
them, preview and make moves (over REST and over the WebSocket), and open and close sockets
that follow the table; every message each socket receives must equal what REST gives that
account at that version, no more, and no preview may hold another seat's secrets.

The default run is small (one session per game, at most 30 moves each);
``PARLOUR_PRIVACY_SESSIONS=<n>`` plays *n* sessions per game and ``PARLOUR_PRIVACY_MOVES=<m>``
up to *m* moves in each. Each session's figures (joins, leaves, sockets, previews, moves,
messages checked) are printed with ``-s``.
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import parlour
from parlour.engine.state import JSON
from parlour.server.services.cache import bot_for
from tests.server.conftest import Headers, register
from tests.server.helpers import server_state

GAMES = [spec.name for spec in parlour.games()]
SESSIONS = int(os.environ.get("PARLOUR_PRIVACY_SESSIONS", "1"))
MOVES = int(os.environ.get("PARLOUR_PRIVACY_MOVES", "30"))
"""Moves per session at most (a game is played on only to its end or this many moves)."""
NOTICE = re.compile(
    r"(It is your turn at table \d+ \([^)]+\)\.|The game at table \d+ \([^)]+\) "
    r"(has started\.( It is your turn\.)?|is over\.)|A new day at table \d+ \([^)]+\): "
    r"your plays today\.)"
)
"""The notification texts: the table and the game, nothing any seat hides."""
SAME_AS_REST = ("version", "status", "you", "your_turn", "to_move", "view", "legal", "result")
EASY = bot_for("crossword", "easy")
SHORT = {"rummy": {"max_turns": 6, "max_rounds": 2}}
"""Options that end a round sooner, so round ends (and their previews) come up."""


@dataclass
class Socket:
    """One open WebSocket of one account (``None``: anonymous) and what it was sent."""

    who: int | None
    ws: WebSocketTestSession
    manager: Any
    messages: list[dict[str, Any]] = field(default_factory=list)
    following: bool = False


@dataclass
class Session:
    """A table played by several accounts, with what REST showed each account at each
    version (``(account, version) -> parts``) and the figures."""

    client: TestClient
    game: str
    rng: random.Random
    headers: list[Headers]
    table_id: int = 0
    sockets: list[Socket] = field(default_factory=list)
    rest: dict[tuple[int | None, int], dict[str, Any]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    found: list[str] = field(default_factory=list)

    # --- requests -----------------------------------------------------------------------

    def auth(self, who: int | None) -> Headers:
        return {} if who is None else self.headers[who]

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def table(self, who: int | None = 0) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get(
            f"/tables/{self.table_id}", headers=self.auth(who)
        ).json()
        return answer

    def snapshot(self) -> None:
        """Remember what REST shows every account (and an anonymous viewer) now."""
        for who in [None, *range(len(self.headers))]:
            table = self.table(who)
            if table["status"] == "lobby":
                continue
            parts = {key: table[key] for key in SAME_AS_REST}
            parts["events"] = table["events"]
            self.rest[(who, table["version"])] = parts

    def seated(self) -> list[int]:
        seats = self.table()["seats"]
        names = [s["name"] for s in seats if s["kind"] == "person"]
        return [who for who in range(len(self.headers)) if f"acct{who}" in names]

    # --- sockets ------------------------------------------------------------------------

    def open_socket(self, among: list[int] | None = None) -> None:
        """Open a socket for an account (one of *among* if given) or an anonymous viewer,
        and follow the table."""
        who = self.rng.choice(among or [None, *range(len(self.headers))])
        manager = self.client.websocket_connect("/ws", headers=self.auth(who))
        ws = manager.__enter__()
        socket = Socket(who, ws, manager)
        socket.messages.append(ws.receive_json())  # hello
        ws.send_json({"type": "follow", "table": self.table_id})
        socket.following = True
        self.sockets.append(socket)
        self.count("sockets")
        self.sync(socket)

    def sync(self, socket: Socket) -> None:
        """Receive until *socket* has the table's current version (a started table), or its
        lobby notice (a table in the lobby)."""
        table = self.table()
        while True:
            message = socket.ws.receive_json()
            socket.messages.append(message)
            if table["status"] == "lobby" and message["type"] == "table":
                return
            if message["type"] == "update" and message["version"] == table["version"]:
                return

    def close_socket(self, socket: Socket) -> None:
        if self.table()["status"] != "lobby":
            self.sync(socket)
        socket.manager.__exit__(None, None, None)
        self.sockets.remove(socket)
        self.check(socket)

    def close_all(self) -> None:
        for socket in list(self.sockets):
            self.close_socket(socket)

    # --- checks -------------------------------------------------------------------------

    def check(self, socket: Socket) -> None:
        """Every message *socket* received equals what REST gave its account then."""
        for message in socket.messages:
            self.count("messages")
            kind = message["type"]
            if kind == "hello":
                continue
            if kind == "table":
                if set(message) - {"type", "table", "status"}:
                    self.found.append(f"a table notice with more: {message}")
                continue
            if kind == "turn":
                if set(message) != {"type", "table", "version"}:
                    self.found.append(f"a turn notice with more: {message}")
                continue
            if kind == "ack":
                continue
            if kind == "notification":  # one of the account's: a fixed text, nothing hidden
                note = message["notification"]
                if set(message) != {"type", "notification"} or not NOTICE.fullmatch(note["text"]):
                    self.found.append(f"a notification with more: {message}")
                continue
            if kind != "update":
                self.found.append(f"unexpected {message}")
                continue
            shown = self.rest.get((socket.who, message["version"]))
            if shown is None:
                self.found.append(f"v{message['version']}: an update REST never showed")
                continue
            for key in SAME_AS_REST:
                if message[key] != shown[key]:
                    self.found.append(
                        f"v{message['version']} account {socket.who}: {key} differs from REST"
                    )
            for event in message["events"]:
                if event not in shown["events"]:
                    self.found.append(f"v{message['version']}: event {event} not in REST")
            self.count("updates checked")

    def check_preview(self, who: int, answer: dict[str, Any]) -> None:
        """A preview for *who*'s seat holds no other seat's secrets at this version."""
        self.count("previews")
        if answer.get("view") is None:
            return
        state = server_state(self.client, self.table_id)
        seat = self.table(who)["you"]
        observations: dict[int | None, JSON] = {
            s: state.observation(s) for s in [None, *range(state.game.num_players)]
        }
        text = json.dumps(answer["view"])
        own = json.dumps(observations[seat])
        for other in range(state.game.num_players):
            if other == seat:
                continue
            for part in private_parts(observations, other, seat):
                if part in text and part not in own:
                    self.found.append(f"preview by seat {seat}: seat {other}'s {part}")

    # --- the session --------------------------------------------------------------------

    def lobby(self, size: int) -> None:
        body: dict[str, Any] = {
            "game": self.game,
            "seats": ["me"] + ["open"] * (size - 1),
            "options": SHORT.get(self.game, {}),
        }
        if self.game == "crossword":
            body["min_players"] = 2
        created = self.client.post("/tables", json=body, headers=self.headers[0])
        assert created.status_code == 201, created.text
        self.table_id = created.json()["id"]
        for _ in range(self.rng.randint(0, 2)):
            self.open_socket()
        for _ in range(30):
            table = self.table()
            if table["status"] != "lobby":
                break
            seated = self.seated()
            others = [w for w in range(1, len(self.headers)) if w not in seated]
            roll = self.rng.random()
            if roll < 0.15:  # mostly for a seated account, who may leave while following
                self.open_socket(seated if self.rng.random() < 0.7 else None)
            elif roll < 0.25 and self.sockets:
                self.close_socket(self.rng.choice(self.sockets))
            elif roll < 0.5 and len(seated) > 1:
                who = self.rng.choice(seated[1:])
                if self.rng.random() < 0.5:  # it follows the table, then leaves
                    self.open_socket([who])
                left = self.client.post(f"/tables/{self.table_id}/leave", headers=self.auth(who))
                assert left.status_code == 200, left.text
                self.count("leaves")
            elif self.game == "crossword" and roll < 0.65 and len(seated) >= 2:
                for who in seated:  # begins now, with the players who joined
                    self.client.post(f"/tables/{self.table_id}/vote", headers=self.auth(who))
                self.count("votes")
            elif any(s["kind"] == "open" for s in table["seats"]):
                who = self.rng.choice(others)
                joined = self.client.post(
                    f"/tables/{self.table_id}/join", json={}, headers=self.auth(who)
                )
                assert joined.status_code == 200, joined.text
                self.count("joins")
            else:
                started = self.client.post(f"/tables/{self.table_id}/start", headers=self.auth(0))
                assert started.status_code == 200, started.text
                self.count("starts")
            self.snapshot()
        while (table := self.table())["status"] == "lobby":  # fill it, and start it
            seated = self.seated()
            others = [w for w in range(1, len(self.headers)) if w not in seated]
            if any(s["kind"] == "open" for s in table["seats"]):
                joined = self.client.post(
                    f"/tables/{self.table_id}/join", json={}, headers=self.auth(others[0])
                )
                assert joined.status_code == 200, joined.text
            else:
                started = self.client.post(f"/tables/{self.table_id}/start", headers=self.auth(0))
                assert started.status_code == 200, started.text
            self.snapshot()
        assert self.table()["status"] == "active"

    def play(self) -> None:
        passes = self.rng.random() < 0.5  # a session of passes ends a crossword early
        for _ in range(MOVES):
            table = self.table()
            if table["status"] != "active":
                break
            roll = self.rng.random()
            if roll < 0.08:
                self.open_socket()
                continue
            if roll < 0.14 and self.sockets:
                self.close_socket(self.rng.choice(self.sockets))
                continue
            state = server_state(self.client, self.table_id)
            seat = state.actors()[0]
            mover = int(table["seats"][seat]["name"].removeprefix("acct"))
            if self.game == "crossword" and passes and self.rng.random() < 0.8:
                action = "pass"
            elif self.game == "crossword":  # hundreds of plays: the easy player picks one
                action = state.action_to_string(EASY.choose(state, seat, self.rng))
            else:
                legal = [state.action_to_string(a) for a in state.legal_actions(seat)]
                stay = [a for a in legal if a != "quit"]  # Greedy: quitting ends it at once
                action = self.rng.choice(stay if stay and self.rng.random() < 0.9 else legal)
            # preview the move first (so every move that ends a round or the game is
            # previewed), and sometimes another action, or a preview by someone else
            preview = self.client.post(
                f"/tables/{self.table_id}/preview",
                json={"action": action},
                headers=self.auth(mover),
            )
            assert preview.status_code == 200, preview.text
            self.check_preview(mover, preview.json())
            if self.rng.random() < 0.3:
                other = self.rng.randrange(len(self.headers))
                guess = self.client.post(
                    f"/tables/{self.table_id}/preview",
                    json={"action": self.rng.choice(table["legal"] or ["pass"])},
                    headers=self.auth(other),
                )
                if self.table(other)["you"] is None:
                    assert guess.status_code == 403, guess.text
                else:
                    assert guess.status_code == 200, guess.text
                    self.check_preview(other, guess.json())
            own = [s for s in self.sockets if s.who == mover]
            if own and self.rng.random() < 0.5:
                socket = own[0]
                socket.ws.send_json(
                    {
                        "type": "action",
                        "table": self.table_id,
                        "action": action,
                        "version": table["version"],
                        "ref": "r",
                    }
                )
                while (message := socket.ws.receive_json())["type"] not in ("ack", "error"):
                    socket.messages.append(message)
                socket.messages.append(message)
                assert message["type"] == "ack", message
                self.count("moves over the socket")
            else:
                moved = self.client.post(
                    f"/tables/{self.table_id}/actions",
                    json={"action": action, "version": table["version"]},
                    headers=self.auth(mover),
                )
                assert moved.status_code == 200, moved.text
                self.count("moves over REST")
            self.snapshot()
        if self.table()["status"] == "finished":
            self.count("games finished")


def private_parts(observations: dict[int | None, JSON], seat: int, viewer: int) -> list[str]:
    """JSON texts of the parts of *seat*'s observation that neither the spectator nor the
    *viewer* is shown the same (a rack, a hand)."""
    mine, public, theirs = observations[seat], observations[None], observations[viewer]
    parts = []
    if isinstance(mine, dict) and isinstance(public, dict) and isinstance(theirs, dict):
        for key, value in mine.items():
            if key == "you" or public.get(key) == value or theirs.get(key) == value:
                continue
            text = json.dumps(value)
            if len(text) >= 4:
                parts.append(text)
    return parts


def run_session(client: TestClient, game: str, seed: int) -> Session:
    rng = random.Random(seed)
    spec = parlour.engine.find(game)
    size = rng.randint(max(2, spec.min_players), min(4, spec.max_players))
    accounts = size + rng.randint(1, 2)  # someone is left to watch, or to join and leave
    headers = [register(client, f"acct{who}") for who in range(accounts)]
    session = Session(client, game, rng, headers)
    try:
        session.lobby(size)
        session.snapshot()
        for _ in range(rng.randint(1, 3)):
            session.open_socket()
        session.play()
        session.close_all()
    finally:
        for socket in list(session.sockets):
            socket.manager.__exit__(None, None, None)
    return session


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("session", range(SESSIONS))
def test_every_socket_message_is_what_rest_shows_the_account(
    client: TestClient, game: str, session: int
) -> None:
    played = run_session(client, game, seed=1000 * session + GAMES.index(game))
    print(game, session, dict(sorted(played.counts.items())))
    assert played.found == []
    assert played.counts["updates checked"] > 0
