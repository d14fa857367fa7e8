"""Backing up the server's database while the server runs.

SQLite: :func:`backup` copies the database file with SQLite's online backup API (a
consistent copy even while the server writes: the copy is of one moment, pages written
meanwhile are copied again). PostgreSQL has its own tool, ``pg_dump`` (docs/server.md,
"Backup and restore"); :func:`backup` refuses to stand in for it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import make_url

from parlour.engine.errors import ParlourError

PG_DUMP_HINT = (
    "back up PostgreSQL with pg_dump: pg_dump --format=custom --file=parlour.dump "
    "'postgresql://USER@HOST/DB' (docs/server.md, 'Backup and restore')"
)


def backup(url: str, target: Path) -> int:
    """Copy the SQLite database at *url* to the new file *target*; return its size in
    bytes. Raises :class:`ParlourError` for a PostgreSQL URL (use ``pg_dump``), a *target*
    that exists or is the database itself, or a database file that is missing."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise ParlourError(f"parlour admin backup copies SQLite databases only; {PG_DUMP_HINT}")
    source = Path(parsed.database or "")
    if not source.is_file():
        raise ParlourError(f"there is no database file at {source}")
    if target.exists():
        if target.resolve() == source.resolve():
            raise ParlourError(f"{target} is the database itself: back it up to another file")
        raise ParlourError(f"{target} exists: give a new file")
    if not target.parent.is_dir():
        raise ParlourError(f"there is no directory {target.parent}")
    reading = sqlite3.connect(source)
    try:
        writing = sqlite3.connect(target)
        try:
            reading.backup(writing)
        finally:
            writing.close()
    finally:
        reading.close()
    return target.stat().st_size
