"""Computer players: they move promptly after the person before them, in the background,
in a worker thread, and the event loop keeps answering while they think."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

import parlour
from parlour.engine.state import State
from parlour.server.services import cache
from tests.server.conftest import register, wait_until
from tests.server.helpers import server_state

BOT_GAMES = [spec.name for spec in parlour.games() if spec.bot_levels]


@pytest.mark.parametrize("game", BOT_GAMES)
def test_computer_players_answer_a_person_until_the_end(client: TestClient, game: str) -> None:
    spec = parlour.engine.find(game)
    ann = register(client, "ann")
    seats = ["me", *[f"cpu:{level}" for level in spec.bot_levels][: spec.max_players - 1]]
    table = client.post(
        "/tables", json={"game": game, "seats": seats, "start": True}, headers=ann
    ).json()
    table_id = table["id"]
    rng = random.Random(3)
    for _ in range(2_000):
        current = wait_until(
            lambda: (
                (t := client.get(f"/tables/{table_id}", headers=ann).json())["your_turn"]
                or t["status"] == "finished"
            )
        )
        table = client.get(f"/tables/{table_id}", headers=ann).json()
        if table["status"] == "finished":
            break
        assert current is True
        response = client.post(
            f"/tables/{table_id}/actions",
            json={"action": pick(client, table, rng), "version": table["version"]},
            headers=ann,
        )
        assert response.status_code == 200, response.text
    else:
        pytest.fail("the game did not end")
    assert {e["by"] for e in table["events"]} >= {-1, 0, 1}


def pick(client: TestClient, table: dict[str, Any], rng: random.Random) -> str:
    """A random legal action: from the list sent, or (too many to list) from the engine."""
    if table["legal"] is not None:
        return str(rng.choice(table["legal"]))
    state = server_state(client, table["id"])
    return state.action_to_string(rng.choice(list(state.legal_actions(table["you"]))))


class SlowBot:
    """A bot that waits for the test's signal before answering (it is 'thinking')."""

    name = "slow"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.started = threading.Event()
        self.release = threading.Event()
        self.thread: str | None = None

    def choose(self, state: State, seat: int, rng: random.Random) -> Any:
        self.thread = threading.current_thread().name
        self.started.set()
        self.release.wait(timeout=20)
        return self.inner.choose(state, seat, rng)


def test_a_thinking_computer_player_does_not_block_the_server(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cache.bot_for("ten-thousand", "cautious")
    slow = SlowBot(real)
    monkeypatch.setattr(cache, "bot_for", lambda game, level: slow)
    from parlour.server.services import play

    monkeypatch.setattr(play, "bot_for", lambda game, level: slow)
    ann = register(client, "ann")
    table = client.post(
        "/tables",
        json={"game": "ten-thousand", "seats": ["cpu:cautious", "me"], "start": True},
        headers=ann,
    ).json()
    if table["your_turn"]:  # the computer's first roll was a farkle: pass the dice back
        move = next(a for a in table["legal"] if a.endswith("bank"))
        client.post(
            f"/tables/{table['id']}/actions",
            json={"action": move, "version": table["version"]},
            headers=ann,
        )
    assert slow.started.wait(timeout=10)  # the bot (seat 0) is thinking...
    # ...and meanwhile the server answers requests and WebSockets
    assert client.get("/health").json()["ok"] is True
    before = client.get(f"/tables/{table['id']}", headers=ann).json()
    assert before["your_turn"] is False and before["to_move"] == [0]
    with client.websocket_connect("/ws", headers=ann) as ws:
        assert ws.receive_json()["type"] == "hello"
    assert slow.thread != threading.main_thread().name
    slow.release.set()
    wait_until(
        lambda: any(
            e["by"] == 0 for e in client.get(f"/tables/{table['id']}", headers=ann).json()["events"]
        )
    )


class CountingBot:
    """A bot that counts the positions it is asked about, and thinks a while over each (as
    the searching levels do), so that a second worker has time to start on the same table."""

    name = "counting"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.asked: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def choose(self, state: State, seat: int, rng: random.Random) -> Any:
        with self.lock:
            self.asked.append((len(state.history), seat))  # type: ignore[attr-defined]
        threading.Event().wait(0.1)
        return self.inner.choose(state, seat, rng)


def test_a_computer_player_thinks_once_a_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Rummy turn is two moves of one seat (draw, then discard): the draw's commit queued the
    # table again while the first worker played on, so the second worker thought about the
    # same position too and one of the two moves was thrown away: twice the processor time of
    # a searching level, on the two cores the server shares with the bots.
    counting = CountingBot(cache.bot_for("rummy", "expert"))
    from parlour.server.services import play

    monkeypatch.setattr(play, "bot_for", lambda game, level: counting)
    ann = register(client, "ann")
    table = client.post(
        "/tables",
        json={"game": "rummy", "seats": ["me", "cpu:expert"], "start": True},
        headers=ann,
    ).json()
    table_id = table["id"]
    rng = random.Random(5)
    runner = client.app.state.runner  # type: ignore[attr-defined]

    def computer_moves() -> list[dict[str, Any]]:
        events = client.get(f"/tables/{table_id}", headers=ann).json()["events"]
        return [e for e in events if e["by"] == 1]

    while len(computer_moves()) < 10:
        table = wait_until(
            lambda: (t := client.get(f"/tables/{table_id}", headers=ann).json())["your_turn"] and t
        )
        response = client.post(
            f"/tables/{table_id}/actions",
            json={"action": pick(client, table, rng), "version": table["version"]},
            headers=ann,
        )
        assert response.status_code == 200, response.text
        wait_until(runner.idle)
    assert len(counting.asked) == len(set(counting.asked)) == len(computer_moves())
