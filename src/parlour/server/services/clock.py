"""The sweeper: applies due host events (turn clocks run out) and wakes computer players.

Turn clocks are data (``game_tables.deadline``), not timers. One sweep finds the tables whose
deadline has passed and applies their due host events (:func:`~.play.apply_host_events`),
each in its own short transaction against the table's version, so a sweep is idempotent: run
twice, or by two processes at once, it applies each expiry once.

Only one process sweeps at a time anyway: on PostgreSQL it holds an advisory lock for the
sweep; on SQLite it holds a lease row (``server_leases``), taken in a ``BEGIN IMMEDIATE``
transaction, SQLite's single writer.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import text

from parlour.server.services.context import ServerContext
from parlour.server.services.play import apply_host_events
from parlour.storage.db import write_transaction
from parlour.storage.tables import bot_turn_tables, due_tables, take_lease, unscored_tables

log = logging.getLogger("parlour.server")

ADVISORY_KEY = 0x7061726C  # "parl"
LEASE = "sweeper"
LEASE_SECONDS = 120


@dataclass
class SweepReport:
    """One sweep: whether this process held the lock, the host events applied, the tables
    where a computer player is waiting to move (for the runner to wake), and finished tables
    not yet in the scorebook."""

    leader: bool
    applied: int = 0
    tables: list[int] = field(default_factory=list)
    bot_tables: list[int] = field(default_factory=list)
    unscored: list[int] = field(default_factory=list)


@contextmanager
def leadership(ctx: ServerContext) -> Iterator[bool]:
    """Yield True while this process is the only sweeper (see the module docstring)."""
    if ctx.engine.dialect.name == "postgresql":
        with ctx.engine.connect() as connection:
            got = bool(
                connection.execute(
                    text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_KEY}
                ).scalar_one()
            )
            connection.commit()
            try:
                yield got
            finally:
                if got:
                    connection.execute(
                        text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY}
                    )
                    connection.commit()
        return
    now = ctx.now()
    holder = ctx.settings.instance
    with write_transaction(ctx.engine) as connection:
        got = take_lease(connection, LEASE, holder, now, now + timedelta(seconds=LEASE_SECONDS))
    try:
        yield got
    finally:
        if got:
            with write_transaction(ctx.engine) as connection:
                take_lease(connection, LEASE, holder, now, ctx.now())


def sweep(ctx: ServerContext) -> SweepReport:
    """One sweep (see the module docstring). Safe to call at any time, from any process."""
    with leadership(ctx) as leader:
        if not leader:
            return SweepReport(leader=False)
        report = SweepReport(leader=True)
        with ctx.engine.connect() as connection:
            due = due_tables(connection, ctx.now())
        for table_id in due:
            try:
                count = apply_host_events(ctx, table_id)
            except Exception:
                log.exception("table %s: host events failed", table_id)
                continue
            if count:
                report.applied += count
                report.tables.append(table_id)
        with ctx.engine.connect() as connection:
            report.bot_tables = bot_turn_tables(connection)
            report.unscored = unscored_tables(connection)
        return report
