"""Reliability: SIGKILL a real server process in the middle of games (Ten-Thousand, Crossword
and Rummy, people and a computer player) and start it again on the same database. Every action
the server acknowledged is there, in order, and every game rebuilds from its log (no corrupt
game) and plays on."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx
import pytest

from parlour.server.services.cache import load_entry
from parlour.storage.db import open_database
from parlour.storage.tables import get_events, get_table
from parlour_tools.load_test import (
    TABLE_OPTIONS,
    choose_action,
    choose_crossword,
    spawn_server,
    stop_server,
    wait_healthy,
)
from tests.helpers import free_port

GAMES = ("ten-thousand", "crossword", "rummy")
ENOUGH = 30
"""Acknowledged actions before the kill (at least one in each game): the check needs actions
in flight on every kind of table, not a long game."""


class Table:
    """A table the test plays, with every acknowledged action: (seq, move, version after)."""

    def __init__(self, table_id: int, game: str, seats: list[dict[str, str]]) -> None:
        self.id = table_id
        self.game = game
        self.seats = seats
        self.acked: list[tuple[int, str, int]] = []

    def choose(self, view: dict, rng: random.Random) -> str:
        return choose_action(self.game, TABLE_OPTIONS[self.game], view["view"], view["legal"], rng)


def play(base: str, table: Table, stop: threading.Event, seed: int) -> None:
    """Play *table* until *stop* (or the server dies); record what was acknowledged."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=5) as http:
        while not stop.is_set():
            try:
                views = [http.get(f"/tables/{table.id}", headers=h).json() for h in table.seats]
                view = next((v for v in views if v["your_turn"]), None)
                if views[0]["status"] != "active":
                    return
                if view is None:
                    time.sleep(0.005)  # a computer player is moving
                    continue
                who = table.seats[view["you"]]
                action = table.choose(view, rng)
                response = http.post(
                    f"/tables/{table.id}/actions",
                    json={"action": action, "version": view["version"]},
                    headers=who,
                )
            except (httpx.HTTPError, ValueError):
                return  # the server was killed mid-request: not acknowledged
            if response.status_code == 200:
                body = response.json()
                table.acked.append((view["version"], action, body["version"]))
            else:
                assert response.status_code == 409, response.text


def setup(base: str) -> list[Table]:
    tables = []
    with httpx.Client(base_url=base, timeout=10) as http:

        def account(name: str) -> dict[str, str]:
            r = http.post("/auth/register", json={"name": name, "password": "password123"})
            assert r.status_code == 201, r.text
            return {"Authorization": f"Bearer {r.json()['token']}"}

        for index in range(6):
            game = GAMES[index % len(GAMES)]
            a, b = account(f"ann{index}"), account(f"bob{index}")
            created = http.post(
                "/tables",
                json={"game": game, "seats": ["me", "open"], "options": TABLE_OPTIONS[game]},
                headers=a,
            ).json()
            joined = http.post(f"/tables/{created['id']}/join", json={}, headers=b).json()
            if joined["status"] == "lobby":  # the crossword began by itself once full
                http.post(f"/tables/{created['id']}/start", headers=a)
            tables.append(Table(created["id"], game, [a, b]))
        for index, game in enumerate(("ten-thousand", "rummy")):
            solo = account(f"solo{index}")
            created = http.post(
                "/tables",
                json={
                    "game": game,
                    "seats": ["me", "cpu"],
                    "start": True,
                    "options": TABLE_OPTIONS[game],
                },
                headers=solo,
            ).json()
            tables.append(Table(created["id"], game, [solo]))
    assert all(t.id for t in tables)
    return tables


def played_enough(tables: list[Table]) -> bool:
    """Whether the players have ``ENOUGH`` acknowledged actions, some in every game."""
    by_game = {game: sum(len(t.acked) for t in tables if t.game == game) for game in GAMES}
    return sum(by_game.values()) >= ENOUGH and all(by_game.values())


@pytest.mark.slow
def test_sigkill_mid_game_loses_no_acknowledged_action(db_url: str, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    home = str(tmp_path / "home")
    process = spawn_server(port=port, database=db_url, home=home)
    try:
        wait_healthy(base, process, home=home)
        tables = setup(base)
        # the players' word list and move generator, loaded before the clock runs
        choose_crossword({"board": ["." * 15] * 15, "heights": [[0] * 15] * 15, "rack": "AE"}, {})
        stop = threading.Event()
        threads = [
            threading.Thread(target=play, args=(base, t, stop, i)) for i, t in enumerate(tables)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while not played_enough(tables) and time.monotonic() < deadline:
            time.sleep(0.01)
        stop_server(process, kill=True)  # SIGKILL while requests are in flight
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
    finally:
        stop_server(process, kill=True)
    acknowledged = sum(len(t.acked) for t in tables)
    assert acknowledged >= ENOUGH, "the games hardly ran before the kill"
    for game in GAMES:
        assert sum(len(t.acked) for t in tables if t.game == game) > 0, game
    print(f"\nSIGKILL after {acknowledged} acknowledged actions on {len(tables)} tables")

    process = spawn_server(port=port, database=db_url, home=home)
    try:
        wait_healthy(base, process, home=home)
        with httpx.Client(base_url=base, timeout=10) as http:
            for table in tables:
                view = http.get(f"/tables/{table.id}", headers=table.seats[0])
                assert view.status_code == 200, view.text  # loads: the log replays
                with open_database(db_url).connect() as connection:
                    events = get_events(connection, table.id)
                # read after the view: a computer player left to move at the kill may have
                # moved since the restart
                assert [e.seq for e in events] == list(range(len(events)))
                assert len(events) >= view.json()["version"]
                for seq, move, version_after in table.acked:
                    assert events[seq].move == move
                    assert view.json()["version"] >= version_after
            # the games play on after the restart (the computer player too)
            rng = random.Random(0)
            for table in tables:
                for _ in range(200):
                    views = [http.get(f"/tables/{table.id}", headers=h).json() for h in table.seats]
                    if views[0]["status"] != "active":
                        break
                    view = next((v for v in views if v["your_turn"]), None)
                    if view is None:
                        time.sleep(0.01)
                        continue
                    response = http.post(
                        f"/tables/{table.id}/actions",
                        json={"action": table.choose(view, rng), "version": view["version"]},
                        headers=table.seats[view["you"]],
                    )
                    assert response.status_code == 200, response.text
                    break
                else:
                    pytest.fail(f"table {table.id} did not move on after the restart")
    finally:
        stop_server(process)
    # and every stored game rebuilds from its log
    engine = open_database(db_url)
    with engine.connect() as connection:
        for table in tables:
            row = get_table(connection, table.id)
            assert row is not None
            assert len(get_events(connection, table.id)) == row.version
            entry = load_entry(connection, table.id)
            assert entry is not None and entry.version == row.version
