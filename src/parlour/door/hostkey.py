"""The door's SSH host key: made once, kept in a file, reused on every start (so clients'
``known_hosts`` stay valid)."""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh


def load_or_create(path: Path) -> asyncssh.SSHKey:
    """The Ed25519 private key in *path* (OpenSSH format), made and written there (mode
    0600, its directory 0700) if the file does not exist yet.

    Raises ``asyncssh.KeyImportError`` for a file that holds no readable key (it is never
    overwritten) and ``OSError`` when the file cannot be read or written.
    """
    if path.exists():
        return asyncssh.read_private_key(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="parlour door")
    partial = path.with_name(path.name + ".new")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    try:
        os.link(partial, path)  # two doors starting at once: the first key wins, never torn
    except FileExistsError:
        key = asyncssh.read_private_key(path)
    finally:
        partial.unlink()
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's SHA256 fingerprint as OpenSSH prints it (``SHA256:...``)."""
    return str(key.get_fingerprint("sha256"))
