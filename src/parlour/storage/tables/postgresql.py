"""The PostgreSQL bulk path of :func:`parlour.storage.tables.append_many`: each statement
takes its rows as arrays (``unnest``), on the driver's cursor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from parlour.storage.tables.schema import TABLES

if TYPE_CHECKING:
    from parlour.storage.tables.appends import Append

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
        types = [TABLES.c[c].type for c in columns]
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


def append_many_postgresql(connection: Connection, appends: Sequence[Append]) -> bool:
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
