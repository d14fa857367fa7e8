"""Spectators: what anyone may watch (``GET /watch``) and what a spectator is sent (REST
and the WebSocket, anonymous or logged in without a seat) of Rummy and the crossword, after
real moves: nothing hidden (no hand, no rack, no draws, no stock or bag contents)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.helpers import people_table, play_once, server_state, until

CARD = re.compile(r"^(?:[2-9]|10|[JQKA])[SHDC]$")


def _spectator_payloads(client: TestClient, table_id: int) -> list[dict[str, Any]]:
    """What an anonymous spectator and a logged-in one without a seat are sent: the REST
    table, the events and the WebSocket update."""
    watcher = register(client, "watcher")
    out = [
        client.get(f"/tables/{table_id}").json(),
        client.get(f"/tables/{table_id}", headers=watcher).json(),
        client.get(f"/tables/{table_id}/events").json(),
    ]
    for headers in ({}, watcher):
        with client.websocket_connect("/ws", headers=headers) as ws:
            ws.receive_json()
            ws.send_json({"type": "follow", "table": table_id})
            out.append(until(ws, "update"))
    return out


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def test_a_rummy_spectator_sees_no_hand_and_no_stock(client: TestClient) -> None:
    table_id, seats = people_table(client, "rummy")
    rng = random.Random(4)
    for _ in range(5):
        play_once(client, table_id, seats, rng)
    state = server_state(client, table_id)
    # a card taken from the discard pile is public (every seat saw it taken: "known")
    public = {card for seat in (0, 1) for card in state.observation(seat)["known"][seat]}
    hands = {card for seat in (0, 1) for card in state.observation(seat)["hand"]} - public
    assert len(hands) >= 10 and all(CARD.match(c) for c in hands)
    assert [t["id"] for t in client.get("/watch?game=rummy").json()] == [table_id]
    for payload in _spectator_payloads(client, table_id):
        if "view" in payload:
            view = payload["view"]
            assert view["you"] is None and view["hand"] == [] and view["drawn"] is None
            assert payload["legal"] == []
        seen = _strings(payload)
        assert not hands & seen, f"a hand's cards in a spectator's payload: {hands & seen}"
        for event in payload["events"]:
            assert event["by"] != -1, "a shuffle or draw (chance) sent to a spectator"


def test_a_crossword_spectator_sees_no_rack_and_no_bag(client: TestClient) -> None:
    table_id, seats = people_table(client, "crossword")
    rng = random.Random(6)
    for _ in range(3):
        play_once(client, table_id, seats, rng)
    state = server_state(client, table_id)
    racks = [state.observation(seat)["rack"] for seat in (0, 1)]
    assert all(len(rack) == 7 for rack in racks)
    for payload in _spectator_payloads(client, table_id):
        text = json.dumps(payload)
        assert '"rack"' not in text and '"unseen"' not in text
        for rack in racks:
            assert rack not in _strings(payload)
        if "view" in payload:
            view = payload["view"]
            assert view["you"] is None and isinstance(view["bag"], int)
            assert view["rack_sizes"] == [7, 7]
        for event in payload["events"]:
            assert event["by"] != -1, "a tile draw (chance) sent to a spectator"
            assert not event["move"].startswith(("exchange", "order")), event
