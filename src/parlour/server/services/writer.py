"""Group commit: one thread writes for the whole server process.

Every change the server makes to a game (an action, a computer player's move, a host event)
is a small piece of work on an open transaction: a *write*. Writes are queued; the writer
thread takes every write waiting (up to ``max_batch``), runs them one after another in **one**
transaction and commits once, then answers each. Under load many actions share one commit
(one ``fsync`` on PostgreSQL, one WAL append on SQLite) instead of paying one each; with one
action waiting it is an ordinary transaction.

Nothing is acknowledged before its commit: a write's future is answered only after the
transaction holding it committed. When the batch fails (a write raised, or the commit did),
everything is rolled back and each write is run again in a transaction of its own, so one
bad write fails alone and the others still commit. A write must therefore only touch the
database (its effects are undone by a rollback) and may be run twice.

On SQLite the writer takes the process's write lock (``storage.db.write_transaction``), so it
and the other writers of the process take turns without spinning in SQLite's busy handler.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from parlour.storage.db import write_transaction

log = logging.getLogger("parlour.server")

T = TypeVar("T")
Write = Callable[[Connection], Any]
"""A piece of work on an open transaction; its return value answers the write."""

_STOP = object()


class GroupWriter:
    """The writer thread (see the module docstring). ``submit`` from any thread."""

    def __init__(self, engine: Engine, *, max_batch: int = 256) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.batches = 0
        """Transactions committed (for the figures: writes / batches is the batch size)."""
        self.writes = 0

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop`."""
        return self._thread is not None

    def start(self) -> None:
        """Start the writer thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="parlour-writer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Write what is queued, then stop the thread."""
        thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()
            self._thread = None

    def submit(self, write: Callable[[Connection], T]) -> Future[T]:
        """Queue *write*; the future holds its result once its transaction committed, or the
        exception it (or its commit) raised."""
        future: Future[T] = Future()
        if self._thread is None:  # not started (or stopped): write at once, in the caller
            _run_alone(self.engine, write, future)
            return future
        self._queue.put((write, future))
        return future

    def _run(self) -> None:
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

    def _write(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        results: list[Any] = []
        try:
            with write_transaction(self.engine) as connection:
                for write, _future in batch:
                    results.append(write(connection))
        except Exception:
            if len(batch) == 1:
                log.debug("a write failed", exc_info=True)
            for write, future in batch:  # each alone: only the bad one fails
                _run_alone(self.engine, write, future)
            return
        self.batches += 1
        self.writes += len(batch)
        for (_write, future), result in zip(batch, results, strict=True):
            future.set_result(result)


def _run_alone(engine: Engine, write: Write, future: Future[Any]) -> None:
    try:
        with write_transaction(engine) as connection:
            result = write(connection)
    except BaseException as err:
        future.set_exception(err)
        return
    future.set_result(result)
