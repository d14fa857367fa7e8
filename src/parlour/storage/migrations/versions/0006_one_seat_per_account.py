"""server: one seat per account per table, enforced by a partial unique index

A person holds at most one live seat at a table: a unique index on ``table_seats
(table_id, account_id)`` over the rows with an account that the clock has not taken out
(``removed``: a computer player plays that seat now, the account's name stays for the
record). Racing joins by one account could give it several seats before this revision; such
duplicates are resolved first, keeping the account in its lowest seat:

- a table in the lobby (or cancelled): each later seat is opened again and its vote to
  begin is dropped;
- a started table (active or finished): each later seat is handed to a computer player at
  the game's strongest level, as the clock does after too many skips (``removed``), so a
  game that waited for a seat nobody could act for moves on (its runner is woken).

Revision ID: 0006_one_seat_per_account
Revises: 0005_server_days
Create Date: 2026-12-01
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006_one_seat_per_account"
down_revision = "0005_server_days"
branch_labels = None
depends_on = None

INDEX = "ix_table_seats_one_per_account"
WHERE = "account_id IS NOT NULL AND NOT removed"

STRONGEST = {"crossword": "hard", "greedy": "strong", "rummy": "hard", "ten-thousand": "strong"}
"""The strongest computer level of each game at this revision (a later game: its spec's)."""

_tables = sa.table(
    "game_tables",
    sa.column("id", sa.Integer()),
    sa.column("game", sa.String()),
    sa.column("status", sa.String()),
    sa.column("lobby", sa.JSON()),
    sa.column("to_move", sa.JSON()),
    sa.column("bot_turn", sa.Boolean()),
)
_seats = sa.table(
    "table_seats",
    sa.column("table_id", sa.Integer()),
    sa.column("seat", sa.Integer()),
    sa.column("account_id", sa.Integer()),
    sa.column("bot_level", sa.String()),
    sa.column("removed", sa.Boolean()),
)


def _strongest(game: str) -> str | None:
    if game in STRONGEST:
        return STRONGEST[game]
    try:
        from parlour.engine.registry import find

        levels = find(game).bot_levels
    except Exception:  # a game this installation does not know
        return None
    return levels[-1] if levels else None


def _duplicates(bind: Any) -> dict[int, list[int]]:
    """The later seats of each account holding several live seats, by table id."""
    rows = bind.execute(
        sa.select(_seats.c.table_id, _seats.c.seat, _seats.c.account_id)
        .where(_seats.c.account_id.is_not(None), sa.not_(_seats.c.removed))
        .order_by(_seats.c.table_id, _seats.c.account_id, _seats.c.seat)
    )
    seen: set[tuple[int, int]] = set()
    later: dict[int, list[int]] = {}
    for table_id, seat, account_id in rows:
        if (table_id, account_id) in seen:
            later.setdefault(table_id, []).append(seat)
        seen.add((table_id, account_id))
    return later


def _resolve(bind: Any, table_id: int, later: list[int]) -> None:
    table = bind.execute(sa.select(_tables).where(_tables.c.id == table_id)).one()
    seat_is = sa.and_(_seats.c.table_id == table_id, _seats.c.seat.in_(later))
    if table.status in ("lobby", "cancelled"):
        bind.execute(sa.update(_seats).where(seat_is).values(account_id=None))
        lobby = dict(table.lobby or {})
        votes = [v for v in lobby.get("votes", []) if v not in later]
        if votes != lobby.get("votes", []):
            bind.execute(
                sa.update(_tables)
                .where(_tables.c.id == table_id)
                .values(lobby={**lobby, "votes": votes})
            )
        return
    level = _strongest(table.game)
    bind.execute(sa.update(_seats).where(seat_is).values(removed=True, bot_level=level))
    if table.status == "active" and level is not None and set(table.to_move or []) & set(later):
        bind.execute(sa.update(_tables).where(_tables.c.id == table_id).values(bot_turn=True))


def upgrade() -> None:
    bind = op.get_bind()
    for table_id, later in sorted(_duplicates(bind).items()):
        _resolve(bind, table_id, later)
    op.create_index(
        INDEX,
        "table_seats",
        ["table_id", "account_id"],
        unique=True,
        sqlite_where=sa.text(WHERE),
        postgresql_where=sa.text(WHERE),
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="table_seats")
