"""Running the door until ``SIGINT`` or ``SIGTERM``."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

from parlour.door.server import Door
from parlour.door.settings import DoorSettings


async def run(settings: DoorSettings, *, announce: Callable[[str], object] = print) -> None:
    """Listen with *settings* until ``SIGINT``/``SIGTERM``, then end every session.

    *announce* gets the lines to show the host (where the door listens, the host key's
    fingerprint). Raises ``OSError`` if the port cannot be listened on or the host key
    cannot be read or written.
    """
    door = Door(settings)
    port = await door.start()
    announce(
        f"parlour door on ssh -p {port} NAME@{settings.host} for {settings.url} "
        f"(host key {door.fingerprint})"
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await door.close()
    announce("parlour door closed")
