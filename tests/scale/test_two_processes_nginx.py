"""Two ``parlour serve`` processes on one PostgreSQL behind nginx (round robin, WebSocket
upgrade), players and followers spread over both by nginx, one process killed (SIGKILL) mid
run: no acknowledged move is lost, the followers reconnect through nginx and resync by
version, every table carries on, and a move taken by one process reaches a follower on the
other within 100 ms at p99 (measured and printed).

Runs only where ``PARLOUR_NGINX_TESTS`` is set (``.ci/run`` sets ``required`` once it has
installed Debian's nginx, and runs it on its throwaway PostgreSQL); with ``required`` a
missing nginx or a database that is not PostgreSQL fails instead of skipping."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from parlour_tools.load_test import spawn_server, stop_server, wait_healthy
from tests.helpers import free_port
from tests.scale.helpers import (
    Seen,
    cancel_all,
    check_stored,
    delivery_delays,
    follow_updates,
    make_tables,
    percentile,
    play,
)

pytestmark = [pytest.mark.slow, pytest.mark.allowed_skip]  # needs nginx and PostgreSQL

TABLES = 8
BEFORE_KILL = 12.0
"""Seconds of play before one process is killed, and after."""
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

CONFIG = """
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream parlour {{
        server 127.0.0.1:{a} max_fails=1 fail_timeout=30s;
        server 127.0.0.1:{b} max_fails=1 fail_timeout=30s;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://parlour;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 3600s;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
"""


@pytest.fixture
def nginx_pg(db_url: str) -> str:
    wanted = os.environ.get("PARLOUR_NGINX_TESTS", "")
    problem = None
    if not wanted:
        problem = "set PARLOUR_NGINX_TESTS (with nginx installed and PostgreSQL to run on)"
    elif NGINX is None:
        problem = "nginx is not installed"
    elif not db_url.startswith("postgresql"):
        problem = "several processes share one PostgreSQL (set PARLOUR_TEST_DATABASE)"
    if problem is not None:
        if wanted == "required":
            pytest.fail(problem)
        pytest.skip(problem)
    return db_url


def test_two_processes_behind_nginx_lose_nothing_when_one_dies(
    nginx_pg: str, tmp_path: Path
) -> None:
    ports = [free_port(), free_port()]
    homes = [str(tmp_path / f"home{i}") for i in range(2)]
    processes = [
        spawn_server(
            port=p,
            database=nginx_pg,
            home=h,
            extra=["--sweep-seconds", "1", "--poll-seconds", "600"],
        )
        for p, h in zip(ports, homes, strict=True)
    ]
    proxy_port = free_port()
    conf_dir = tmp_path / "nginx"
    conf_dir.mkdir()
    conf = conf_dir / "nginx.conf"
    conf.write_text(CONFIG.format(tmp=conf_dir, a=ports[0], b=ports[1], port=proxy_port))
    assert NGINX is not None
    nginx = subprocess.Popen(
        [NGINX, "-c", str(conf), "-p", str(conf_dir), "-e", str(conf_dir / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    loop = asyncio.new_event_loop()
    loop_thread = threading.Thread(target=loop.run_forever, daemon=True)
    try:
        for port, home, process in zip(ports, homes, processes, strict=True):
            wait_healthy(f"http://127.0.0.1:{port}", process, home=home)
        proxy = f"http://127.0.0.1:{proxy_port}"
        wait_healthy(proxy, None)
        tables = make_tables(proxy, TABLES, [[proxy], [proxy]], tag="nx", target=10_000)

        loop_thread.start()
        seen = [Seen() for _ in tables]
        ready = [asyncio.Event() for _ in tables]
        ws_base = proxy.replace("http", "ws")
        [
            asyncio.run_coroutine_threadsafe(
                follow_updates(ws_base, t.seats[1], t.id, seen[i], ready[i]), loop
            )
            for i, t in enumerate(tables)
        ]

        async def all_ready() -> None:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 10)

        asyncio.run_coroutine_threadsafe(all_ready(), loop).result(15)
        stop = threading.Event()
        threads = [threading.Thread(target=play, args=(t, stop, i)) for i, t in enumerate(tables)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(BEFORE_KILL)
            killed_at = time.monotonic()
            stop_server(processes[0], kill=True)  # SIGKILL under load
            time.sleep(BEFORE_KILL)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=15)
        time.sleep(0.3)  # the followers' last updates
        cancel_all(loop)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        if loop_thread.is_alive():
            loop_thread.join(timeout=5)
        nginx.terminate()
        try:
            nginx.wait(timeout=10)
        except subprocess.TimeoutExpired:
            nginx.kill()
        for process in processes:
            stop_server(process, kill=True)

    acked = sum(len(t.acked) for t in tables)
    upstreams = {a.upstream for t in tables for a in t.acked}
    assert len(upstreams) >= 2, f"nginx sent every action to one process: {upstreams}"
    checked = check_stored(nginx_pg, tables)
    assert checked == acked
    for table in tables:
        after = [a for a in table.acked if a.when > killed_at + 1]
        assert after or table.finished, f"table {table.id} did not carry on after the kill"

    def delays(across: bool) -> list[float]:
        return [
            d
            for t, s in zip(tables, seen, strict=True)
            for d in delivery_delays([a for a in t.acked if a.when < killed_at], s, across=across)
        ]

    crossed, local = delays(True), delays(False)
    assert len(crossed) >= 50, "too few moves crossed from one process to the other"
    p50, p99 = percentile(crossed, 0.5) * 1000, percentile(crossed, 0.99) * 1000
    local99 = percentile(local, 0.99) * 1000 if local else 0.0
    reconnects = sum(s.reconnects for s in seen)
    print(
        f"\nnginx, two processes: {acked} acknowledged actions, all stored "
        f"({sum(len([a for a in t.acked if a.when > killed_at]) for t in tables)} after the "
        f"kill); cross-process delivery p50 {p50:.1f} ms, p99 {p99:.1f} ms over "
        f"{len(crossed)} moves (same process: p99 {local99:.1f} ms over {len(local)}); "
        f"follower reconnects {reconnects}"
    )
    assert reconnects > 0, "no follower was on the killed process"
    # the poll is off (600 s), so every move that crossed came by LISTEN/NOTIFY; the p99
    # printed above is the figure (100 ms on a quiet machine is the aim), not a timed check
    # that a busy machine would fail: a bound here only catches moves that never crossed
    assert p99 < 30_000.0, f"cross-process delivery p99 {p99:.1f} ms"
    # every follower resynced: its last update is the table's last version
    for table, s in zip(tables, seen, strict=True):
        assert max(s.at) >= max(a.version for a in table.acked), table.id
