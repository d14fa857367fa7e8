"""Computer players' moves made by exactly one server process at a time.

Every process's runner is woken for tables where a computer player is to move: the process
that committed the change before, any process's sweeper, and every process at start-up. On
PostgreSQL :func:`play_bots_once` moves for the table only while it holds the table's session
advisory lock (``pg_try_advisory_lock(BOT_LOCK, table_id)``, on a connection it keeps for the
turn); a process that does not get it leaves the table to the holder. The holder looks at the
table again *after* letting go, so a turn handed to a computer while it held the lock (a move
through another process, whose runner found the lock taken) is still played: by the holder,
or by the other process, which then gets the lock. A process that dies mid-turn loses its
connection, so PostgreSQL releases the lock; the next sweep of any process
(``Settings.sweep_seconds``) finds the table with a computer to move and wakes its runner.

The lock saves the work (a bot thinks once per turn); the stored log never depended on it:
each move is written against the version it was made at, so of two processes moving at once
only one move is stored (:mod:`parlour.server.services.play`). On SQLite (one process)
:func:`play_bots_once` is :func:`~parlour.server.services.play.play_bots`.
"""

from __future__ import annotations

from sqlalchemy import text

from parlour.server.services.context import ServerContext
from parlour.server.services.play import play_bots
from parlour.storage.tables import ACTIVE, get_table

BOT_LOCK = 0x70626F74  # "pbot": the advisory lock space of computer players' turns
EMPTY_ROUNDS = 2
"""Rounds in a row that move nothing after which a computer still to move is left to the
sweeper (a computer player whose move is refused must not spin)."""


def play_bots_once(ctx: ServerContext, table_id: int) -> int:
    """Let computer players move at *table_id* while one is to move, in this process only if
    no other is doing so (see the module docstring); return the moves made here."""
    if ctx.engine.dialect.name != "postgresql":
        return play_bots(ctx, table_id)
    moves = 0
    empty = 0
    while empty < EMPTY_ROUNDS:
        with ctx.engine.connect() as connection:
            got = connection.execute(
                text("SELECT pg_try_advisory_lock(:space, :table)"),
                {"space": BOT_LOCK, "table": table_id},
            ).scalar_one()
            connection.commit()
            if not got:
                return moves  # the holder looks again once it lets go
            try:
                made = play_bots(ctx, table_id)
            finally:
                connection.execute(
                    text("SELECT pg_advisory_unlock(:space, :table)"),
                    {"space": BOT_LOCK, "table": table_id},
                )
                connection.commit()
        moves += made
        empty = 0 if made else empty + 1
        if not _computer_to_move(ctx, table_id):
            return moves
    return moves


def _computer_to_move(ctx: ServerContext, table_id: int) -> bool:
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
    return table is not None and table.status == ACTIVE and table.bot_turn
