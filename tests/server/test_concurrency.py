"""Real concurrency on the database: two server contexts (as two processes would be: separate
caches and locks) and many threads race for the same table; exactly one write wins each time."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from parlour.engine.errors import ParlourError
from parlour.server.errors import ServerError, StaleVersion
from parlour.server.services import cache, play
from parlour.server.services.cache import current_entry
from parlour.server.services.context import ServerContext
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from parlour.storage.tables import get_events, get_table
from tests.server.helpers import setup_table


def contexts(settings: Settings, count: int) -> list[ServerContext]:
    engine = open_database(settings.database_url)
    return [ServerContext(engine=engine, settings=settings) for _ in range(count)]


def move_on(ctx: ServerContext, table_id: int, people: list[int]) -> int:
    """Play the first legal action of the seat to move through *ctx*; the new version."""
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        seat = entry.state.actors()[0]
        move = (entry.legal_for(seat, 300) or [])[0]
        version = entry.version
    return play.submit_action(
        ctx, table_id=table_id, account_id=people[seat], text=move, expected_version=version
    ).entry.version


def _race(
    table_id: int,
    submission: tuple[ServerContext, int, str, int],
    barrier: threading.Barrier,
    results: list[Any],
) -> None:
    ctx, account_id, text, version = submission
    barrier.wait()
    try:
        outcome = play.submit_action(
            ctx, table_id=table_id, account_id=account_id, text=text, expected_version=version
        )
        results.append(("ok", outcome.entry.version))
    except StaleVersion as err:
        results.append(("stale", err.detail))
    except (ServerError, ParlourError) as err:  # pragma: no cover - shown on failure
        results.append(("other", str(err)))


@pytest.mark.parametrize("racers", [2, 8])
def test_simultaneous_actions_from_two_processes_one_wins(settings: Settings, racers: int) -> None:
    ctxs = contexts(settings, 2)
    table_id, people = setup_table(ctxs[0])
    for _round in range(5):
        with ctxs[0].cache.lock(table_id):
            entry = current_entry(ctxs[0], table_id)
            seat = entry.state.actors()[0]
            legal = entry.legal_for(seat, 300) or []
            version = entry.version
        for ctx in ctxs:  # both "processes" have the table cached at this version
            with ctx.cache.lock(table_id):
                current_entry(ctx, table_id)
        barrier = threading.Barrier(racers)
        results: list[Any] = []

        submissions = [
            (ctxs[i % 2], people[seat], legal[i % len(legal)], version) for i in range(racers)
        ]
        threads = [
            threading.Thread(target=_race, args=(table_id, one, barrier, results))
            for one in submissions
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        kinds = sorted(kind for kind, _ in results)
        assert kinds == ["ok"] + ["stale"] * (racers - 1), results
        with ctxs[0].engine.connect() as connection:
            table = get_table(connection, table_id)
            events = get_events(connection, table_id)
        assert table is not None
        assert [e.seq for e in events] == list(range(table.version))
        assert sum(1 for e in events[version:] if e.by == seat) == 1
        if table.status != "active":
            break
    # and the log still rebuilds in a third "process"
    fresh = contexts(settings, 1)[0]
    with fresh.cache.lock(table_id):
        assert current_entry(fresh, table_id).version == table.version


def test_a_second_process_sees_the_first_ones_moves(settings: Settings) -> None:
    one, two = contexts(settings, 2)
    table_id, people = setup_table(one)
    with two.cache.lock(table_id):
        stale = current_entry(two, table_id)
        seat = stale.state.actors()[0]
        move = (stale.legal_for(seat, 300) or [])[0]
        version = stale.version
    outcome = play.submit_action(
        one, table_id=table_id, account_id=people[seat], text=move, expected_version=version
    )
    # process two still has the old version cached; its write is refused, not lost
    with pytest.raises(StaleVersion):
        play.submit_action(
            two,
            table_id=table_id,
            account_id=people[seat],
            text=move,
            expected_version=version,
        )
    with two.cache.lock(table_id):
        assert current_entry(two, table_id).version == outcome.entry.version


async def _race_async(
    table_id: int, submissions: list[tuple[ServerContext, int, str, int]]
) -> list[tuple[str, Any]]:
    async def one(ctx: ServerContext, account_id: int, text: str, version: int) -> Any:
        try:
            outcome = await play.submit_action_async(
                ctx, table_id=table_id, account_id=account_id, text=text, expected_version=version
            )
        except StaleVersion as err:
            return ("stale", err.extra.get("current"))
        return ("ok", outcome.entry.version)

    return await asyncio.gather(*(one(*s) for s in submissions))


@pytest.mark.parametrize("processes", [1, 2])
def test_simultaneous_actions_on_the_event_loop_one_wins(
    settings: Settings, processes: int
) -> None:
    # the path HTTP and WebSocket actions take: the engine on the event loop, the commit
    # awaited from the group writer; one process (the second submission finds the table's
    # lock taken) or two (each has the table in memory; the version guard decides)
    ctxs = contexts(settings, processes)
    table_id, people = setup_table(ctxs[0])
    for ctx in ctxs:
        ctx.writer.start()
    try:
        for _ in range(5):
            with ctxs[0].cache.lock(table_id):
                entry = current_entry(ctxs[0], table_id)
                seat = entry.state.actors()[0]
                legal = entry.legal_for(seat, 300)
                version = entry.version
            for ctx in ctxs:
                with ctx.cache.lock(table_id):
                    assert current_entry(ctx, table_id).version == version  # in memory
            assert legal
            submissions = [(ctxs[i % processes], people[seat], legal[0], version) for i in range(2)]
            results = asyncio.run(_race_async(table_id, submissions))
            kinds = sorted(kind for kind, _ in results)
            assert kinds == ["ok", "stale"], results
            won = next(v for kind, v in results if kind == "ok")
            lost = next(v for kind, v in results if kind == "stale")
            assert lost["version"] == won  # the loser is shown the table as it is now
            with ctxs[0].engine.connect() as connection:
                stored = get_table(connection, table_id)
                assert stored is not None and stored.version == won
                assert len(get_events(connection, table_id)) == won
    finally:
        for ctx in ctxs:
            ctx.writer.stop()


@pytest.mark.parametrize("on_loop", [False, True])
def test_a_process_behind_takes_an_action_at_the_current_version(
    settings: Settings, on_loop: bool
) -> None:
    # two processes behind one load balancer: the client read the table from one (after its
    # last move), then acts through the other, which still has an older version in memory.
    # The action is current: it is taken, not refused with that older table as "current"
    one, two = contexts(settings, 2)
    table_id, people = setup_table(one)
    with two.cache.lock(table_id):
        current_entry(two, table_id)  # in memory at the start
    with one.cache.lock(table_id):
        entry = current_entry(one, table_id)
        seat = entry.state.actors()[0]
        move = (entry.legal_for(seat, 300) or [])[0]
    moved = play.submit_action(
        one, table_id=table_id, account_id=people[seat], text=move, expected_version=entry.version
    ).entry
    seat = moved.state.actors()[0]
    submission = {
        "table_id": table_id,
        "account_id": people[seat],
        "text": (moved.legal_for(seat, 300) or [])[0],
        "expected_version": moved.version,
    }
    if on_loop:
        two.writer.start()
        try:
            outcome = asyncio.run(play.submit_action_async(two, **submission))
        finally:
            two.writer.stop()
    else:
        outcome = play.submit_action(two, **submission)
    assert outcome.first_seq == moved.version
    with two.engine.connect() as connection:
        events = get_events(connection, table_id)
    assert (events[moved.version].by, events[moved.version].move) == (seat, submission["text"])


@pytest.mark.parametrize("on_loop", [False, True])
def test_a_stale_action_is_shown_the_stored_table_not_an_older_one_in_memory(
    settings: Settings, on_loop: bool
) -> None:
    # process two is behind, and the client further behind still: it is refused (rightly)
    # and shown the table as stored, so that its next try is current
    one, two = contexts(settings, 2)
    table_id, people = setup_table(one)
    client_saw = move_on(one, table_id, people)
    behind = move_on(one, table_id, people)
    with two.cache.lock(table_id):
        assert current_entry(two, table_id).version == behind  # two has it in memory here
    stored = move_on(one, table_id, people)
    submission = {
        "table_id": table_id,
        "account_id": people[0],
        "text": "bank",  # refused for its version before it is read
        "expected_version": client_saw,
    }
    with pytest.raises(StaleVersion) as refused:
        if on_loop:
            asyncio.run(play.submit_action_async(two, **submission))
        else:
            play.submit_action(two, **submission)
    assert refused.value.extra["current"]["version"] == stored


def test_a_table_loads_while_another_process_moves_it_on(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # loading reads the table row, then its log: a move another process commits in between
    # adds events the row does not count. The table loads at the row's version (and is
    # reloaded at the next check), it is not refused as corrupt
    one, two = contexts(settings, 2)
    table_id, people = setup_table(one)
    before = move_on(one, table_id, people)
    read_events = cache.get_events
    after: list[int] = []

    def moved_on_first(connection: Any, key: int, *, since: int = 0) -> Any:
        if not after:
            after.append(move_on(one, table_id, people))
        return read_events(connection, key, since=since)

    monkeypatch.setattr(cache, "get_events", moved_on_first)
    with two.cache.lock(table_id):
        loaded = current_entry(two, table_id)
    assert after[0] > before
    assert loaded.version == len(loaded.events) == len(loaded.state.history) == before
    with two.cache.lock(table_id):
        assert current_entry(two, table_id).version == after[0]
