"""Finished games into the scorebook (Greedy standings, Rummy statistics), and reading them.

The scorebook (:mod:`parlour.scorebook`) keeps its own transactions, so a finished table is
recorded right after the commit that finished it, then marked ``scored``; the sweeper records
any finished table left unscored (a crash between the two). People are named by their
account names; computer players (and people the clock took out) count as computer players.
"""

from __future__ import annotations

import logging
from typing import Any

from parlour.scorebook import record_finished_game
from parlour.server.services.cache import Entry, current_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.ratings import rate_table
from parlour.storage.db import write_transaction
from parlour.storage.rummy_stats import rummy_stats
from parlour.storage.standings import greedy_standings
from parlour.storage.tables import update_table

log = logging.getLogger("parlour.server")


def people(entry: Entry) -> list[str | None]:
    """One entry per seat: the person's account name, or ``None`` for a computer player."""
    return [
        None if entry.plays_itself(seat.seat) or seat.account_id is None else entry.names[i]
        for i, seat in enumerate(entry.seats)
    ]


def score_finished(ctx: ServerContext, table_id: int) -> bool:
    """Record the finished table *table_id* in the scorebook once; True if it was recorded
    now. Errors are logged, not raised (the game itself is safely stored)."""
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        if entry.table.status != "finished" or entry.table.scored:
            return False
        try:
            rate_table(ctx, entry)  # once per table (keyed by its id): services.ratings
            if entry.state.is_terminal():  # a resigned game ends off the rules: no scorebook
                record_finished_game(ctx.engine, entry.state, people(entry))
        except Exception:
            log.exception("table %s: the scorebook or the ratings refused the game", table_id)
            return False
        with write_transaction(ctx.engine) as connection:
            update_table(connection, table_id, where_status="finished", scored=True)
        ctx.cache.drop(table_id)  # the row changed
        return True


def standings(ctx: ServerContext) -> list[dict[str, Any]]:
    """Greedy tournament standings, best first (``docs/rules/greedy.md``)."""
    return [
        {
            "name": s.name,
            "games": s.games,
            "wins": s.wins,
            "losses": s.losses,
            "points": s.points,
            "best_margin": s.best_margin,
        }
        for s in greedy_standings(ctx.engine)
    ]


def statistics(ctx: ServerContext, name: str | None = None) -> list[dict[str, Any]]:
    """Rummy statistics per person (``docs/rules/rummy.md#statistics``)."""
    return [s.to_json() for s in rummy_stats(ctx.engine, name)]
