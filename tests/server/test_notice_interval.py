"""Fewer notifications writes: a deferrable write given a due time is held back until then
(other writes go by meanwhile) and written at once by a stop; the notifier starts its write
at most every NOTICE_INTERVAL seconds, so notices made meanwhile share one write."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from parlour.server.services.notifications import NOTICE_INTERVAL, Notice
from parlour.server.services.writer import GroupWriter
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from tests.server.conftest import register


def test_a_write_due_later_is_held_back_while_others_go_by(settings: Settings) -> None:
    writer = GroupWriter(open_database(settings.database_url), linger=0.0)
    sizes: list[int] = []
    writer.on_batch = lambda size, _seconds: sizes.append(size)
    writer.start()
    try:
        began = time.monotonic()
        later = writer.submit(lambda _c: "later", deferrable=True, due=began + 0.5)
        assert writer.submit(lambda _c: "now").result(timeout=10) == "now"
        assert not later.done() and sizes == [1]  # the urgent write went alone
        assert later.result(timeout=10) == "later"
        assert 0.5 <= time.monotonic() - began < 1.5
        assert sizes == [1, 1]
        held = writer.submit(lambda _c: "held", deferrable=True, due=time.monotonic() + 60)
        time.sleep(0.05)
        assert not held.done()
    finally:
        writer.stop()  # a stop writes it at once
    assert held.result(timeout=0) == "held" and sizes == [1, 1, 1]


def test_notices_within_the_interval_share_one_write(client: TestClient) -> None:
    ann = register(client, "ann")
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    notifier = client.app.state.notifier  # type: ignore[attr-defined]
    me = client.get("/auth/me", headers=ann).json()["id"]
    sizes: list[int] = []
    ctx.writer.on_batch = lambda size, _seconds: sizes.append(size)
    began = time.monotonic()
    first = notifier.submit([Notice(me, None, "turn", "one", "k1")])
    assert [row.text for row in first.result(timeout=10)] == ["one"]
    second = notifier.submit([Notice(me, None, "turn", "two", "k2")])
    time.sleep(NOTICE_INTERVAL / 5)
    third = notifier.submit([Notice(me, None, "turn", "three", "k3")])
    assert third is second  # it joined the write held back
    assert [row.text for row in second.result(timeout=10)] == ["two", "three"]
    assert time.monotonic() - began >= NOTICE_INTERVAL  # after the first write's start
    assert len(sizes) == 2  # one write for the first notice, one for the other two
