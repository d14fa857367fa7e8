"""Two ``parlour serve`` processes on one PostgreSQL: a move made through one reaches the
followers on the other (through LISTEN/NOTIFY: the poll is off), and once one process is
killed (SIGKILL, requests in flight) every acknowledged move is stored and the survivor
carries on, the computer player's table too."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import httpx
import pytest

from parlour.storage.db import open_database
from parlour.storage.tables import get_events
from parlour_tools.load_test import spawn_server, stop_server, wait_healthy
from tests.helpers import free_port
from tests.scale.helpers import (
    GAME,
    OPTIONS,
    Seen,
    Table,
    cancel_all,
    check_stored,
    delivery_delays,
    follow_updates,
    make_tables,
    play,
    register,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.allowed_skip,  # needs PostgreSQL: .ci/run runs it there
]

ENOUGH = 40
"""Acknowledged actions before the kill."""
AFTER = 5
"""Acknowledged actions each table needs after the kill."""


def start_two(pg_url: str, tmp_path: Path) -> tuple[list[str], list]:  # type: ignore[type-arg]
    ports = [free_port(), free_port()]
    processes = [
        spawn_server(
            port=port,
            database=pg_url,
            home=str(tmp_path / f"home{i}"),
            extra=["--sweep-seconds", "1", "--poll-seconds", "0"],
        )
        for i, port in enumerate(ports)
    ]
    return [f"http://127.0.0.1:{port}" for port in ports], processes


def test_two_processes_deliver_across_and_survive_a_kill(pg_url: str, tmp_path: Path) -> None:
    bases, processes = start_two(pg_url, tmp_path)
    a, b = bases
    try:
        for index, (base, process) in enumerate(zip(bases, processes, strict=True)):
            wait_healthy(base, process, home=str(tmp_path / f"home{index}"))
        # seat 0 acts through A, seat 1 through B; either goes to the other once its dies
        tables = make_tables(a, 6, [[a, b], [b, a]], tag="tp")
        with httpx.Client(base_url=b, timeout=10) as http:
            solo = register(http, "tpsolo")
            created = http.post(
                "/tables",
                json={
                    "game": GAME,
                    "seats": ["me", "cpu"],
                    "start": True,
                    "options": {**OPTIONS, "target": 10_000},  # long enough to outlast the test
                },
                headers=solo,
            )
            assert created.status_code == 201, created.text
        computer = Table(created.json()["id"], [solo, {}], [[b], [b]])

        # followers on B of the tables seat 0 plays through A
        loop = asyncio.new_event_loop()
        runner = threading.Thread(target=loop.run_forever, daemon=True)
        runner.start()
        seen = [Seen() for _ in tables]
        ready = [asyncio.Event() for _ in tables]
        [
            asyncio.run_coroutine_threadsafe(
                follow_updates(b.replace("http", "ws"), t.seats[1], t.id, seen[i], ready[i]),
                loop,
            )
            for i, t in enumerate(tables)
        ]

        async def all_ready() -> None:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 10)

        asyncio.run_coroutine_threadsafe(all_ready(), loop).result(15)

        stop = threading.Event()
        threads = [
            threading.Thread(target=play, args=(t, stop, i)) for i, t in enumerate(tables)
        ] + [threading.Thread(target=play_solo, args=(computer, stop))]
        for thread in threads:
            thread.start()
        try:
            deadline = time.monotonic() + 60
            while sum(len(t.acked) for t in tables) < ENOUGH and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.5)  # the followers' last updates before the kill
            before = [len(t.acked) for t in tables]
            computer_before = version_of(b, computer)
            # every move seat 0 made through A reached B's follower
            for index, table in enumerate(tables):
                through_a = [x for x in table.acked[: before[index]] if x.base.startswith(a)]
                assert through_a
                delays = delivery_delays(through_a, seen[index])
                assert len(delays) == len(through_a), (table.id, sorted(seen[index].at))
            killed_at = time.monotonic()
            stop_server(processes[0], kill=True)  # SIGKILL while requests are in flight
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (
                all(
                    t.finished or len([x for x in t.acked if x.when > killed_at]) >= AFTER
                    for t in tables
                )
                and (computer.finished or computer_moved(pg_url, computer, computer_before))
            ):
                time.sleep(0.1)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=15)
            cancel_all(loop)
            loop.call_soon_threadsafe(loop.stop)
            runner.join(timeout=5)
        assert sum(before) >= ENOUGH, "the games hardly ran before the kill"
        for table in tables:
            after = [x for x in table.acked if x.when > killed_at]
            assert after or table.finished, (
                f"table {table.id} did not carry on after the kill: {len(table.acked)} acked, "
                f"{table.refused} refused, {table.failovers} failovers, finished {table.finished}"
            )
            assert len(after) >= AFTER or table.finished, table.id
        # the survivor moves for the computer player (whichever process held its turn)
        assert computer_moved(pg_url, computer, computer_before), debug(pg_url, computer.id)
    finally:
        for process in processes:
            stop_server(process, kill=True)
    checked = check_stored(pg_url, [*tables, computer])
    print(f"\n{checked} acknowledged actions stored; failovers {sum(t.failovers for t in tables)}")


def computer_moved(db_url: str, table: Table, since: int) -> bool:
    """Whether the computer (seat 1) has moved at *table* since version *since*."""
    with open_database(db_url).connect() as connection:
        return any(e.by == 1 for e in get_events(connection, table.id)[since:])


def debug(db_url: str, table_id: int) -> str:
    """The table's row and the advisory locks held (for a failure's message)."""
    from sqlalchemy import text

    with open_database(db_url).connect() as connection:
        row = connection.execute(
            text("SELECT version, bot_turn, to_move, status FROM game_tables WHERE id = :i"),
            {"i": table_id},
        ).one()
        locks = connection.execute(
            text("SELECT classid, objid, pid, granted FROM pg_locks WHERE locktype='advisory'")
        ).all()
    return f"the computer stopped: table {row}, advisory locks {locks}"


def version_of(base: str, table: Table) -> int:
    with httpx.Client(base_url=base, timeout=10) as http:
        response = http.get(f"/tables/{table.id}", headers=table.seats[0])
        response.raise_for_status()
        version: int = response.json()["version"]
        return version


def play_solo(table: Table, stop: threading.Event) -> None:
    """Play the person's seat of a table against a computer player, through B only."""
    import random

    from tests.scale.helpers import _turn

    rng = random.Random(7)
    with httpx.Client(base_url=table.bases[0][0], timeout=5) as http:
        while not stop.is_set():
            try:
                outcome = _turn(table, 0, http, rng)
            except httpx.HTTPError:
                time.sleep(0.05)
                continue
            if outcome == "over":
                table.finished = True
                return
            time.sleep(0.01)
