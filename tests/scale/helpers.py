"""Several server processes on one PostgreSQL: players whose requests go to one process or
another, followers on WebSockets, and the check that every acknowledged move is stored."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from parlour.storage.db import open_database
from parlour.storage.tables import get_events
from parlour_tools.load_test import TABLE_OPTIONS, choose_action

GAME = "ten-thousand"
OPTIONS = TABLE_OPTIONS[GAME]


@dataclass(frozen=True)
class Ack:
    """An acknowledged action: where it went in the log (``seq``), the move, the version
    after it, when it was acknowledged (monotonic seconds), the base URL that took it and,
    behind nginx, the server process that did (its ``X-Upstream`` header)."""

    seq: int
    move: str
    version: int
    when: float
    base: str
    upstream: str = ""


@dataclass
class Table:
    """A two-person table: each seat's bearer headers and the base URLs its requests try in
    turn (the next one once a process stops answering); every acknowledged action."""

    id: int
    seats: list[dict[str, str]]
    bases: list[list[str]]
    acked: list[Ack] = field(default_factory=list)
    refused: int = 0
    failovers: int = 0
    finished: bool = False


def register(http: httpx.Client, name: str) -> dict[str, str]:
    """Sign *name* up; its bearer headers."""
    response = http.post("/auth/register", json={"name": name, "password": "password123"})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def make_tables(
    base: str, count: int, bases: list[list[str]], tag: str, target: int = 2_000
) -> list[Table]:
    """*count* started two-person Ten-Thousand tables to *target* points, made through
    *base*; seat *i*'s requests try ``bases[i]`` in turn."""
    tables = []
    with httpx.Client(base_url=base, timeout=10) as http:
        for index in range(count):
            a, b = register(http, f"{tag}a{index}"), register(http, f"{tag}b{index}")
            created = http.post(
                "/tables",
                json={
                    "game": GAME,
                    "seats": ["me", "open"],
                    "options": {**OPTIONS, "target": target},
                },
                headers=a,
            )
            assert created.status_code == 201, created.text
            table_id = created.json()["id"]
            joined = http.post(f"/tables/{table_id}/join", json={}, headers=b)
            assert joined.status_code == 200, joined.text
            if joined.json()["status"] == "lobby":
                started = http.post(f"/tables/{table_id}/start", headers=a)
                assert started.status_code == 200, started.text
            tables.append(Table(table_id, [a, b], [list(bases[0]), list(bases[1])]))
    return tables


def play(table: Table, stop: threading.Event, seed: int) -> None:
    """Play *table* until *stop* or its game ends: the seat to move reads the table and
    acts through its first base; a base that stops answering is dropped for the next."""
    rng = random.Random(seed)
    clients = [[httpx.Client(base_url=b, timeout=5) for b in bases] for bases in table.bases]
    try:
        while not stop.is_set():
            progressed = False
            for seat in (0, 1):
                if stop.is_set():
                    break
                try:
                    outcome = _turn(table, seat, clients[seat][0], rng)
                except httpx.HTTPError:
                    if len(clients[seat]) > 1:  # that process is gone: the next one
                        clients[seat].pop(0).close()
                        table.failovers += 1
                        progressed = True
                        continue
                    time.sleep(0.05)
                    continue
                if outcome == "over":
                    table.finished = True
                    return
                progressed = progressed or outcome == "acted"
            if not progressed:
                time.sleep(0.002)
    finally:
        for seat_clients in clients:
            for client in seat_clients:
                client.close()


def _turn(table: Table, seat: int, http: httpx.Client, rng: random.Random) -> str:
    headers = table.seats[seat]
    response = http.get(f"/tables/{table.id}", headers=headers)
    response.raise_for_status()
    view = response.json()
    if view["status"] != "active":
        return "over"
    if not view["your_turn"]:
        return "waiting"
    action = choose_action(GAME, OPTIONS, view["view"], view["legal"], rng)
    answer = http.post(
        f"/tables/{table.id}/actions",
        json={"action": action, "version": view["version"]},
        headers=headers,
    )
    if answer.status_code == 200:
        after = answer.json()["version"]
        upstream = answer.headers.get("x-upstream", "")
        when = time.monotonic()
        table.acked.append(Ack(view["version"], action, after, when, str(http.base_url), upstream))
        return "acted"
    if answer.status_code >= 500:
        raise httpx.HTTPError(f"{answer.status_code}")
    assert answer.status_code == 409, answer.text
    table.refused += 1
    return "refused"


def check_stored(db_url: str, tables: list[Table]) -> int:
    """Assert every acknowledged action of *tables* is stored at its place in the log;
    return how many were checked."""
    checked = 0
    with open_database(db_url).connect() as connection:
        for table in tables:
            events = get_events(connection, table.id)
            assert [e.seq for e in events] == list(range(len(events)))
            for ack in table.acked:
                assert events[ack.seq].move == ack.move, (table.id, ack.seq)
                assert len(events) >= ack.version
                checked += 1
    return checked


@dataclass
class Seen:
    """What one follower was sent: when each version's update first arrived (monotonic
    seconds) and the server process (``X-Upstream``, behind nginx) it came from; how often
    its WebSocket had to be opened again."""

    at: dict[int, float] = field(default_factory=dict)
    upstream: dict[int, str] = field(default_factory=dict)
    reconnects: int = 0


async def follow_updates(
    ws_url: str, headers: dict[str, str], table_id: int, seen: Seen, ready: asyncio.Event
) -> None:
    """Follow *table_id* on a WebSocket at *ws_url* until cancelled, noting each version's
    update in *seen*; a closed socket is opened again (the follow resends the table as it
    is: the resync by version)."""
    token = headers["Authorization"].split()[1]
    while True:
        try:
            async with websockets.connect(f"{ws_url}/ws?token={token}", compression=None) as ws:
                upstream = ws.response.headers.get("x-upstream", "") if ws.response else ""
                await ws.send(json.dumps({"type": "follow", "table": table_id}))
                ready.set()
                async for text in ws:
                    message: dict[str, Any] = json.loads(text)
                    if message.get("type") == "update" and message.get("table") == table_id:
                        version = message["version"]
                        if version not in seen.at:
                            seen.at[version] = time.monotonic()
                            seen.upstream[version] = upstream
        except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus):
            pass
        seen.reconnects += 1
        await asyncio.sleep(0.05)


def cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel every task on *loop* (running in another thread: the followers) and wait, a
    few seconds at most, until each has closed its socket."""

    async def close() -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=3)

    with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
        asyncio.run_coroutine_threadsafe(close(), loop).result(timeout=5)


def delivery_delays(acked: list[Ack], seen: Seen, *, across: bool | None = None) -> list[float]:
    """Seconds from each acknowledgement to the follower's update for that version (or a
    later one), for acknowledgements the follower saw; with *across* True only those the
    follower was sent by another server process than the one that took the action, with
    False only those sent by the same one."""
    delays = []
    versions = sorted(seen.at)
    for ack in acked:
        later = [v for v in versions if v >= ack.version]
        if not later:
            continue
        if across is not None and (seen.upstream[later[0]] != ack.upstream) != across:
            continue
        delays.append(max(0.0, seen.at[later[0]] - ack.when))
    return delays


def percentile(values: list[float], q: float) -> float:
    """The *q* quantile of *values* (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
