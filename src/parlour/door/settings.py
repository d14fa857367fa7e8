"""The door's settings: where the game server is, where to listen, the limits."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from parlour.paths import data_dir

DEFAULT_PORT = 8622


@dataclass(frozen=True)
class DoorSettings:
    """How ``parlour door`` runs.

    ``url`` is the game server's base URL (``http://host:port``). ``command`` is the
    program each session runs (default: ``parlour connect URL``); it gets the session's
    token in ``PARLOUR_TOKEN``. Limits: ``max_sessions`` SSH sessions in all and
    ``max_per_account`` per account (0: no limit); a session without input for
    ``idle_seconds`` (0: never) is closed with a message. ``host_key`` is the host key's
    file (default: ``door/ssh_host_ed25519_key`` in the data directory, made on first
    start and reused after).
    """

    url: str
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    max_sessions: int = 50
    max_per_account: int = 2
    idle_seconds: float = 30 * 60.0
    login_timeout: float = 60.0
    command: tuple[str, ...] = ()
    host_key: Path | None = None

    def session_command(self) -> tuple[str, ...]:
        """The program and arguments each session runs."""
        if self.command:
            return self.command
        return (sys.executable, "-m", "parlour", "connect", self.url)

    def host_key_path(self) -> Path:
        """The host key's file."""
        return self.host_key or data_dir() / "door" / "ssh_host_ed25519_key"
