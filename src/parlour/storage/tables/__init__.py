"""Server tables: one row per game on the server, its seats, and its append-only event log.

A table's game is its event log (``table_events``: chance outcomes, actions and host events in
the game's notation, numbered from 0); the table row holds what lists and clocks need without
the game (who is to move, the deadline, the result). ``version`` is the number of events; a
write names the version it was made against and changes nothing when the row has moved on
(:func:`append_events` returns ``False``), so two writers can never both win.
Storage knows no game: it keeps JSON and notation text.

By concern: :mod:`.schema` (the models and the rows read back), :mod:`.queries` (one
statement at a time: rows, seats, the log, lists, leases), :mod:`.appends` (appending to logs,
one table or many together) and :mod:`.postgresql` (the bulk path of many appends on
PostgreSQL). Every public name is importable from here.
"""

from __future__ import annotations

from parlour.storage.tables.appends import (
    Append,
    append_events,
    append_many,
)
from parlour.storage.tables.queries import (
    bot_turn_tables,
    claim_seat,
    count_unfinished,
    delete_table,
    due_tables,
    get_events,
    get_seats,
    get_table,
    get_tables,
    get_version,
    get_versions,
    insert_seats,
    insert_table,
    open_tables,
    replace_seats,
    seats_of_tables,
    set_seat,
    tables_of_account,
    take_lease,
    unscored_tables,
    update_table,
)
from parlour.storage.tables.schema import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    ONE_SEAT_WHERE,
    STATUSES,
    TABLES,
    EventRow,
    GameTable,
    SeatRow,
    ServerLease,
    TableEvent,
    TableRow,
    TableSeat,
)

__all__ = [
    "ACTIVE",
    "CANCELLED",
    "FINISHED",
    "LOBBY",
    "ONE_SEAT_WHERE",
    "STATUSES",
    "TABLES",
    "Append",
    "EventRow",
    "GameTable",
    "SeatRow",
    "ServerLease",
    "TableEvent",
    "TableRow",
    "TableSeat",
    "append_events",
    "append_many",
    "bot_turn_tables",
    "claim_seat",
    "count_unfinished",
    "delete_table",
    "due_tables",
    "get_events",
    "get_seats",
    "get_table",
    "get_tables",
    "get_version",
    "get_versions",
    "insert_seats",
    "insert_table",
    "open_tables",
    "replace_seats",
    "seats_of_tables",
    "set_seat",
    "tables_of_account",
    "take_lease",
    "unscored_tables",
    "update_table",
]
