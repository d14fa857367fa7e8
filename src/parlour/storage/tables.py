"""Server tables: one row per game on the server, its seats, and its append-only event log.

A table's game is its event log (``table_events``: chance outcomes, actions and host events in
the game's notation, numbered from 0); the table row holds what lists and clocks need without
the game (who is to move, the deadline, the result). ``version`` is the number of events; a
write names the version it was made against and changes nothing when the row has moved on
(:func:`append_events` returns ``False``), so two writers can never both win.
Storage knows no game: it keeps JSON and notation text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from parlour.storage.models import Base

LOBBY = "lobby"
ACTIVE = "active"
FINISHED = "finished"
CANCELLED = "cancelled"
STATUSES = (LOBBY, ACTIVE, FINISHED, CANCELLED)
ONE_SEAT_WHERE = "account_id IS NOT NULL AND NOT removed"
"""The seats the one-seat-per-account index covers: a person's, not taken out by the clock."""


class GameTable(Base):
    """One game on the server (see the module docstring). ``rng_seed`` never leaves it."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    visibility: Mapped[str] = mapped_column(String(8))
    invite_code: Mapped[str] = mapped_column(String(64))
    creator_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    clock_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_skips: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    """The table's IANA time zone: where midnight is for crossword daily mode."""
    rng_seed: Mapped[str] = mapped_column(String(64))
    to_move: Mapped[list[int]] = mapped_column(JSON)
    bot_turn: Mapped[bool] = mapped_column(Boolean, index=True)
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    result: Mapped[Any] = mapped_column(JSON, nullable=True)
    lobby: Mapped[dict[str, Any]] = mapped_column(JSON)
    scored: Mapped[bool] = mapped_column(Boolean, default=False)
    """The finished game is in the scorebook (standings, statistics)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TableSeat(Base):
    """A seat: empty (open), a person (``account_id``) or a computer player (``bot_level``).

    ``skips`` counts turns lost to the clock; ``removed`` marks a person the clock took out,
    whose seat a computer player now plays. An account holds at most one seat at a table
    that is not ``removed`` (a unique index; migration ``0006_one_seat_per_account``).
    """

    __tablename__ = "table_seats"
    __table_args__ = (
        Index(
            "ix_table_seats_one_per_account",
            "table_id",
            "account_id",
            unique=True,
            sqlite_where=text(ONE_SEAT_WHERE),
            postgresql_where=text(ONE_SEAT_WHERE),
        ),
    )

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(40), nullable=True)
    skips: Mapped[int] = mapped_column(Integer, default=0)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)


class TableEvent(Base):
    """One event of a table's log: number ``seq``, who (``by``: seat, -1 chance, -4 host),
    the move in notation, and when it was stored."""

    __tablename__ = "table_events"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    by: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(2000))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerLease(Base):
    """A named lease one server process holds for a while (the clock sweeper on SQLite)."""

    __tablename__ = "server_leases"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_TABLES = cast(Table, GameTable.__table__)
_EVENTS = cast(Table, TableEvent.__table__)


_MOMENT = DateTime(timezone=True)
_EVENT_INSERT = text(
    'INSERT INTO table_events (table_id, seq, "by", move, at) '
    "VALUES (:table_id, :seq, :by, :move, :at)"
).bindparams(bindparam("at", type_=_MOMENT))
_MOVES: dict[tuple[str, ...], Any] = {}


def _move_statement(columns: tuple[str, ...]) -> Any:
    """``UPDATE game_tables SET version, updated_at, <columns> WHERE id AND version``, as
    prepared text with typed parameters, made once per set of columns (every action runs
    one; building it with the expression language each time costs more than the write)."""
    found = _MOVES.get(columns)
    if found is None:
        sets = ", ".join(f"{c} = :{c}" for c in ("version", "updated_at", *columns))
        found = text(
            f"UPDATE game_tables SET {sets} WHERE id = :id AND version = :expected"
        ).bindparams(*(bindparam(c, type_=_TABLES.c[c].type) for c in ("updated_at", *columns)))
        _MOVES[columns] = found
    return found


@dataclass(frozen=True)
class TableRow:
    """A table as read (the columns of :class:`GameTable`)."""

    id: int
    game: str
    options: dict[str, Any]
    status: str
    visibility: str
    invite_code: str
    creator_id: int
    clock_days: int | None
    max_skips: int
    version: int
    time_zone: str
    rng_seed: str
    to_move: list[int]
    bot_turn: bool
    deadline: datetime | None
    result: Any
    lobby: dict[str, Any]
    scored: bool
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True)
class SeatRow:
    """A seat as read (the columns of :class:`TableSeat`, less the table id)."""

    seat: int
    account_id: int | None
    bot_level: str | None
    skips: int
    removed: bool

    @property
    def is_open(self) -> bool:
        """True for a seat waiting for a person to join."""
        return self.account_id is None and self.bot_level is None


@dataclass(frozen=True)
class EventRow:
    """An event as read: ``seq``, ``by`` and ``move`` (notation)."""

    seq: int
    by: int
    move: str


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


def append_events(
    connection: Connection,
    table_id: int,
    *,
    expected_version: int,
    events: Sequence[tuple[int, str]],
    now: datetime,
    **values: Any,
) -> bool:
    """Append *events* (``(by, move)``) to the log made against *expected_version*, and set the
    table's other columns (*values*: to_move, deadline, ...) in the same statement.

    Returns ``False`` and writes nothing when the table is no longer at that version (a
    concurrent writer won). The caller's transaction commits both or neither.
    """
    return Append(table_id, expected_version, events, now, values)(connection)


@dataclass(frozen=True)
class Append:
    """:func:`append_events` for one table as a value, so that a writer can store the appends
    of many tables together (:func:`append_many`). Called with a connection, it is that one
    append (``False`` when the table is no longer at *expected_version*)."""

    table_id: int
    expected_version: int
    events: Sequence[tuple[int, str]]
    now: datetime
    values: dict[str, Any]

    def __call__(self, connection: Connection) -> bool:
        moved = connection.execute(_move_statement(tuple(sorted(self.values))), self._params())
        if moved.rowcount != 1:
            return False
        if self.events:
            connection.execute(_EVENT_INSERT, self._event_rows())
        return True

    def _params(self) -> dict[str, Any]:
        return {
            "id": self.table_id,
            "expected": self.expected_version,
            "version": self.expected_version + len(self.events),
            "updated_at": self.now,
            **self.values,
        }

    def _event_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "table_id": self.table_id,
                "seq": self.expected_version + i,
                "by": by,
                "move": move,
                "at": self.now,
            }
            for i, (by, move) in enumerate(self.events)
        ]


def append_many(connection: Connection, appends: Sequence[Append]) -> bool:
    """Store several tables' appends in a few statements: one guarded ``UPDATE`` run over
    all of them per set of columns, then one ``INSERT`` of every event (a round trip each,
    instead of two per table).

    Returns ``True`` when every table was at its expected version. ``False`` means at least
    one was not, and some rows may already have moved: the caller must roll the transaction
    back (and may then try each :class:`Append` alone to learn which one lost).
    """
    if connection.dialect.name == "postgresql":
        return _append_many_postgresql(connection, appends)
    by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for append in appends:
        by_columns.setdefault(tuple(sorted(append.values)), []).append(append._params())
    moved = 0
    for columns, params in by_columns.items():
        moved += connection.execute(_move_statement(columns), params).rowcount
    if moved != len(appends):
        return False
    rows = [row for append in appends for row in append._event_rows()]
    if rows:
        connection.execute(_EVENT_INSERT, rows)
    return True


_PG_EVENTS = (
    'INSERT INTO table_events (table_id, seq, "by", move, at) SELECT * FROM '
    "unnest(%s::integer[], %s::integer[], %s::integer[], %s::varchar[], %s::timestamptz[])"
)
_PG_MOVES: dict[tuple[str, ...], tuple[str, list[Any]]] = {}


def _pg_move_statement(connection: Connection, columns: tuple[str, ...]) -> tuple[str, list[Any]]:
    """The ``UPDATE ... FROM unnest(arrays)`` moving many tables at once (one statement, one
    round trip), and each set column's bind processor (so values are stored exactly as
    SQLAlchemy stores them: JSON as JSON, ``None`` in a JSON column as ``null``)."""
    found = _PG_MOVES.get(columns)
    if found is None:
        dialect = connection.dialect
        types = [_TABLES.c[c].type for c in columns]
        arrays = ", ".join(f"%s::{t.compile(dialect=dialect)}[]" for t in types)
        names = ", ".join(columns)
        sets = ", ".join(f"{c} = v.{c}" for c in ("version", "updated_at", *columns))
        found = (
            f"UPDATE game_tables AS t SET {sets} FROM unnest(%s::integer[], %s::integer[], "
            f"%s::integer[], %s::timestamptz[], {arrays}) AS v(id, expected, version, "
            f"updated_at, {names}) WHERE t.id = v.id AND t.version = v.expected",
            [t._cached_bind_processor(dialect) for t in types],
        )
        _PG_MOVES[columns] = found
    return found


def _append_many_postgresql(connection: Connection, appends: Sequence[Append]) -> bool:
    """:func:`append_many` on PostgreSQL: each statement takes its rows as arrays
    (``unnest``), so the whole batch is two or three statements, on the driver's cursor."""
    by_columns: dict[tuple[str, ...], list[Append]] = {}
    for append in appends:
        by_columns.setdefault(tuple(sorted(append.values)), []).append(append)
    cursor = connection.connection.cursor()
    try:
        moved = 0
        for columns, group in by_columns.items():
            statement, processors = _pg_move_statement(connection, columns)
            params: list[list[Any]] = [
                [a.table_id for a in group],
                [a.expected_version for a in group],
                [a.expected_version + len(a.events) for a in group],
                [a.now for a in group],
            ]
            for column, process in zip(columns, processors, strict=True):
                raw = [a.values[column] for a in group]
                params.append(raw if process is None else [process(v) for v in raw])
            cursor.execute(statement, params)
            moved += cursor.rowcount
        if moved != len(appends):
            return False
        events = [
            (a.table_id, a.expected_version + i, by, move, a.now)
            for a in appends
            for i, (by, move) in enumerate(a.events)
        ]
        if events:
            cursor.execute(_PG_EVENTS, [list(column) for column in zip(*events, strict=True)])
    finally:
        cursor.close()
    return True


def get_events(connection: Connection, table_id: int, *, since: int = 0) -> list[EventRow]:
    """The table's events numbered *since* and later, in order."""
    rows = connection.execute(_GET_EVENTS, {"key": table_id, "since": since})
    return [EventRow(r.seq, r.by, r.move) for r in rows]


def tables_of_account(
    connection: Connection, account_id: int, *, statuses: Sequence[str] = STATUSES
) -> list[int]:
    """Ids of the tables where *account_id* has (or had) a seat, newest first."""
    rows = connection.execute(
        select(GameTable.id)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(TableSeat.account_id == account_id, GameTable.status.in_(statuses))
        .distinct()
        .order_by(GameTable.id.desc())
    )
    return [row.id for row in rows]


def count_unfinished(connection: Connection, account_id: int, *, lock: bool = False) -> int:
    """How many lobby or active tables *account_id* sits at (the open-games bound). With
    *lock*, the account's row is locked first, until the transaction ends (``SELECT ... FOR
    UPDATE`` on PostgreSQL; SQLite's write transactions take turns), so that two writes
    counting for one account (joins at two tables) count one after the other."""
    if lock and connection.dialect.name == "postgresql":
        connection.execute(_LOCK_ACCOUNT, {"account": account_id})
    return int(connection.execute(_COUNT_UNFINISHED, {"account": account_id}).scalar_one())


def open_tables(connection: Connection, *, limit: int, game: str | None = None) -> list[int]:
    """Ids of open (not invite-only) tables still in the lobby with a seat to take, newest
    first (a table whose seats are all taken waits for its creator to start it: nobody can
    join it, so it is not listed)."""
    seat_to_take = (
        select(TableSeat.seat)
        .where(
            TableSeat.table_id == GameTable.id,
            TableSeat.account_id.is_(None),
            TableSeat.bot_level.is_(None),
        )
        .exists()
    )
    query = (
        select(GameTable.id)
        .where(GameTable.status == LOBBY, GameTable.visibility == "open", seat_to_take)
        .order_by(GameTable.id.desc())
        .limit(limit)
    )
    if game is not None:
        query = query.where(GameTable.game == game)
    return [row.id for row in connection.execute(query)]


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
