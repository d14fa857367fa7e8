"""The hub: pushes each committed change to the WebSockets that follow the table.

Services call :meth:`Hub.on_change` in the committing thread, under the table's lock, right
after a commit; the hub builds one message per follower from the fresh entry and hands it to
the connection's queue on the event loop. A follower's seat is never remembered: each
message is built for the seat the follower's account holds in that entry (``None``, a
spectator's view, once it has left or before it sits down), by
:func:`~parlour.server.services.payloads.update_message`, from the same functions the REST
answers use, and a follower that may no longer see the table (an invite-only table it left)
is sent only a ``table`` notice. Each follower's message is built and queued on its own: one
that fails is logged and the others are still sent theirs.

Changes made by another server process are found by :meth:`Hub.poll`, which compares the
stored versions of followed tables with what was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from parlour.engine.state import JSON
from parlour.server.services.cache import Entry, current_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.lobby import may_see
from parlour.server.services.payloads import update_message, viewer_seat
from parlour.server.wire import dumps
from parlour.storage.tables import get_seats, get_table, get_versions

log = logging.getLogger("parlour.server")

QUEUE_LIMIT = 1_000
"""Messages waiting for one slow WebSocket before the hub closes it (the client resyncs)."""


@dataclass(eq=False)
class Follower:
    """One WebSocket: its account (``None``: anonymous), outgoing queue and followed tables
    (table id -> the invite code it followed with, or ``None``) with the last version sent
    for each. No seat: the seat is looked up in the table's entry for every message."""

    account_id: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    tables: dict[int, str | None] = field(default_factory=dict)
    sent: dict[int, int] = field(default_factory=dict)
    closed: bool = False


class Hub:
    """Followers by table and by account; see the module docstring."""

    def __init__(self, ctx: ServerContext) -> None:
        self.ctx = ctx
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._by_table: dict[int, set[Follower]] = {}
        self._by_account: dict[int, set[Follower]] = {}
        self._lock = threading.Lock()

    # --- followers ----------------------------------------------------------------------

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop the WebSockets live on (set at start-up)."""
        return self._loop

    @loop.setter
    def loop(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self._loop = loop
        self._loop_thread = threading.get_ident() if loop is not None else None

    def add(self, follower: Follower) -> None:
        """Register a new WebSocket (its account gets ``turn`` notices)."""
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        if follower.account_id is not None:
            with self._lock:
                self._by_account.setdefault(follower.account_id, set()).add(follower)

    def remove(self, follower: Follower) -> None:
        """Forget a closed WebSocket."""
        follower.closed = True
        with self._lock:
            for table_id in follower.tables:
                self._by_table.get(table_id, set()).discard(follower)
            if follower.account_id is not None:
                self._by_account.get(follower.account_id, set()).discard(follower)

    def follow(self, follower: Follower, table_id: int, invite: str | None = None) -> None:
        """Send *follower* the table now and every change after (call under the table's lock
        for a started table, so no change slips between). *invite* is the code it may see an
        invite-only table with (checked again for every message)."""
        with self._lock:
            follower.tables[table_id] = invite
            self._by_table.setdefault(table_id, set()).add(follower)
        entry = self.ctx.cache.peek(table_id)
        if entry is not None and entry.table.id == table_id:
            follower.sent[table_id] = entry.version
            self._send(follower, update_message(entry, follower.account_id, 0))
        else:
            self._send(follower, {"type": "table", "table": table_id})

    def unfollow(self, follower: Follower, table_id: int) -> None:
        """Stop sending *follower* changes of *table_id*."""
        with self._lock:
            follower.tables.pop(table_id, None)
            follower.sent.pop(table_id, None)
            self._by_table.get(table_id, set()).discard(follower)

    def followers_of(self, table_id: int) -> list[Follower]:
        """The WebSockets following *table_id* now."""
        with self._lock:
            return list(self._by_table.get(table_id, ()))

    # --- changes ------------------------------------------------------------------------

    def on_change(self, table_id: int) -> None:
        """A commit changed *table_id* (called in the committing thread; see the module
        docstring)."""
        if self.loop is None:
            return
        with self._lock:
            followers = list(self._by_table.get(table_id, ()))
        entry = self.ctx.cache.peek(table_id)
        if entry is None or entry.table.id != table_id:
            self._lobby_change(table_id, followers)
            return
        texts: dict[tuple[int | None, int], str] = {}  # (seat, since) -> message
        for follower in followers:
            try:
                self._update(entry, follower, texts)
            except Exception:  # one follower's failure must not stop the others
                log.exception("table %s: update for a follower failed", table_id)
        try:
            self._turn_notices(entry, set(followers))
        except Exception:
            log.exception("table %s: turn notices failed", table_id)

    def _update(
        self, entry: Entry, follower: Follower, texts: dict[tuple[int | None, int], str]
    ) -> None:
        """Queue *follower* the change to *entry*, built for the seat its account holds in
        *entry* (see the module docstring); *texts* shares messages between followers who
        are sent the same."""
        table_id = entry.table.id
        if follower.sent.get(table_id, -1) >= entry.version:
            return
        account = follower.account_id
        if not may_see(entry.table, entry.seats, account, follower.tables.get(table_id)):
            self.unfollow(follower, table_id)
            self._send(follower, {"type": "table", "table": table_id})
            return
        since = follower.sent.get(table_id, 0)
        key = (viewer_seat(entry, account), since)
        if key not in texts:
            texts[key] = dumps(update_message(entry, account, since))
        follower.sent[table_id] = entry.version
        self._put(follower, texts[key])

    def _turn_notices(self, entry: Entry, following: set[Follower]) -> None:
        for seat in entry.table.to_move:
            account = entry.seats[seat].account_id
            if account is None or entry.plays_itself(seat):
                continue
            with self._lock:
                targets = [f for f in self._by_account.get(account, ()) if f not in following]
            if targets:
                text = dumps({"type": "turn", "table": entry.table.id, "version": entry.version})
                for follower in targets:
                    self._put(follower, text)

    def _lobby_change(self, table_id: int, followers: list[Follower]) -> None:
        with self.ctx.engine.connect() as connection:
            table = get_table(connection, table_id)
            seats = get_seats(connection, table_id)
        if table is None:
            return
        text = dumps({"type": "table", "table": table_id, "status": table.status})
        targets = set(followers)
        with self._lock:
            for seat in seats:
                if seat.account_id is not None:
                    targets |= self._by_account.get(seat.account_id, set())
        for follower in targets:
            self._put(follower, text)

    def poll(self) -> int:
        """Push changes other processes made to followed tables; return how many tables had
        some. Runs in a worker thread."""
        with self._lock:
            followed = {t: list(fs) for t, fs in self._by_table.items() if fs}
        if not followed:
            return 0
        with self.ctx.engine.connect() as connection:
            versions = get_versions(connection, followed)
        changed = 0
        for table_id, version in versions.items():
            if all(f.sent.get(table_id, 0) >= version for f in followed[table_id]):
                continue
            try:
                with self.ctx.cache.lock(table_id):
                    current_entry(self.ctx, table_id)
                    self.on_change(table_id)
            except Exception:  # a table that cannot be loaded is reported by its requests
                log.debug("poll: table %s not pushed", table_id, exc_info=True)
                continue
            changed += 1
        return changed

    def broadcast(self, table_id: int, message: JSON) -> None:
        """Send *message* (a ``table_event``: resign, abort, rematch) to every WebSocket
        that follows *table_id* or belongs to an account seated there (from any thread).
        Only public facts go in it: everyone following is sent the same."""
        with self.ctx.engine.connect() as connection:
            seats = get_seats(connection, table_id)
        text = dumps(message)
        with self._lock:
            targets = set(self._by_table.get(table_id, ()))
            for seat in seats:
                if seat.account_id is not None:
                    targets |= self._by_account.get(seat.account_id, set())
        for follower in targets:
            self._put(follower, text)

    # --- messages of other topics (notifications, chat: lane social) --------------------

    def send_account(self, account_id: int, message: JSON) -> None:
        """Send *message* to every open WebSocket of the account (from any thread)."""
        with self._lock:
            targets = list(self._by_account.get(account_id, ()))
        if targets:
            text = dumps(message)
            for follower in targets:
                self._put(follower, text)

    def send_table(self, table_id: int, message: JSON, *, skip: set[int]) -> None:
        """Send *message* to the WebSockets following *table_id*, except those of the
        accounts in *skip* (from any thread)."""
        with self._lock:
            targets = [f for f in self._by_table.get(table_id, ()) if f.account_id not in skip]
        if targets:
            text = dumps(message)
            for follower in targets:
                self._put(follower, text)

    # --- sending ------------------------------------------------------------------------

    def _send(self, follower: Follower, message: JSON) -> None:
        self._put(follower, dumps(message))

    def _put(self, follower: Follower, text: str) -> None:
        loop = self.loop
        if loop is None or follower.closed:
            return
        if threading.get_ident() == self._loop_thread:  # on the loop: no wake-up needed
            self._deliver(follower, text)
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
            loop.call_soon_threadsafe(self._deliver, follower, text)

    @staticmethod
    def _deliver(follower: Follower, text: str | None) -> None:
        if follower.closed:
            return
        try:
            follower.queue.put_nowait(text)
        except asyncio.QueueFull:
            follower.closed = True
            while not follower.queue.empty():
                follower.queue.get_nowait()
            follower.queue.put_nowait(None)  # tells the sender to close the socket


def follower_count(hub: Hub) -> dict[str, Any]:
    """How many WebSockets follow tables and accounts (for /health)."""
    with hub._lock:
        return {
            "tables": sum(1 for fs in hub._by_table.values() if fs),
            "accounts": sum(1 for fs in hub._by_account.values() if fs),
        }
