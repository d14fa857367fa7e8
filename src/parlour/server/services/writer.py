"""Group commit: a writer thread (or a few) writes for the whole server process.

Every change the server makes to a game (an action, a computer player's move, a host event)
is a small piece of work on an open transaction: a *write*. Writes are queued; a writer
thread takes every write waiting (up to ``max_batch``), runs them one after another in **one**
transaction and commits once, then answers each. Under load many actions share one commit
(one ``fsync`` on PostgreSQL, one WAL append on SQLite) instead of paying one each; with one
action waiting it is an ordinary transaction.

Nothing is acknowledged before its commit: a write's future is answered only after the
transaction holding it committed. When the batch fails (a write raised, or the commit did),
everything is rolled back and each write is run again in a transaction of its own, so one
bad write fails alone and the others still commit. A write must therefore only touch the
database (its effects are undone by a rollback) and may be run twice.

Plain log appends (:class:`~parlour.storage.tables.Append`: an action that only adds events
and moves the table row on) are stored together, a couple of statements for the whole batch
(``append_many``) instead of two per action; if one of their tables had moved on, the batch
is written again write by write, so only that append answers ``False``.

On PostgreSQL a writer thread keeps its own connection (no pool check-out per batch). Several writer
threads (PostgreSQL, ``parlour serve --writer-threads``) take batches from the one queue,
so one batch's round trips to a distant database overlap another's. Their batches never
hold two writes for one table at once: a game's write is made under the table's lock and
waited for. Writes of the same rows otherwise (lobby seats, standings) are guarded as they
are between server processes, and a deadlock between two batches only sends both down the
write-by-write path.

On SQLite the writer takes the process's write lock (``storage.db.write_transaction``), so it
and the other writers of the process take turns without spinning in SQLite's busy handler.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from parlour.storage.db import write_transaction
from parlour.storage.tables import Append, append_many

log = logging.getLogger("parlour.server")

T = TypeVar("T")
Write = Callable[[Connection], Any]
"""A piece of work on an open transaction; its return value answers the write."""

_STOP = object()


class GroupWriter:
    """The writer threads (see the module docstring). ``submit`` from any thread."""

    def __init__(self, engine: Engine, *, max_batch: int = 256, threads: int = 1) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.threads = max(1, threads)
        self._figures = threading.Lock()
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._local = threading.local()
        self.batches = 0
        """Transactions committed (for the figures: writes / batches is the batch size)."""
        self.writes = 0
        self.busy = 0.0
        """Seconds the writer spent writing (for the figures)."""

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop`."""
        return bool(self._threads)

    def start(self) -> None:
        """Start the writer threads."""
        if not self._threads:
            self._threads = [
                threading.Thread(target=self._run, name=f"parlour-writer-{i}", daemon=True)
                for i in range(self.threads)
            ]
            for thread in self._threads:
                thread.start()

    def stop(self) -> None:
        """Write what is queued, then stop the threads."""
        threads, self._threads = self._threads, []
        for _thread in threads:
            self._queue.put(_STOP)
        for thread in threads:
            thread.join()

    def submit(self, write: Callable[[Connection], T]) -> Future[T]:
        """Queue *write*; the future holds its result once its transaction committed, or the
        exception it (or its commit) raised."""
        future: Future[T] = Future()
        if not self._threads:  # not started (or stopped): write at once, in the caller
            _run_alone(self.engine, write, future)
            return future
        self._queue.put((write, future))
        return future

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            connection = getattr(self._local, "connection", None)
            if connection is not None:
                connection.close()

    def _loop(self) -> None:
        stopping = False
        while not stopping:
            item = self._queue.get()
            if item is _STOP:
                return
            batch = [item]
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stopping = True
                    break
                batch.append(more)
            self._write(batch)

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on this thread's own connection (no pool check-out and ping per
        batch); a connection the database dropped is replaced at the next batch. On SQLite
        :func:`write_transaction` (the process's write lock, ``BEGIN IMMEDIATE``)."""
        if self.engine.dialect.name == "sqlite":
            with write_transaction(self.engine) as connection:
                yield connection
            return
        kept: Connection | None = getattr(self._local, "connection", None)
        connection = kept if kept is not None else self.engine.connect()
        self._local.connection = connection
        try:
            with connection.begin():
                yield connection
        except BaseException:
            if connection.invalidated or connection.closed:  # lost: a new one next time
                self._local.connection = None
                connection.close()
            raise

    def _write(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        began = time.perf_counter()
        try:
            self._write_batch(batch)
        finally:
            with self._figures:
                self.busy += time.perf_counter() - began

    def _write_batch(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        results: list[Any] = []
        try:
            with self._transaction() as connection:
                appends: list[Append] = []
                for write, _future in batch:
                    if isinstance(write, Append):  # stored with the others, in order
                        appends.append(write)
                        results.append(True)
                        continue
                    _store(connection, appends)
                    results.append(write(connection))
                _store(connection, appends)
        except Exception:
            if len(batch) == 1:
                log.debug("a write failed", exc_info=True)
            for write, future in batch:  # each alone: only the bad one fails
                _run_alone(self.engine, write, future)
            return
        with self._figures:
            self.batches += 1
            self.writes += len(batch)
        for (_write, future), result in zip(batch, results, strict=True):
            future.set_result(result)


class _Lost(Exception):
    """A table in the batch was not at the version its append was made against."""


def _store(connection: Connection, appends: list[Append]) -> None:
    """Store the *appends* gathered so far together (and forget them); raise :class:`_Lost`
    when one table had moved on, so the batch is written again write by write."""
    if appends:
        stored = append_many(connection, appends)
        appends.clear()
        if not stored:
            raise _Lost()


def _run_alone(engine: Engine, write: Write, future: Future[Any]) -> None:
    try:
        with write_transaction(engine) as connection:
            result = write(connection)
    except BaseException as err:
        future.set_exception(err)
        return
    future.set_result(result)
