"""Opening the database: an SQLAlchemy engine whose schema Alembic has brought to head."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event

from parlour.paths import default_database_url

MIGRATIONS = Path(__file__).with_name("migrations")
_lock = threading.Lock()
_engines: dict[str, Engine] = {}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def alembic_config(url: str) -> Config:
    """An Alembic configuration for *url* using the migrations shipped in the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def open_database(url: str | None = None, *, migrate: bool = True) -> Engine:
    """An engine for *url* (default: SQLite in the data directory), upgraded to the newest
    schema. Engines are cached per URL, so calling this again is cheap.

    SQLite runs in WAL mode with a 5 second busy timeout.
    """
    url = url or default_database_url()
    with _lock:
        engine = _engines.get(url)
        if engine is not None:
            return engine
        engine = create_engine(url)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        if migrate:
            config = alembic_config(url)
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "heads")  # each game's tables may be a branch
        _engines[url] = engine
        return engine


def forget_engines() -> None:
    """Dispose of every cached engine (tests use a fresh data directory each)."""
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
