"""A bounded load test: simulated players play dice, crossword and rummy games through the
REST API and WebSockets.

``parlour bench server`` starts a server process on loopback (or loads one at ``--url``),
registers the players, seats them two by two at invite-only tables and plays for a fixed
number of seconds. Each pair plays the games of ``--games`` in turn (Ten-Thousand to 2,000
points, Crossword in turns mode, Rummy to 100 points), a new table after each game. Each
player follows its table on a WebSocket; when an ``update`` says it is their turn, it sends
one action (over HTTP, or over the WebSocket with ``--via ws``) and goes on from the answer.
Latency is measured per action, from sending it to its answer (the HTTP response, or the
WebSocket ``ack``), which comes only once the action is stored. It stops by itself: no new
action starts after the time is up, and the server it started is stopped. Only loopback
addresses are used.

The players are cheap on purpose, so the figures are the server's: the HTTP client is a few
lines on asyncio streams (keep-alive, one connection per player), WebSockets are
uncompressed, dice players bank from 300 points, rummy players meld and lay off whenever
they can, and crossword players lay the best word their move generator finds with three of
their tiles (a real play the server checks: about 1 ms of CPU; the whole rack costs 2-8 ms).

A tool, apart from the server package (see :mod:`parlour_tools`): it talks to the server only
over HTTP and WebSockets, as any client does; ``parlour bench server`` imports it when the
command runs, and the kill test (``tests/server/test_kill.py``) uses its server process helpers.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import websockets

PASSWORD = "bench-password"
GAMES = ("ten-thousand", "crossword", "rummy")
CHAT_PAUSE = 2.5
"""Seconds between two chat lines of one player at least (the rate limit is 5 per 10 s)."""
TABLE_OPTIONS: dict[str, dict[str, Any]] = {
    "ten-thousand": {"target": 2_000},
    "crossword": {"turn_mode": "turns"},
    "rummy": {"ending_score": 100},
    "greedy": {},
}
"""The options of each game's tables in the load test (short games, so new ones start)."""


@dataclass
class BenchConfig:
    """What to run: ``seconds`` of play by ``players`` players (even) at tables of ``games``,
    thinking ``think`` seconds on average before each action, on ``database`` (default: a
    fresh SQLite file) or against a running server at ``url``."""

    seconds: float = 20.0
    players: int = 64
    database: str | None = None
    url: str | None = None
    port: int = 8765
    via: str = "http"
    seed: int = 1
    games: tuple[str, ...] = GAMES
    think: float = 0.0
    """Mean thinking time before each action (seconds, exponentially distributed; 0: none,
    a closed loop that finds the server's capacity). Not part of the latency."""
    notifications: bool = True
    """Let the server make notifications (``parlour serve --no-notifications`` when not)."""
    chat_every: int = 0
    """Each player posts a chat line every this many of its actions, at most one per
    :data:`CHAT_PAUSE` seconds (under the server's chat rate limit); 0: no chat. The lines
    go on a connection of their own, beside the game, and are not in the action latency."""


@dataclass
class BenchReport:
    """Figures: actions acknowledged (by game), wall time, latencies (seconds), errors,
    games finished."""

    actions: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    games: int = 0
    by_game: Counter[str] = field(default_factory=Counter)
    database: str = ""
    via: str = "http"
    players: int = 0
    think: float = 0.0
    """Mean thinking time per action (seconds)."""
    client_cpu: float = 0.0
    """CPU seconds the simulated players used while playing."""
    chats: int = 0
    """Chat lines the server took (``chat_every``)."""
    notifications: bool = True
    """Whether the server made notifications."""
    server_cpu: float | None = None
    """CPU seconds the server process used while they played (when this command started it)."""

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
            "think_ms": round(self.think * 1000),
            "seconds": round(self.seconds, 2),
            "actions": self.actions,
            "actions_by_game": dict(sorted(self.by_game.items())),
            "actions_per_second": round(self.per_second, 1),
            "p50_ms": round(self.percentile(0.50), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 2) if self.latencies else 0,
            "errors": self.errors,
            "error_samples": self.error_samples[:5],
            "games_finished": self.games,
            "client_cpu_seconds": round(self.client_cpu, 2),
            "server_cpu_seconds": None if self.server_cpu is None else round(self.server_cpu, 2),
            "notifications": self.notifications,
            "chat_lines": self.chats,
        }

    def text(self) -> str:
        """A short human summary."""
        j = self.to_json()
        games = ", ".join(f"{g} {n}" for g, n in j["actions_by_game"].items())
        lines = [
            f"database {j['database']}, {j['players']} players"
            + (f" thinking {j['think_ms']} ms on average" if j["think_ms"] else "")
            + f", actions by {j['via']}, {j['seconds']} s",
            f"actions: {j['actions']} ({j['actions_per_second']}/s; {games}), "
            f"games finished: {j['games_finished']}",
            f"latency: p50 {j['p50_ms']} ms, p99 {j['p99_ms']} ms, mean {j['mean_ms']} ms",
            f"errors: {j['errors']}; notifications "
            f"{'on' if j['notifications'] else 'off'}, chat lines {j['chat_lines']}",
            f"cpu: players {j['client_cpu_seconds']} s, server {j['server_cpu_seconds']} s",
        ]
        lines += [f"  {sample}" for sample in j["error_samples"]]
        return "\n".join(lines)


# --- the server process -----------------------------------------------------------------


def spawn_server(
    *,
    port: int,
    database: str,
    home: str,
    extra: list[str] | None = None,
    sources: str | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``parlour serve`` on 127.0.0.1:*port* in a process of its own, with *home* as
    its data directory; its output goes to ``server.log`` there (never to a pipe nobody
    reads, which would stop the server once full). With *sources* (a ``src`` directory, such
    as another revision's from ``git archive``) the server runs that code."""
    env = dict(os.environ)
    env["PARLOUR_HOME"] = home
    if sources is not None:
        env["PYTHONPATH"] = os.pathsep.join([sources, *filter(None, [env.get("PYTHONPATH")])])
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
        # every simulated player signs up from 127.0.0.1; the option's earlier name, which
        # older revisions (--baseline) know too
        "--max-signups-per-address",
        "0",
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


# --- what simulated players play -----------------------------------------------------------


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


def choose_rummy(legal: list[str], rng: random.Random) -> str:
    """A rummy action: meld or lay off whenever possible, mostly draw from the stock, and
    otherwise discard at random."""
    for verb in ("meld", "layoff"):
        found = [a for a in legal if a.startswith(verb)]
        if found:
            return rng.choice(found)
    draws = [a for a in legal if a.startswith("draw")]
    if draws:
        return draws[0] if rng.random() < 0.7 else rng.choice(draws)
    return rng.choice(legal)


def choose_crossword(view: dict[str, Any], options: dict[str, Any], tiles: int = 3) -> str:
    """A crossword action from a seat's observation: the best-scoring play of the move
    generator with the first *tiles* tiles of the rack, else ``pass``."""
    from parlour.games.crossword.board import Board
    from parlour.games.crossword.lexicon import load_lexicon
    from parlour.games.crossword.movegen import MoveGenerator
    from parlour.games.crossword.plays import CrosswordRules

    board = Board("".join(view["board"]), bytes(h for row in view["heights"] for h in row))
    generator = MoveGenerator.for_lexicon(
        load_lexicon(str(options.get("lexicon", "enable"))), CrosswordRules.from_options(options)
    )
    moves = generator.moves(board, view["rack"][:tiles])
    if not moves:
        return "pass"
    return str(max(moves, key=lambda m: m.score).play)


def choose_action(
    game: str,
    options: dict[str, Any],
    view: dict[str, Any],
    legal: list[str] | None,
    rng: random.Random,
) -> str:
    """What a simulated player of *game* plays, from its observation and legal actions."""
    if game == "crossword":
        return choose_crossword(view, options)
    assert legal, f"{game}: no legal actions listed"
    if game == "rummy":
        return choose_rummy(legal, rng)
    if game == "ten-thousand":
        return choose(legal, view, rng)
    return rng.choice(legal)


# --- a small HTTP/1.1 client ----------------------------------------------------------------


class HttpError(Exception):
    """The connection broke or answered something this client does not read."""


class Http:
    """One keep-alive HTTP/1.1 connection on asyncio streams: JSON in, JSON out, answers
    with ``Content-Length`` only (all this server sends). One request at a time. A
    connection idle for :attr:`IDLE` seconds is opened again (servers close idle ones)."""

    IDLE = 2.0

    def __init__(self, base: str, token: str | None = None) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.token = token
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._used = 0.0

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send a request; return the status and the decoded JSON body (``None`` if empty)."""
        if self._writer is not None and time.monotonic() - self._used > self.IDLE:
            await self.close()
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"host: {self.host}:{self.port}"]
        if self.token:
            head.append(f"authorization: Bearer {self.token}")
        if body is not None:
            head.append("content-type: application/json")
        head.append(f"content-length: {len(data)}")
        self._writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        try:
            raw = await self._reader.readuntil(b"\r\n\r\n")
            lines = raw.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "transfer-encoding":
                    raise HttpError(f"{method} {path}: a {value.strip()} answer")
            payload = await self._reader.readexactly(length) if length else b""
            self._used = time.monotonic()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, IndexError) as err:
            await self.close()
            raise HttpError(f"{method} {path}: {type(err).__name__} {err}") from None
        return status, orjson.loads(payload) if payload else None

    async def close(self) -> None:
        """Close the connection (a later request opens a new one)."""
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


# --- simulated players ----------------------------------------------------------------------


class Player:
    """One simulated player: an HTTP connection, a WebSocket, and the table it plays at."""

    def __init__(self, bench: _Bench, name: str, index: int) -> None:
        self.bench = bench
        self.name = name
        self.rng = random.Random(bench.config.seed * 100_003 + index)
        self.http = Http(bench.base)
        self.turn = asyncio.Event()
        self.state: dict[str, Any] = {}
        self.table: int | None = None
        self.game = ""
        self.options: dict[str, Any] = {}
        self.ws: Any = None
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.counter = 0
        self.actions = 0
        self.chat_http: Http | None = None
        self.chatting: asyncio.Task[None] | None = None
        self.chatted = 0.0

    async def register(self) -> None:
        creds = {"name": self.name, "password": PASSWORD}
        status, body = await self.http.request("POST", "/auth/register", creds)
        if status == 409:
            status, body = await self.http.request("POST", "/auth/login", creds)
        if status not in (200, 201):
            raise HttpError(f"register {self.name}: {status} {body}")
        self.http.token = body["token"]
        if self.bench.config.chat_every:
            self.chat_http = Http(self.bench.base, body["token"])

    def after_action(self) -> None:
        """Count an action; every ``chat_every`` (and at most once per :data:`CHAT_PAUSE`
        seconds) post a chat line on the side connection, without waiting for it."""
        self.actions += 1
        every = self.bench.config.chat_every
        if not every or self.actions % every or self.chat_http is None:
            return
        now = time.monotonic()
        if now - self.chatted < CHAT_PAUSE or (self.chatting and not self.chatting.done()):
            return
        self.chatted = now
        self.chatting = asyncio.create_task(self.chat(self.table))

    async def chat(self, table: int | None) -> None:
        assert self.chat_http is not None
        try:
            status, body = await self.chat_http.request(
                "POST", f"/tables/{table}/chat", {"text": f"move {self.actions}: nice one"}
            )
        except HttpError as err:
            self.bench.error(f"chat: {err}")
            return
        if status == 201:
            self.bench.report.chats += 1
        else:
            self.bench.error(f"chat at table {table}: {status} {body}")

    async def listen(self) -> None:
        """Read the WebSocket: updates for the table, acks for WebSocket actions."""
        assert self.ws is not None
        async for text in self.ws:
            message = orjson.loads(text)
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

    async def act(self) -> bool:
        """Play one action if it is our turn; False when the game is over or it failed."""
        state = self.state
        if state.get("status") != "active":
            return False
        if not state.get("your_turn"):
            return True
        action = choose_action(self.game, self.options, state["view"], state["legal"], self.rng)
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
                self.bench.error(f"{self.game} {action!r} at v{version}: {answer.get('detail')}")
                return False
            self.bench.done(self.game, elapsed)
            self.after_action()
            if self.state.get("version", -1) <= version:  # its update has not come yet
                self.turn.clear()
            return True
        status, body = await self.http.request(
            "POST", f"/tables/{self.table}/actions", {"action": action, "version": version}
        )
        elapsed = time.perf_counter() - started
        if status != 200:
            self.bench.error(f"{self.game} {action!r} at v{version}: {status} {body}")
            return False
        self.bench.done(self.game, elapsed)
        self.after_action()
        self.adopt({**body, "table": self.table})
        return True


class _Bench:
    def __init__(self, config: BenchConfig, base: str) -> None:
        self.config = config
        self.base = base
        self.report = BenchReport(via=config.via, players=config.players, think=config.think)
        self.stop_at = 0.0

    def done(self, game: str, latency: float) -> None:
        self.report.actions += 1
        self.report.by_game[game] += 1
        self.report.latencies.append(latency)

    def error(self, what: str) -> None:
        self.report.errors += 1
        if len(self.report.error_samples) < 10:
            self.report.error_samples.append(what)

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    def thinking(self, player: Player) -> float:
        """Seconds *player* thinks before its next action: exponentially distributed around
        ``think``, and never past the end of the run (a long think would stretch it)."""
        return self._within_run(player.rng.expovariate(1 / self.config.think))

    def arrival(self, player: Player) -> float:
        """Seconds before *player*'s pair sits down: thinking players arrive over one
        thinking time (not all tables created at once), and never after the run."""
        return self._within_run(player.rng.uniform(0, self.config.think))

    def _within_run(self, seconds: float) -> float:
        return max(0.0, min(seconds, self.stop_at - time.monotonic()))

    async def pair(self, index: int, a: Player, b: Player) -> None:
        """Two players: create a table, join, start, play; again until the time is up."""
        ws_base = self.base.replace("http://", "ws://")
        async with (
            websockets.connect(
                f"{ws_base}/ws?token={a.http.token}", compression=None, max_size=2**20
            ) as ws_a,
            websockets.connect(
                f"{ws_base}/ws?token={b.http.token}", compression=None, max_size=2**20
            ) as ws_b,
        ):
            a.ws, b.ws = ws_a, ws_b
            listeners = [asyncio.create_task(p.listen()) for p in (a, b)]
            games = self.config.games
            try:
                if self.config.think > 0:
                    await asyncio.sleep(self.arrival(a))
                round_ = 0
                while self.running():
                    game = games[(index + round_) % len(games)]
                    round_ += 1
                    try:
                        await self.game(game, a, b)
                    except (HttpError, TimeoutError, OSError) as err:
                        self.error(f"{game}: {type(err).__name__} {err}")
                        return
            finally:
                for task in listeners:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task

    async def game(self, game: str, a: Player, b: Player) -> None:
        status, table = await a.http.request(
            "POST",
            "/tables",
            {
                "game": game,
                "seats": ["me", "open"],
                "visibility": "invite",
                "options": TABLE_OPTIONS.get(game, {}),
            },
        )
        if status != 201:
            self.error(f"create {game}: {status} {table}")
            await asyncio.sleep(0.1)
            return
        table_id = table["id"]
        status, joined = await b.http.request(
            "POST", f"/tables/{table_id}/join", {"invite": table["invite_code"]}
        )
        if status != 200:
            self.error(f"join {game}: {status} {joined}")
            return
        if joined["status"] == "lobby":  # the crossword began by itself once full
            status, started = await a.http.request("POST", f"/tables/{table_id}/start")
            if status != 200:
                self.error(f"start {game}: {status} {started}")
                return
        for player in (a, b):
            player.table = table_id
            player.game = game
            player.options = joined["options"]
            player.state = {}
            player.turn.clear()
            await player.ws.send(json.dumps({"type": "follow", "table": table_id}))
        results = await asyncio.gather(self.play(a), self.play(b))
        if any(results):
            self.report.games += 1

    async def play(self, player: Player) -> bool:
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
            if self.config.think > 0 and player.state.get("your_turn"):
                await asyncio.sleep(self.thinking(player))
                if not self.running():
                    return False
            if not await player.act():
                return player.state.get("status") == "finished"
        return False


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) process *pid* has used, or ``None`` where ``/proc`` has no
    answer."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _run(config: BenchConfig, base: str, server_pid: int | None = None) -> BenchReport:
    bench = _Bench(config, base)
    stamp = f"{os.getpid() % 10000}{int(time.time()) % 100000}"
    players = [Player(bench, f"b{stamp}p{i}", i) for i in range(config.players)]
    try:
        for start in range(0, len(players), 16):
            await asyncio.gather(*(p.register() for p in players[start : start + 16]))
        if "crossword" in config.games:  # load the word list before the clock starts
            choose_crossword(
                {"board": ["." * 15] * 15, "heights": [[0] * 15] * 15, "rack": "AE"}, {}
            )
        gc.collect()  # the word list stays: out of the collector's way (pauses skew latency)
        gc.freeze()
        began = time.monotonic()
        cpu = time.process_time()
        server_cpu = None if server_pid is None else process_cpu(server_pid)
        bench.stop_at = began + config.seconds
        pairs = [
            bench.pair(i // 2, players[i], players[i + 1]) for i in range(0, len(players) - 1, 2)
        ]
        await asyncio.gather(*pairs)
        bench.report.seconds = time.monotonic() - began
        bench.report.client_cpu = time.process_time() - cpu
        if server_cpu is not None and server_pid is not None:
            after = process_cpu(server_pid)
            bench.report.server_cpu = None if after is None else after - server_cpu
    finally:
        for player in players:
            if player.chatting is not None:
                await asyncio.gather(player.chatting, return_exceptions=True)
            await player.http.close()
            if player.chat_http is not None:
                await player.chat_http.close()
    bench.report.notifications = config.notifications
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
        extra = ["--sweep-seconds", "0"]
        if not config.notifications:
            extra.append("--no-notifications")
        process = spawn_server(port=config.port, database=database, home=home, extra=extra)
        base = f"http://127.0.0.1:{config.port}"
        try:
            wait_healthy(base, process, home=home)
            report = asyncio.run(_run(config, base, process.pid))
        finally:
            stop_server(process)
        report.database = database.split(":", 1)[0]
        return report
