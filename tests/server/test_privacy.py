"""For every game: nothing one player is sent holds another player's private data or the
table's seed. Each game's observation contract decides what is private: a part of
``observation(s)`` that differs from the spectator's view (``observation(None)``) belongs to
seat *s* alone (a rack, a hand); everything seat 0 is sent must be seat 0's own observation
at some version, events the game's visibility hook lets seat 0 see, and table metadata."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import parlour
from parlour.engine.state import JSON
from parlour.server.hooks import hooks_for
from parlour.server.services.cache import current_entry
from tests.server.helpers import people_table, play_once, server_state

GAMES = [spec.name for spec in parlour.games()]
ACTIONS = 40
PUBLIC_KEYS = {"you"}


def private_parts(observations: dict[int | None, JSON], seat: int) -> list[str]:
    """JSON texts of the parts of *seat*'s observation that the spectator does not see."""
    mine, public = observations[seat], observations[None]
    parts = []
    if isinstance(mine, dict) and isinstance(public, dict):
        for key, value in mine.items():
            if key in PUBLIC_KEYS or public.get(key) == value:
                continue
            if observations[0].get(key) == value:  # seat 0 sees the same: not private
                continue
            text = json.dumps(value)
            if len(text) >= 4:
                parts.append(text)
    return parts


@pytest.mark.parametrize("game", GAMES)
def test_no_message_to_one_player_holds_another_players_secrets(
    client: TestClient, game: str
) -> None:
    table_id, seats = people_table(client, game)
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    spec = parlour.engine.find(game)
    visible = hooks_for(game).event_visible
    seen: dict[int, dict[int | None, JSON]] = {}  # version -> observation by seat
    sent: list[str] = []  # every text seat 0's person received

    def remember() -> None:
        state = server_state(client, table_id)
        seen[len(state.history)] = {s: state.observation(s) for s in [None, *range(len(seats))]}

    with client.websocket_connect("/ws", headers=seats[0]) as ws:
        sent.append(json.dumps(ws.receive_json()))
        ws.send_json({"type": "follow", "table": table_id})
        remember()
        rng = random.Random(11)
        for _ in range(ACTIONS):
            state = server_state(client, table_id)
            if state.is_terminal():
                break
            actor = state.actors()[0]
            answer = play_once(client, table_id, seats, rng)
            remember()
            if actor == 0:
                sent.append(json.dumps(answer))
            for path in (f"/tables/{table_id}", f"/tables/{table_id}/events", "/tables?which=mine"):
                sent.append(client.get(path, headers=seats[0]).text)
        final = len(server_state(client, table_id).history)
        while True:
            message = ws.receive_json()
            sent.append(json.dumps(message))
            if message["type"] == "update" and message["version"] == final:
                break
    with ctx.cache.lock(table_id):
        seed = current_entry(ctx, table_id).table.rng_seed
    everything = "\n".join(sent)
    assert seed not in everything
    for text in sent:
        message: Any = json.loads(text)
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict) and item.get("view") is not None and "version" in item:
                # the only game view seat 0 ever gets is its own observation at that version
                assert item["view"] == seen[item["version"]][0]
            for event in item.get("events", []) if isinstance(item, dict) else []:
                over = item.get("status") == "finished"
                assert visible(spec, event["by"], event["move"], 0, over)
    for version, observations in seen.items():
        for other in range(1, len(seats)):
            for part in private_parts(observations, other):
                assert part not in everything, (version, other, part)
