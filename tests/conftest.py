"""Shared fixtures: every test gets its own data directory (never the user's)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, text

# No time limit per example: a test that fails because CI's machine is busy proves nothing
# (speed is measured by the bench commands, never asserted).
settings.register_profile("parlour", deadline=None)
settings.load_profile("parlour")


def pytest_configure(config: pytest.Config) -> None:
    """Before any fixture (session-scoped ones too), point PARLOUR_HOME at a temporary
    directory, so no test ever reads or writes the user's data directory."""
    import tempfile

    os.environ["PARLOUR_HOME"] = tempfile.mkdtemp(prefix="parlour-tests-")


@pytest.fixture(autouse=True)
def parlour_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh ``PARLOUR_HOME`` for each test; cached database engines are dropped after."""
    home = tmp_path / "parlour-home"
    monkeypatch.setenv("PARLOUR_HOME", str(home))
    yield home
    from parlour.storage.db import forget_engines

    forget_engines()


ENV_DATABASE = "PARLOUR_TEST_DATABASE"
"""A PostgreSQL URL (``postgresql+psycopg://...``) to run the server tests on; SQLite if unset."""


def wipe_postgres(url: str) -> None:
    """Empty every table of the test PostgreSQL database (the schema stays)."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            names = {
                row[0]
                for row in connection.execute(
                    text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                )
            }
            present = sorted(names - {"alembic_version"})
            if present:
                connection.execute(text(f"TRUNCATE {', '.join(present)} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """The database URL for this test: a fresh SQLite file, or the emptied PostgreSQL."""
    url = os.environ.get(ENV_DATABASE)
    if url:
        wipe_postgres(url)
        return url
    return f"sqlite:///{tmp_path / 'server.db'}"
