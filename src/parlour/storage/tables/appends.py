"""Appending to table logs: one table's append guarded by its version (:class:`Append`),
and many tables' appends stored together (:func:`append_many`; on PostgreSQL through
:mod:`parlour.storage.tables.postgresql`). See :mod:`parlour.storage.tables`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, DateTime, bindparam, text

from parlour.storage.tables.postgresql import append_many_postgresql
from parlour.storage.tables.schema import TABLES

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
        ).bindparams(*(bindparam(c, type_=TABLES.c[c].type) for c in ("updated_at", *columns)))
        _MOVES[columns] = found
    return found


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


def append_many(
    connection: Connection,
    appends: Sequence[Append],
    notify: tuple[str, Sequence[str]] | None = None,
) -> bool:
    """Store several tables' appends in a few statements: one guarded ``UPDATE`` run over
    all of them per set of columns, then one ``INSERT`` of every event (a round trip each,
    instead of two per table; on PostgreSQL all in one statement).

    *notify* ``(channel, payloads)`` (PostgreSQL only, with at least one append; else
    ``ValueError``): a ``pg_notify`` of each payload in that same statement, which
    PostgreSQL delivers when the transaction commits (the fan-out between processes).

    Returns ``True`` when every table was at its expected version. ``False`` means at least
    one was not, and some rows may already have moved: the caller must roll the transaction
    back (and may then try each :class:`Append` alone to learn which one lost).
    """
    if connection.dialect.name == "postgresql":
        return append_many_postgresql(connection, appends, notify)
    if notify is not None:
        raise ValueError("notifications go with the appends on PostgreSQL only")
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
