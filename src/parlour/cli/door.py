"""``parlour door URL``: the SSH door to a game server (docs/server.md, "The SSH door")."""

from __future__ import annotations

import shlex
from typing import Annotated

import typer

from parlour.cli.common import fail


def door(
    url: Annotated[str, typer.Argument(help="The game server's URL, e.g. http://127.0.0.1:8000.")],
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="SSH port to listen on.", min=0, max=65535)] = 8622,
    max_sessions: Annotated[
        int, typer.Option(help="Sessions open at once through the door (0: no limit).", min=0)
    ] = 50,
    max_per_account: Annotated[
        int, typer.Option(help="Sessions open at once per account (0: no limit).", min=0)
    ] = 2,
    idle_minutes: Annotated[
        float,
        typer.Option(
            help="Close a session after this many minutes without input (0: never).", min=0
        ),
    ] = 30.0,
    command: Annotated[
        str | None,
        typer.Option(
            help="Program each session runs, its token in PARLOUR_TOKEN (default: "
            "parlour connect URL).",
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="Log level (debug, info, warning).")] = "info",
) -> None:
    """Open a game server to SSH: people log in with their server account and play in the
    terminal apps, each session its own program (``ssh -p 8622 name@host``)."""
    import asyncio
    import logging

    from parlour.door import DoorSettings
    from parlour.door.run import run

    if not url.startswith(("http://", "https://")):
        fail(f"{url!r} is not a server URL (http://host:port)")
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    settings = DoorSettings(
        url=url,
        host=host,
        port=port,
        max_sessions=max_sessions,
        max_per_account=max_per_account,
        idle_seconds=idle_minutes * 60.0,
        command=tuple(shlex.split(command)) if command else (),
    )
    try:
        asyncio.run(run(settings, announce=typer.echo))
    except OSError as err:
        fail(f"the door cannot start: {err}")
