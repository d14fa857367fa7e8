"""Where parlour keeps its files: one data directory (``PARLOUR_HOME`` overrides it)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_HOME = "PARLOUR_HOME"


def data_dir() -> Path:
    """The user data directory (created if missing): ``$PARLOUR_HOME`` if set, else the
    platform's user data directory for parlour (``~/.local/share/parlour`` on Linux)."""
    home = os.environ.get(ENV_HOME)
    path = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("parlour"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_database_url() -> str:
    """The embedded SQLite database in the data directory."""
    return f"sqlite:///{data_dir() / 'parlour.db'}"
