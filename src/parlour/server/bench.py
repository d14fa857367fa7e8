"""A bounded load test: simulated players play Ten-Thousand through the API and WebSockets.

``parlour bench server`` starts a server process on loopback (or loads one at ``--url``),
registers the players, seats them two by two at invite-only tables (target 2,000 so games
end and new ones start), and plays for a fixed number of seconds. Each player follows its
table on a WebSocket; when an ``update`` says it is their turn, it sends one action (over
HTTP, or over the WebSocket with ``--via ws``) and goes on from the answer while it stays
their turn. Latency is measured per action, from sending it to its answer. It stops by
itself: no new action starts after the time is up, and the server it started is stopped.
Only loopback addresses are used.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

TARGET = 2_000
PASSWORD = "bench-password"


@dataclass
class BenchConfig:
    """What to run: ``seconds`` of play by ``players`` players (even), on ``database``
    (default: a fresh SQLite file) or against a running server at ``url``."""

    seconds: float = 20.0
    players: int = 64
    database: str | None = None
    url: str | None = None
    port: int = 8765
    via: str = "http"
    seed: int = 1


@dataclass
class BenchReport:
    """Figures: actions acknowledged, wall time, latencies (seconds), errors, games done."""

    actions: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    games: int = 0
    database: str = ""
    via: str = "http"
    players: int = 0

    @property
    def per_second(self) -> float:
        """Actions acknowledged per second."""
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The *q* quantile of latency, in milliseconds."""
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
        return ordered[index] * 1000

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON."""
        return {
            "database": self.database,
            "via": self.via,
            "players": self.players,
            "seconds": round(self.seconds, 2),
            "actions": self.actions,
            "actions_per_second": round(self.per_second, 1),
            "p50_ms": round(self.percentile(0.50), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 2) if self.latencies else 0,
            "errors": self.errors,
            "error_samples": self.error_samples[:5],
            "games_finished": self.games,
        }

    def text(self) -> str:
        """A short human summary."""
        j = self.to_json()
        lines = [
            f"database {j['database']}, {j['players']} players, actions by {j['via']}, "
            f"{j['seconds']} s",
            f"actions: {j['actions']} ({j['actions_per_second']}/s), "
            f"games finished: {j['games_finished']}",
            f"latency: p50 {j['p50_ms']} ms, p99 {j['p99_ms']} ms, mean {j['mean_ms']} ms",
            f"errors: {j['errors']}",
        ]
        lines += [f"  {sample}" for sample in j["error_samples"]]
        return "\n".join(lines)


# --- the server process -----------------------------------------------------------------


def spawn_server(
    *, port: int, database: str, home: str, extra: list[str] | None = None
) -> subprocess.Popen[bytes]:
    """Start ``parlour serve`` on 127.0.0.1:*port* in a process of its own, with *home* as
    its data directory; its output goes to ``server.log`` there (never to a pipe nobody
    reads, which would stop the server once full)."""
    env = dict(os.environ)
    env["PARLOUR_HOME"] = home
    Path(home).mkdir(parents=True, exist_ok=True)
    log = open(Path(home) / "server.log", "ab")  # noqa: SIM115 - the child keeps it open
    command = [
        sys.executable,
        "-c",
        "from parlour.cli.main import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        database,
        "--log-level",
        "warning",
        "--no-access-log",
        *(extra or []),
    ]
    try:
        return subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    finally:
        log.close()


def wait_healthy(
    url: str,
    process: subprocess.Popen[bytes] | None,
    seconds: float = 30,
    *,
    home: str | None = None,
) -> None:
    """Wait until ``GET url/health`` answers; raise ``RuntimeError`` (with the end of the
    server's log from *home*) if the process dies or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            log = Path(home) / "server.log" if home else None
            err = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"the server exited with {process.returncode}: {err}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"no server answered at {url} within {seconds} s")


def stop_server(process: subprocess.Popen[bytes], *, kill: bool = False) -> None:
    """Stop a server started by :func:`spawn_server` (SIGTERM, or SIGKILL with *kill*)."""
    if process.poll() is None:
        process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- simulated players -------------------------------------------------------------------


def choose(legal: list[str], view: dict[str, Any], rng: random.Random) -> str:
    """A sensible dice action: bank from 300 points on, otherwise keep rolling; mostly the
    biggest keep."""
    total = view.get("turn_total", 0)
    banks = [a for a in legal if a.endswith("bank")]
    rolls = [a for a in legal if a.endswith("roll")]
    if banks and (total >= 300 or not rolls):
        return banks[-1] if rng.random() < 0.8 else rng.choice(banks)
    pool = rolls or legal
    return pool[-1] if rng.random() < 0.8 else rng.choice(pool)


class Player:
    """One simulated player: an HTTP client, a WebSocket, and the table it plays at."""

    def __init__(self, bench: _Bench, name: str, index: int) -> None:
        self.bench = bench
        self.name = name
        self.rng = random.Random(bench.config.seed * 100_003 + index)
        self.headers: dict[str, str] = {}
        self.token = ""
        self.turn = asyncio.Event()
        self.state: dict[str, Any] = {}
        self.table: int | None = None
        self.ws: Any = None
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.counter = 0

    async def register(self, http: httpx.AsyncClient) -> None:
        response = await http.post("/auth/register", json={"name": self.name, "password": PASSWORD})
        if response.status_code == 422 and "taken" in response.text:
            response = await http.post(
                "/auth/login", json={"name": self.name, "password": PASSWORD}
            )
        response.raise_for_status()
        self.token = response.json()["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    async def listen(self) -> None:
        """Read the WebSocket: updates for the table, acks for WebSocket actions."""
        assert self.ws is not None
        async for text in self.ws:
            message = json.loads(text)
            kind = message.get("type")
            if kind == "update" and message.get("table") == self.table:
                self.adopt(message)
            elif kind in ("ack", "error") and message.get("ref") in self.acks:
                self.acks.pop(message["ref"]).set_result(message)

    def adopt(self, message: dict[str, Any]) -> None:
        """Take *message* as the table's state unless a newer one is already known; the turn
        event is set while it is our turn or the game is over."""
        if message["version"] < self.state.get("version", -1):
            return
        self.state = message
        if message["your_turn"] or message["status"] != "active":
            self.turn.set()
        else:
            self.turn.clear()

    async def act(self, http: httpx.AsyncClient) -> bool:
        """Play one action if it is our turn; False when the game is over."""
        state = self.state
        if state.get("status") != "active":
            return False
        if not state.get("your_turn") or not state.get("legal"):
            return True
        action = choose(state["legal"], state["view"], self.rng)
        version = state["version"]
        started = time.perf_counter()
        if self.bench.config.via == "ws":
            self.counter += 1
            ref = f"{self.name}-{self.counter}"
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.acks[ref] = future
            await self.ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "table": self.table,
                        "action": action,
                        "version": version,
                        "ref": ref,
                    }
                )
            )
            answer = await asyncio.wait_for(future, 30)
            elapsed = time.perf_counter() - started
            if answer["type"] != "ack":
                self.bench.error(f"{action!r} at v{version}: {answer.get('detail')}")
                return False
            self.bench.done(elapsed)
            if self.state.get("version", -1) <= version:  # its update has not come yet
                self.turn.clear()
            return True
        response = await http.post(
            f"/tables/{self.table}/actions",
            json={"action": action, "version": version},
            headers=self.headers,
        )
        elapsed = time.perf_counter() - started
        if response.status_code != 200:
            self.bench.error(
                f"{action!r} at v{version}: {response.status_code} {response.text[:200]}"
            )
            return False
        self.bench.done(elapsed)
        self.adopt({**response.json(), "table": self.table})
        return True


class _Bench:
    def __init__(self, config: BenchConfig, base: str) -> None:
        self.config = config
        self.base = base
        self.report = BenchReport(via=config.via, players=config.players)
        self.stop_at = 0.0

    def done(self, latency: float) -> None:
        self.report.actions += 1
        self.report.latencies.append(latency)

    def error(self, what: str) -> None:
        self.report.errors += 1
        if len(self.report.error_samples) < 10:
            self.report.error_samples.append(what)

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    async def pair(self, http: httpx.AsyncClient, a: Player, b: Player) -> None:
        """Two players: create a table, join, start, play; again until the time is up."""
        ws_base = self.base.replace("http://", "ws://")
        async with (
            websockets.connect(f"{ws_base}/ws?token={a.token}", compression=None) as ws_a,
            websockets.connect(f"{ws_base}/ws?token={b.token}", compression=None) as ws_b,
        ):
            a.ws, b.ws = ws_a, ws_b
            listeners = [asyncio.create_task(p.listen()) for p in (a, b)]
            try:
                while self.running():
                    try:
                        await self.game(http, a, b)
                    except (httpx.HTTPError, TimeoutError) as err:
                        self.error(f"{type(err).__name__} {err}")
                        return
            finally:
                for task in listeners:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task

    async def game(self, http: httpx.AsyncClient, a: Player, b: Player) -> None:
        created = await http.post(
            "/tables",
            json={
                "game": "ten-thousand",
                "seats": ["me", "open"],
                "visibility": "invite",
                "options": {"target": TARGET},
            },
            headers=a.headers,
        )
        if created.status_code != 201:
            self.error(f"create: {created.status_code} {created.text[:200]}")
            await asyncio.sleep(0.1)
            return
        table = created.json()
        table_id = table["id"]
        joined = await http.post(
            f"/tables/{table_id}/join", json={"invite": table["invite_code"]}, headers=b.headers
        )
        started = await http.post(f"/tables/{table_id}/start", headers=a.headers)
        if joined.status_code != 200 or started.status_code != 200:
            self.error(f"join/start: {joined.status_code} {started.status_code}")
            return
        for player in (a, b):
            player.table = table_id
            player.state = {}
            player.turn.clear()
            await player.ws.send(json.dumps({"type": "follow", "table": table_id}))
        results = await asyncio.gather(self.play(http, a), self.play(http, b))
        if any(results):
            self.report.games += 1

    async def play(self, http: httpx.AsyncClient, player: Player) -> bool:
        """Play while the game runs and time is left; True if the game finished."""
        while self.running():
            try:
                await asyncio.wait_for(
                    player.turn.wait(), timeout=max(0.01, self.stop_at - time.monotonic())
                )
            except TimeoutError:
                return False
            if player.state.get("status") == "finished":
                return True
            if not self.running():
                return False
            if not await player.act(http):
                return player.state.get("status") == "finished"
        return False


async def _run(config: BenchConfig, base: str) -> BenchReport:
    bench = _Bench(config, base)
    limits = httpx.Limits(
        max_connections=config.players * 2, max_keepalive_connections=config.players * 2
    )
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as http:
        stamp = f"{os.getpid() % 10000}{int(time.time()) % 100000}"
        players = [Player(bench, f"b{stamp}p{i}", i) for i in range(config.players)]
        for start in range(0, len(players), 16):
            await asyncio.gather(*(p.register(http) for p in players[start : start + 16]))
        began = time.monotonic()
        bench.stop_at = began + config.seconds
        pairs = [
            bench.pair(http, players[i], players[i + 1]) for i in range(0, len(players) - 1, 2)
        ]
        await asyncio.gather(*pairs)
        bench.report.seconds = time.monotonic() - began
    return bench.report


def run_bench(config: BenchConfig) -> BenchReport:
    """Run the load test (see the module docstring) and return its figures."""
    if config.players % 2:
        config.players += 1
    if config.url is not None:
        report = asyncio.run(_run(config, config.url.rstrip("/")))
        report.database = "(running server)"
        return report
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as home:
        database = config.database or f"sqlite:///{Path(home) / 'bench.db'}"
        process = spawn_server(
            port=config.port, database=database, home=home, extra=["--sweep-seconds", "0"]
        )
        base = f"http://127.0.0.1:{config.port}"
        try:
            wait_healthy(base, process, home=home)
            report = asyncio.run(_run(config, base))
        finally:
            stop_server(process)
        report.database = database.split(":", 1)[0]
        return report
