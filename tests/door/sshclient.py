"""Driving the door: ``parlour door`` as its own process, and OpenSSH's ``ssh`` on a
pseudo-terminal (pexpect), its password given by an ``SSH_ASKPASS`` script."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pexpect

from tests.helpers import free_port

SSH = "/usr/bin/ssh"
STANDIN = Path(__file__).with_name("standin.py")
PASSWORD = "door-password-1"


@dataclass
class RunningDoor:
    port: int
    home: Path
    fingerprint: str
    process: subprocess.Popen[str]


@contextmanager
def running_door(
    url: str, home: Path, *options: str, command: str | None = None, port: int = 0
) -> Iterator[RunningDoor]:
    """``parlour door URL`` in its own process with *home* as its data directory (and a
    secret in its environment that no session may see); stopped with SIGTERM, killed if
    it does not stop. On *port*, or a free one."""
    port = port or free_port()
    if command is None:
        command = f"{sys.executable} {STANDIN} {url}"
    chosen = ["--command", command] if command else []  # "": the door's own, parlour connect
    env = dict(os.environ, PARLOUR_HOME=str(home), DOOR_TEST_SECRET="not for sessions")
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "door", url, "--port", str(port), *chosen, *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the door says where it listens once it does
        found = re.search(r"host key (SHA256:\S+)\)", line)
        assert found, f"the door did not start: {line!r}"
        yield RunningDoor(port, home, found.group(1), process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:  # pragma: no cover - a door that hangs
            process.kill()
            process.wait()


def ssh(
    door: RunningDoor,
    name: str,
    askpass: Path,
    *,
    password: str = PASSWORD,
    known_hosts: Path | None = None,
    strict: bool = False,
    command: str | None = None,
    size: tuple[int, int] = (24, 80),
    timeout: float = 30,
) -> pexpect.spawn:
    """OpenSSH's ``ssh -tt -p PORT name@127.0.0.1`` on a pseudo-terminal of *size* (rows,
    columns): a ``pexpect.spawn``. Password login only, through *askpass*."""
    known = known_hosts or askpass.with_name("known_hosts")
    args = [
        "-F",
        "/dev/null",
        "-p",
        str(door.port),
        "-tt",
        "-o",
        f"StrictHostKeyChecking={'yes' if strict else 'accept-new'}",
        "-o",
        f"UserKnownHostsFile={known}",
        "-o",
        "PubkeyAuthentication=no",
        "-o",
        "PreferredAuthentications=password",
        "-o",
        "NumberOfPasswordPrompts=1",
        f"{name}@127.0.0.1",
    ]
    if command is not None:
        args.append(command)
    env = dict(
        os.environ,
        SSH_ASKPASS=str(askpass),
        SSH_ASKPASS_REQUIRE="force",
        DOOR_PASSWORD=password,
        TERM="xterm-256color",
    )
    return pexpect.spawn(SSH, args, env=env, timeout=timeout, dimensions=size)


def keyscan(port: int) -> str:
    """The door's host key fingerprint as OpenSSH's tools read it."""
    scanned = subprocess.run(
        ["ssh-keyscan", "-p", str(port), "-t", "ed25519", "127.0.0.1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    printed = subprocess.run(
        ["ssh-keygen", "-l", "-f", "-"], input=scanned, capture_output=True, text=True, check=True
    ).stdout
    return printed.split()[1]


class Screen:
    """What an SSH client's terminal shows: the session's output read by pyte."""

    def __init__(self, child: pexpect.spawn, columns: int, rows: int) -> None:
        import pyte

        self.child = child
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        """The screen's lines, joined by newlines."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def pump(self, seconds: float) -> None:
        """Read what the session printed for up to *seconds* (never blocks longer): a client
        that stops reading lets the terminal's buffer fill until the program stalls."""
        with suppress(pexpect.TIMEOUT):
            self._stream.feed(self.child.read_nonblocking(65536, timeout=seconds))

    def wait_for(self, needle: str, timeout: float = 150) -> str:
        """Read output until the screen shows *needle*; returns the screen. Raises
        ``AssertionError`` with the screen if it does not show it within *timeout* s."""
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{needle!r} not on the screen:\n{self.text()}")
            try:
                self._stream.feed(self.child.read_nonblocking(65536, timeout=min(left, 1)))
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF as err:
                raise AssertionError(f"{needle!r} never shown:\n{self.text()}") from err
        return self.text()
