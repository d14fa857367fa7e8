"""Fan-out across server processes on one PostgreSQL, through ``LISTEN``/``NOTIFY``.

Every process tells the others what it committed and hears what they did:

- **Telling.** The plain appends of a group writer's batch (nearly every move) are told
  by :meth:`Fanout.herald`, in the batch's own transaction (``GroupWriter.herald``): one
  ``pg_notify`` on :data:`CHANNEL` for the whole batch, which PostgreSQL delivers when the
  batch commits (and never when it rolls back), no round trip of its own after it. Any
  other change reaches :meth:`Fanout.on_change`, a commit listener
  (``ServerContext.listeners``): it notes the table id and its new version (``-1`` when
  this process holds no entry of it, a table still in the lobby) and wakes the notifier
  thread, which sends everything noted since its last send as one ``pg_notify``, on a
  connection of its own (autocommit); a change the herald told already is not noted. The
  payload is small text: ``<sender>|<id>:<version>,<id>:<version>...`` (at most
  :data:`PAYLOAD_LIMIT` characters; more tables make more notifications).
- **Hearing.** The listener thread holds one more connection that ``LISTEN``s on
  :data:`CHANNEL` (reconnecting, with a growing pause, whenever it is lost; each time it is
  back, :meth:`~parlour.server.hub.Hub.poll` pushes whatever changed meanwhile). It reads
  each notification and hands its changes to the event loop in one call. For each table
  another process changed and this one has followers of, whose followers were not yet sent
  that version, the table's lock is taken and the cached entry brought up to the version
  heard: on the loop, when the lock is free and the change was told whole from the
  entry's version (nearly every move: no thread, no query), else in a worker thread, where
  the events stored since are read and applied to it
  (:func:`~parlour.server.services.cache.caught_up`; no replay of the whole log), or the
  entry is loaded afresh when it cannot be. The table then goes to
  :meth:`~parlour.server.hub.Hub.on_change`, which builds each follower's view for its own
  seat, as for a change made here.

Nothing here decides what is stored: a write made through a stale entry (another process
moved the table on since) matches no row in the version check, is refused, and the entry is
reloaded (:mod:`parlour.server.services.play`). A notification lost with a process that dies
between a commit and the notifier's ``pg_notify`` is made up for by the hub's poll
(``Settings.poll_seconds``). On SQLite (one process) there is no fan-out.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import fields, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine

from parlour.engine.errors import ParlourError
from parlour.server.errors import ServerError
from parlour.server.hub import Hub
from parlour.server.services.cache import (
    SERVER_EVENT,
    CorruptTable,
    Entry,
    caught_up,
    current_entry,
)
from parlour.server.services.context import ServerContext
from parlour.storage.tables import Append, EventRow, TableRow

log = logging.getLogger("parlour.server")

CHANNEL = "parlour_tables"
"""The ``LISTEN``/``NOTIFY`` channel every server process uses."""
PAYLOAD_LIMIT = 7_000
"""Characters of table versions in one notification (PostgreSQL's limit is 8,000 bytes)."""
RECONNECT_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Pauses before each attempt to get the listening connection back (the last repeats)."""
MOVED = frozenset(
    ("version", "updated_at", "to_move", "bot_turn", "deadline", "status", "result", "finished_at")
)
"""The columns of a table row a plain append changes (``play.table_columns``)."""
MOMENTS = frozenset(("updated_at", "deadline", "finished_at"))
DETAIL_EVENTS = 32
"""At most this many events are told in a notification; a longer change is read instead."""
_TABLE_FIELDS = tuple(f.name for f in fields(TableRow))

Detail = dict[str, Any]
"""What a plain append changed, told with its notification: ``{"f": the version it was
applied to, "e": [[by, move], ...] the events it added, "t": {column: value} the row's
columns it changed}`` (times as ISO 8601 text)."""


def change_detail(entry: Entry) -> Detail | None:
    """The :data:`Detail` of the change that made *entry*, or ``None`` when it was not a
    plain append (a seat changed, another column, too many events): then the other
    processes read the table from the database."""
    base, table = entry.base, entry.table
    if base is None or base.id != table.id or table.version <= base.version:
        return None
    if table.version - base.version > DETAIL_EVENTS:
        return None
    changed: dict[str, Any] = {}
    for name in _TABLE_FIELDS:
        new = getattr(table, name)
        if new is getattr(base, name) or new == getattr(base, name):
            continue
        if name not in MOVED:
            return None
        changed[name] = new.isoformat() if name in MOMENTS and new is not None else new
    moves = [[e.by, e.move] for e in entry.events[base.version : table.version]]
    if len(moves) != table.version - base.version:
        return None
    return {"f": base.version, "e": moves, "t": changed}


def append_detail(append: Append) -> Detail | None:
    """The :data:`Detail` of a plain *append* (as :func:`change_detail` tells it from the
    entry it made, every column the append sets included), or ``None`` when it has more
    than :data:`DETAIL_EVENTS` events or sets a column a plain append does not."""
    if len(append.events) > DETAIL_EVENTS or not set(append.values) <= MOVED:
        return None
    version = append.expected_version + len(append.events)
    changed: dict[str, Any] = {"version": version, "updated_at": append.now.isoformat()}
    for name, value in append.values.items():
        changed[name] = value.isoformat() if name in MOMENTS and value is not None else value
    moves = [[by, move] for by, move in append.events]
    return {"f": append.expected_version, "e": moves, "t": changed}


def merged(old: Detail | None, new: Detail | None) -> Detail | None:
    """Two changes told in one notification: *new* applied right after *old*, or ``None``
    when they do not follow one another."""
    if old is None or new is None or new["f"] != old["f"] + len(old["e"]):
        return None
    if len(old["e"]) + len(new["e"]) > DETAIL_EVENTS:
        return None
    return {"f": old["f"], "e": old["e"] + new["e"], "t": {**old["t"], **new["t"]}}


def told(entry: Entry, version: int, detail: Detail) -> Entry | None:
    """*entry* moved on to *version* by the change another process told (*detail*): its
    events applied to the entry's state (in place: call under the table's lock, and drop
    the entry if this raises) and its columns set, as :func:`~.services.cache.caught_up`
    would read them. ``None`` when the detail does not start at the entry's version or
    does not read (then read the table). Raises :class:`CorruptTable` for events that do
    not apply."""
    try:
        first = int(detail["f"])
        moves = [(int(by), str(move)) for by, move in detail["e"]]
        columns = dict(detail["t"])
        if first != entry.version or first + len(moves) != version:
            return None
        if int(columns.get("version", -1)) != version or not set(columns) <= MOVED:
            return None
        values: dict[str, Any] = {
            name: datetime.fromisoformat(value) if name in MOMENTS and value is not None else value
            for name, value in columns.items()
        }
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if any(by == SERVER_EVENT for by, _move in moves):
        return None
    state = entry.state
    try:
        for by, move in moves:
            state.apply(state.parse_action(move, player=by), player=by)
    except (ParlourError, TypeError, ValueError) as err:
        raise CorruptTable(f"table {entry.table.id}: {err}") from None
    events = [EventRow(first + i, by, move) for i, (by, move) in enumerate(moves)]
    table = replace(entry.table, **values)
    return Entry(table, entry.seats, entry.names, state, [*entry.events, *events])


def libpq_url(engine: Engine) -> str:
    """The libpq connection string of *engine*'s database (``postgresql://...``, password
    included), for connections made outside the pool."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def encode(
    sender: str, versions: dict[int, int], details: dict[int, Detail | None] | None = None
) -> list[str]:
    """The notification payloads for *versions* (table id -> version) from *sender*, with
    the :data:`Detail` of each table's change in *details* where it fits.

    >>> encode("a1", {3: 7, 5: -1})
    ['a1|3:7,5:-1']
    >>> encode("a1", {3: 7}, {3: {"f": 6, "e": [[0, "bank"]], "t": {"version": 7}}})
    ['a1|3:7|{"3":{"f":6,"e":[[0,"bank"]],"t":{"version":7}}}']
    """
    payloads: list[str] = []
    parts: list[str] = []
    told: list[str] = []
    size = 0

    def done() -> None:
        extra = f"|{{{','.join(told)}}}" if told else ""
        payloads.append(f"{sender}|{','.join(parts)}{extra}")

    for table_id, version in versions.items():
        part = f"{table_id}:{version}"
        if parts and size + len(part) + 1 > PAYLOAD_LIMIT:
            done()
            parts, told, size = [], [], 0
        parts.append(part)
        size += len(part) + 1
        detail = (details or {}).get(table_id)
        if detail is not None:
            text = f'"{table_id}":{json.dumps(detail, separators=(",", ":"), default=str)}'
            if size + len(text) + 3 <= PAYLOAD_LIMIT:  # ASCII: as many bytes as characters
                told.append(text)
                size += len(text) + 1
    if parts:
        done()
    return payloads


def decode(payload: str) -> tuple[str, dict[int, int], dict[int, Detail]]:
    """The sender, table versions and details of a payload made by :func:`encode`; raises
    ``ValueError`` for anything else.

    >>> decode("a1|3:7,5:-1")
    ('a1', {3: 7, 5: -1}, {})
    >>> decode('a1|3:7|{"3":{"f":6,"e":[[0,"bank"]],"t":{"version":7}}}')[2]
    {3: {'f': 6, 'e': [[0, 'bank']], 't': {'version': 7}}}
    """
    sender, _, rest = payload.partition("|")
    body, _, extra = rest.partition("|")
    versions: dict[int, int] = {}
    for part in body.split(","):
        table_id, _, version = part.partition(":")
        versions[int(table_id)] = int(version)
    details: dict[int, Detail] = {}
    if extra:
        found = json.loads(extra)
        if not isinstance(found, dict):
            raise ValueError("the details are not an object")
        details = {int(k): v for k, v in found.items() if isinstance(v, dict)}
    return sender, versions, details


class Fanout:
    """The notifier and listener threads of one process (see the module docstring)."""

    def __init__(self, ctx: ServerContext, hub: Hub) -> None:
        self.ctx = ctx
        self.hub = hub
        self.sender = ctx.settings.instance[:12]
        self._pending: dict[int, int] = {}
        self._details: dict[int, Detail | None] = {}
        self._wake = threading.Condition()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listening: Any = None  # the listener's connection, closed to stop it
        self._local = threading.local()
        self._heralded: dict[int, int] = {}
        """Table id -> version the herald told in a committed batch, not yet seen by
        :meth:`on_change` (which then has nothing left to tell)."""
        self.sent = 0
        """Notifications sent (for the figures)."""
        self.heard = 0
        """Table changes heard from other processes (for the figures)."""
        self.connected = threading.Event()
        """Set while the listening connection is up (tests wait for it)."""

    # --- telling --------------------------------------------------------------------------

    def herald(self, appends: list[Append]) -> tuple[tuple[str, list[str]], Callable[[], None]]:
        """``GroupWriter.herald``: the notifications telling the *appends* of a batch, sent
        in their own statement (delivered at the commit: see the module docstring), and the
        callback that, run once the batch committed, marks them told for
        :meth:`on_change`."""
        versions: dict[int, int] = {}
        details: dict[int, Detail | None] = {}
        for append in sorted(appends, key=lambda a: a.expected_version):
            version = append.expected_version + len(append.events)
            detail = append_detail(append)
            if append.table_id in versions:  # never in one batch today (the table's lock)
                detail = merged(details[append.table_id], detail)
            versions[append.table_id] = version
            details[append.table_id] = detail
        payloads = encode(self.sender, versions, details)

        def committed() -> None:
            with self._wake:
                if len(self._heralded) > 50_000:
                    self._heralded.clear()
                for table_id, version in versions.items():
                    self._heralded[table_id] = max(version, self._heralded.get(table_id, -1))
                self.sent += len(payloads)

        return (CHANNEL, payloads), committed

    def on_change(self, table_id: int) -> None:
        """Listener: note that *table_id* was committed (called in the committing thread),
        unless the herald told that version already."""
        entry = self.ctx.cache.peek(table_id)
        ours = entry is not None and entry.table.id == table_id
        version = entry.version if entry is not None and ours else -1
        with self._wake:
            heralded = self._heralded.pop(table_id, -1)
        if version >= 0 and heralded >= version:
            return
        detail = change_detail(entry) if entry is not None and ours else None
        with self._wake:
            noted = self._pending.get(table_id)
            unknown = version < 0 or noted == -1
            self._pending[table_id] = -1 if unknown else max(version, noted or 0)
            if noted is None:
                self._details[table_id] = detail
            else:
                self._details[table_id] = merged(self._details.get(table_id), detail)
            self._wake.notify()

    def _notifier(self) -> None:
        import psycopg

        connection: psycopg.Connection[Any] | None = None
        while not self._stopping.is_set():
            with self._wake:
                while not self._pending and not self._stopping.is_set():
                    self._wake.wait(1.0)
                versions, self._pending = self._pending, {}
                details, self._details = self._details, {}
            if not versions:
                continue
            for attempt in range(2):
                try:
                    if connection is None or connection.closed:
                        connection = psycopg.connect(libpq_url(self.ctx.engine), autocommit=True)
                    for payload in encode(self.sender, versions, details):
                        connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                        self.sent += 1
                    break
                except psycopg.Error:
                    log.warning("fan-out: notify failed (attempt %d)", attempt + 1, exc_info=True)
                    if connection is not None:
                        connection.close()
                    connection = None
        if connection is not None:
            connection.close()

    # --- hearing --------------------------------------------------------------------------

    def _listener(self) -> None:
        import psycopg

        failures = 0
        while not self._stopping.is_set():
            try:
                connection = psycopg.connect(libpq_url(self.ctx.engine), autocommit=True)
            except psycopg.Error:
                pause = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                failures += 1
                log.warning("fan-out: cannot listen (again in %s s)", pause, exc_info=True)
                self._stopping.wait(pause)
                continue
            self._listening = connection
            try:
                connection.execute(f"LISTEN {CHANNEL}")
                failures = 0
                self.connected.set()
                self._catch_up()
                while not self._stopping.is_set():
                    for note in connection.notifies(timeout=1.0):
                        self.heard_payload(note.payload)
            except psycopg.Error:
                if not self._stopping.is_set():
                    log.warning("fan-out: the listening connection was lost", exc_info=True)
            finally:
                self.connected.clear()
                self._listening = None
                connection.close()
                self._drop_reader()

    def _catch_up(self) -> None:
        try:
            self.hub.poll()
        except Exception:
            log.warning("fan-out: catching up failed", exc_info=True)

    def heard_payload(self, payload: str) -> None:
        """Push the changes of one notification to this process's followers (see the module
        docstring); a payload this process sent, or one it cannot read, is ignored. Called
        in the listener thread: the changes are handed to the event loop in one call
        (:meth:`_heard_on_loop`), or pushed right here while no WebSocket has come yet."""
        if payload.partition("|")[0] == self.sender:  # our own: not even read
            return
        try:
            sender, versions, details = decode(payload)
        except ValueError:
            log.warning("fan-out: unreadable notification %r", payload[:100])
            return
        if sender == self.sender:
            return
        loop = self.hub.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # closed: the server is stopping
                loop.call_soon_threadsafe(self._heard_on_loop, versions, details)
                return
        for table_id, version in versions.items():
            self.heard += 1
            self._push_logged(table_id, version, details.get(table_id))

    def _heard_on_loop(self, versions: dict[int, int], details: dict[int, Detail]) -> None:
        """The changes of one notification, on the event loop: each told change whose table
        is free is applied and sent right here (:meth:`_push_here`: no thread, and the hub
        queues each follower's message without waking the loop); any other is pushed in a
        worker thread (:meth:`_push`, which may read the database)."""
        for table_id, version in versions.items():
            self.heard += 1
            detail = details.get(table_id)
            try:
                if self._push_here(table_id, version, detail):
                    continue
            except Exception:
                log.exception("fan-out: table %s not pushed", table_id)
                continue
            loop = self.hub.loop
            if loop is not None:
                loop.run_in_executor(None, self._push_logged, table_id, version, detail, True)

    def _push_here(self, table_id: int, version: int, detail: Detail | None) -> bool:
        """:meth:`_push` without waiting and without a query: True when done (also when there
        is nothing to do), False when it needs the thread (the table's lock taken, no entry,
        a change not told whole or not following the entry's version)."""
        followers = self.hub.followers_of(table_id)
        if not followers:
            return True
        if version >= 0 and all(f.sent.get(table_id, -1) >= version for f in followers):
            return True
        if version < 0:
            return False
        cache = self.ctx.cache
        lock = cache.lock(table_id)
        if not lock.acquire(blocking=False):
            return False
        try:
            entry = cache.get(table_id)
            if entry is None or entry.table.id != table_id:
                return False
            if version > entry.version:
                if detail is None:
                    return False
                try:
                    fresh = told(entry, version, detail)
                except Exception:
                    cache.drop(table_id)  # applied in part: the thread reloads it
                    return False
                if fresh is None:
                    return False
                cache.put(fresh)
            self.hub.on_change(table_id)
            return True
        finally:
            lock.release()

    def _push_logged(
        self, table_id: int, version: int, detail: Detail | None, pooled: bool = False
    ) -> None:
        try:
            self._push(table_id, version, detail, pooled=pooled)
        except Exception:  # one table's failure must not stop the others
            log.exception("fan-out: table %s not pushed", table_id)

    def _push(
        self, table_id: int, version: int, detail: Detail | None = None, *, pooled: bool = False
    ) -> None:
        """Bring the entry of *table_id* up to *version* and send its followers the change
        (see the module docstring); reads on the listener's own connection, or with
        *pooled* (a worker thread) on one from the pool."""
        followers = self.hub.followers_of(table_id)
        if not followers:
            return
        if version >= 0 and all(f.sent.get(table_id, -1) >= version for f in followers):
            return
        cache = self.ctx.cache
        with cache.lock(table_id):
            entry = cache.get(table_id)
            if entry is not None and 0 <= version <= entry.version:
                pass  # this process already holds that version
            elif entry is not None and entry.table.id == table_id:
                try:
                    fresh = None if detail is None else told(entry, version, detail)
                    if fresh is None and pooled:
                        with self.ctx.engine.connect() as connection:
                            fresh = caught_up(connection, entry)
                    elif fresh is None:
                        connection = self._reader()
                        with connection.begin():
                            fresh = caught_up(connection, entry)
                except Exception:
                    cache.drop(table_id)
                    if not pooled:
                        self._drop_reader()
                    raise
                if fresh is not None:
                    cache.put(fresh)
                else:
                    self._reload(table_id)
            else:
                self._reload(table_id)
            self.hub.on_change(table_id)

    def _reader(self) -> Connection:
        """This thread's own connection for catching up (no pool check-out and ping for
        every table heard: the listener thread reads one after another)."""
        connection: Connection | None = getattr(self._local, "reader", None)
        if connection is None or connection.closed:
            connection = self._local.reader = self.ctx.engine.connect()
        return connection

    def _drop_reader(self) -> None:
        """Close this thread's catching-up connection (lost, or the thread ends)."""
        connection: Connection | None = getattr(self._local, "reader", None)
        self._local.reader = None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()

    def _reload(self, table_id: int) -> None:
        """Load *table_id*'s entry afresh (call under its lock)."""
        try:
            current_entry(self.ctx, table_id)
        except ServerError:  # in the lobby, or gone: the hub sends a table notice
            self.ctx.cache.drop(table_id)

    # --- start and stop -------------------------------------------------------------------

    def start(self) -> None:
        """Start the notifier and listener threads."""
        if self._threads:
            return
        self._stopping.clear()
        self._threads = [
            threading.Thread(target=self._notifier, name="parlour-notify", daemon=True),
            threading.Thread(target=self._listener, name="parlour-listen", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self.ctx.writer.herald = self.herald

    def stop(self) -> None:
        """Send what is noted, then stop both threads (within about a second)."""
        if self.ctx.writer.herald == self.herald:
            self.ctx.writer.herald = None
        self._stopping.set()
        with self._wake:
            self._wake.notify_all()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads = []

    def wait_connected(self, seconds: float = 10.0) -> bool:
        """Wait until the listening connection is up; True if it is."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.connected.wait(0.05):
                return True
        return False
