"""Migration ``0006_one_seat_per_account``: duplicate seats stored before it are resolved
(lobby: opened again, votes dropped; started: a computer player takes the later seat), then
the database refuses a second live seat for one account at a table."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Connection, create_engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from parlour.storage.accounts import Account
from parlour.storage.db import alembic_config
from parlour.storage.tables import GameTable, TableSeat

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _table(connection: Connection, table_id: int, status: str, **values: Any) -> None:
    row: dict[str, Any] = {
        "id": table_id,
        "game": "crossword",
        "options": {"players": 3},
        "status": status,
        "visibility": "open",
        "invite_code": f"code{table_id}",
        "creator_id": 1,
        "clock_days": None,
        "max_skips": 3,
        "version": 0,
        "time_zone": "UTC",
        "rng_seed": "seed",
        "to_move": [],
        "bot_turn": False,
        "deadline": None,
        "result": None,
        "lobby": {},
        "scored": False,
        "created_at": NOW,
        "updated_at": NOW,
    }
    connection.execute(insert(GameTable).values({**row, **values}))


def _seats(connection: Connection, table_id: int, *accounts: int | None, removed: int = -1) -> None:
    connection.execute(
        insert(TableSeat),
        [
            {
                "table_id": table_id,
                "seat": seat,
                "account_id": account,
                "bot_level": "hard" if seat == removed else None,
                "skips": 0,
                "removed": seat == removed,
            }
            for seat, account in enumerate(accounts)
        ],
    )


def _rows(connection: Connection, table_id: int) -> list[tuple[Any, ...]]:
    rows = connection.execute(
        select(TableSeat.account_id, TableSeat.bot_level, TableSeat.removed)
        .where(TableSeat.table_id == table_id)
        .order_by(TableSeat.seat)
    )
    return [tuple(r) for r in rows]


def test_duplicate_seats_are_resolved_then_refused(db_url: str) -> None:
    config = alembic_config(db_url)
    engine = create_engine(db_url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")  # PostgreSQL's test database is there already
            command.downgrade(config, "0005_server_days")
        with engine.begin() as connection:
            for key in ("ann", "bob"):
                connection.execute(
                    insert(Account).values(
                        name=key, name_key=key, password_hash="x", created_at=NOW
                    )
                )
            # 1: a lobby where bob took two seats, and voted from both
            _table(connection, 1, "lobby", lobby={"votes": [2, 0, 1]})
            _seats(connection, 1, 1, 2, 2, None)
            # 2: a crossword that filled with bob twice, waiting for his second seat
            _table(connection, 2, "active", to_move=[2])
            _seats(connection, 2, 1, 2, 2)
            # 3: a finished game with bob twice; 4: bob's first seat the clock took over
            _table(connection, 3, "finished")
            _seats(connection, 3, 2, 2, 1)
            _table(connection, 4, "active", to_move=[0])
            _seats(connection, 4, 1, 2, 2, removed=1)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")
        with engine.begin() as connection:
            assert (
                _rows(connection, 1)
                == [(1, None, False), (2, None, False)] + [(None, None, False)] * 2
            )
            lobby = connection.execute(select(GameTable.lobby).where(GameTable.id == 1))
            assert lobby.scalar_one() == {"votes": [0, 1]}
            assert _rows(connection, 2) == [(1, None, False), (2, None, False), (2, "hard", True)]
            assert connection.execute(
                select(GameTable.bot_turn).where(GameTable.id == 2)
            ).scalar_one()
            assert _rows(connection, 3) == [(2, None, False), (2, "hard", True), (1, None, False)]
            assert _rows(connection, 4) == [(1, None, False), (2, "hard", True), (2, None, False)]
            assert not connection.execute(
                select(GameTable.bot_turn).where(GameTable.id == 4)
            ).scalar_one()
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(
                update(TableSeat)
                .where(TableSeat.table_id == 1, TableSeat.seat == 2)
                .values(account_id=2)
            )
        with engine.begin() as connection:  # a removed seat is outside the index
            connection.execute(
                update(TableSeat)
                .where(TableSeat.table_id == 1, TableSeat.seat == 2)
                .values(account_id=2, bot_level="hard", removed=True)
            )
    finally:
        engine.dispose()
