"""Notifications: a person is told when it is their turn, when a game they sit at starts or
ends, and when their clock has less than a day left; stored (``/me/notifications``), pushed
to their open WebSockets (a ``notification`` message) and, when they asked for it, mailed
(through the outbox, :mod:`parlour.server.mailer`).

:class:`Notifier` is a listener of every commit (``ServerContext.listeners``). It reads the
table's fresh entry in memory and works out, in the committing thread and without a query,
which notices the change brings; those are stored by one write of the group writer
(:mod:`.writer`), off the action's own transaction, so the action is answered as fast as
without notifications. That write is deferrable: it waits a few milliseconds for the next
action's write and shares its transaction, rather than adding one. Each notice has a *key*
unique per account (a unique index): two processes, or a restart, that see the same change
store it once.

- ``turn``: seat *s* is to move and the latest move not of chance was someone else's (not a
  move of *s* that leaves it to move again); the key holds that move's number, so a turn is
  told once. On a day-run table (the crossword's daily mode) a turn is told only at the
  ``new-day`` event (kind ``daily``), and its mail is one per account and day (the key is the
  account's date), whatever the number of its daily tables.
- ``start`` and ``end``: once per table.
- ``clock``: :func:`warn_clocks` (run by the app every ``Settings.clock_warning_seconds``)
  finds persons to move whose deadline is less than a day away (less than 12 hours for a
  one-day clock, whose every turn starts with less than a day), once per deadline.

A notice's text names the table and the game, never anything a seat hides.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Connection, select

from parlour.engine.registry import find
from parlour.engine.state import CHANCE, HOST
from parlour.server.daily import NEW_DAY
from parlour.server.services.cache import Entry
from parlour.server.services.context import ServerContext
from parlour.storage.social import NotificationRow, add_notifications, mail_recipients, queue_mail
from parlour.storage.tables import ACTIVE, FINISHED, GameTable, TableSeat, get_seats, get_table

log = logging.getLogger("parlour.server")

CLOCK_WARNING = timedelta(days=1)
SHORT_CLOCK_WARNING = timedelta(hours=12)


@dataclass(frozen=True)
class Notice:
    """A notification to store: for whom, about which table, what, and its unique key."""

    account_id: int
    table_id: int | None
    kind: str
    text: str
    key: str
    mail_key: str | None = None
    """The outbox key when it differs from ``key`` (the once-a-day mail)."""


Push = Callable[[int, dict[str, Any]], None]
"""Sends a message to an account's open WebSockets (the hub's ``send_account``)."""


def title(game: str) -> str:
    """A game's title (its name if it is no longer registered)."""
    try:
        return find(game).title
    except Exception:
        return game


def notification_json(row: NotificationRow) -> dict[str, Any]:
    """A notification as the API and the ``notification`` message carry it."""
    return {
        "id": row.id,
        "table": row.table_id,
        "kind": row.kind,
        "text": row.text,
        "created_at": row.created_at.isoformat(),
        "read": row.read_at is not None,
    }


def _last_move(entry: Entry) -> tuple[int, int, str] | None:
    """The latest event not of chance: (seq, by, move)."""
    for event in reversed(entry.events):
        if event.by != CHANCE:
            return event.seq, event.by, event.move
    return None


def _daily(entry: Entry) -> bool:
    daily = entry.state.game.spec.platform.daily
    return daily is not None and bool(daily(entry.state.game.options))


def entry_notices(entry: Entry) -> list[Notice]:
    """The notices *entry* (a table in play or just finished) may bring (see the module
    docstring); some may have been stored already (their keys say so)."""
    table = entry.table
    name = f"table {table.id} ({title(table.game)})"
    people: dict[int, int] = {
        s.seat: s.account_id
        for s in entry.seats
        if s.account_id is not None and not entry.plays_itself(s.seat)
    }
    notices: list[Notice] = []
    if table.status == FINISHED:
        # everyone seated is told the end, also a person a computer played out (resigned, or
        # taken out by the clock): the rematch waits for them too
        for account in dict.fromkeys(s.account_id for s in entry.seats if s.account_id):
            notices.append(
                Notice(account, table.id, "end", f"The game at {name} is over.", f"end:{table.id}")
            )
        return notices
    if table.status != ACTIVE:
        return notices
    for seat, account in people.items():
        turn = " It is your turn." if seat in table.to_move else ""
        notices.append(
            Notice(
                account,
                table.id,
                "start",
                f"The game at {name} has started.{turn}",
                f"start:{table.id}",
            )
        )
    last = _last_move(entry)
    if last is None:
        return notices
    seq, by, move = last
    daily = _daily(entry)
    if daily and not (by == HOST and move == NEW_DAY):
        return notices
    for seat in table.to_move:
        person = people.get(seat)
        if person is None or by == seat:
            continue
        if daily:
            day = table.updated_at.astimezone(ZoneInfo(table.time_zone)).date().isoformat()
            notices.append(
                Notice(
                    person,
                    table.id,
                    "daily",
                    f"A new day at {name}: your plays today.",
                    f"turn:{table.id}:{seat}:{seq}",
                    mail_key=f"daily:{day}",
                )
            )
        else:
            notices.append(
                Notice(
                    person,
                    table.id,
                    "turn",
                    f"It is your turn at {name}.",
                    f"turn:{table.id}:{seat}:{seq}",
                )
            )
    return notices


def store_notices(
    connection: Connection, notices: Sequence[Notice], now: datetime, ctx: ServerContext
) -> list[NotificationRow]:
    """Store the notices not stored before, and queue the mail of those whose person asked
    for it (when the server sends mail); the new rows."""
    rows = add_notifications(
        connection, [(n.account_id, n.table_id, n.kind, n.text, n.key) for n in notices], now=now
    )
    stored = [(notice, row) for notice, row in zip(notices, rows, strict=True) if row is not None]
    settings = ctx.settings
    if stored and settings.smtp_host:
        recipients = mail_recipients(connection, sorted({n.account_id for n, _ in stored}))
        for notice, row in stored:
            if notice.account_id not in recipients:
                continue
            address, token = recipients[notice.account_id]
            link = f"{settings.site_url.rstrip('/')}/#/table/{row.table_id}"
            subject = row.text if notice.kind != "daily" else "parlour: your plays today"
            queue_mail(
                connection,
                account_id=notice.account_id,
                key=notice.mail_key or notice.key,
                to_address=address,
                subject=f"parlour: {subject}" if notice.kind != "daily" else subject,
                body=f"{row.text}\n\n{link}\n",
                token=token,
                now=now,
            )
    return [row for _, row in stored]


class Notifier:
    """The listener that turns commits into notifications (see the module docstring).
    ``push`` sends to an account's sockets; ``wake`` tells the outbox sender mail may wait."""

    def __init__(self, ctx: ServerContext, push: Push, wake: Callable[[], None]) -> None:
        self.ctx = ctx
        self.push = push
        self.wake = wake
        self._lock = threading.RLock()  # an unstarted writer writes in the caller's thread
        self._pending: list[Notice] = []
        self._queued: Future[list[NotificationRow]] | None = None
        """The write queued and not yet started, which new notices join."""
        self._told: dict[int, set[str]] = {}
        """Keys this process stored (or found stored) per table: no write for those again."""

    def on_change(self, table_id: int) -> None:
        """A commit changed *table_id* (called in the committing thread)."""
        entry = self.ctx.cache.peek(table_id)
        if entry is not None and entry.table.id == table_id:
            notices = entry_notices(entry)
        else:
            notices = self._lobby_notices(table_id)
        told = self._told.setdefault(table_id, set())
        fresh = [n for n in notices if f"{n.account_id}:{n.key}" not in told]
        if not fresh:
            return
        if len(self._told) > 50_000:
            self._told.clear()
        told.update(f"{n.account_id}:{n.key}" for n in fresh)
        self.submit(fresh)

    def submit(self, notices: Sequence[Notice]) -> Future[list[NotificationRow]]:
        """Store *notices* through the group writer; push and wake once committed. Notices
        submitted while an earlier write of them waits in the writer's queue join it (one
        write for all, however busy the server): the future answers that shared write."""
        with self._lock:
            self._pending.extend(notices)
            if self._queued is not None:
                return self._queued
            taken: list[Notice] | None = None

            def write(connection: Connection) -> list[NotificationRow]:
                nonlocal taken
                if taken is None:  # the first run takes what waits; a rerun writes the same
                    with self._lock:
                        taken, self._pending = self._pending, []
                        self._queued = None
                return store_notices(connection, taken, self.ctx.now(), self.ctx)

            future = self.ctx.writer.submit(write, deferrable=True)
            if not future.done():  # an unstarted writer wrote it at once, in this thread
                self._queued = future
        future.add_done_callback(self._stored)
        return future

    def _stored(self, future: Future[list[NotificationRow]]) -> None:
        if future.cancelled() or future.exception() is not None:
            log.warning("notifications not stored: %s", future.exception())
            return
        rows = future.result()
        for row in rows:
            self.push(
                row.account_id, {"type": "notification", "notification": notification_json(row)}
            )
        if rows and self.ctx.settings.smtp_host:
            self.wake()

    def _lobby_notices(self, table_id: int) -> list[Notice]:
        """A change the cache does not hold (a lobby change): nothing to tell but a start
        (the cache holds a started table at once, so this is rare)."""
        with self.ctx.engine.connect() as connection:
            table = get_table(connection, table_id)
            seats = get_seats(connection, table_id) if table is not None else []
        if table is None or table.status != ACTIVE:
            return []
        name = f"table {table.id} ({title(table.game)})"
        return [
            Notice(
                s.account_id,
                table.id,
                "start",
                f"The game at {name} has started.",
                f"start:{table.id}",
            )
            for s in seats
            if s.account_id is not None and not s.removed
        ]


def _runs_on_days(game: str, options: dict[str, Any]) -> bool:
    try:
        daily = find(game).platform.daily
    except Exception:
        return False
    return daily is not None and bool(daily(options))


def warn_clocks(ctx: ServerContext, notifier: Notifier) -> int:
    """Tell persons to move whose clock has less than a day left (see the module docstring);
    how many notices were new. Safe from several processes at once (the keys)."""
    now = ctx.now()
    with ctx.engine.connect() as connection:
        rows = connection.execute(
            select(
                GameTable.id,
                GameTable.game,
                GameTable.to_move,
                GameTable.deadline,
                GameTable.clock_days,
                GameTable.options,
            ).where(
                GameTable.status == ACTIVE,
                GameTable.deadline.is_not(None),
                GameTable.deadline > now,
                GameTable.deadline <= now + CLOCK_WARNING,
                GameTable.clock_days.is_not(None),
            )
        ).all()
        seats: dict[tuple[int, int], int | None] = {}
        if rows:
            for table_id, seat, account in connection.execute(
                select(TableSeat.table_id, TableSeat.seat, TableSeat.account_id).where(
                    TableSeat.table_id.in_([r[0] for r in rows]),
                    TableSeat.account_id.is_not(None),
                    TableSeat.removed.is_(False),
                )
            ):
                seats[(table_id, seat)] = account
    notices: list[Notice] = []
    for table_id, game, to_move, deadline, clock_days, options in rows:
        if deadline is None or _runs_on_days(game, options):
            continue  # a day-run table has its daily notice instead
        warning = SHORT_CLOCK_WARNING if clock_days == 1 else CLOCK_WARNING
        if deadline.tzinfo is None:
            deadline = deadline.replace(tzinfo=now.tzinfo)
        if deadline - now > warning:
            continue
        hours = max(1, int((deadline - now).total_seconds() // 3600))
        for seat in to_move:
            account = seats.get((table_id, seat))
            if account is None:
                continue
            notices.append(
                Notice(
                    account,
                    table_id,
                    "clock",
                    f"Less than {hours + 1} hours left on your clock at table {table_id} "
                    f"({title(game)}).",
                    f"clock:{table_id}:{seat}:{deadline.isoformat()}",
                )
            )
    if not notices:
        return 0
    # the write may hold other notices that waited with these (a deferrable write): count ours
    return sum(row.kind == "clock" for row in notifier.submit(notices).result())
