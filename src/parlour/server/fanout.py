"""Fan-out across server processes on one PostgreSQL, through ``LISTEN``/``NOTIFY``.

Every process tells the others what it committed and hears what they did:

- **Telling.** :meth:`Fanout.on_change` is a commit listener (``ServerContext.listeners``):
  it notes the table id and its new version (``-1`` when this process holds no entry of it,
  a table still in the lobby) and wakes the notifier thread, which sends everything noted
  since its last send as one ``pg_notify`` on :data:`CHANNEL`, on a connection of its own
  (autocommit). The payload is small text: ``<sender>|<id>:<version>,<id>:<version>...``
  (at most :data:`PAYLOAD_LIMIT` characters; more tables make more notifications).
- **Hearing.** The listener thread holds one more connection that ``LISTEN``s on
  :data:`CHANNEL` (reconnecting, with a growing pause, whenever it is lost; each time it is
  back, :meth:`~parlour.server.hub.Hub.poll` pushes whatever changed meanwhile). For each
  table another process changed and this one has followers of, whose followers were not
  yet sent that version, it takes the table's lock, brings the cached entry up to the
  database when it is older than the version heard (or the version is unknown): the events
  stored since are applied to it (:func:`~parlour.server.services.cache.caught_up`; no
  replay of the whole log), or the entry is loaded afresh when it cannot be. It then hands
  the table to :meth:`~parlour.server.hub.Hub.on_change`, which builds each follower's view
  for its own seat, as for a change made here.

Nothing here decides what is stored: a write made through a stale entry (another process
moved the table on since) matches no row in the version check, is refused, and the entry is
reloaded (:mod:`parlour.server.services.play`). A notification lost with a process that dies
between its commit and its ``pg_notify`` is made up for by the hub's poll
(``Settings.poll_seconds``). On SQLite (one process) there is no fan-out.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from sqlalchemy import Connection, Engine

from parlour.server.errors import ServerError
from parlour.server.hub import Hub
from parlour.server.services.cache import caught_up, current_entry
from parlour.server.services.context import ServerContext

log = logging.getLogger("parlour.server")

CHANNEL = "parlour_tables"
"""The ``LISTEN``/``NOTIFY`` channel every server process uses."""
PAYLOAD_LIMIT = 7_000
"""Characters of table versions in one notification (PostgreSQL's limit is 8,000 bytes)."""
RECONNECT_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Pauses before each attempt to get the listening connection back (the last repeats)."""


def libpq_url(engine: Engine) -> str:
    """The libpq connection string of *engine*'s database (``postgresql://...``, password
    included), for connections made outside the pool."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def encode(sender: str, versions: dict[int, int]) -> list[str]:
    """The notification payloads for *versions* (table id -> version) from *sender*.

    >>> encode("a1", {3: 7, 5: -1})
    ['a1|3:7,5:-1']
    """
    payloads: list[str] = []
    parts: list[str] = []
    size = 0
    for table_id, version in versions.items():
        part = f"{table_id}:{version}"
        if parts and size + len(part) + 1 > PAYLOAD_LIMIT:
            payloads.append(f"{sender}|{','.join(parts)}")
            parts, size = [], 0
        parts.append(part)
        size += len(part) + 1
    if parts:
        payloads.append(f"{sender}|{','.join(parts)}")
    return payloads


def decode(payload: str) -> tuple[str, dict[int, int]]:
    """The sender and table versions of a payload made by :func:`encode`; raises
    ``ValueError`` for anything else.

    >>> decode("a1|3:7,5:-1")
    ('a1', {3: 7, 5: -1})
    """
    sender, _, body = payload.partition("|")
    versions: dict[int, int] = {}
    for part in body.split(","):
        table_id, _, version = part.partition(":")
        versions[int(table_id)] = int(version)
    return sender, versions


class Fanout:
    """The notifier and listener threads of one process (see the module docstring)."""

    def __init__(self, ctx: ServerContext, hub: Hub) -> None:
        self.ctx = ctx
        self.hub = hub
        self.sender = ctx.settings.instance[:12]
        self._pending: dict[int, int] = {}
        self._wake = threading.Condition()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listening: Any = None  # the listener's connection, closed to stop it
        self._local = threading.local()
        self.sent = 0
        """Notifications sent (for the figures)."""
        self.heard = 0
        """Table changes heard from other processes (for the figures)."""
        self.connected = threading.Event()
        """Set while the listening connection is up (tests wait for it)."""

    # --- telling --------------------------------------------------------------------------

    def on_change(self, table_id: int) -> None:
        """Listener: note that *table_id* was committed (called in the committing thread)."""
        entry = self.ctx.cache.peek(table_id)
        version = entry.version if entry is not None and entry.table.id == table_id else -1
        with self._wake:
            noted = self._pending.get(table_id)
            unknown = version < 0 or noted == -1
            self._pending[table_id] = -1 if unknown else max(version, noted or 0)
            self._wake.notify()

    def _notifier(self) -> None:
        import psycopg

        connection: psycopg.Connection[Any] | None = None
        while not self._stopping.is_set():
            with self._wake:
                while not self._pending and not self._stopping.is_set():
                    self._wake.wait(1.0)
                versions, self._pending = self._pending, {}
            if not versions:
                continue
            for attempt in range(2):
                try:
                    if connection is None or connection.closed:
                        connection = psycopg.connect(libpq_url(self.ctx.engine), autocommit=True)
                    for payload in encode(self.sender, versions):
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
        docstring); a payload this process sent, or one it cannot read, is ignored."""
        try:
            sender, versions = decode(payload)
        except ValueError:
            log.warning("fan-out: unreadable notification %r", payload[:100])
            return
        if sender == self.sender:
            return
        for table_id, version in versions.items():
            self.heard += 1
            try:
                self._push(table_id, version)
            except Exception:  # one table's failure must not stop the others
                log.exception("fan-out: table %s not pushed", table_id)

    def _push(self, table_id: int, version: int) -> None:
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
                    connection = self._reader()
                    with connection.begin():
                        fresh = caught_up(connection, entry)
                except Exception:
                    cache.drop(table_id)
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

    def stop(self) -> None:
        """Send what is noted, then stop both threads (within about a second)."""
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
