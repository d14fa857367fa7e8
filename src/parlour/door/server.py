"""The SSH server: a connection per person, logged in against the game server; a session
per shell, each with its own terminal and program, counted against the limits."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import asyncssh
import httpx

from parlour.door import hostkey
from parlour.door.login import Login, Refused, log_in, log_out
from parlour.door.settings import DoorSettings
from parlour.door.terminal import RESET, Terminal
from parlour.paths import ENV_HOME, data_dir

log = logging.getLogger("parlour.door")

SHARED_CACHES = ("lexicon", "solver")

HANG_UP_GRACE = 2.0
"""Seconds a session's program has to end after its hang-up when the door closes."""
"""Data-directory folders every session's program shares (read-mostly caches the host's
own programs made); everything else in a session's data directory is its own."""


class Door:
    """The running door: its settings, the game server's HTTP client and the sessions
    open, by account (``start`` listens; ``close`` ends every session)."""

    def __init__(self, settings: DoorSettings) -> None:
        self.settings = settings
        self.http = httpx.AsyncClient(base_url=settings.url.rstrip("/"), timeout=30.0)
        self.sessions: set[DoorSession] = set()
        self.running: set[Terminal] = set()
        """Every session's program still running, a session that has ended included (its
        program hung up, the kill timer pending): :meth:`close` ends them all."""
        self.by_account: Counter[str] = Counter()
        self.host_key = hostkey.load_or_create(settings.host_key_path())
        self._acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint."""
        return hostkey.fingerprint(self.host_key)

    async def start(self) -> int:
        """Listen; returns the port (the one asked for, or the one given for port 0)."""
        self._acceptor = await asyncssh.create_server(
            lambda: DoorConnection(self),
            self.settings.host,
            self.settings.port,
            server_host_keys=[self.host_key],
            encoding=None,
            login_timeout=self.settings.login_timeout,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            line_editor=False,
            server_version="parlour_door",
        )
        return int(self._acceptor.get_port())

    async def close(self) -> None:
        """Stop listening and end every session: each program is hung up, and killed if
        it has not ended ``HANG_UP_GRACE`` seconds later (the door is going: its timer
        that would kill it later goes with it, and a program left running outlived the
        door)."""
        if self._acceptor is not None:
            self._acceptor.close()
        # every program still running: a session that has just ended left its own hung up
        terminals = set(self.running)
        terminals.update(s.terminal for s in self.sessions if s.terminal is not None)
        for session in list(self.sessions):
            session.close_with("The door is closing.")
        if self.sessions:
            await asyncio.wait(
                [asyncio.ensure_future(s.ended) for s in list(self.sessions)], timeout=5
            )
        if terminals:
            await asyncio.wait(
                [asyncio.ensure_future(t.exited) for t in terminals], timeout=HANG_UP_GRACE
            )
            for terminal in terminals:
                terminal.kill()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        await self.http.aclose()

    def admit(self, session: DoorSession, account: str) -> str | None:
        """Count *session* for *account*, or return the line saying why not."""
        limits = self.settings
        if limits.max_sessions and len(self.sessions) >= limits.max_sessions:
            return (
                f"The door is full ({limits.max_sessions} sessions are open). "
                "Please try again later."
            )
        key = account.casefold()
        if limits.max_per_account and self.by_account[key] >= limits.max_per_account:
            many = "session" if limits.max_per_account == 1 else "sessions"
            return (
                f"{account} already has {limits.max_per_account} {many} open through this "
                "door, the most it allows. Close one and try again."
            )
        self.sessions.add(session)
        self.by_account[key] += 1
        return None

    def release(self, session: DoorSession, account: str) -> None:
        """Stop counting *session* (once; more calls do nothing)."""
        if session in self.sessions:
            self.sessions.discard(session)
            key = account.casefold()
            self.by_account[key] -= 1
            if self.by_account[key] <= 0:
                del self.by_account[key]


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: password login against the game server, then its sessions."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.login: Login | None = None
        self.address: str | None = None
        self._conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.login is not None:
            token = self.login.token
            asyncio.get_running_loop().create_task(log_out(self.door.http, token))

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return True

    def kbdint_auth_supported(self) -> bool:
        return False  # asyncssh would ask the password again that way: one check per try

    async def validate_password(self, username: str, password: str) -> bool:
        try:
            self.login = await log_in(self.door.http, username, password, address=self.address)
        except Refused as refused:
            log.info("door login refused for %r from %s: %s", username, self.address, refused)
            if self._conn is not None:
                self._conn.send_auth_banner(refused.reason + "\r\n")
            return False
        log.info("door login: %s from %s", self.login.name, self.address)
        return True

    def session_requested(self) -> DoorSession:
        assert self.login is not None  # asyncssh opens sessions only after the login
        return DoorSession(self.door, self.login)


class DoorSession(asyncssh.SSHServerSession[bytes]):
    """One shell: its own terminal and program, its own data directory, idle-checked."""

    def __init__(self, door: Door, login: Login) -> None:
        self.door = door
        self.login = login
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._term_type: str | None = None
        self._size = (80, 24)
        self._terminal: Terminal | None = None
        self._home: str | None = None
        self._last_input = time.monotonic()
        self._idle: asyncio.TimerHandle | None = None
        self._closing = False

    @property
    def terminal(self) -> Terminal | None:
        """The session's terminal and program (``None`` until the program starts)."""
        return self._terminal

    # --- asyncssh's callbacks ----------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object
    ) -> bool:
        self._term_type = term_type or "xterm-256color"
        if term_size[0] and term_size[1]:
            self._size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command_refused = True
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        asyncio.get_running_loop().create_task(self._start())

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._last_input = time.monotonic()
        if self._terminal is not None:
            self._terminal.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = (width or self._size[0], height or self._size[1])
        if self._terminal is not None:
            self._terminal.resize(*self._size)

    def eof_received(self) -> bool:
        if self._terminal is None and not self._closing:
            # The end of input came before the session started (``ssh host ls </dev/null``):
            # let _start refuse with its reason, or end the session once it is admitted.
            self._early_eof = True
            return True
        self.close_with(None)
        return False

    def pause_writing(self) -> None:
        if self._terminal is not None:
            self._terminal.pause()

    def resume_writing(self) -> None:
        if self._terminal is not None:
            self._terminal.resume()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closing = True
        self._finish()

    # --- the session --------------------------------------------------------------------

    _command_refused = False
    _early_eof = False

    async def _start(self) -> None:
        if self._command_refused:
            self._refuse("This door runs no commands: log in with plain `ssh -p PORT name@host`.")
            return
        if self._term_type is None:
            self._refuse("This door needs a terminal: log in with `ssh -t`.")
            return
        refusal = self.door.admit(self, self.login.name)
        if refusal is not None:
            log.info("door session refused for %s: %s", self.login.name, refusal)
            self._refuse(refusal)
            return
        if self._early_eof:
            self.close_with(None)
            return
        self._home = tempfile.mkdtemp(prefix="parlour-door-")
        _share_caches(Path(self._home))
        self._terminal = Terminal(self._write, *self._size)
        try:
            await self._terminal.start(
                self.door.settings.session_command(), self._environment(), self._home
            )
        except OSError as err:
            log.error("door session program did not start: %s", err)
            self._refuse("The game program did not start; please tell the host.")
            return
        terminal, running = self._terminal, self.door.running
        running.add(terminal)
        terminal.exited.add_done_callback(lambda _: running.discard(terminal))
        log.info("door session for %s: %d open", self.login.name, len(self.door.sessions))
        self._arm_idle()
        status = await self._terminal.exited
        if not self._closing:
            self._closing = True
            self._exit(status)

    def _environment(self) -> dict[str, str]:
        assert self._home is not None and self._term_type is not None
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self._home,
            ENV_HOME: self._home,
            "TERM": self._term_type,
            "LANG": "C.UTF-8",
            "PARLOUR_TOKEN": self.login.token,
            "PARLOUR_DOOR": "1",
        }

    def close_with(self, message: str | None) -> None:
        """End the session: the program is hung up, *message* (if any) shown last."""
        if self._closing:
            return
        self._closing = True
        if self._terminal is not None:
            self._terminal.stop()
        if message is not None:
            self._write(RESET + b"\r\n" + message.encode() + b"\r\n")
        self._exit(1 if message else 0)

    def _refuse(self, message: str) -> None:
        self._closing = True
        self._write(message.encode() + b"\r\n")
        self._exit(1)

    def _write(self, data: bytes) -> None:
        if self._chan is not None and not self._chan.is_closing():
            self._chan.write(data)

    def _exit(self, status: int) -> None:
        if self._chan is not None and not self._chan.is_closing():
            self._chan.exit(status)
        self._finish()

    def _finish(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
        if self._terminal is not None:
            self._terminal.stop()
        self.door.release(self, self.login.name)
        if self._home is not None:
            home, self._home = self._home, None
            asyncio.get_running_loop().call_later(3.0, shutil.rmtree, home, True)
        if not self.ended.done():
            self.ended.set_result(None)

    def _arm_idle(self) -> None:
        limit = self.door.settings.idle_seconds
        if limit <= 0 or self._closing:
            return
        idle = time.monotonic() - self._last_input
        if idle >= limit:
            log.info("door session for %s closed: idle", self.login.name)
            self.close_with(idle_message(limit))
            return
        self._idle = asyncio.get_running_loop().call_later(limit - idle, self._arm_idle)


def idle_message(limit: float) -> str:
    """What a session idle for *limit* seconds is told as it is closed (``1 minute``,
    ``30 minutes``, ``1.2 seconds``)."""
    amount, unit = (limit / 60, "minute") if limit >= 60 else (limit, "second")
    said = f"{amount:g} {unit}" + ("" if amount == 1 else "s")
    return f"Closed after {said} without input. Come back any time."


def _share_caches(home: Path) -> None:
    """Link the host's caches into a session's data directory *home*."""
    shared = data_dir()
    for name in SHARED_CACHES:
        source = shared / name
        source.mkdir(parents=True, exist_ok=True)
        (home / name).symlink_to(source, target_is_directory=True)
