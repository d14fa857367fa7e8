"""One session's program on its own pseudo-terminal: started with the session's
environment, its output read without blocking, its size set, stopped as a process group."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Callable, Mapping, Sequence

RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"  # mouse reporting off
    b"\x1b[?2004l\x1b[?1049l\x1b[?25h\x1b[0m"  # bracketed paste off, main screen, cursor
)
"""Sent before the door's own last words: the terminal as it was, even after a program
that was stopped before it could restore it."""


def _set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def _controlling_terminal() -> None:  # pragma: no cover - runs in the child
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # a door started with the hang-up ignored (under nohup) passes that on to every
    # program it runs: put it back, so that hanging up ends a session's program
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


class Terminal:
    """A program on a new pseudo-terminal of *columns* x *rows* characters.

    ``start`` runs it (its own session and process group, the terminal its controlling
    terminal, so it gets ``SIGWINCH`` on a resize and ``SIGHUP`` when stopped); its output
    goes to *output* as bytes; ``exited`` is done with its exit status when it ends.
    """

    def __init__(self, output: Callable[[bytes], None], columns: int, rows: int) -> None:
        self._output = output
        self._columns = max(1, columns)
        self._rows = max(1, rows)
        self._master = -1
        self._process: asyncio.subprocess.Process | None = None
        self._reading = False
        self.exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def start(self, command: Sequence[str], env: Mapping[str, str], cwd: str) -> None:
        """Run *command* with exactly *env* in *cwd*. Raises ``OSError`` if it cannot start."""
        master, slave = os.openpty()
        try:
            _set_size(slave, self._columns, self._rows)
            self._process = await asyncio.create_subprocess_exec(
                *command,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
                preexec_fn=_controlling_terminal,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._master = master
        os.set_blocking(master, False)
        self.resume()
        asyncio.get_running_loop().create_task(self._wait())

    def write(self, data: bytes) -> None:
        """Type *data* into the program (dropped once it has ended)."""
        if self._master < 0:
            return
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._master, view) :]
            except BlockingIOError:
                return  # the program reads nothing and its input queue is full
            except OSError:
                return

    def resize(self, columns: int, rows: int) -> None:
        """Set the terminal's size (the program gets ``SIGWINCH``)."""
        self._columns, self._rows = max(1, columns), max(1, rows)
        if self._master >= 0:
            with contextlib.suppress(OSError):
                _set_size(self._master, self._columns, self._rows)

    def pause(self) -> None:
        """Stop reading output (the SSH channel's buffer is full)."""
        if self._reading:
            asyncio.get_running_loop().remove_reader(self._master)
            self._reading = False

    def resume(self) -> None:
        """Read output again."""
        if not self._reading and self._master >= 0:
            asyncio.get_running_loop().add_reader(self._master, self._read)
            self._reading = True

    def stop(self) -> None:
        """Hang up: ``SIGHUP`` then ``SIGKILL`` two seconds later to its process group."""
        process = self._process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGHUP)
        asyncio.get_running_loop().call_later(2.0, self._kill)

    def kill(self) -> None:
        """``SIGKILL`` to the program's process group, if it is still running (a program
        that ignores the hang-up, when the door cannot wait for it)."""
        self._kill()

    def _kill(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    def _read(self) -> None:
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every copy of the terminal's other end is closed
            data = b""
        if data:
            self._output(data)
        else:
            self.pause()

    async def _wait(self) -> None:
        assert self._process is not None
        status = await self._process.wait()
        self.pause()
        while True:  # what it wrote last, still in the terminal
            try:
                data = os.read(self._master, 65536)
            except OSError:
                break
            if not data:
                break
            self._output(data)
        os.close(self._master)
        self._master = -1
        with contextlib.suppress(ProcessLookupError):  # anything it left behind
            os.killpg(self._process.pid, signal.SIGKILL)
        if not self.exited.done():
            self.exited.set_result(status if status >= 0 else 128 - status)
