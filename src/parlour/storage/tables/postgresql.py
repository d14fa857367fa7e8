"""The PostgreSQL bulk path of :func:`parlour.storage.tables.append_many`: the whole batch in
one statement (a guarded ``UPDATE`` per set of columns and the events' ``INSERT`` as
data-modifying ``WITH`` queries, and the notifications asked for), each taking its rows as
arrays (``unnest``), on the driver's cursor: one round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from parlour.storage.tables.schema import TABLES

if TYPE_CHECKING:
    from parlour.storage.tables.appends import Append

_PG_STATEMENTS: dict[tuple[tuple[str, ...], ...], tuple[str, list[list[Any]]]] = {}


def _pg_statement(
    connection: Connection, groups: tuple[tuple[str, ...], ...]
) -> tuple[str, list[list[Any]]]:
    """The one statement storing appends whose set columns fall in *groups* (a tuple of
    column names per group): ``WITH m0 AS (UPDATE game_tables ... FROM unnest(arrays)
    RETURNING id), m1 AS (...), moved AS (the ids of all), added AS (INSERT INTO
    table_events ... of the moved tables only RETURNING 1) SELECT count(moved),
    count(added), count(pg_notify(channel, each payload))``; and each group's bind
    processors (so values are stored exactly as SQLAlchemy stores them: JSON as JSON,
    ``None`` in a JSON column as ``null``). Events of a table that did not move are not
    inserted, so a stale append never meets another process's events, only a count
    short."""
    found = _PG_STATEMENTS.get(groups)
    if found is None:
        dialect = connection.dialect
        parts: list[str] = []
        processors: list[list[Any]] = []
        for i, columns in enumerate(groups):
            types = [TABLES.c[c].type for c in columns]
            arrays = "".join(f", %s::{t.compile(dialect=dialect)}[]" for t in types)
            names = "".join(f", {c}" for c in columns)
            sets = ", ".join(f"{c} = v.{c}" for c in ("version", "updated_at", *columns))
            parts.append(
                f"m{i} AS (UPDATE game_tables AS t SET {sets} FROM unnest(%s::integer[], "
                f"%s::integer[], %s::integer[], %s::timestamptz[]{arrays}) AS v(id, expected, "
                f"version, updated_at{names}) WHERE t.id = v.id AND t.version = v.expected "
                "RETURNING t.id)"
            )
            processors.append([t._cached_bind_processor(dialect) for t in types])
        ids = " UNION ALL ".join(f"SELECT id FROM m{i}" for i in range(len(groups)))
        found = (
            f"WITH {', '.join(parts)}, moved AS ({ids}), added AS (INSERT INTO table_events "
            '(table_id, seq, "by", move, at) SELECT * FROM unnest(%s::integer[], '
            "%s::integer[], %s::integer[], %s::varchar[], %s::timestamptz[]) AS e(table_id, "
            "seq, by_, move, at) WHERE e.table_id IN (SELECT id FROM moved) RETURNING 1) "
            "SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM added), (SELECT "
            "count(*) FROM (SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p) AS n)",
            processors,
        )
        _PG_STATEMENTS[groups] = found
    return found


def append_many_postgresql(
    connection: Connection,
    appends: Sequence[Append],
    notify: tuple[str, Sequence[str]] | None = None,
) -> bool:
    """:func:`append_many` on PostgreSQL: the whole batch and the notifications *notify*
    asks for (``(channel, payloads)``) in one statement (see :func:`_pg_statement`), its
    rows as arrays (``unnest``), on the driver's cursor."""
    if not appends:
        if notify is not None:
            raise ValueError("notifications go with at least one append")
        return True
    by_columns: dict[tuple[str, ...], list[Append]] = {}
    for append in appends:
        by_columns.setdefault(tuple(sorted(append.values)), []).append(append)
    groups = tuple(by_columns)
    statement, processors = _pg_statement(connection, groups)
    params: list[Any] = []
    for columns, process_group in zip(groups, processors, strict=True):
        group = by_columns[columns]
        params += [
            [a.table_id for a in group],
            [a.expected_version for a in group],
            [a.expected_version + len(a.events) for a in group],
            [a.now for a in group],
        ]
        for column, process in zip(columns, process_group, strict=True):
            raw = [a.values[column] for a in group]
            params.append(raw if process is None else [process(v) for v in raw])
    events = [
        (a.table_id, a.expected_version + i, by, move, a.now)
        for a in appends
        for i, (by, move) in enumerate(a.events)
    ]
    params += [list(column) for column in zip(*events, strict=True)] if events else [[]] * 5
    channel, payloads = notify if notify is not None else ("", ())
    params += [channel, list(payloads)]
    cursor = connection.connection.cursor()
    try:
        cursor.execute(statement, params)
        row = cursor.fetchone()
    finally:
        cursor.close()
    return row is not None and row[0] == len(appends)
