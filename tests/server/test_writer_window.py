"""The group writer's commit window: a lone write waits for company while the recent rate
expects some, at most the window after its submission; a burst that fills a batch goes at
once; a write that waited is still answered only once its own commit held."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from typing import Any

import pytest
from sqlalchemy import Connection

from parlour.server.services.context import ServerContext
from parlour.server.services.writer import RATE_SPAN, GroupWriter
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from tests.server.test_writer import CommitFailed, FailingCommits

WINDOW = 0.5


@pytest.fixture
def ctx(settings: Settings) -> ServerContext:
    return ServerContext(engine=open_database(settings.database_url), settings=settings)


def primed(ctx: ServerContext, *, max_batch: int = 256) -> tuple[GroupWriter, list[int]]:
    """A started writer with a window of WINDOW seconds whose recent rate expects company
    (one write taken, then a rate span gone by: 2 to 4 writes a second, 1 to 2 a window),
    and the sizes of the batches it commits from then on."""
    writer = GroupWriter(ctx.engine, window=WINDOW, max_batch=max_batch)
    writer.start()
    assert writer.submit(lambda _c: "first").result(timeout=10) == "first"  # 0 before: no wait
    time.sleep(RATE_SPAN + 0.05)
    sizes: list[int] = []
    writer.on_batch = lambda size, _seconds: sizes.append(size)
    return writer, sizes


def test_a_lone_write_waits_the_window_at_most_and_shares_its_transaction(
    ctx: ServerContext,
) -> None:
    writer, sizes = primed(ctx)
    try:
        began = time.monotonic()
        lone = writer.submit(lambda _c: "lone")
        time.sleep(WINDOW / 4)
        assert not lone.done()  # waiting for company
        later = writer.submit(lambda _c: "later")
        assert lone.result(timeout=10) == "lone" and later.result(timeout=10) == "later"
        waited = time.monotonic() - began
        assert sizes == [2]  # one transaction for both
        # it waited out the window from its submission (company does not cut the wait
        # short), and not much more: a trivial commit, on a loaded machine
        assert WINDOW <= waited < WINDOW + 1.0
        began = time.monotonic()
        alone = writer.submit(lambda _c: "alone")  # nothing comes: written at the window
        assert alone.result(timeout=10) == "alone"
        assert WINDOW <= time.monotonic() - began < WINDOW + 1.0
        assert sizes == [2, 1]
    finally:
        writer.stop()


def test_a_burst_that_fills_a_batch_does_not_wait(ctx: ServerContext) -> None:
    writer, sizes = primed(ctx, max_batch=3)
    inside, release = threading.Event(), threading.Event()

    def slow(_connection: Connection) -> str:
        inside.set()
        release.wait()
        return "slow"

    try:
        busy = writer.submit(slow)  # waits its window, then holds the writer
        inside.wait(timeout=10)
        began = time.monotonic()
        burst = [writer.submit(lambda _c, i=i: i) for i in range(4)]
        release.set()
        assert busy.result(timeout=10) == "slow"
        # three fill a batch at once; the fourth, alone after them, waits the window
        assert [f.result(timeout=10) for f in burst[:3]] == [0, 1, 2]
        assert time.monotonic() - began < WINDOW * 0.8
        assert burst[3].result(timeout=10) == 3
        assert WINDOW <= time.monotonic() - began < WINDOW + 1.0
        assert sizes == [1, 3, 1]
    finally:
        release.set()
        writer.stop()


def test_a_write_under_the_window_is_answered_only_after_its_commit(
    ctx: ServerContext,
) -> None:
    writer, sizes = primed(ctx)
    try:
        with FailingCommits(ctx.engine, 1, 3) as commits:
            # both wait in the window and share a batch whose commit fails; each is then
            # written alone, and the second's own commit fails too
            kept = writer.submit(lambda _c: "kept")
            time.sleep(WINDOW / 8)  # taken alone: it waits for company
            lost = writer.submit(lambda _c: "lost")
            time.sleep(WINDOW / 8)
            assert not kept.done() and not lost.done()  # nothing answered before a commit
            assert kept.result(timeout=10) == "kept"
            with pytest.raises(CommitFailed):
                lost.result(timeout=10)
        assert sizes == [2]  # one batch for both (its commit failed) ...
        assert commits.count == 3  # ... then each alone: kept's commit held, lost's failed
    finally:
        writer.stop()


def test_a_stop_during_the_window_writes_what_waits(ctx: ServerContext) -> None:
    writer, _sizes = primed(ctx)
    waiting: Future[Any] = writer.submit(lambda _c: "stored")
    time.sleep(WINDOW / 4)
    began = time.monotonic()
    writer.stop()  # graceful: what is queued or waiting is written first
    assert waiting.result(timeout=0) == "stored"
    assert time.monotonic() - began < WINDOW * 0.7  # the stop cut the wait short


def test_at_a_low_rate_a_lone_write_does_not_wait(ctx: ServerContext) -> None:
    writer = GroupWriter(ctx.engine, window=WINDOW)
    writer.start()
    try:
        began = time.monotonic()  # nothing written yet: no company expected
        assert writer.submit(lambda _c: "first").result(timeout=10) == "first"
        assert time.monotonic() - began < WINDOW * 0.8
        time.sleep(RATE_SPAN * 12)  # one write in three seconds: 0.17 a window, under 0.5
        began = time.monotonic()
        assert writer.submit(lambda _c: "quiet").result(timeout=10) == "quiet"
        assert time.monotonic() - began < WINDOW * 0.8
    finally:
        writer.stop()
