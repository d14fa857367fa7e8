"""Opening the database: an SQLAlchemy engine whose schema Alembic has brought to head."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import ArgumentError

from parlour.engine.errors import ParlourError
from parlour.paths import default_database_url

MIGRATIONS = Path(__file__).with_name("migrations")
_lock = threading.Lock()
_engines: dict[str, Engine] = {}
_write_locks: dict[int, threading.Lock] = {}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy's pysqlite recipe: the driver stops managing transactions and we emit BEGIN
    # ourselves (see _sqlite_begin), so a write transaction can be BEGIN IMMEDIATE.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


def alembic_config(url: str) -> Config:
    """An Alembic configuration for *url* using the migrations shipped in the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _check_url(url: str) -> None:
    """Raise :class:`ParlourError` for a URL that is not a database parlour can keep games in."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ParlourError(
            f"{url!r} is not a database URL (sqlite:///path/to/file.db, "
            "postgresql+psycopg://user@host/name)"
        ) from None
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise ParlourError(
            "an in-memory SQLite database would lose every game: give a file "
            "(sqlite:///path/to/file.db)"
        )


def open_database(url: str | None = None, *, migrate: bool = True) -> Engine:
    """An engine for *url* (default: SQLite in the data directory), upgraded to the newest
    schema. Engines are cached per URL, so calling this again is cheap.

    SQLite runs in WAL mode with a 5 second busy timeout; PostgreSQL URLs
    (``postgresql+psycopg://user@host/db``) work the same way.
    """
    url = url or default_database_url()
    with _lock:
        engine = _engines.get(url)
        if engine is not None:
            return engine
        _check_url(url)
        if url.startswith("sqlite"):
            engine = create_engine(url, pool_size=8, max_overflow=32)
            event.listen(engine, "connect", _sqlite_pragmas)
            event.listen(engine, "begin", _sqlite_begin)
        else:
            engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
        _write_locks[id(engine)] = threading.Lock()
        if migrate:
            _upgrade(engine, url)
        _engines[url] = engine
        return engine


MIGRATION_LOCK = 0x706D6967  # "pmig": the advisory lock the schema upgrade holds (PostgreSQL)


def _upgrade(engine: Engine, url: str) -> None:
    """Bring the schema to the newest migration. On SQLite with foreign keys off meanwhile
    (outside the transaction, where SQLite allows the change): a migration that rebuilds a
    table (Alembic's batch mode: copy, drop, rename) would otherwise fail on dropping a
    table other rows refer to (an old server database with tables and seats). On PostgreSQL
    under a transaction advisory lock, so processes started at once (``systemctl start
    parlour@8001 parlour@8002``) upgrade one after another: the first migrates, the others
    then find the schema up to date (without it, both create Alembic's table and one fails)."""
    config = alembic_config(url)
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        raw: Any = connection.connection.driver_connection
        if sqlite:
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                if not sqlite:
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                config.attributes["connection"] = connection
                command.upgrade(config, "heads")  # each game's tables may be a branch
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise ParlourError(f"the upgrade left a broken reference: {broken}")
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys=ON")


def write_lock(engine: Engine) -> threading.Lock:
    """The lock the threads of this process take turns writing to SQLite *engine* with."""
    lock = _write_locks.get(id(engine))
    if lock is None:
        with _lock:
            lock = _write_locks.setdefault(id(engine), threading.Lock())
    return lock


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A short write transaction, committed on leaving the block (rolled back on an error).

    On SQLite the threads of one process take turns (a lock per engine, so they never spin in
    SQLite's busy handler) and the transaction starts with ``BEGIN IMMEDIATE``, so another
    process waits up to the busy timeout instead of failing on a lock upgrade. PostgreSQL
    gets a plain transaction (READ COMMITTED); callers guard rows with conditional updates.
    """
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            yield connection
        return
    with write_lock(engine), engine.connect() as connection:
        connection.execution_options(sqlite_begin="IMMEDIATE")
        with connection.begin():
            yield connection


@contextmanager
def writing(bind: Engine | Connection) -> Iterator[Connection]:
    """A write transaction on *bind*: :func:`write_transaction` for an engine, or the caller's
    own transaction for a connection (several writes committed together, or none)."""
    if isinstance(bind, Connection):
        yield bind
        return
    with write_transaction(bind) as connection:
        yield connection


def forget_engines() -> None:
    """Dispose of every cached engine (tests use a fresh data directory each)."""
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
        _write_locks.clear()
