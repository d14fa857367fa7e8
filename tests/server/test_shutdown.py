"""Graceful shutdown of a real ``parlour serve`` process: SIGTERM while a WebSocket action is
queued for the writer. The action is stored and acknowledged, then every socket is closed
with the reconnect code (1012), and the process exits cleanly."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from parlour.server.shutdown import RECONNECT
from parlour_tools.load_test import spawn_server, stop_server, wait_healthy
from tests.helpers import free_port
from tests.quick_game import QUICK_GAME


def queued(base: str) -> float:
    """The server's ``parlour_writer_queued`` gauge (read from /metrics, on loopback)."""
    text = httpx.get(f"{base}/metrics", timeout=5).text
    for family in text_string_to_metric_families(text):
        if family.name == "parlour_writer_queued":
            return float(family.samples[0].value)
    raise AssertionError("no parlour_writer_queued")


def until(check: Any, seconds: float = 20) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError("timed out waiting")


def messages_until_closed(ws: ClientConnection) -> list[dict[str, Any]]:
    """Every message the socket gets until the server closes it."""
    out = []
    try:
        while True:
            out.append(json.loads(ws.recv(timeout=30)))
    except ConnectionClosed:
        return out


def update_of(ws: ClientConnection, table_id: int) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "update" and message["table"] == table_id:
            return message


@pytest.mark.parametrize("round_", range(3))
def test_sigterm_stores_and_acknowledges_queued_moves_then_asks_sockets_to_reconnect(
    tmp_path: Path, round_: int
) -> None:
    db = tmp_path / "server.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = spawn_server(
        port=port,
        database=f"sqlite:///{db}",
        home=str(tmp_path / "home"),
        extra=["--sweep-seconds", "0"],
    )
    lock: sqlite3.Connection | None = None
    stack = contextlib.ExitStack()
    try:
        wait_healthy(base, server)
        with httpx.Client(base_url=base, timeout=30) as http:
            tokens = []
            for name in ("ann", "bob"):
                made = http.post("/auth/register", json={"name": name, "password": "pw-123456"})
                assert made.status_code == 201, made.text
                tokens.append(made.json()["token"])
            ann, bob = ({"Authorization": f"Bearer {t}"} for t in tokens)
            table = http.post(
                "/tables", json={"game": QUICK_GAME, "seats": ["me", "open"]}, headers=ann
            ).json()
            http.post(f"/tables/{table['id']}/join", json={}, headers=bob).raise_for_status()
            http.post(f"/tables/{table['id']}/start", headers=ann).raise_for_status()
            table_id = table["id"]
        sockets = [
            stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws", additional_headers=h))
            for h in (ann, bob)
        ]
        for ws in sockets:
            ws.send(json.dumps({"type": "follow", "table": table_id}))
        views = [update_of(ws, table_id) for ws in sockets]
        mover = next(i for i, v in enumerate(views) if v["your_turn"])
        view = views[mover]
        action = view["legal"][0]
        # the writer cannot commit while this connection holds SQLite's write lock
        lock = sqlite3.connect(db, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        message = {"type": "action", "table": table_id, "action": action}
        sockets[mover].send(json.dumps({**message, "version": view["version"], "ref": "a1"}))
        until(lambda: queued(base) >= 1)  # the move waits in the writer
        server.send_signal(signal.SIGTERM)
        lock.execute("COMMIT")  # the writer may go on
        lock.close()
        lock = None
        got = [messages_until_closed(ws) for ws in sockets]
        codes = [ws.close_code for ws in sockets]
        assert codes == [RECONNECT, RECONNECT], got
        acks = [m for m in got[mover] if m["type"] == "ack"]
        assert len(acks) == 1 and acks[0]["ref"] == "a1"
        assert acks[0]["version"] > view["version"]
        # uvicorn ends by raising the signal again, as a process stopped by it (systemd
        # counts SIGTERM as a clean stop)
        assert server.wait(timeout=30) in (0, -signal.SIGTERM)
        with sqlite3.connect(db) as stored:
            version, status = stored.execute(
                "SELECT version, status FROM game_tables WHERE id = ?", (table_id,)
            ).fetchone()
            moves = [
                row[0]
                for row in stored.execute(
                    "SELECT move FROM table_events WHERE table_id = ? AND seq = ?",
                    (table_id, view["version"]),
                )
            ]
        assert version == acks[0]["version"] and status == "active"
        assert moves == [action]
    finally:
        if lock is not None:
            lock.close()
        stack.close()
        stop_server(server)
        print((tmp_path / "home" / "server.log").read_text())


def test_the_reconnect_code_is_the_one_the_web_client_reconnects_on() -> None:
    live = Path(__file__).parents[2] / "src/parlour/web/static/js/live.js"
    assert f"const RESTARTING = {RECONNECT};" in live.read_text()
