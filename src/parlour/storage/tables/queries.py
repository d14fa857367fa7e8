"""Reading and changing server tables one statement at a time: rows, seats, versions, the
log, the lists the lobby and the sweepers need, leases (see :mod:`parlour.storage.tables`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)

from parlour.storage.tables.schema import (
    ACTIVE,
    FINISHED,
    LOBBY,
    STATUSES,
    EventRow,
    GameTable,
    SeatRow,
    ServerLease,
    TableEvent,
    TableRow,
    TableSeat,
)

_TABLE_COLUMNS = [c for c in GameTable.__table__.columns]


# Statements every request runs, built once: building a SELECT of every column with the
# expression language costs more than running it. Parameters are bound by name.
_ID: Any = bindparam("key")
_SEAT_COLUMNS = (
    TableSeat.seat,
    TableSeat.account_id,
    TableSeat.bot_level,
    TableSeat.skips,
    TableSeat.removed,
)
_GET_TABLE = select(*_TABLE_COLUMNS).where(GameTable.id == _ID)
_GET_TABLE_LOCKED = _GET_TABLE.with_for_update()
_GET_VERSION = select(GameTable.version).where(GameTable.id == _ID)
_GET_SEATS = select(*_SEAT_COLUMNS).where(TableSeat.table_id == _ID).order_by(TableSeat.seat)
_GET_EVENTS = (
    select(TableEvent.seq, TableEvent.by, TableEvent.move)
    .where(TableEvent.table_id == _ID, TableEvent.seq >= bindparam("since"))
    .order_by(TableEvent.seq)
)
_INSERT_TABLE = insert(GameTable)
_INSERT_SEAT = insert(TableSeat)
_CLAIM_SEAT = (
    update(TableSeat)
    .where(
        TableSeat.table_id == _ID,
        TableSeat.seat == bindparam("key_seat"),
        TableSeat.account_id.is_(None),
        TableSeat.bot_level.is_(None),
    )
    .values(account_id=bindparam("account"))
)
_COUNT_UNFINISHED = (
    select(func.count(func.distinct(GameTable.id)))
    .join(TableSeat, TableSeat.table_id == GameTable.id)
    .where(
        TableSeat.account_id == bindparam("account"),
        TableSeat.removed.is_(False),
        GameTable.status.in_((LOBBY, ACTIVE)),
    )
)
_LOCK_ACCOUNT = text("SELECT id FROM accounts WHERE id = :account FOR UPDATE")
_UPDATES: dict[tuple[Any, ...], Any] = {}


def _update_statement(kind: str, columns: tuple[str, ...], guards: tuple[str, ...]) -> Any:
    """``UPDATE <game_tables|table_seats> SET <columns> WHERE <key> AND <guards>``, built
    once per shape; values are bound as ``v_<column>``, guards as ``g_<column>``."""
    key = (kind, columns, guards)
    found = _UPDATES.get(key)
    if found is None:
        model: Any = GameTable if kind == "table" else TableSeat
        query = update(model)
        if kind == "table":
            query = query.where(GameTable.id == _ID)
        else:
            query = query.where(TableSeat.table_id == _ID, TableSeat.seat == bindparam("key_seat"))
        for guard in guards:
            query = query.where(getattr(model, guard) == bindparam(f"g_{guard}"))
        found = query.values({c: bindparam(f"v_{c}") for c in columns})
        _UPDATES[key] = found
    return found


def _table(row: Any) -> TableRow:
    return TableRow(**{c.key: getattr(row, c.key) for c in _TABLE_COLUMNS})


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything stored here is UTC.
    from datetime import UTC

    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def insert_table(connection: Connection, **values: Any) -> int:
    """Insert a table row from the column *values*; return its id."""
    result = connection.execute(_INSERT_TABLE, values)
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def insert_seats(connection: Connection, table_id: int, seats: Sequence[SeatRow]) -> None:
    """Insert the seats of a new table."""
    connection.execute(
        _INSERT_SEAT,
        [
            {
                "table_id": table_id,
                "seat": s.seat,
                "account_id": s.account_id,
                "bot_level": s.bot_level,
                "skips": s.skips,
                "removed": s.removed,
            }
            for s in seats
        ],
    )


def replace_seats(connection: Connection, table_id: int, seats: Sequence[SeatRow]) -> None:
    """Replace a table's seats with *seats*, numbered 0, 1, ... in the order given."""
    from dataclasses import replace

    connection.execute(delete(TableSeat).where(TableSeat.table_id == table_id))
    insert_seats(connection, table_id, [replace(s, seat=i) for i, s in enumerate(seats)])


def get_table(connection: Connection, table_id: int, *, lock: bool = False) -> TableRow | None:
    """The table *table_id*, or ``None``. With *lock*, the row stays locked until the
    transaction ends (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's write transactions
    are exclusive already)."""
    row = connection.execute(_GET_TABLE_LOCKED if lock else _GET_TABLE, {"key": table_id}).first()
    if row is None:
        return None
    table = _table(row)
    return _fix_times(table)


def _fix_times(table: TableRow) -> TableRow:
    from dataclasses import replace

    return replace(
        table,
        deadline=_aware(table.deadline),
        created_at=_aware(table.created_at) or table.created_at,
        updated_at=_aware(table.updated_at) or table.updated_at,
        started_at=_aware(table.started_at),
        finished_at=_aware(table.finished_at),
    )


def get_tables(connection: Connection, table_ids: Iterable[int]) -> list[TableRow]:
    """The tables with these ids (missing ones left out), newest first."""
    ids = list(table_ids)
    if not ids:
        return []
    rows = connection.execute(
        select(*_TABLE_COLUMNS).where(GameTable.id.in_(ids)).order_by(GameTable.id.desc())
    )
    return [_fix_times(_table(row)) for row in rows]


def get_version(connection: Connection, table_id: int) -> int | None:
    """The table's version (its number of events), or ``None`` if there is no such table."""
    value = connection.execute(_GET_VERSION, {"key": table_id}).scalar_one_or_none()
    return None if value is None else int(value)


def get_versions(connection: Connection, table_ids: Iterable[int]) -> dict[int, int]:
    """Versions by table id, for the tables that exist."""
    ids = list(table_ids)
    if not ids:
        return {}
    rows = connection.execute(select(GameTable.id, GameTable.version).where(GameTable.id.in_(ids)))
    return {row.id: row.version for row in rows}


def get_seats(connection: Connection, table_id: int) -> list[SeatRow]:
    """The table's seats in seat order."""
    rows = connection.execute(_GET_SEATS, {"key": table_id})
    return [SeatRow(r.seat, r.account_id, r.bot_level, r.skips, r.removed) for r in rows]


def seats_of_tables(connection: Connection, table_ids: Iterable[int]) -> dict[int, list[SeatRow]]:
    """Seats by table id, each list in seat order."""
    ids = list(table_ids)
    out: dict[int, list[SeatRow]] = {i: [] for i in ids}
    if not ids:
        return out
    rows = connection.execute(
        select(
            TableSeat.table_id,
            TableSeat.seat,
            TableSeat.account_id,
            TableSeat.bot_level,
            TableSeat.skips,
            TableSeat.removed,
        )
        .where(TableSeat.table_id.in_(ids))
        .order_by(TableSeat.table_id, TableSeat.seat)
    )
    for r in rows:
        out[r.table_id].append(SeatRow(r.seat, r.account_id, r.bot_level, r.skips, r.removed))
    return out


def claim_seat(connection: Connection, table_id: int, seat: int, account_id: int) -> bool:
    """Give an open seat to *account_id*; ``False`` if someone took it first. Raises
    ``sqlalchemy.exc.IntegrityError`` if the account already holds a seat at the table."""
    result = connection.execute(
        _CLAIM_SEAT, {"key": table_id, "key_seat": seat, "account": account_id}
    )
    return result.rowcount == 1


def set_seat(connection: Connection, table_id: int, seat: int, **values: Any) -> None:
    """Change a seat's columns (``account_id``, ``bot_level``, ``skips``, ``removed``)."""
    statement = _update_statement("seat", tuple(sorted(values)), ())
    connection.execute(
        statement, {"key": table_id, "key_seat": seat, **{f"v_{k}": v for k, v in values.items()}}
    )


def update_table(
    connection: Connection,
    table_id: int,
    *,
    where_status: str | None = None,
    where_version: int | None = None,
    **values: Any,
) -> bool:
    """Change a table's columns, only if its status and version are as given (when given).

    Returns ``False`` (and changes nothing) when the row did not match.
    """
    guards = {"status": where_status, "version": where_version}
    guards = {k: v for k, v in guards.items() if v is not None}
    statement = _update_statement("table", tuple(sorted(values)), tuple(sorted(guards)))
    params = {"key": table_id, **{f"v_{k}": v for k, v in values.items()}}
    params.update({f"g_{k}": v for k, v in guards.items()})
    return connection.execute(statement, params).rowcount == 1


def get_events(connection: Connection, table_id: int, *, since: int = 0) -> list[EventRow]:
    """The table's events numbered *since* and later, in order."""
    rows = connection.execute(_GET_EVENTS, {"key": table_id, "since": since})
    return [EventRow(r.seq, r.by, r.move) for r in rows]


def tables_of_account(
    connection: Connection,
    account_id: int,
    *,
    statuses: Sequence[str] = STATUSES,
    limit: int | None = None,
    before: int | None = None,
) -> list[int]:
    """Ids of the tables where *account_id* has (or had) a seat, newest first: at most
    *limit* of them (``None``: all), with ids below *before* when given (the next page
    after a page whose last id was *before*).

    Read in steps that cost about a page, whatever the planner's statistics: the account's
    seats newest table first (``ix_table_seats_account_table``), then the status of just
    those tables (by the primary key), again until the page is full."""
    out: list[int] = []
    step = 500 if limit is None else max(limit, 20)
    wanted = set(statuses)
    while limit is None or len(out) < limit:
        query = (
            select(TableSeat.table_id)
            .where(TableSeat.account_id == account_id)
            .distinct()
            .order_by(TableSeat.table_id.desc())
            .limit(step)
        )
        if before is not None:
            query = query.where(TableSeat.table_id < before)
        ids = list(connection.execute(query).scalars())
        if not ids:
            break
        rows = connection.execute(
            select(GameTable.id, GameTable.status).where(GameTable.id.in_(ids))
        )
        kept = {row.id for row in rows if row.status in wanted}
        out.extend(i for i in ids if i in kept)
        if len(ids) < step:
            break
        before = ids[-1]
    return out if limit is None else out[:limit]


def count_unfinished(connection: Connection, account_id: int, *, lock: bool = False) -> int:
    """How many lobby or active tables *account_id* sits at (the open-games bound). With
    *lock*, the account's row is locked first, until the transaction ends (``SELECT ... FOR
    UPDATE`` on PostgreSQL; SQLite's write transactions take turns), so that two writes
    counting for one account (joins at two tables) count one after the other."""
    if lock and connection.dialect.name == "postgresql":
        connection.execute(_LOCK_ACCOUNT, {"account": account_id})
    return int(connection.execute(_COUNT_UNFINISHED, {"account": account_id}).scalar_one())


def open_tables(
    connection: Connection, *, limit: int, game: str | None = None, before: int | None = None
) -> list[int]:
    """Ids of open (not invite-only) tables still in the lobby with a seat to take, newest
    first, at most *limit*, with ids below *before* when given (a table whose seats are all
    taken waits for its creator to start it: nobody can join it, so it is not listed).

    Whatever the planner's statistics, this never reads the seat history: waiting open
    tables are read newest first from their index (``ix_game_tables_lobby``), *limit* at a
    time, then the seats of just those tables (by the primary key)."""
    out: list[int] = []
    while len(out) < limit:
        query = (
            select(GameTable.id)
            .where(GameTable.status == LOBBY, GameTable.visibility == "open")
            .order_by(GameTable.id.desc())
            .limit(limit)
        )
        if game is not None:
            query = query.where(GameTable.game == game)
        if before is not None:
            query = query.where(GameTable.id < before)
        ids = [row.id for row in connection.execute(query)]
        if not ids:
            break
        # every seat of these tables, by the primary key (a condition on the seat's columns
        # would let stale statistics pick the account index: every open seat anywhere)
        seats = connection.execute(
            select(TableSeat.table_id, TableSeat.account_id, TableSeat.bot_level).where(
                TableSeat.table_id.in_(ids)
            )
        )
        with_seat = {r.table_id for r in seats if r.account_id is None and r.bot_level is None}
        out.extend(i for i in ids if i in with_seat)
        if len(ids) < limit:
            break
        before = ids[-1]
    return out[:limit]


def due_tables(connection: Connection, now: datetime, *, limit: int = 500) -> list[int]:
    """Active tables whose turn clock has run out at *now*, oldest deadline first."""
    rows = connection.execute(
        select(GameTable.id)
        .where(
            GameTable.status == ACTIVE, GameTable.deadline.is_not(None), GameTable.deadline <= now
        )
        .order_by(GameTable.deadline)
        .limit(limit)
    )
    return [row.id for row in rows]


def unscored_tables(connection: Connection, *, limit: int = 500) -> list[int]:
    """Finished tables not yet in the scorebook (a crash came between the two)."""
    rows = connection.execute(
        select(GameTable.id)
        .where(GameTable.status == FINISHED, GameTable.scored.is_(False))
        .order_by(GameTable.id)
        .limit(limit)
    )
    return [row.id for row in rows]


def bot_turn_tables(connection: Connection, *, limit: int = 500) -> list[int]:
    """Active tables where a computer player (or chance) is to move."""
    rows = connection.execute(
        select(GameTable.id)
        .where(GameTable.status == ACTIVE, GameTable.bot_turn.is_(True))
        .order_by(GameTable.id)
        .limit(limit)
    )
    return [row.id for row in rows]


def take_lease(
    connection: Connection, name: str, holder: str, now: datetime, until: datetime
) -> bool:
    """Take or renew the lease *name* for *holder* until *until*; ``False`` if another holder
    has it and it has not run out at *now*."""
    renewed = connection.execute(
        update(ServerLease)
        .where(
            ServerLease.name == name,
            or_(ServerLease.holder == holder, ServerLease.expires_at <= now),
        )
        .values(holder=holder, expires_at=until)
    )
    if renewed.rowcount == 1:
        return True
    exists = connection.execute(select(ServerLease.name).where(ServerLease.name == name)).first()
    if exists is not None:
        return False
    connection.execute(insert(ServerLease).values(name=name, holder=holder, expires_at=until))
    return True


def delete_table(connection: Connection, table_id: int) -> bool:
    """Delete a table with its seats and its log (a host removing it); ``False`` if there
    is no such table."""
    connection.execute(delete(TableEvent).where(TableEvent.table_id == table_id))
    connection.execute(delete(TableSeat).where(TableSeat.table_id == table_id))
    return connection.execute(delete(GameTable).where(GameTable.id == table_id)).rowcount == 1
