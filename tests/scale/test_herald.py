"""The writer's herald on PostgreSQL: the notifications telling a batch's plain appends go
in the appends' own statement, reach a listener only once the batch committed (never for a
batch that failed), and the herald's callback runs after the commit, before any answer."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import psycopg

from parlour.server import Settings
from parlour.server.fanout import libpq_url
from parlour.server.services.context import ServerContext
from parlour.server.services.writer import GroupWriter
from parlour.storage.db import open_database
from parlour.storage.tables import Append
from tests.server.test_writer import append, started_tables, stored

CHANNEL = "parlour_herald_test"


def test_a_batch_notifies_at_its_commit_and_a_failed_one_never(settings: Settings) -> None:
    ctx = ServerContext(engine=open_database(settings.database_url), settings=settings)
    tables = started_tables(ctx, 3)
    first, second, third = tables
    seen: list[Any] = []
    batch: list[tuple[Any, Future[Any]]] = []

    def herald(appends: list[Append]) -> tuple[tuple[str, list[str]], Any]:
        ids = sorted(a.table_id for a in appends)
        seen.append(("herald", ids))
        payloads = [f"tables {ids}", "second"]
        return (CHANNEL, payloads), lambda: seen.append(("committed", [f.done() for _, f in batch]))

    writer = GroupWriter(ctx.engine)
    writer.herald = herald
    with psycopg.connect(libpq_url(ctx.engine), autocommit=True) as listening:
        listening.execute(f"LISTEN {CHANNEL}")
        batch.extend(
            [
                (append(first, tables[first]), Future()),
                (lambda connection: "other", Future()),
                (append(second, tables[second]), Future()),
            ]
        )
        writer._write(batch)
        assert [f.result() for _w, f in batch] == [True, "other", True]
        assert seen == [("herald", sorted([first, second])), ("committed", [False] * 3)]
        heard = [n.payload for n in listening.notifies(timeout=5, stop_after=2)]
        assert heard == [f"tables {sorted([first, second])}", "second"]
        seen.clear()
        failing: list[tuple[Any, Future[Any]]] = [
            (append(first, tables[first]), Future()),  # stale now: the batch is rolled back
            (append(third, tables[third]), Future()),
        ]
        writer._write(failing)
        assert [f.result() for _w, f in failing] == [False, True]  # then each alone
        assert seen == [("herald", sorted([first, third]))]  # asked, never committed
        assert [n.payload for n in listening.notifies(timeout=0.5)] == []
    assert stored(ctx, third)[0] == tables[third] + 2
    ctx.engine.dispose()
