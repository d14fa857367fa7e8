"""The door's pseudo-terminal (:mod:`parlour.door.terminal`) on its own."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Iterator

import pytest

from parlour.door.terminal import Terminal


@pytest.fixture
def hang_up_ignored() -> Iterator[None]:
    """This process ignores SIGHUP, as a door started under ``nohup`` does."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


async def test_a_program_ends_when_hung_up_though_the_door_ignores_it(
    hang_up_ignored: None,
) -> None:
    """A door run under ``nohup`` ignored SIGHUP and its programs inherited that: hanging
    up a session left its ``parlour connect`` running until the kill two seconds later (or
    for good, when the door closed meanwhile). The program gets SIGHUP's default back."""
    output = bytearray()
    terminal = Terminal(output.extend, 80, 24)
    script = "import time; print('READY', flush=True); time.sleep(60)"
    await terminal.start([sys.executable, "-c", script], {"PATH": "/usr/bin:/bin"}, "/")
    for _ in range(500):
        if b"READY" in output:
            break
        await asyncio.sleep(0.02)
    assert b"READY" in output
    terminal.stop()  # SIGHUP now, SIGKILL in two seconds
    status = await asyncio.wait_for(terminal.exited, 10)
    assert status == 128 + signal.SIGHUP  # ended by the hang-up, not by the later kill
