"""The server tests' fixtures (settings on the test database, a fixed clock).

Several processes share one database only on PostgreSQL (advisory locks, LISTEN/NOTIFY):
without ``PARLOUR_TEST_DATABASE`` naming one, those files are not collected, so the SQLite
run lists no skip; ``.ci/run`` runs them on its throwaway PostgreSQL (and nginx)."""

import os

import pytest

from tests.server.conftest import clock, settings

__all__ = ["clock", "settings"]

if not os.environ.get("PARLOUR_TEST_DATABASE", "").startswith("postgresql"):
    collect_ignore = [
        "test_bench_figures.py",
        "test_herald.py",
        "test_once.py",
        "test_two_processes.py",
        "test_two_processes_nginx.py",
        "test_two_processes_race.py",
    ]


@pytest.fixture
def pg_url(db_url: str) -> str:
    """The test database's URL, for tests that start several server processes on it
    (skipped unless it is PostgreSQL)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes share one PostgreSQL (set PARLOUR_TEST_DATABASE)")
    return db_url
