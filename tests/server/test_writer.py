"""The group writer on the real database: plain appends of many tables stored together, one
stale append failing alone, and several writer threads sharing the queue."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

import pytest

from parlour.server.services.context import ServerContext
from parlour.server.services.writer import GroupWriter
from parlour.server.settings import Settings
from parlour.storage.db import open_database, write_transaction
from parlour.storage.tables import Append, append_many, get_events, get_table
from tests.server.helpers import setup_table

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def started_tables(ctx: ServerContext, count: int) -> dict[int, int]:
    """*count* started two-person Ten-Thousand tables: id -> version."""
    tables: dict[int, int] = {}
    for i in range(count):
        table_id, _ = setup_table(ctx, (f"ann{i}", f"bob{i}"))
        with ctx.engine.connect() as connection:
            table = get_table(connection, table_id)
            assert table is not None
            tables[table_id] = table.version
    return tables


def append(table_id: int, version: int, moves: int = 2) -> Append:
    events = [(i % 2, f"move {version + i}") for i in range(moves)]
    return Append(table_id, version, events, NOW, {"to_move": [1]})


@pytest.fixture
def ctx(settings: Settings) -> ServerContext:
    return ServerContext(engine=open_database(settings.database_url), settings=settings)


def stored(ctx: ServerContext, table_id: int) -> tuple[int, list[str]]:
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
        assert table is not None
        return table.version, [e.move for e in get_events(connection, table_id)]


def test_append_many_stores_every_table_or_says_one_moved_on(ctx: ServerContext) -> None:
    tables = started_tables(ctx, 3)
    before = {t: stored(ctx, t)[1] for t in tables}
    with write_transaction(ctx.engine) as connection:
        assert append_many(connection, [append(t, v) for t, v in tables.items()])
    for table_id, version in tables.items():
        now, moves = stored(ctx, table_id)
        assert now == version + 2
        assert moves == [*before[table_id], f"move {version}", f"move {version + 1}"]
    # the columns are stored as the one-table path stores them (JSON, times, flags, nulls)
    first, second, third = tables
    columns: list[dict[str, Any]] = [
        {"to_move": [0, 1], "bot_turn": True, "deadline": NOW},
        {"to_move": [], "snapshot": {"dice": [1, 5], "text": "é"}, "snapshot_version": 9},
        {"to_move": [1], "bot_turn": False, "deadline": None},
    ]
    bulk = [
        Append(t, tables[t] + 2, [(0, "x")], NOW, values)
        for t, values in zip((first, second, third), columns, strict=True)
    ]
    with write_transaction(ctx.engine) as connection:
        assert append_many(connection, bulk)
    with ctx.engine.connect() as connection:
        rows = {t: get_table(connection, t) for t in tables}
    for append_, values in zip(bulk, columns, strict=True):
        row = rows[append_.table_id]
        assert row is not None and row.version == append_.expected_version + 1
        assert row.updated_at == NOW
        for column, value in values.items():
            assert getattr(row, column) == value, column
    tables = {t: v + 1 for t, v in tables.items()}
    # one append made against the old version: False, and the caller rolls back
    appends = [append(t, v + 2) for t, v in tables.items() if t != first]
    appends.append(append(first, tables[first]))
    with pytest.raises(RuntimeError), write_transaction(ctx.engine) as connection:
        if not append_many(connection, appends):
            raise RuntimeError("rolled back")
    assert {t: stored(ctx, t)[0] for t in tables} == {t: v + 2 for t, v in tables.items()}


def test_a_stale_append_in_a_batch_fails_alone(ctx: ServerContext) -> None:
    tables = started_tables(ctx, 3)
    stale_id = next(iter(tables))
    batch: list[tuple[Any, Future[Any]]] = []
    for table_id, version in tables.items():
        guess = version - 1 if table_id == stale_id else version
        batch.append((append(table_id, guess), Future()))
    seen: list[str] = []
    batch.insert(1, (lambda connection: seen.append("ran") or "other", Future()))
    writer = GroupWriter(ctx.engine)
    writer._write(batch)  # one batch, as the writer thread would take it
    answers = [future.result() for _, future in batch]
    assert answers == [False, "other", True, True]
    assert seen == ["ran"]  # the stale append stopped the batch first; then each alone
    for table_id, version in tables.items():
        assert stored(ctx, table_id)[0] == (version if table_id == stale_id else version + 2)


@pytest.mark.parametrize("threads", [1, 3])
def test_writer_threads_store_every_append_in_order(ctx: ServerContext, threads: int) -> None:
    tables = started_tables(ctx, 6)
    writer = GroupWriter(ctx.engine, threads=threads)
    writer.start()
    errors: list[BaseException] = []

    def play(table_id: int, version: int) -> None:
        # one table's appends one after another (as its lock makes them), tables at once
        try:
            for _ in range(20):
                assert writer.submit(append(table_id, version, moves=1)).result() is True
                version += 1
        except BaseException as err:  # pragma: no cover - shown on failure
            errors.append(err)

    workers = [threading.Thread(target=play, args=item) for item in tables.items()]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    writer.stop()
    assert errors == []
    assert writer.writes == 6 * 20 and writer.batches <= writer.writes
    for table_id, version in tables.items():
        now, moves = stored(ctx, table_id)
        assert now == version + 20
        assert moves[version:] == [f"move {version + i}" for i in range(20)]
