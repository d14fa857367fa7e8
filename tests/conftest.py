"""Shared fixtures and rules for every test.

- Every test gets its own data directory (``PARLOUR_HOME``, never the user's) and, on
  PostgreSQL, a database of its own worker's (pytest-xdist workers never share one).
- Every test has a time limit (``timeout`` in pyproject.toml; ``@pytest.mark.timeout(N)``
  for a test that needs longer) and may start processes only if it stops them: a child
  process still running when the test ends is stopped and fails the test.
- On CI (``CI`` set, as ``.ci/run`` and every CI service set it) a skipped test fails the
  run, unless it is marked ``@pytest.mark.allowed_skip`` (say why).
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, make_url, text

# No time limit per example: a test that fails because CI's machine is busy proves nothing
# (speed is measured by the bench commands, never asserted).
settings.register_profile("parlour", deadline=None)
settings.load_profile("parlour")


def pytest_configure(config: pytest.Config) -> None:
    """Before any fixture (session-scoped ones too), point PARLOUR_HOME at a temporary
    directory, so no test ever reads or writes the user's data directory."""
    import tempfile

    os.environ["PARLOUR_HOME"] = tempfile.mkdtemp(prefix="parlour-tests-")
    config.addinivalue_line(
        "markers", "allowed_skip: a test whose skip is expected even on CI (say why)"
    )


@pytest.fixture(autouse=True)
def parlour_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh ``PARLOUR_HOME`` for each test; cached database engines are dropped after."""
    home = tmp_path / "parlour-home"
    monkeypatch.setenv("PARLOUR_HOME", str(home))
    yield home
    from parlour.storage.db import forget_engines

    forget_engines()


# --- logging: no test leaves its configuration behind -----------------------------------

try:  # absl (OpenSpiel's logging, with the research extra) closes its handler's stream
    from absl import logging as _absl_logging  # when logging shuts handlers down, unless

    # that stream is sys.stderr *then*: its stream is pytest's capture file, so a
    # dictConfig under CliRunner (uvicorn's Config in parlour serve) closed the worker's
    # capture and every later test on that worker failed "I/O operation on closed file"
    _absl_logging.PythonHandler.close = logging.Handler.close  # type: ignore[method-assign]
except ImportError:  # pragma: no cover - without the research extra
    pass


@pytest.fixture(autouse=True)
def logging_restored() -> Iterator[None]:
    """Put every logger's handlers, level and propagation back as they were before the test.

    ``parlour serve`` and ``parlour door`` configure logging when run in-process (uvicorn's
    ``Config`` calls ``dictConfig``; the door calls ``basicConfig``), binding handlers to the
    ``sys.stderr`` of that moment: under ``CliRunner`` a stream that is closed afterwards. Left
    in place, every later log line of a server thread on that worker failed ("I/O operation on
    closed file") and the worker's later tests broke with it."""
    import logging

    def snapshot() -> dict[str, tuple[list[logging.Handler], int, bool, bool]]:
        loggers: dict[str, logging.Logger] = {"": logging.getLogger()}
        for name, logger in list(logging.Logger.manager.loggerDict.items()):
            if isinstance(logger, logging.Logger):
                loggers[name] = logger
        return {
            name: (list(lg.handlers), lg.level, lg.propagate, lg.disabled)
            for name, lg in loggers.items()
        }

    before = snapshot()
    yield
    for name, (handlers, level, propagate, disabled) in before.items():
        logger = logging.getLogger(name or None)
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate
        logger.disabled = disabled
    for name in set(snapshot()) - set(before):  # loggers made during the test: no handlers
        logging.getLogger(name).handlers[:] = []


# --- child processes: none outlives its test ------------------------------------------


def _children() -> set[int]:
    """The running (not zombie) child processes of this process (Linux ``/proc``)."""
    found: set[int] = set()
    for task in Path("/proc/self/task").glob("*/children"):
        try:
            found.update(int(pid) for pid in task.read_text().split())
        except OSError:  # the thread ended meanwhile
            continue
    running = set()
    for pid in found:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state in ("Z", "X") or _multiprocessing_helper(pid):
            continue
        running.add(pid)
    return running


def _multiprocessing_helper(pid: int) -> bool:
    """Whether *pid* is multiprocessing's forkserver or resource tracker (they outlive a
    pool by design, and end with this process)."""
    try:
        return b"from multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True


def _stop(pid: int) -> None:
    """SIGTERM *pid* (its process group if it leads one), SIGKILL after 5 s."""
    group = os.getpgid(pid) == pid if Path(f"/proc/{pid}").exists() else False
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pid, sig) if group else os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG) != (0, 0):
                    return
            except ChildProcessError:  # reaped elsewhere (its Popen)
                if not Path(f"/proc/{pid}").exists():
                    return
            time.sleep(0.05)


@pytest.fixture(autouse=True)
def no_process_left_running() -> Iterator[None]:
    """Stop any child process the test started and left running (a server it spawned, for
    instance), and fail the test for it. Processes started before the test (the browser of
    tests/web, started by a package fixture) are left alone."""
    if not Path("/proc/self/task").is_dir():  # pragma: no cover - not Linux
        yield
        return
    before = _children()
    yield
    left = _children() - before
    for pid in left:
        _stop(pid)
    assert not left, f"the test left child processes running (now stopped): {sorted(left)}"


# --- skips on CI --------------------------------------------------------------------------

_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note every skip (under pytest-xdist the controller sees the workers' reports)."""
    if report.skipped and not hasattr(report, "wasxfail") and "allowed_skip" not in report.keywords:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        _skipped.append(f"{report.nodeid}: {reason}")


def _on_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On CI a skip fails the run: a skipped test tests nothing, silently."""
    if _on_ci() and _skipped and not hasattr(session.config, "workerinput"):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    seed = getattr(terminalreporter.config.option, "randomly_seed", None)
    if isinstance(seed, int):  # -q hides pytest-randomly's header: the order, to repeat it
        terminalreporter.line(f"test order: --randomly-seed={seed}")
    if _on_ci() and _skipped:
        terminalreporter.section("skipped on CI (each fails the run; see tests/conftest.py)")
        for line in _skipped:
            terminalreporter.line(line)


# --- the database -------------------------------------------------------------------------

ENV_DATABASE = "PARLOUR_TEST_DATABASE"
"""A PostgreSQL URL (``postgresql+psycopg://...``) to run the server tests on; SQLite if unset.
Each pytest-xdist worker uses a database of its own beside it (``<name>_gw0``, ...), created
when first needed."""

_created: set[str] = set()


def worker_database(url: str) -> str:
    """*url*, or under pytest-xdist the URL of this worker's own database on the same server
    (``<database>_<worker id>``), created if missing."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    base = make_url(url)
    mine = base.set(database=f"{base.database}_{worker}")
    rendered = mine.render_as_string(hide_password=False)
    if rendered not in _created:
        engine = create_engine(base, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                exists = connection.execute(
                    text("SELECT 1 FROM pg_database WHERE datname = :name"),
                    {"name": mine.database},
                ).first()
                if exists is None:
                    connection.execute(text(f'CREATE DATABASE "{mine.database}"'))
        finally:
            engine.dispose()
        _created.add(rendered)
    return rendered


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
    """The database URL for this test: a fresh SQLite file, or the emptied PostgreSQL
    (this worker's own under pytest-xdist)."""
    url = os.environ.get(ENV_DATABASE)
    if url:
        url = worker_database(url)
        wipe_postgres(url)
        return url
    return f"sqlite:///{tmp_path / 'server.db'}"
