"""Opening a server table in its game's terminal app, and remembering a login.

:func:`table_app` builds the game's own app (the same one ``parlour play`` opens) on a
:class:`~parlour.tui.common.source.ServerTable`, talking to the server through a
:class:`~parlour.tui.connect.client.ServerClient`. No Textual screen is defined here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from parlour.engine.state import JSON
from parlour.paths import data_dir
from parlour.tui.common.source import ServerTable
from parlour.tui.common.table import Pace, TableApp, TableSettings
from parlour.tui.connect.client import ServerClient
from parlour.tui.registry import app_factory

TOKENS_FILE = "connect-logins.json"
"""In the data directory: the logins a user asked ``parlour connect`` to remember, by server
address (``{"http://host:port": "token"}``), readable by its owner only (0600)."""


def table_app(client: ServerClient, table: JSON, *, pace: Pace | None = None) -> TableApp:
    """The game's terminal app for *table* (a ``GET /tables/{id}`` answer) at the server
    *client* talks to. Raises :class:`~parlour.engine.errors.ParlourError` for a game this
    terminal cannot show."""
    factory = app_factory(str(table["game"]))  # imports the app: its shadow builder too
    source = ServerTable.from_table(table)
    return factory(source, TableSettings(pace=pace or Pace(), link=client))


def tokens_path() -> Path:
    """Where remembered logins are kept (:data:`TOKENS_FILE` in the data directory)."""
    return data_dir() / TOKENS_FILE


def remembered_token(url: str) -> str | None:
    """The login remembered for the server at *url* (a base URL), if any."""
    try:
        tokens = json.loads(tokens_path().read_text())
    except (OSError, ValueError):
        return None
    token = tokens.get(url) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) else None


def remember_token(url: str, token: str | None) -> Path:
    """Keep *token* for the server at *url* (``None``: forget it) in :func:`tokens_path`,
    a file only its owner may read or write (0600, set before the token is written)."""
    path = tokens_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        tokens = json.loads(path.read_text())
    except (OSError, ValueError):
        tokens = {}
    if not isinstance(tokens, dict):
        tokens = {}
    if token is None:
        tokens.pop(url, None)
    else:
        tokens[url] = token
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(tokens, file)
    return path
