"""For every game: nothing one player is sent holds another player's private data or the
table's seed. Each game's observation contract decides what is private: a part of
``observation(s)`` that differs from the spectator's view (``observation(None)``) belongs to
seat *s* alone (a rack, a hand); everything seat 0 is sent must be seat 0's own observation
at some version, events the game's visibility hook lets seat 0 see, and table metadata."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import parlour
from parlour.engine.state import JSON
from parlour.games.crossword.tiles import rack_value
from parlour.server.hooks import hooks_for
from parlour.server.services.cache import current_entry
from tests.server.conftest import register
from tests.server.helpers import people_table, play_once, server_state, until

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


def problems(client: TestClient, game: str) -> list[str]:
    """Play *game* with seat 0 following on a WebSocket and asking for its views; return
    what seat 0 was sent that it should not have been (empty: nothing)."""
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
    found = []
    if seed in everything:
        found.append("the seed")
    for text in sent:
        message: Any = json.loads(text)
        for item in message if isinstance(message, list) else [message]:
            if not isinstance(item, dict) or "version" not in item:
                continue
            version = item["version"]
            # the only game view seat 0 ever gets is its own observation at that version
            if item.get("view") is not None and item["view"] != seen[version][0]:
                found.append(f"v{version}: a view that is not seat 0's observation")
            for event in item.get("events", []):
                over = item.get("status") == "finished"
                if not visible(spec, event["by"], event["move"], 0, over):
                    found.append(f"v{version}: event {event['move']!r} by {event['by']}")
            # nothing private to another seat at that version is in it, unless seat 0's own
            # observation shows the same (seat 0 saw the card taken from the discard pile)
            text_of_item = json.dumps(item)
            own = json.dumps(seen[version][0])
            for other in range(1, len(seats)):
                for part in private_parts(seen[version], other):
                    if part in text_of_item and part not in own:
                        found.append(f"v{version}: seat {other}'s {part}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_message_to_one_player_holds_another_players_secrets(
    client: TestClient, game: str
) -> None:
    assert problems(client, game) == []


HIDDEN = [s.name for s in parlour.games() if s.information.value == "imperfect"]


@pytest.mark.parametrize("game", HIDDEN)
def test_the_check_catches_a_server_that_leaks(
    client: TestClient, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.server.services import cache

    # a broken server that sends every seat the first other seat's observation
    real = cache.Entry.view
    monkeypatch.setattr(cache.Entry, "view", lambda self, seat: real(self, 1))
    found = problems(client, game)
    assert any("not seat 0's observation" in f for f in found)
    assert any("seat 1's" in f for f in found)


def test_a_crossword_shows_every_final_rack_only_once_the_game_is_over(
    client: TestClient,
) -> None:
    """Four passes end a two-seat crossword (two scoreless rounds): until the last one, seat
    0 is sent no trace of seat 1's rack; with it, every view (a spectator's too) holds both
    final racks, the tiles the end adjustment counted."""
    table_id, seats = people_table(client, "crossword")
    other = server_state(client, table_id).racks[1]  # type: ignore[attr-defined]
    with client.websocket_connect("/ws", headers=seats[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": table_id})
        for turn in range(4):
            version = len(server_state(client, table_id).history)
            answer = client.post(
                f"/tables/{table_id}/actions",
                json={"action": "pass", "version": version},
                headers=seats[turn % 2],
            )
            assert answer.status_code == 200, answer.text
            while (update := ws.receive_json())["type"] != "update" or update[
                "version"
            ] != version + 1:
                pass
            table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
            if turn < 3:
                assert table["status"] == "active"
                for sent in (update, table):
                    assert "final_racks" not in sent["view"]
                    assert other not in json.dumps(sent)
    state = server_state(client, table_id)
    racks = state.racks  # type: ignore[attr-defined]
    assert state.is_terminal() and racks[1] == other
    spectator = client.get(f"/tables/{table_id}").json()
    for sent in (update, table, spectator):
        assert sent["status"] == "finished"
        assert sent["view"]["final_racks"] == racks
    assert spectator["view"]["log"][-1]["adjustments"] == [-rack_value(r) for r in racks]


# --- followers: the seat an account holds now, for every message -----------------------

SAME_AS_REST = ("version", "status", "you", "your_turn", "to_move", "view", "legal", "result")


def as_rest_shows(client: TestClient, table_id: int, headers: dict[str, str]) -> dict[str, Any]:
    """The parts of ``GET /tables/{id}`` an ``update`` repeats, for the account of *headers*
    (anonymous without them)."""
    table = client.get(f"/tables/{table_id}", headers=headers).json()
    return {key: table[key] for key in SAME_AS_REST}


def test_a_follower_who_left_before_the_start_is_sent_what_rest_shows_it(
    client: TestClient,
) -> None:
    """Found by probing the API: mia followed a Rummy table while seated, left, and vic took
    the seat; mia's socket kept the seat it followed with and was sent vic's hand, the card
    vic drew and vic's legal moves after every move, while REST showed mia a spectator's
    view."""
    ann, mia, vic = (register(client, name) for name in ("ann", "mia", "vic"))
    created = client.post("/tables", json={"game": "rummy", "seats": ["me", "open"]}, headers=ann)
    table_id = created.json()["id"]
    assert client.post(f"/tables/{table_id}/join", json={}, headers=mia).status_code == 200
    with client.websocket_connect("/ws", headers=mia) as ws:
        until(ws, "hello")
        ws.send_json({"type": "follow", "table": table_id})
        until(ws, "table", table=table_id)
        assert client.post(f"/tables/{table_id}/leave", headers=mia).status_code == 200
        assert client.post(f"/tables/{table_id}/join", json={}, headers=vic).status_code == 200
        assert client.post(f"/tables/{table_id}/start", headers=ann).status_code == 200
        rng = random.Random(5)
        checked = 0
        for _ in range(8):
            version = play_once(client, table_id, [ann, vic], rng)["version"]
            update = until(ws, "update", version=version)
            shown = as_rest_shows(client, table_id, mia)
            assert shown["you"] is None and shown["legal"] == []
            assert {key: update[key] for key in SAME_AS_REST} == shown
            assert update["view"]["hand"] == [] and update["view"]["drawn"] is None
            checked += 1
        assert checked == 8


def test_a_stale_seat_of_one_follower_stops_no_follower(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by probing the API: cat followed a four-seat crossword from seat 2; bob left,
    so the game began with two seats and cat in seat 1. The hub asked for seat 2's view,
    which a two-seat game does not have, and failed there on every change: no follower of
    the table was sent any update while cat's socket stayed open."""
    ann, bob, cat = (register(client, name) for name in ("ann", "bob", "cat"))
    created = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open", "open", "open"], "min_players": 2},
        headers=ann,
    )
    table_id = created.json()["id"]
    for who in (bob, cat):
        assert client.post(f"/tables/{table_id}/join", json={}, headers=who).status_code == 200
    with (
        client.websocket_connect("/ws", headers=cat) as cat_ws,
        client.websocket_connect("/ws", headers=ann) as ann_ws,
        client.websocket_connect("/ws") as anyone_ws,
    ):
        sockets = {"cat": (cat_ws, cat), "ann": (ann_ws, ann), "anyone": (anyone_ws, {})}
        for ws, _ in sockets.values():
            until(ws, "hello")
            ws.send_json({"type": "follow", "table": table_id})
            until(ws, "table", table=table_id)
        assert client.post(f"/tables/{table_id}/leave", headers=bob).status_code == 200
        assert client.post(f"/tables/{table_id}/vote", headers=cat).status_code == 200
        started = client.post(f"/tables/{table_id}/vote", headers=ann).json()
        assert started["status"] == "active"
        # the hub builds each follower's message before the answer: nothing failed there
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert [s["name"] for s in started["seats"]] == ["ann", "cat"]
        for turn in range(3):
            version = client.get(f"/tables/{table_id}", headers=ann).json()["version"]
            moved = client.post(
                f"/tables/{table_id}/actions",
                json={"action": "pass", "version": version},
                headers=(ann, cat)[turn % 2],
            )
            assert moved.status_code == 200, moved.text
            assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
            for name, (ws, headers) in sockets.items():
                update = until(ws, "update", version=moved.json()["version"])
                shown = as_rest_shows(client, table_id, headers)
                assert {key: update[key] for key in SAME_AS_REST} == shown, name
        assert as_rest_shows(client, table_id, cat)["you"] == 1


def test_a_follower_who_left_an_invite_only_table_is_sent_no_more_of_it(
    client: TestClient,
) -> None:
    """mia followed an invite-only table as its member (no code) and left: REST no longer
    shows her the table, so the socket gets a ``table`` notice (fetch it again: 404) and no
    update of it; with the code, she would follow it as a spectator."""
    ann, mia, vic = (register(client, name) for name in ("ann", "mia", "vic"))
    created = client.post(
        "/tables",
        json={"game": "rummy", "seats": ["me", "open"], "visibility": "invite"},
        headers=ann,
    ).json()
    table_id, code = created["id"], created["invite_code"]
    joined = client.post(f"/tables/{table_id}/join", json={"invite": code}, headers=mia)
    assert joined.status_code == 200, joined.text
    with client.websocket_connect("/ws", headers=dict(mia)) as ws:
        until(ws, "hello")
        ws.send_json({"type": "follow", "table": table_id})
        until(ws, "table", table=table_id)
        # (the leave is answered 404: the answer is the table, which mia may no longer see)
        client.post(f"/tables/{table_id}/leave", headers=mia)
        seats = client.get(f"/tables/{table_id}", headers=ann).json()["seats"]
        assert [s["kind"] for s in seats] == ["person", "open"]
        joined = client.post(f"/tables/{table_id}/join", json={"invite": code}, headers=vic)
        assert joined.status_code == 200, joined.text
        assert client.post(f"/tables/{table_id}/start", headers=ann).status_code == 200
        assert client.get(f"/tables/{table_id}", headers=mia).status_code == 404
        play_once(client, table_id, [ann, vic], random.Random(2))
        ws.send_json({"type": "ping", "ref": "last"})
        seen = []
        while (message := ws.receive_json()) != {"type": "pong", "ref": "last"}:
            seen.append(message)
        assert [m["type"] for m in seen if m["type"] == "update"] == []
        assert {"type": "table", "table": table_id} in seen
