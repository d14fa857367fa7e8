"""Two ``parlour serve`` processes on one PostgreSQL, the same move sent through both at
once: exactly one is acknowledged, the other refused as stale (409 ``stale_version``, with
the table at the winner's version), and followers on either process see every version
once, in order (through LISTEN/NOTIFY: the poll is off)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from parlour_tools.load_test import choose_action, stop_server, wait_healthy
from tests.scale.helpers import GAME, OPTIONS, cancel_all, make_tables
from tests.scale.test_two_processes import start_two

pytestmark = [
    pytest.mark.slow,
    pytest.mark.allowed_skip,  # needs PostgreSQL: .ci/run runs it there
]

RACES = 12


async def _follow(ws_url: str, headers: dict[str, str], table_id: int, out: list[int]) -> None:
    token = headers["Authorization"].split()[1]
    async with websockets.connect(f"{ws_url}/ws?token={token}", compression=None) as ws:
        await ws.send(json.dumps({"type": "follow", "table": table_id}))
        async for text in ws:
            message: dict[str, Any] = json.loads(text)
            if message.get("type") == "update" and message.get("table") == table_id:
                out.append(message["version"])


def _race(
    bases: list[str], path: str, body: dict[str, Any], headers: dict[str, str]
) -> list[httpx.Response]:
    """*body* posted to *path* on every one of *bases* at once (a barrier between threads)."""
    answers: list[httpx.Response] = []
    start = threading.Barrier(len(bases))

    def send(base: str) -> None:
        with httpx.Client(timeout=10) as http:
            start.wait()
            answers.append(http.post(f"{base}{path}", json=body, headers=headers))

    senders = [threading.Thread(target=send, args=(base,)) for base in bases]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    return answers


def test_the_same_move_through_two_processes_is_taken_once(pg_url: str, tmp_path: Path) -> None:
    bases, processes = start_two(pg_url, tmp_path)
    a, b = bases
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    try:
        for index, (base, process) in enumerate(zip(bases, processes, strict=True)):
            wait_healthy(base, process, home=str(tmp_path / f"home{index}"))
        (table,) = make_tables(a, 1, [[a], [b]], tag="race", target=10_000)
        seen: dict[str, list[int]] = {a: [], b: []}
        for base in (a, b):
            asyncio.run_coroutine_threadsafe(
                _follow(base.replace("http", "ws"), table.seats[1], table.id, seen[base]), loop
            )
        rng = random.Random(3)
        won: list[int] = []
        with httpx.Client(timeout=10) as http:
            for _ in range(200):  # both followers in place: their first update (the table)
                if all(seen.values()):
                    break
                threading.Event().wait(0.05)
            assert all(seen.values()), seen
            for _ in range(RACES):
                seat = 0
                view = http.get(f"{a}/tables/{table.id}", headers=table.seats[0]).json()
                if not view["your_turn"]:
                    seat = 1
                    view = http.get(f"{a}/tables/{table.id}", headers=table.seats[1]).json()
                assert view["status"] == "active"
                action = choose_action(GAME, OPTIONS, view["view"], view["legal"], rng)
                body = {"action": action, "version": view["version"]}
                answers = _race([a, b], f"/tables/{table.id}/actions", body, table.seats[seat])
                codes = sorted(answer.status_code for answer in answers)
                assert codes == [200, 409], [answer.text for answer in answers]
                ok = next(x for x in answers if x.status_code == 200).json()
                refused = next(x for x in answers if x.status_code == 409).json()
                assert refused["code"] == "stale_version"
                assert refused["current"]["version"] == ok["version"] > view["version"]
                won.append(ok["version"])
        threading.Event().wait(0.5)  # the last updates
        for base in (a, b):
            versions = seen[base]
            assert versions == sorted(set(versions)), (base, versions)
            assert set(won) <= set(versions), (base, won, versions)
    finally:
        cancel_all(loop)
        loop.call_soon_threadsafe(loop.stop)
        runner.join(timeout=5)
        for process in processes:
            stop_server(process, kill=True)
