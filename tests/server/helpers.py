"""Helpers for driving any registered game through the server API."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from parlour.engine.registry import find
from parlour.engine.state import State
from parlour.server.services import accounts, lobby
from parlour.server.services.cache import bot_for, current_entry
from parlour.server.services.context import ServerContext
from tests.server.conftest import Headers, register


def people_table(
    client: TestClient, game: str, *, people: int | None = None, **extra: Any
) -> tuple[int, list[Headers]]:
    """A started table of *game* with only people (default: the fewest seats, at least 2);
    returns its id and the headers of the person in each seat."""
    spec = find(game)
    count = people or max(2, spec.min_players)
    seats = [register(client, f"player{index}") for index in range(count)]
    created = client.post(
        "/tables",
        json={"game": game, "seats": ["me"] + ["open"] * (count - 1), **extra},
        headers=seats[0],
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    code = created.json()["invite_code"]
    for who in seats[1:]:
        joined = client.post(f"/tables/{table_id}/join", json={"invite": code}, headers=who)
        assert joined.is_success, joined.text
    status = client.get(f"/tables/{table_id}", headers=seats[0]).json()["status"]
    if status == "lobby":  # most games: the creator starts; the crossword began by itself
        started = client.post(f"/tables/{table_id}/start", headers=seats[0])
        assert started.status_code == 200, started.text
    return table_id, seats


def server_state(client: TestClient, table_id: int) -> State:
    """A copy of the table's state as the server holds it (white-box, for choosing moves and
    checking views)."""
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with ctx.cache.lock(table_id):
        return current_entry(ctx, table_id).state.clone()


QUICK_LEVELS = {"rummy": "expert", "crossword": "hard"}
"""The level that plays a person's moves in these games: their top level, ``lookahead``,
searches (up to a second a move), and these tests need only sensible moves."""


def choose(state: State, seat: int, rng: random.Random) -> str:
    """A sensible action for *seat* in notation: the game's strongest bot that does not search
    (:data:`QUICK_LEVELS`), else random."""
    spec = state.game.spec
    if spec.bot_levels:
        level = QUICK_LEVELS.get(spec.name, spec.bot_levels[-1])
        action = bot_for(spec.name, level).choose(state, seat, rng)
    else:
        action = rng.choice(list(state.legal_actions(seat)))
    return state.action_to_string(action)


def play_once(
    client: TestClient, table_id: int, seats: list[Headers], rng: random.Random
) -> dict[str, Any]:
    """One action by a person to move, through the API; returns the answer."""
    state = server_state(client, table_id)
    seat = state.actors()[0]
    version = len(state.history)
    response = client.post(
        f"/tables/{table_id}/actions",
        json={"action": choose(state, seat, rng), "version": version},
        headers=seats[seat],
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def setup_table(
    ctx: ServerContext, names: tuple[str, str] = ("ann", "bob")
) -> tuple[int, list[int]]:
    """Register *names* and start a two-person Ten-Thousand table between them through the
    services; return the table id and the two account ids (seat order)."""
    a = accounts.register(ctx, name=names[0], password="password123").account.id
    b = accounts.register(ctx, name=names[1], password="password123").account.id
    table_id = lobby.create_table(
        ctx,
        account_id=a,
        request=lobby.NewTable(game="ten-thousand", seats=["me", "open"], options={}),
    )
    lobby.join_table(ctx, table_id=table_id, account_id=b)
    lobby.start_table(ctx, table_id=table_id, account_id=a)
    return table_id, [a, b]


def until(ws: WebSocketTestSession, kind: str, **match: Any) -> dict[str, Any]:
    """The next message of *kind* (whose fields equal *match*) on *ws*, skipping others."""
    for _ in range(200):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} message")
