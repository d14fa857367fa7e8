"""Background work: computer players' moves and the clock sweeper, off the request path.

After every commit the runner looks at the fresh entry; when a computer player is to move it
queues the table, and a worker moves for it in a thread (a limiter of its own, so bots never
take the request threads), so the event loop never waits for a bot. One worker at a time
moves for a table: a table queued while a worker moves for it is looked at again when that
worker is done (else two workers would think about the same position). The sweeper wakes every
``Settings.sweep_seconds``; at start-up the tables left with a computer player to move (a
restart after a crash) are queued at once. With several processes on one PostgreSQL each
table's computer players are moved by one process at a time
(:mod:`parlour.server.services.once`), and the sweeper's wake-ups hand a table left by a
process that died to another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import anyio
import anyio.to_thread

from parlour.server.hub import Hub
from parlour.server.services.clock import sweep
from parlour.server.services.context import ServerContext
from parlour.server.services.once import play_bots_once
from parlour.server.services.scores import score_finished
from parlour.storage.tables import bot_turn_tables

log = logging.getLogger("parlour.server")


class Runner:
    """Computer players, the sweeper, and the hub's poll for other processes' changes."""

    def __init__(self, ctx: ServerContext, hub: Hub) -> None:
        self.ctx = ctx
        self.hub = hub
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[int] = asyncio.Queue()
        self.pending: set[int] = set()
        self.running: set[int] = set()
        self.again: set[int] = set()
        self.tasks: list[asyncio.Task[None]] = []
        self.limiter = anyio.CapacityLimiter(max(1, ctx.settings.bot_workers))
        self.busy = 0
        self.scoring: set[asyncio.Task[bool]] = set()

    def on_change(self, table_id: int) -> None:
        """Listener: queue the table if a computer player is to move there; put a finished
        game in the scorebook."""
        entry = self.ctx.cache.peek(table_id)
        if entry is None:
            return
        if entry.table.bot_turn and entry.table.status == "active":
            self.kick(table_id)
        elif entry.table.status == "finished" and not entry.table.scored:
            self.score(table_id)

    def score(self, table_id: int) -> None:
        """Record a finished table in the scorebook, in a worker thread (from any thread)."""
        loop = self.loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._score_soon, table_id)

    def _score_soon(self, table_id: int) -> None:
        task = asyncio.create_task(
            anyio.to_thread.run_sync(score_finished, self.ctx, table_id, limiter=self.limiter)
        )
        self.scoring.add(task)
        task.add_done_callback(self.scoring.discard)

    def kick(self, table_id: int) -> None:
        """Queue *table_id* for its computer players (from any thread)."""
        loop = self.loop
        if loop is None or not self.ctx.settings.bots:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: stopping
            loop.call_soon_threadsafe(self._enqueue, table_id)

    def _enqueue(self, table_id: int) -> None:
        if table_id in self.running:
            # a worker is moving for this table: a second one would think about the same
            # position (the bot's own commit kicks the table when it moves again, as in a
            # Rummy turn's draw then discard) and one of the two moves would be thrown away;
            # the worker's loop plays on, and the table is looked at again once it is done
            self.again.add(table_id)
            return
        if table_id not in self.pending:
            self.pending.add(table_id)
            self.queue.put_nowait(table_id)

    def idle(self) -> bool:
        """True when no computer-player move is queued or running."""
        return not self.pending and self.busy == 0

    async def start(self) -> None:
        """Start the workers and loops (in the app's lifespan)."""
        self.loop = asyncio.get_running_loop()
        self.hub.loop = self.loop
        settings = self.ctx.settings
        if settings.bots:
            for _ in range(max(1, settings.bot_workers)):
                self.tasks.append(asyncio.create_task(self._worker()))
            with self.ctx.engine.connect() as connection:
                for table_id in bot_turn_tables(connection):
                    self._enqueue(table_id)
        if settings.sweep_seconds > 0:
            self.tasks.append(asyncio.create_task(self._sweeper()))
        if settings.poll_seconds > 0:
            self.tasks.append(asyncio.create_task(self._poller()))

    async def stop(self) -> None:
        """Cancel the loops and wait for them."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()

    async def _worker(self) -> None:
        while True:
            table_id = await self.queue.get()
            self.busy += 1
            self.pending.discard(table_id)
            self.running.add(table_id)
            try:
                await anyio.to_thread.run_sync(
                    play_bots_once, self.ctx, table_id, limiter=self.limiter
                )
            except Exception:
                log.exception("table %s: computer players failed", table_id)
            finally:
                self.running.discard(table_id)
                self.busy -= 1
                if table_id in self.again:  # kicked while it ran: look again
                    self.again.discard(table_id)
                    self._enqueue(table_id)

    async def _sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.ctx.settings.sweep_seconds)
            try:
                report = await anyio.to_thread.run_sync(sweep, self.ctx)
            except Exception:
                log.exception("sweep failed")
                continue
            for table_id in report.bot_tables:
                self._enqueue(table_id)
            for table_id in report.unscored:
                self._score_soon(table_id)

    async def _poller(self) -> None:
        while True:
            await asyncio.sleep(self.ctx.settings.poll_seconds)
            try:
                await anyio.to_thread.run_sync(self.hub.poll)
            except Exception:
                log.exception("poll failed")
