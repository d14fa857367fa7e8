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
(``append_many``; one on PostgreSQL, which also carries the fan-out's ``NOTIFY`` asked for by
:attr:`GroupWriter.herald`) instead of two per action; if one of their tables had moved on,
the batch is written again write by write, so only that append answers ``False``.

A write nobody waits on (the notifications) may be submitted *deferrable*: alone in the
queue it waits up to :attr:`GroupWriter.linger` (5 ms) for another write and shares its
transaction, instead of a transaction of its own.

**The commit window** (:attr:`GroupWriter.window`, ``Settings.commit_window_seconds``, as
PostgreSQL's ``commit_delay`` and ``commit_siblings``): a write that finds itself alone in
the queue while the writer's recent rate says company is likely (at least
:data:`COMPANY` writes expected within the window) waits for other writes until the window
has passed since it was submitted (or the batch is full), and they share one transaction.
At a high rate the queue already holds several writes and nobody waits; at a low one
(less than :data:`COMPANY` writes a window) waiting would only add latency, so nobody
does. It trades at most the window of latency for fewer transactions; nothing is
answered before its commit, as ever.

A writer thread keeps its own connection (no pool check-out per batch). Several writer
threads (PostgreSQL, ``parlour serve --writer-threads``) take batches from the one queue,
so one batch's round trips to a distant database overlap another's. Their batches never
hold two writes for one table at once: a game's write is made under the table's lock and
waited for. Writes of the same rows otherwise (lobby seats, standings) are guarded as they
are between server processes, and a deadlock between two batches only sends both down the
write-by-write path.

On SQLite the writer takes the process's write lock for each batch (``storage.db.write_lock``,
as ``write_transaction`` does), so it and the other writers of the process take turns without
spinning in SQLite's busy handler.

A writer thread that dies (a bug: anything the batch and write-by-write paths do not answer
as a write's own failure) takes the writer down: every write queued or under way is refused
with :class:`~parlour.server.errors.Unavailable` (503), so is every later one, at once, and
:attr:`GroupWriter.failure` says why (``/health`` shows it). Nothing waits for a writer that
is gone. A write whose caller gave up on it (its future cancelled) before a writer took it is
not written.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from parlour.server.errors import Unavailable
from parlour.storage.db import write_lock, write_transaction
from parlour.storage.tables import Append, append_many

log = logging.getLogger("parlour.server")

T = TypeVar("T")
Write = Callable[[Connection], Any]
"""A piece of work on an open transaction; its return value answers the write."""

Herald = Callable[[list[Append]], tuple[tuple[str, list[str]], Callable[[], None]]]
"""See :attr:`GroupWriter.herald`."""

_STOP = object()

COMPANY = 0.5
"""Writes the recent rate must expect within the window for a lone write to wait for them
(see the module docstring)."""
RATE_SPAN = 0.25
"""Seconds over which the writer counts writes for its recent rate."""


class GroupWriter:
    """The writer threads (see the module docstring). ``submit`` from any thread."""

    def __init__(
        self,
        engine: Engine,
        *,
        max_batch: int = 256,
        threads: int = 1,
        linger: float = 0.005,
        window: float = 0.0,
    ) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.linger = linger
        """Seconds a batch of deferrable writes only waits for a write that is not (see
        :meth:`submit`)."""
        self.window = window
        """The commit window: seconds after its submission a lone write may wait for
        company when the recent rate expects some (see the module docstring); 0: never."""
        self._counted = 0
        self._since = time.monotonic()
        self._rate = 0.0
        """Writes per second taken over the last :data:`RATE_SPAN` seconds or more."""
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
        self.failure: str | None = None
        """Why a writer thread died (``None`` while none has): the writer is down for good."""
        self.on_batch: Callable[[int, float], None] | None = None
        """Told each committed batch's size and seconds (the metrics)."""
        self.herald: Herald | None = None
        """Asked, for each batch with plain appends (PostgreSQL), for the notifications to
        send with them, ``(channel, payloads)``, and a callback: the notifications go in
        the appends' own statement (``append_many``; PostgreSQL delivers them at the commit
        and drops them with a rollback: the fan-out's ``NOTIFY``), and the callback is run
        once the batch has committed, before any write is answered."""
        self._writing = 0

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop`, while no writer thread has died."""
        return bool(self._threads) and self.failure is None

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

    def submit(self, write: Callable[[Connection], T], *, deferrable: bool = False) -> Future[T]:
        """Queue *write*; the future holds its result once its transaction committed, or the
        exception it (or its commit) raised: :class:`Unavailable` at once when the writer is
        down (see the module docstring). A *deferrable* write (nobody waits on it: the
        notifications) does not start a batch of its own at once: a batch holding only such
        writes waits up to :attr:`linger` seconds for another write to join, so it shares
        that write's transaction instead of adding one."""
        future: Future[T] = Future()
        if deferrable:
            write = _Deferrable(write)
        if self.failure is not None:
            future.set_exception(self._refusal())
            return future
        if not self._threads:  # not started (or stopped): write at once, in the caller
            future.set_running_or_notify_cancel()
            _run_alone(self.engine, write, future)
            return future
        self._queue.put((write, future, time.monotonic()))
        if self.failure is not None:  # the writer died meanwhile: nobody else may answer it
            self._refuse_queued()
        return future

    def queued(self) -> int:
        """Writes waiting for a writer thread or being written now (about: a stop mark in
        the queue counts as one)."""
        return self._queue.qsize() + self._writing

    def _refusal(self) -> Unavailable:
        return Unavailable(
            f"the server cannot store changes: its writer stopped ({self.failure}); "
            "nothing was changed"
        )

    def _refuse_queued(self) -> None:
        """Refuse every write in the queue (the writer is down); the stop marks stay."""
        stops = 0
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is _STOP:
                stops += 1
                continue
            future = item[1]
            if future.set_running_or_notify_cancel():
                future.set_exception(self._refusal())
        for _ in range(stops):
            self._queue.put(_STOP)

    def _run(self) -> None:
        try:
            self._loop()
        except BaseException as err:
            self.failure = self.failure or f"{type(err).__name__}: {err}"
            log.critical("the group writer stopped: every write is refused", exc_info=True)
            self._refuse_queued()
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
            taken = [item]
            stopping = self._take(taken, None)
            if not stopping and all(isinstance(i[0], _Deferrable) for i in taken):
                stopping = self._take(taken, time.monotonic() + self.linger, lazy=True)
            elif not stopping and len(taken) == 1 and self._company_expected():
                stopping = self._take(taken, item[2] + self.window)
            if self.window > 0:  # the rate is read only for the window
                self._count(len(taken))
            batch = [(i[0], i[1]) for i in taken]
            if self.failure is not None:  # another writer thread died
                for _write, future in batch:
                    if future.set_running_or_notify_cancel():
                        future.set_exception(self._refusal())
                self._refuse_queued()
                return
            # from here on a caller can no longer cancel; one that already did is not written
            batch = [(w, f) for w, f in batch if f.set_running_or_notify_cancel()]
            if batch:
                self._write(batch)

    def _take(self, taken: list[Any], deadline: float | None, *, lazy: bool = False) -> bool:
        """Add to *taken* what the queue holds, and what comes until *deadline* (monotonic
        seconds; ``None``: nothing more); a *lazy* batch (deferrable writes only) stops
        waiting once a write that is not deferrable comes, and takes whatever waits behind
        it. At most :attr:`max_batch` writes; True when a stop mark came."""
        while len(taken) < self.max_batch:
            left = 0.0 if deadline is None else deadline - time.monotonic()
            try:
                more = self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait()
            except queue.Empty:
                return False
            if more is _STOP:
                return True
            taken.append(more)
            if lazy and not isinstance(more[0], _Deferrable):
                lazy, deadline = False, None
        return False

    def _company_expected(self) -> bool:
        """Whether the recent rate expects :data:`COMPANY` writes within the window."""
        if self.window <= 0:
            return False
        span = time.monotonic() - self._since
        # a span past its length means nothing was taken for a while: the rate has fallen
        rate = self._counted / span if span >= RATE_SPAN else self._rate
        return rate * self.window >= COMPANY

    def _count(self, writes: int) -> None:
        """Count *writes* taken for the recent rate."""
        now = time.monotonic()
        self._counted += writes
        span = now - self._since
        if span >= RATE_SPAN:
            self._rate = self._counted / span
            self._counted = 0
            self._since = now

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on this thread's own connection (no pool check-out and ping per
        batch); after a failed batch the connection is replaced at the next one. On SQLite
        under the process's write lock, begun with ``BEGIN IMMEDIATE``, as
        :func:`write_transaction`."""
        sqlite = self.engine.dialect.name == "sqlite"
        with write_lock(self.engine) if sqlite else contextlib.nullcontext():
            kept: Connection | None = getattr(self._local, "connection", None)
            connection = kept if kept is not None else self.engine.connect()
            if sqlite and kept is None:
                connection.execution_options(sqlite_begin="IMMEDIATE")
            self._local.connection = connection
            try:
                with connection.begin():
                    yield connection
            except BaseException:
                # lost, or in a state not worth trusting after a failed commit: closing it
                # hands it back to the pool, which rolls back whatever the driver holds open
                self._local.connection = None
                connection.close()
                raise

    def _write(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        began = time.perf_counter()
        self._writing += len(batch)
        try:
            self._write_batch(batch)
        except BaseException as err:  # the thread dies: refuse what it has not answered
            self.failure = self.failure or f"{type(err).__name__}: {err}"
            for _write, future in batch:
                if not future.done():
                    future.set_exception(self._refusal())
            raise
        finally:
            seconds = time.perf_counter() - began
            with self._figures:
                self.busy += seconds
                self._writing -= len(batch)
            if self.on_batch is not None:
                self.on_batch(len(batch), seconds)

    def _write_batch(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        results: list[Any] = []
        committed: Callable[[], None] | None = None
        try:
            with self._transaction() as connection:
                # every plain append of the batch first, together (one statement or two for
                # the lot: a batch interleaving appends with other writes, the notifications
                # of the previous batch's moves, would otherwise cut them into many), then the
                # other writes in their order. Writes in one batch were all submitted before
                # any of them committed, so none waits on another's effect.
                appends = [w for w, _f in batch if isinstance(w, Append)]
                notify = None
                if appends and self.herald is not None:
                    notify, committed = self.herald(appends)
                _store(connection, appends, notify)
                for write, _future in batch:
                    results.append(True if isinstance(write, Append) else write(connection))
        except Exception:
            if len(batch) == 1:
                log.debug("a write failed", exc_info=True)
            for write, future in batch:  # each alone: only the bad one fails
                _run_alone(self.engine, write, future)
            return
        if committed is not None:
            committed()
        with self._figures:
            self.batches += 1
            self.writes += len(batch)
        for (_write, future), result in zip(batch, results, strict=True):
            future.set_result(result)


class _Deferrable:
    """A write submitted with ``deferrable=True`` (see :meth:`GroupWriter.submit`)."""

    __slots__ = ("write",)

    def __init__(self, write: Write) -> None:
        self.write = write

    def __call__(self, connection: Connection) -> Any:
        return self.write(connection)


class _BatchLost(Exception):
    """A table in the batch was not at the version its append was made against."""


def _store(
    connection: Connection, appends: list[Append], notify: tuple[str, list[str]] | None
) -> None:
    """Store the *appends* together (with the herald's notifications); raise
    :class:`_BatchLost` when one table had moved on, so the batch is written again write by
    write."""
    if appends and not append_many(connection, appends, notify):
        raise _BatchLost()


def _run_alone(engine: Engine, write: Write, future: Future[Any]) -> None:
    try:
        with write_transaction(engine) as connection:
            result = write(connection)
    except BaseException as err:
        future.set_exception(err)
        return
    future.set_result(result)
