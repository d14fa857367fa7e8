"""Figures for several server processes on one database: one and two ``parlour serve``
processes on PostgreSQL, and one on SQLite for reference, in one run.

Each setup starts its server processes on loopback (ports from ``--port`` on), plays the
load test's games (:mod:`parlour_tools.load_test`) for ``--seconds`` with ``--players``
players, and stops them. The two players of a table talk to different processes when there
are two (HTTP and WebSocket each to its own), so every move the one makes reaches the other
through the fan-out between processes (PostgreSQL ``LISTEN``/``NOTIFY``). Reported per setup:
actions per second, latency p50/p99 (from sending an action to its answer, which comes once
it is stored), errors, the server processes' CPU seconds per action (from ``/proc``, all
processes together), the load generator's own CPU, and the delivery delay: from a move's
answer to its player to the update reaching the other player (across processes when there
are two) at p50/p99.

Run: ``python -m parlour_tools.scale_bench --postgres URL`` (the URL of an empty database:
``postgresql+psycopg://...``). With ``--games`` one game only, with ``--each-game`` every
setup once per game in turn (the CPU per action by kind of game).

Comparing two versions of the server on a shared machine: ``--baseline REV`` runs every
setup with the servers of git revision *REV* too (its sources from ``git archive`` in a
temporary directory) and the current ones, interleaved in one run: ``--rounds N`` rounds,
each setup baseline then current, the order turned round every other round (A B, B A, ...).
Each setup on PostgreSQL gets a database of its own, created empty from the URL's server and
dropped after (when the URL's user may create databases), so no run plays on another's
rows. The same players (names aside) and seeds play in every run. The end prints, per
setup and version, the medians over the rounds and the change of the median CPU per action,
and the two processes' CPU per action against one's, with the load average at each run.

``--per-process`` gives each server process ``--players`` players (two processes twice as
many as one): with ``--think`` (a fixed offered rate a player) every process then carries
the same load in every setup, which is what a host compares when it adds a process because
its load grew (``docs/server.md``, "Two processes against one at the same load a process").

A tool, apart from the server package: it talks to the servers only over HTTP and
WebSockets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import statistics
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from parlour_tools.load_test import (
    GAMES,
    BenchConfig,
    BenchReport,
    Http,
    Player,
    _Bench,
    choose_crossword,
    process_cpu,
    spawn_server,
    stop_server,
    wait_healthy,
)


@dataclass
class ScaleReport:
    """One setup's figures: the load test's report, the servers' CPU, the delivery delays
    (seconds) from each answer to the other player's update."""

    label: str
    processes: int
    report: BenchReport
    server_cpu: float = 0.0
    delays: list[float] = field(default_factory=list)
    server_system: float = 0.0
    """Of ``server_cpu``, the seconds spent in the kernel (system time)."""
    database_cpu: float | None = None
    """CPU seconds of the PostgreSQL backends serving the bench's database (``None`` on
    SQLite, or when they are not on this machine)."""

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON (CPU in milliseconds per action)."""
        r = self.report
        ordered = sorted(self.delays)

        def q(p: float) -> float:
            if not ordered:
                return 0.0
            return round(ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))] * 1000, 2)

        actions = max(1, r.actions)
        return {
            "setup": self.label,
            "processes": self.processes,
            "players": r.players,
            "seconds": round(r.seconds, 1),
            "actions": r.actions,
            "actions_per_second": round(r.per_second, 1),
            "p50_ms": round(r.percentile(0.5), 2),
            "p99_ms": round(r.percentile(0.99), 2),
            "errors": r.errors,
            "error_samples": r.error_samples[:3],
            "server_cpu_s": round(self.server_cpu, 2),
            "server_cpu_ms_per_action": round(self.server_cpu / actions * 1000, 3),
            "server_system_share": round(self.server_system / self.server_cpu, 3)
            if self.server_cpu
            else 0.0,
            "client_cpu_s": round(r.client_cpu, 2),
            "database_cpu_ms_per_action": None
            if self.database_cpu is None
            else round(self.database_cpu / actions * 1000, 3),
            "delivery_p50_ms": q(0.5),
            "delivery_p99_ms": q(0.99),
            "deliveries": len(ordered),
        }


class TimedPlayer(Player):
    """A load-test player that notes when its answers and its WebSocket updates came."""

    def __init__(self, bench: _ScaleBench, name: str, index: int, base: str) -> None:
        super().__init__(bench, name, index)
        self.http = Http(base)
        self.base = base
        self.timing = bench

    def adopt(self, message: dict[str, Any]) -> None:
        table, version = message.get("table"), message.get("version")
        if table is not None and version is not None:
            now = time.perf_counter()
            if message.get("type") == "update":
                self.timing.seen.setdefault((table, version, self.name), now)
            else:  # the answer to this player's own action
                self.timing.answered[(table, version)] = (now, self.name)
        super().adopt(message)


class _ScaleBench(_Bench):
    def __init__(self, config: BenchConfig, bases: list[str]) -> None:
        super().__init__(config, bases[0])
        self.bases = bases
        self.answered: dict[tuple[int, int], tuple[float, str]] = {}
        self.seen: dict[tuple[int, int, str], float] = {}

    async def pair(self, index: int, a: Player, b: Player) -> None:
        """The load test's pair, each player's WebSocket to its own process."""
        assert isinstance(a, TimedPlayer) and isinstance(b, TimedPlayer)
        async with (
            websockets.connect(
                f"{a.base.replace('http://', 'ws://')}/ws?token={a.http.token}",
                compression=None,
                max_size=2**20,
            ) as ws_a,
            websockets.connect(
                f"{b.base.replace('http://', 'ws://')}/ws?token={b.http.token}",
                compression=None,
                max_size=2**20,
            ) as ws_b,
        ):
            a.ws, b.ws = ws_a, ws_b
            listeners = [asyncio.create_task(p.listen()) for p in (a, b)]
            try:
                round_ = 0
                while self.running():
                    game = self.config.games[(index + round_) % len(self.config.games)]
                    round_ += 1
                    try:
                        await self.game(game, a, b)
                    except (OSError, TimeoutError, Exception) as err:
                        self.error(f"{game}: {type(err).__name__} {err}")
                        return
            finally:
                for task in listeners:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task

    def delays(self) -> list[float]:
        """Seconds from each answer to the other player's update of that version."""
        out = []
        for (table, version, name), when in self.seen.items():
            answered = self.answered.get((table, version))
            if answered is not None and answered[1] != name:
                out.append(max(0.0, when - answered[0]))
        return out


def process_of(player: int, processes: int, apart: bool = True) -> int:
    """The server process (0 to *processes* - 1) of player number *player*: players 2k and
    2k+1 share table k; with *apart* they go to different processes (player *i* to process
    *i* mod *processes*), else both to process k mod *processes*.

    >>> [process_of(i, 2) for i in range(4)], [process_of(i, 2, apart=False) for i in range(4)]
    ([0, 1, 0, 1], [0, 0, 1, 1])
    """
    return (player if apart else player // 2) % processes


async def _play(
    config: BenchConfig,
    bases: list[str],
    pids: list[int],
    database: str = "",
    apart: bool = True,
) -> ScaleReport:
    """Play on the servers at *bases* (process ids *pids*): the two players of a table on
    different processes when *apart*, else both on the process of the table's pair number
    (no delivery across processes)."""
    bench = _ScaleBench(config, bases)
    stamp = f"{os.getpid() % 10000}{int(time.time()) % 100000}"
    players = [
        TimedPlayer(bench, f"s{stamp}p{i}", i, bases[process_of(i, len(bases), apart)])
        for i in range(config.players)
    ]
    try:
        for start in range(0, len(players), 16):
            await asyncio.gather(*(p.register() for p in players[start : start + 16]))
        if "crossword" in config.games:
            choose_crossword(
                {"board": ["." * 15] * 15, "heights": [[0] * 15] * 15, "rack": "AE"}, {}
            )
        database_before = backends_cpu(database)  # its query before the clocks start
        gc.collect()
        gc.freeze()
        began = time.monotonic()
        cpu = time.process_time()
        server_before = [process_cpu(pid) or 0.0 for pid in pids]
        system_before = [system_cpu(pid) for pid in pids]
        bench.stop_at = began + config.seconds
        pairs = [
            bench.pair(i // 2, players[i], players[i + 1]) for i in range(0, len(players) - 1, 2)
        ]
        await asyncio.gather(*pairs)
        bench.report.seconds = time.monotonic() - began
        bench.report.client_cpu = time.process_time() - cpu
        server_after = [process_cpu(pid) or 0.0 for pid in pids]
        system_after = [system_cpu(pid) for pid in pids]
        database_after = backends_cpu(database)  # after the load generator's own CPU
    finally:
        for player in players:
            await player.http.close()
    server_cpu = sum(
        after - before for before, after in zip(server_before, server_after, strict=True)
    )
    system = sum(b - a for a, b in zip(system_before, system_after, strict=True))
    report = ScaleReport("", len(bases), bench.report, server_cpu, bench.delays(), system)
    if database_before is not None and database_after is not None:
        report.database_cpu = sum(
            cpu - database_before.get(pid, 0.0) for pid, cpu in database_after.items()
        )
    return report


def backends_cpu(url: str) -> dict[int, float] | None:
    """CPU seconds (user + system) of each PostgreSQL backend connected to the database of
    *url* now, by process id (from ``pg_stat_activity`` and this machine's ``/proc``); ``None``
    for another database or when they cannot be read. A backend that ends between two
    readings loses its share (the servers keep their connections open while they play)."""
    if not url.startswith("postgresql"):
        return None
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            pids = connection.execute(
                text(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()"
                )
            ).scalars()
            found = {pid: process_cpu(pid) for pid in pids}
    except Exception:  # no right to see them, or not reachable: no figure
        return None
    finally:
        engine.dispose()
    if any(cpu is None for cpu in found.values()):
        return None  # not on this machine
    return {pid: cpu for pid, cpu in found.items() if cpu is not None}


def system_cpu(pid: int) -> float:
    """The system (kernel) CPU seconds of process *pid* (0 where ``/proc`` has no answer)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[12]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def run_setup(
    label: str,
    database: str,
    processes: int,
    config: BenchConfig,
    port: int,
    extra: list[str],
    sources: str | None = None,
    apart: bool = True,
) -> ScaleReport:
    """Start *processes* servers on *database* (ports from *port*; the code in *sources*, a
    ``src`` directory, when given), play (each table's two players on different processes
    when *apart*), stop them."""
    with tempfile.TemporaryDirectory(prefix="parlour-scale-") as home:
        homes = [str(Path(home) / f"p{i}") for i in range(processes)]
        servers = [
            spawn_server(
                port=port + i,
                database=database,
                home=homes[i],
                extra=["--sweep-seconds", "0", *extra],
                sources=sources,
            )
            for i in range(processes)
        ]
        bases = [f"http://127.0.0.1:{port + i}" for i in range(processes)]
        try:
            for base, server, h in zip(bases, servers, homes, strict=True):
                wait_healthy(base, server, home=h)
            pids = [s.pid for s in servers]
            result = asyncio.run(_play(config, bases, pids, database, apart))
        finally:
            for server in servers:
                stop_server(server)
    result.label = label
    result.report.database = database.split(":", 1)[0]
    return result


@contextlib.contextmanager
def checkout(revision: str) -> Iterator[str]:
    """The ``src`` directory of git revision *revision* of the repository the command runs
    in, unpacked by ``git archive`` into a temporary directory (removed after)."""
    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="parlour-baseline-") as tmp:
        archive = Path(tmp) / "src.tar"
        subprocess.run(
            ["git", "archive", "--output", str(archive), revision, "src"], cwd=top, check=True
        )
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        yield str(Path(tmp) / "src")


@contextlib.contextmanager
def fresh_database(url: str, name: str) -> Iterator[str]:
    """An empty PostgreSQL database *name* on the server of *url* (created now, dropped
    after), as a URL; *url* itself when it is not PostgreSQL or the database cannot be
    created."""
    if not url.startswith("postgresql"):
        yield url
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as err:  # no right to create databases: play on the one given
        print(f"(no database of its own: {type(err).__name__}; using the URL's)", flush=True)
        admin.dispose()
        yield url
        return
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main(argv: list[str] | None = None) -> None:
    """``python -m parlour_tools.scale_bench``: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, help="URL of an empty PostgreSQL database")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds each player thinks before an action (0: as fast as answered)",
    )
    parser.add_argument(
        "--per-process",
        action="store_true",
        help="--players per server process (two processes get twice the players): every "
        "process carries the same load, the comparison for a host adding a process as its "
        "load grows",
    )
    parser.add_argument("--port", type=int, default=8310)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument(
        "--setups",
        default="sqlite1,pg1,pg2",
        help="of sqlite1, pg1, pg2, pg2local (two processes, each table's players on one)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines only")
    parser.add_argument(
        "--each-game",
        action="store_true",
        help="run every setup once per game (the CPU per action by kind of game)",
    )
    parser.add_argument(
        "--baseline", help="a git revision whose servers run too, interleaved with these"
    )
    parser.add_argument("--rounds", type=int, default=1, help="times each setup runs (each code)")
    args = parser.parse_args(argv)
    games = tuple(g for g in args.games.split(",") if g)
    runs = [(g,) for g in games] if args.each_game else [games]
    with contextlib.ExitStack() as stack:
        versions: list[tuple[str, str | None]] = [("current", None)]
        if args.baseline:
            versions.insert(0, (args.baseline, stack.enter_context(checkout(args.baseline))))
        for run in runs:
            _run_setups(args, run, versions)


def _median_line(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The medians of the figures of *rows* (runs of one setup and version)."""
    keys = (
        "actions_per_second",
        "p50_ms",
        "p99_ms",
        "server_cpu_ms_per_action",
        "client_cpu_s",
        "delivery_p50_ms",
        "delivery_p99_ms",
        "load",
        "server_system_share",
    )
    out: dict[str, Any] = {k: round(statistics.median(r[k] for r in rows), 3) for k in keys}
    database = [r["database_cpu_ms_per_action"] for r in rows]
    out["database_cpu_ms_per_action"] = (
        None if None in database else round(statistics.median(database), 3)
    )
    out["errors"] = sum(r["errors"] for r in rows)
    out["runs"] = len(rows)
    out["cpu_all"] = [r["server_cpu_ms_per_action"] for r in rows]
    return out


def _run_setups(
    args: argparse.Namespace, games: tuple[str, ...], versions: list[tuple[str, str | None]]
) -> None:
    """Run each of ``args.setups`` with the pairs playing *games*, ``args.rounds`` times
    with each of *versions* (name, ``src`` directory or None for this code), printing each
    run's figures, then the medians."""
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    names = args.setups.split(",")
    serial = 0
    for round_ in range(args.rounds):
        order = versions if round_ % 2 == 0 else versions[::-1]
        for name in names:
            for version, sources in order:
                serial += 1
                line = _run_one(args, games, name, version, sources, serial)
                results.setdefault((name, version), []).append(line)
    if args.rounds > 1 or len(versions) > 1:
        _print_summary(args, games, names, versions, results)


def _run_one(
    args: argparse.Namespace,
    games: tuple[str, ...],
    name: str,
    version: str,
    sources: str | None,
    serial: int,
) -> dict[str, Any]:
    """One setup *name* with the servers of *sources*: its figures, printed."""
    with contextlib.ExitStack() as stack:
        sqlite_dir = stack.enter_context(tempfile.TemporaryDirectory(prefix="parlour-scale-"))
        label, database, processes = {
            "sqlite1": ("SQLite, 1 process", f"sqlite:///{Path(sqlite_dir) / 'bench.db'}", 1),
            "pg1": ("PostgreSQL, 1 process", args.postgres, 1),
            "pg2": ("PostgreSQL, 2 processes", args.postgres, 2),
            "pg2local": ("PostgreSQL, 2 processes, each table on one", args.postgres, 2),
        }[name]
        if args.rounds > 1 or args.baseline:
            database = stack.enter_context(
                fresh_database(database, f"parlour_scale_{os.getpid()}_{serial}")
            )
        players = args.players * (processes if args.per_process else 1)
        config = BenchConfig(seconds=args.seconds, players=players, games=games, think=args.think)
        load = os.getloadavg()[0]
        apart = name != "pg2local"
        result = run_setup(label, database, processes, config, args.port, [], sources, apart)
    line = {
        **result.to_json(),
        "games": list(games),
        "version": version,
        "load": round(load, 2),
    }
    if len(games) == 1:
        label = f"{label} [{','.join(games)}]"
    if args.baseline:
        label = f"{label} ({version})"
    if args.json:
        print(json.dumps(line), flush=True)
    else:
        print(
            f"{label}, {line['players']} players: {line['actions_per_second']} actions/s "
            f"({line['actions']}), "
            f"p50 {line['p50_ms']} ms, p99 {line['p99_ms']} ms, errors {line['errors']}, "
            f"server CPU {line['server_cpu_ms_per_action']} ms/action "
            f"({line['server_cpu_s']} s, system {line['server_system_share']:.0%}), "
            f"load generator CPU {line['client_cpu_s']} s, "
            f"database CPU {line['database_cpu_ms_per_action']} ms/action, "
            f"delivery p50 {line['delivery_p50_ms']} ms p99 {line['delivery_p99_ms']} ms "
            f"({line['deliveries']}), load average {line['load']}",
            flush=True,
        )
        for sample in line["error_samples"]:
            print(f"  {sample}")
    return line


def _print_summary(
    args: argparse.Namespace,
    games: tuple[str, ...],
    names: list[str],
    versions: list[tuple[str, str | None]],
    results: dict[tuple[str, str], list[dict[str, Any]]],
) -> None:
    """Medians per setup and version, the change against the baseline, and pg2 against pg1."""
    print(f"== medians over {args.rounds} round(s) [{','.join(games)}]", flush=True)
    medians = {key: _median_line(rows) for key, rows in results.items()}
    for name in names:
        for version, _ in versions:
            m = medians[(name, version)]
            line = (
                f"{name} {version}: server CPU {m['server_cpu_ms_per_action']} ms/action "
                f"(runs {m['cpu_all']}), {m['actions_per_second']} actions/s, "
                f"p50 {m['p50_ms']} ms, p99 {m['p99_ms']} ms, errors {m['errors']}, "
                f"system {m['server_system_share']:.0%}, "
                f"load generator CPU {m['client_cpu_s']} s, "
                f"database CPU {m['database_cpu_ms_per_action']} ms/action, "
                f"delivery p50 {m['delivery_p50_ms']} ms p99 {m['delivery_p99_ms']} ms, "
                f"load average {m['load']}"
            )
            print(json.dumps({"setup": name, "version": version, **m}) if args.json else line)
        if len(versions) == 2:
            base = medians[(name, versions[0][0])]["server_cpu_ms_per_action"]
            now = medians[(name, versions[1][0])]["server_cpu_ms_per_action"]
            if base:
                print(f"{name}: CPU per action {now / base - 1:+.1%} against {versions[0][0]}")
    same = " (the same load a process)" if args.per_process else ""
    for two_name in ("pg2", "pg2local"):
        if "pg1" not in names or two_name not in names:
            continue
        for version, _ in versions:
            one = [r["server_cpu_ms_per_action"] for r in results[("pg1", version)]]
            two = [r["server_cpu_ms_per_action"] for r in results[(two_name, version)]]
            ratios = [b / a - 1 for a, b in zip(one, two, strict=True) if a]
            if ratios:
                print(
                    f"{two_name} against pg1{same}, {version}: "
                    f"{statistics.median(ratios):+.1%} "
                    f"(median of the rounds; rounds {', '.join(f'{r:+.1%}' for r in ratios)})",
                    flush=True,
                )


if __name__ == "__main__":
    main()
