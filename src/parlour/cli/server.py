"""Server commands: ``parlour serve`` and ``parlour bench server`` (the load test)."""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer

from parlour.cli.common import console, fail
from parlour.cli.common import database as opened
from parlour.cli.groups import bench

DATABASE_HELP = (
    "Database URL: sqlite:///PATH, or for PostgreSQL postgresql+psycopg:// followed by "
    "USER:PASSWORD@HOST/DB (default: SQLite in the data directory)."
)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database: Annotated[
        str | None, typer.Option(help=DATABASE_HELP, envvar="PARLOUR_DATABASE")
    ] = None,
    sweep_seconds: Annotated[
        float, typer.Option(help="How often turn clocks are checked (seconds; 0: never).")
    ] = 30.0,
    secure_cookie: Annotated[
        bool, typer.Option("--secure-cookie", help="Mark the session cookie Secure (behind HTTPS).")
    ] = False,
    writer_threads: Annotated[
        int,
        typer.Option(
            help="Group-commit writer threads on PostgreSQL (more help with a database "
            "across a network; SQLite always has one).",
            min=1,
            max=16,
        ),
    ] = 1,
    commit_window_seconds: Annotated[
        float,
        typer.Option(
            "--commit-window",
            help="The group writer's commit window (seconds; 0: off, the default): a lone "
            "write waits up to this long for others to share its transaction while the "
            "recent rate expects some (0.004: a few milliseconds of latency for fewer "
            "transactions).",
            min=0,
            max=0.1,
        ),
    ] = 0.0,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="Proxies trusted to name the client in X-Forwarded-For (and the scheme in "
            "X-Forwarded-Proto), comma-separated addresses or networks ('10.0.0.0/8'; '*': "
            "any). Default: none; the client is the connection's peer address, which the "
            "per-address limits count.",
        ),
    ] = "",
    max_signups: Annotated[
        int,
        typer.Option(
            "--max-signups",
            help="Accounts one client address may create per hour (0: no limit).",
            min=0,
        ),
    ] = 10,
    # its earlier name, hidden; kept so that scripts that name it still run
    _max_signups_per_address: Annotated[
        int | None, typer.Option("--max-signups-per-address", hidden=True, min=0)
    ] = None,
    poll_seconds: Annotated[
        float,
        typer.Option(
            help="How often followed tables are checked for changes other processes made "
            "(seconds; 0: never). On PostgreSQL they are also told at once (LISTEN/NOTIFY); "
            "the poll makes up for a notification lost with a process that died.",
            min=0,
        ),
    ] = 1.0,
    metrics: Annotated[
        str,
        typer.Option(
            help="Who may read /metrics: 'loopback' (this machine only), 'on' (anyone: "
            "block it at the proxy), 'off'."
        ),
    ] = "loopback",
    json_logs: Annotated[
        bool,
        typer.Option(
            "--json-logs", help="Log one JSON object per line (with request and table ids)."
        ),
    ] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    no_access_log: Annotated[
        bool, typer.Option("--no-access-log", help="Do not log every request.")
    ] = False,
    # the default since the start, hidden; given, it wins over --no-access-log (as the
    # pair's last word did in the scripts that name it)
    _access_log: Annotated[bool, typer.Option("--access-log", hidden=True)] = False,
    # notifications by mail (lane social; docs/server.md "Notifications and chat")
    site_url: Annotated[
        str,
        typer.Option(
            help="The site's address as players reach it (links in mail).",
            envvar="PARLOUR_SITE_URL",
        ),
    ] = "http://127.0.0.1:8000",
    smtp_host: Annotated[
        str | None,
        typer.Option(
            help="SMTP server for notification mail (default: no mail).", envvar="PARLOUR_SMTP_HOST"
        ),
    ] = None,
    smtp_port: Annotated[
        int, typer.Option(help="SMTP server port.", min=1, max=65535, envvar="PARLOUR_SMTP_PORT")
    ] = 25,
    smtp_from: Annotated[
        str, typer.Option(help="From address of the mail.", envvar="PARLOUR_SMTP_FROM")
    ] = "parlour@localhost",
    smtp_starttls: Annotated[
        bool,
        typer.Option(
            "--smtp-starttls",
            help="Use STARTTLS with the SMTP server.",
            envvar="PARLOUR_SMTP_STARTTLS",
        ),
    ] = False,
    smtp_user: Annotated[
        str | None,
        typer.Option(
            help="SMTP login user (its password is read from PARLOUR_SMTP_PASSWORD only).",
            envvar="PARLOUR_SMTP_USER",
        ),
    ] = None,
    no_notifications: Annotated[
        bool,
        typer.Option(
            "--no-notifications", help="Make no notifications (only to measure what they cost)."
        ),
    ] = False,
    # hidden likewise; given, it wins over --no-notifications
    _notifications: Annotated[bool, typer.Option("--notifications", hidden=True)] = False,
) -> None:
    """Run the game server: REST API (docs at /docs) and WebSocket (/ws)."""
    import uvicorn

    from parlour.server import Settings, create_app

    settings = Settings(
        database_url=database,
        sweep_seconds=sweep_seconds,
        cookie_secure=secure_cookie,
        writer_threads=writer_threads,
        commit_window_seconds=commit_window_seconds,
        forwarded_allow_ips=tuple(p.strip() for p in forwarded_allow_ips.split(",") if p.strip()),
        max_signups_per_address=(
            max_signups if _max_signups_per_address is None else _max_signups_per_address
        ),
        poll_seconds=poll_seconds,
        site_url=site_url,
        smtp_host=smtp_host or None,
        smtp_port=smtp_port,
        smtp_from=smtp_from,
        smtp_starttls=smtp_starttls,
        smtp_user=smtp_user or None,
        # a password on the command line shows in the process list: from the environment only
        smtp_password=os.environ.get("PARLOUR_SMTP_PASSWORD") or None,
        notifications=_notifications or not no_notifications,
        metrics=metrics,
        json_logs=json_logs,
    )
    if metrics not in ("loopback", "on", "off"):
        fail("--metrics is 'loopback', 'on' or 'off'")
    opened(database)  # one that cannot be opened: one line naming it and the cause, no traceback
    app = create_app(settings)  # on the database just opened
    console.print(f"parlour server on http://{host}:{port}/ (API docs: /docs)")
    from parlour.server.logs import log_config
    from parlour.server.shutdown import GracefulServer

    # JSON logs: given to Config itself, which configures logging as it is made (a
    # log_config set on it afterwards is never applied)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=_access_log or not no_access_log,
        # the app reads forwarded headers itself, from --forwarded-allow-ips only: uvicorn's
        # own default would trust any client on 127.0.0.1 (or FORWARDED_ALLOW_IPS)
        proxy_headers=False,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # small JSON messages: compressing costs more than it saves
        timeout_graceful_shutdown=5,
        log_config=log_config(log_level) if json_logs else uvicorn.config.LOGGING_CONFIG,
    )
    # SIGTERM: stop accepting, answer the WebSocket messages under way, close the sockets
    # with the reconnect code, finish the requests, write what is queued (server/shutdown.py)
    server = GracefulServer(config, app.state.drain, settings.drain_seconds)
    server.run()
    if not server.started:  # as uvicorn.run: the port was taken, the app failed to start
        raise typer.Exit(3)


@bench.command("server")
def bench_server(
    seconds: Annotated[float, typer.Option(help="How long to play (seconds).", min=1)] = 20.0,
    players: Annotated[int, typer.Option(help="Simulated players.", min=2, max=2000)] = 64,
    database: Annotated[str | None, typer.Option(help=DATABASE_HELP)] = None,
    url: Annotated[
        str | None,
        typer.Option(help="Load an already running server at this URL instead of starting one."),
    ] = None,
    port: Annotated[int, typer.Option(help="Port of the server this command starts.")] = 8765,
    via: Annotated[str, typer.Option(help="Send actions by 'http' or 'ws'.")] = "http",
    games: Annotated[
        str,
        typer.Option(
            help="Games the pairs play in turn, comma-separated.",
            show_default="ten-thousand, crossword, rummy",
        ),
    ] = "ten-thousand,crossword,rummy",
    think: Annotated[
        float,
        typer.Option(
            help="Mean thinking time before each action (milliseconds; 0: act at once, "
            "which finds the server's capacity).",
            min=0,
            max=600_000,
        ),
    ] = 0.0,
    chat_every: Annotated[
        int,
        typer.Option(
            help="Each player posts a chat line every this many actions (at most one per 2.5 "
            "s, under the chat rate limit; 0: no chat).",
            min=0,
        ),
    ] = 0,
    social: Annotated[
        str,
        typer.Option(
            help="'on' (notifications made), 'off' (--no-notifications, no chat), or "
            "'compare': one run with them off, then one with them on (and --chat-every, "
            "default 10), side by side.",
        ),
    ] = "on",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Load test: simulated players play dice, crossword and rummy games against each other
    through the REST API and WebSockets for a fixed time, on loopback; prints actions per
    second, p50/p99 latency and errors."""
    from parlour.engine.errors import ParlourError
    from parlour.engine.registry import find
    from parlour_tools.load_test import BenchConfig, run_bench

    if via not in ("http", "ws"):
        fail("--via is 'http' or 'ws'")
    try:
        names = tuple(find(name.strip()).name for name in games.split(",") if name.strip())
    except ParlourError as err:
        fail(str(err))
    if not names:
        fail("--games names at least one game")
    if social not in ("on", "off", "compare"):
        fail("--social is 'on', 'off' or 'compare'")
    runs = (
        [("off", False, 0), ("on", True, chat_every or 10)]
        if social == "compare"
        else [(social, social == "on", chat_every if social == "on" else 0)]
    )
    reports = []
    for label, notify, chat in runs:
        report = run_bench(
            BenchConfig(
                seconds=seconds,
                players=players,
                database=database,
                url=url,
                port=port,
                via=via,
                games=names,
                think=think / 1000,
                notifications=notify,
                chat_every=chat,
            )
        )
        reports.append((label, report))
    if as_json:
        if social == "compare":
            print(json.dumps({label: r.to_json() for label, r in reports}))
        else:
            print(json.dumps(reports[0][1].to_json()))
        return
    for label, report in reports:
        if social == "compare":
            console.print(f"[bold]notifications and chat {label}[/bold]")
        console.print(report.text())
    if len(reports) == 2:
        off, on = reports[0][1], reports[1][1]
        console.print(
            f"off: {off.per_second:.1f} actions/s, p99 {off.percentile(0.99):.1f} ms | "
            f"on: {on.per_second:.1f} actions/s, p99 {on.percentile(0.99):.1f} ms, "
            f"{on.chats} chat lines"
        )
    if any(r.errors for _, r in reports):
        raise typer.Exit(1)
