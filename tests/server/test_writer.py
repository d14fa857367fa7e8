"""The group writer on the real database: plain appends of many tables stored together, one
stale append failing alone, several writer threads sharing the queue, nothing acknowledged
before its commit (on the batch path and write by write), and a writer that died refusing
every write at once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, event

from parlour.server import create_app
from parlour.server.errors import Unavailable
from parlour.server.services import play
from parlour.server.services.cache import current_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.writer import GroupWriter, Write
from parlour.server.settings import Settings
from parlour.storage.db import open_database, write_transaction
from parlour.storage.tables import Append, append_many, get_events, get_table
from tests.server.helpers import people_table, setup_table

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
        {"to_move": [], "result": {"dice": [1, 5], "text": "é"}, "max_skips": 9},
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


class FailingCommits:
    """Make the engine's commits number *failing* (counted from 1 once installed) fail, as a
    database that refuses a commit (disk full, serialization failure, connection lost) would:
    the transaction is rolled back and the commit raises."""

    def __init__(self, engine: Engine, *failing: int) -> None:
        self.engine = engine
        self.failing = set(failing)
        self.count = 0
        self.lock = threading.Lock()

    def __enter__(self) -> FailingCommits:
        event.listen(self.engine, "commit", self._commit)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(self.engine, "commit", self._commit)

    def _commit(self, _connection: Connection) -> None:
        with self.lock:
            self.count += 1
            if self.count in self.failing:
                raise CommitFailed(f"commit {self.count} failed")


class CommitFailed(Exception):
    """The commit the test made fail."""


@pytest.mark.parametrize(
    ("failing", "answers"),
    [
        # the batch's commit fails: each write again alone, and each commits
        ((1,), [True, True, True]),
        # the batch's commit fails, then the second write's own commit (write by write)
        ((1, 3), [True, "refused", True]),
        # every commit fails: nothing is acknowledged
        ((1, 2, 3, 4), ["refused", "refused", "refused"]),
    ],
)
def test_a_write_whose_commit_failed_is_refused_never_acknowledged(
    ctx: ServerContext, failing: tuple[int, ...], answers: list[object]
) -> None:
    tables = started_tables(ctx, 3)
    batch: list[tuple[Any, Future[Any]]] = [(append(t, v), Future()) for t, v in tables.items()]
    writer = GroupWriter(ctx.engine)
    with FailingCommits(ctx.engine, *failing) as commits:
        writer._write(batch)  # one batch, as the writer thread would take it
    assert commits.count == 4  # the batch, then each write alone
    got = [
        "refused" if isinstance(future.exception(), CommitFailed) else future.result()
        for _, future in batch
    ]
    assert got == answers
    for (table_id, version), answer in zip(tables.items(), answers, strict=True):
        assert stored(ctx, table_id)[0] == (version + 2 if answer is True else version)


@pytest.mark.parametrize("failing", [(1,), (1, 2)])
def test_an_action_is_answered_only_once_its_commit_held(
    ctx: ServerContext, failing: tuple[int, ...]
) -> None:
    # through the service, the writer thread running: the batch's commit fails, then (or not)
    # the write-by-write one; the action is refused exactly when nothing was stored
    table_id, people = setup_table(ctx)
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        seat = entry.state.actors()[0]
        move = (entry.legal_for(seat, 300) or [])[0]
        version = entry.version
    submission = {
        "table_id": table_id,
        "account_id": people[seat],
        "text": move,
        "expected_version": version,
    }
    ctx.writer.start()
    try:
        with FailingCommits(ctx.engine, *failing):
            if len(failing) == 2:
                with pytest.raises(CommitFailed):
                    play.submit_action(ctx, **submission)
            else:
                outcome = play.submit_action(ctx, **submission)
    finally:
        ctx.writer.stop()
    if len(failing) == 2:
        assert stored(ctx, table_id)[0] == version  # refused: nothing stored
        with ctx.cache.lock(table_id):  # nor kept in memory
            assert current_entry(ctx, table_id).version == version
        again = play.submit_action(ctx, **submission)  # the same action goes through later
        assert again.first_seq == version
    else:
        assert outcome.first_seq == version
        assert stored(ctx, table_id)[0] == outcome.entry.version > version


def broken(writer: GroupWriter) -> None:
    """Make *writer*'s threads die at their next batch, as a bug in the writer would."""

    def crash(_batch: list[tuple[Write, Future[Any]]]) -> None:
        raise RuntimeError("a bug in the writer")

    writer._write_batch = crash  # type: ignore[method-assign]


@pytest.mark.parametrize("threads", [1, 3])
def test_a_writer_that_died_refuses_every_write_at_once(ctx: ServerContext, threads: int) -> None:
    writer = GroupWriter(ctx.engine, threads=threads)
    writer.start()
    dying = list(writer._threads)
    broken(writer)
    ran: list[str] = []
    first = writer.submit(lambda _connection: ran.append("first"))
    while all(thread.is_alive() for thread in dying):  # the thread that took it dies
        time.sleep(0.001)
    assert first.done() and isinstance(first.exception(), Unavailable)
    assert writer.failure == "RuntimeError: a bug in the writer" and not writer.running
    later = writer.submit(lambda _connection: ran.append("later"))
    assert later.done() and isinstance(later.exception(), Unavailable)
    assert "writer stopped (RuntimeError: a bug in the writer)" in str(later.exception())
    assert ran == []
    writer.stop()  # every thread ends (none waits for a batch that never comes)
    assert not any(thread.is_alive() for thread in dying)


def test_a_write_given_up_before_it_was_taken_is_not_written(ctx: ServerContext) -> None:
    writer = GroupWriter(ctx.engine)
    writer.start()
    inside, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def slow(_connection: Connection) -> str:
        inside.set()
        release.wait()
        return "slow"

    first = writer.submit(slow)
    inside.wait()  # the writer is busy with it: the next two wait in the queue
    given_up = writer.submit(lambda _connection: ran.append("given up"))
    after = writer.submit(lambda _connection: ran.append("after") or "after")
    assert given_up.cancel()
    release.set()
    writer.stop()  # writes what is queued, then stops
    assert first.result() == "slow" and after.done() and after.result() == "after"
    assert ran == ["after"] and writer.failure is None


def test_health_says_the_writer_stopped_and_actions_fail_at_once(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        assert client.get("/health").json()["ok"] is True
        table_id, seats = people_table(client, "ten-thousand")
        writer = client.app.state.ctx.writer  # type: ignore[attr-defined]
        dying = list(writer._threads)
        broken(writer)
        first = writer.submit(lambda _connection: None)
        for thread in dying:
            thread.join()
        assert first.done() and isinstance(first.exception(), Unavailable)
        health = client.get("/health")
        assert health.status_code == 503
        assert health.json()["ok"] is False
        assert health.json()["writer"]["failure"] == "RuntimeError: a bug in the writer"
        view = client.get(f"/tables/{table_id}", headers=seats[0]).json()
        refused = client.post(
            f"/tables/{table_id}/actions",
            json={"action": view["legal"][0], "version": view["version"]},
            headers=seats[0],
        )
        assert refused.status_code == 503
        assert refused.json()["code"] == "unavailable"
        assert "writer stopped" in refused.json()["detail"]
        assert (
            client.get(f"/tables/{table_id}", headers=seats[0]).json()["version"]
            == (view["version"])
        )


def test_a_batch_stores_its_appends_together_among_other_writes(ctx: ServerContext) -> None:
    """Appends interleaved with other writes (the notifications of earlier moves) are still
    stored by one guarded update and one insert for the whole batch; every write answers."""
    tables = started_tables(ctx, 3)
    batch: list[tuple[Any, Future[Any]]] = []
    for table_id, version in tables.items():
        batch.append((append(table_id, version), Future()))
        batch.append((lambda connection, t=table_id: f"other {t}", Future()))
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "game_tables" in statement or "table_events" in statement:
            statements.append(statement.split()[0])

    event.listen(ctx.engine, "before_cursor_execute", seen)
    try:
        writer = GroupWriter(ctx.engine)
        writer._write(batch)
        writer.stop()
    finally:
        event.remove(ctx.engine, "before_cursor_execute", seen)
    answers = [future.result() for _, future in batch]
    assert answers == [a for t in tables for a in (True, f"other {t}")]
    if ctx.engine.dialect.name == "sqlite":  # the PostgreSQL path runs on the driver's cursor
        assert statements == ["UPDATE", "INSERT"]
    for table_id, version in tables.items():
        assert stored(ctx, table_id)[0] == version + 2


def test_deferrable_writes_wait_for_a_batch_to_join(ctx: ServerContext) -> None:
    """A deferrable write alone waits up to the linger for another write and shares its
    transaction; with nothing else coming it is written once the linger is over."""
    tables = started_tables(ctx, 1)
    (table_id,) = tables
    writer = GroupWriter(ctx.engine, linger=0.5)
    sizes: list[int] = []
    writer.on_batch = lambda size, _seconds: sizes.append(size)
    writer.start()
    try:
        began = time.monotonic()
        lazy = writer.submit(lambda connection: "lazy", deferrable=True)
        time.sleep(0.1)
        assert not lazy.done()  # waiting for company
        assert writer.submit(append(table_id, tables[table_id])).result(timeout=10) is True
        assert lazy.result(timeout=10) == "lazy"
        assert time.monotonic() - began < 0.45  # the urgent write did not wait the linger
        assert sizes == [2]  # one transaction for both
        began = time.monotonic()
        alone = writer.submit(lambda connection: "alone", deferrable=True)
        assert alone.result(timeout=10) == "alone"
        assert time.monotonic() - began >= 0.45
        assert sizes == [2, 1]
    finally:
        writer.stop()
