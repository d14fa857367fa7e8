"""The browser client: static files (HTML, CSS and JavaScript modules, no build step) that
``parlour serve`` serves at ``/``. See ``static/js/main.js`` for the map of the modules."""

from __future__ import annotations

from pathlib import Path

__all__ = ["web_root"]


def web_root() -> Path:
    """The folder of the client's files (``index.html`` and the rest)."""
    return Path(__file__).parent / "static"
