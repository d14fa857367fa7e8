"""The lobby list and "My tables" with thousands of tables: the right tables, newest first,
paged in the database, and a page reads about its own rows whatever the planner's statistics
(on PostgreSQL the statistics are taken before the waiting tables arrive, as after a quiet
night; EXPLAIN ANALYZE counts the rows each statement touched)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event, insert, text

from parlour.storage.accounts import create_account
from parlour.storage.db import forget_engines, open_database
from parlour.storage.tables import open_tables, tables_of_account
from parlour.storage.tables.schema import GameTable, TableSeat
from tests.quick_game import QUICK_GAME

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
WAITING = 3_000
HISTORY = 12_000


def _rows(status: str, count: int, creator: int, visibility: str = "open") -> list[dict[str, Any]]:
    return [
        {
            "game": QUICK_GAME,
            "options": {},
            "status": status,
            "visibility": visibility,
            "invite_code": f"code{i}",
            "creator_id": creator,
            "clock_days": None,
            "max_skips": 3,
            "version": 0,
            "time_zone": "UTC",
            "rng_seed": "seed",
            "to_move": [0],
            "bot_turn": False,
            "deadline": None,
            "result": None,
            "lobby": {},
            "scored": status == "finished",
            "created_at": NOW,
            "updated_at": NOW,
            "started_at": None,
            "finished_at": None,
        }
        for i in range(count)
    ]


def _add(connection: Connection, rows: list[dict[str, Any]], second_seat: int | None) -> list[int]:
    """Insert the tables *rows* with the creator in seat 0 and *second_seat* (an account, or
    ``None``: open) in seat 1; return their ids, oldest first."""
    first = connection.execute(text("SELECT coalesce(max(id), 0) FROM game_tables")).scalar_one()
    connection.execute(insert(GameTable), rows)
    ids = list(
        connection.execute(
            text("SELECT id FROM game_tables WHERE id > :first ORDER BY id"), {"first": first}
        ).scalars()
    )
    seats = [
        {"table_id": i, "seat": 0, "account_id": r["creator_id"], "bot_level": None}
        for i, r in zip(ids, rows, strict=True)
    ] + [{"table_id": i, "seat": 1, "account_id": second_seat, "bot_level": None} for i in ids]
    connection.execute(insert(TableSeat), [{**s, "skips": 0, "removed": False} for s in seats])
    return ids


class World:
    def __init__(
        self, engine: Engine, ann: int, bob: int, waiting: list[int], history: list[int]
    ) -> None:
        self.history = history
        self.engine = engine
        self.ann = ann
        self.bob = bob
        self.waiting = waiting


@pytest.fixture
def world(db_url: str) -> Iterator[World]:
    engine = open_database(db_url)
    with engine.begin() as connection:
        ann, bob = (
            create_account(connection, name=n, name_key=n, password_hash="x", now=NOW)
            for n in ("ann", "bob")
        )
        # the history: finished games of ann's with bob
        history = _add(connection, _rows("finished", HISTORY, ann), bob)
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            for table in ("game_tables", "table_seats"):
                connection.execute(text(f"ALTER TABLE {table} SET (autovacuum_enabled = false)"))
                connection.execute(text(f"ANALYZE {table}"))
    with engine.begin() as connection:  # then, unknown to the statistics: the waiting tables
        waiting = _add(connection, _rows("lobby", WAITING, bob), None)
        _add(connection, _rows("lobby", 50, bob), ann)  # full: waiting for the start
        _add(connection, _rows("lobby", 50, bob, visibility="invite"), None)  # invite only
    try:
        yield World(engine, ann, bob, waiting, history)
    finally:
        if engine.dialect.name == "postgresql":
            with engine.begin() as connection:
                for table in ("game_tables", "table_seats"):
                    connection.execute(text(f"ALTER TABLE {table} RESET (autovacuum_enabled)"))
        forget_engines()


def _touched(engine: Engine, read: Callable[[Connection], Any]) -> tuple[Any, int]:
    """What *read* returns, and the rows its statements touched: on PostgreSQL the rows every
    plan node produced or filtered out (EXPLAIN ANALYZE); on SQLite 0, after checking that
    no statement scans a whole table (EXPLAIN QUERY PLAN)."""
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        statements.append((statement, parameters))

    with engine.connect() as connection:
        event.listen(connection, "before_cursor_execute", seen)
        try:
            found = read(connection)
        finally:
            event.remove(connection, "before_cursor_execute", seen)
        touched = 0
        for statement, parameters in statements:
            if engine.dialect.name == "sqlite":
                plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
                details = [row[3] for row in plan]
                assert not [d for d in details if d.startswith("SCAN")], (statement, details)
                continue
            explained = connection.exec_driver_sql(
                f"EXPLAIN (ANALYZE, FORMAT JSON) {statement}", parameters
            ).scalar_one()
            plan = explained if isinstance(explained, list) else json.loads(explained)
            touched += _rows_of(plan[0]["Plan"])

    return found, touched


def _rows_of(node: dict[str, Any]) -> int:
    loops = int(node.get("Actual Loops", 1))
    rows = int(node.get("Actual Rows", 0)) * loops
    for removed in ("Rows Removed by Filter", "Rows Removed by Join Filter"):
        rows += int(node.get(removed, 0))
    return rows + sum(_rows_of(child) for child in node.get("Plans", ()))


def test_the_lobby_lists_and_pages_the_newest_open_waiting_tables_touching_about_a_page(
    world: World,
) -> None:
    found, touched = _touched(world.engine, lambda c: open_tables(c, limit=100))
    assert found == world.waiting[::-1][:100]
    assert touched <= 2_000  # the old join: millions here; any scan of the seats: 30,000
    seen: list[int] = []
    before = None
    with world.engine.connect() as connection:
        while True:
            page = open_tables(connection, limit=100, before=before)
            if not page:
                break
            seen += page
            before = page[-1]
        assert seen == world.waiting[::-1]
        assert open_tables(connection, limit=5, game="crossword") == []


def test_my_tables_are_paged_newest_first_touching_about_a_page(world: World) -> None:
    found, touched = _touched(world.engine, lambda c: tables_of_account(c, world.ann, limit=100))
    with world.engine.connect() as connection:
        everything = tables_of_account(connection, world.ann)
    assert len(everything) == HISTORY + 50  # the finished games and the full tables
    assert found == everything[:100]
    assert touched <= 2_000  # the whole history (12,000 tables) was read before
    pages: list[int] = []
    before = None
    with world.engine.connect() as connection:
        while True:
            page = tables_of_account(connection, world.ann, limit=700, before=before)
            if not page:
                break
            assert len(page) <= 700
            pages += page
            before = page[-1]
        finished = tables_of_account(connection, world.ann, statuses=("finished",), limit=3)
    assert pages == everything
    assert finished == world.history[::-1][:3]
