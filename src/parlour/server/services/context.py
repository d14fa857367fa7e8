"""What every service function gets: the database, the settings, the table cache, and the
listeners told about each commit (the WebSocket hub and the computer-player runner)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import anyio
from sqlalchemy import Connection, Engine

from parlour.server.services.cache import TableCache
from parlour.server.services.writer import GroupWriter
from parlour.server.settings import Settings
from parlour.storage.accounts import AccountRow, account_names

T = TypeVar("T")
Listener = Callable[[int], None]
"""Called with a table id after a commit changed that table (in the committing thread)."""


@dataclass
class ServerContext:
    """The services' shared state. One per app (or per test)."""

    engine: Engine
    settings: Settings
    cache: TableCache = field(default_factory=TableCache)
    listeners: list[Listener] = field(default_factory=list)
    logins: dict[str, tuple[AccountRow, datetime, float]] = field(default_factory=dict)
    """Recently checked tokens: hash -> (account, expiry, monotonic time to recheck)."""
    names: dict[int, str] = field(default_factory=dict)
    """Account names by id, as read (names never change once registered)."""
    metrics: Any = None
    """The app's :class:`parlour.server.metrics.Metrics` (``None``: not collected)."""
    writer: GroupWriter = field(init=False)
    """Group commit for game changes (started by the app; unstarted, it writes inline)."""
    hashing: anyio.CapacityLimiter = field(init=False)
    """The threads (``Settings.hash_workers``) account work that hashes passwords runs in,
    apart from the request threads."""

    def __post_init__(self) -> None:
        self.hashing = anyio.CapacityLimiter(max(1, self.settings.hash_workers))
        threads = 1 if self.engine.dialect.name == "sqlite" else self.settings.writer_threads
        self.writer = GroupWriter(
            self.engine, threads=threads, window=self.settings.commit_window_seconds
        )

    def account_names(self, connection: Connection, ids: list[int]) -> dict[int, str]:
        """Display names by account id, asking the database only for ids not seen before."""
        missing = [i for i in set(ids) if i not in self.names]
        if missing:
            if len(self.names) > 100_000:
                self.names.clear()
            self.names.update(account_names(connection, missing))
        return {i: self.names[i] for i in ids if i in self.names}

    def write(self, work: Callable[[Connection], T]) -> T:
        """Run *work* in a write transaction (grouped with others') and return its result
        once committed. Blocks the calling thread."""
        return self.writer.submit(work).result()

    async def write_async(self, work: Callable[[Connection], T]) -> T:
        """:meth:`write` for the event loop: waits without blocking it."""
        return await asyncio.wrap_future(self.writer.submit(work))

    def now(self) -> datetime:
        """The settings' clock."""
        return self.settings.clock()

    def changed(self, table_id: int) -> None:
        """Tell every listener that *table_id* changed. A listener's error is not the caller's."""
        for listener in list(self.listeners):
            try:
                listener(table_id)
            except Exception:  # pragma: no cover - a listener bug must not undo a commit
                import logging

                logging.getLogger("parlour.server").exception("listener failed")
