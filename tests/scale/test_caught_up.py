"""A process's entry of a table another process moved on is brought up by the events stored
since (what the fan-out does), and equals the table loaded afresh from its whole log."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from parlour.server import Settings
from parlour.server.fanout import append_detail, change_detail, merged, told
from parlour.server.services.cache import caught_up, current_entry, load_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.play import play_bots, submit_action
from parlour.storage.db import open_database
from parlour.storage.tables import Append, set_seat
from tests.server.helpers import choose, setup_table


def test_an_entry_catches_up_with_another_process_moves(settings: Settings) -> None:
    engine = open_database(settings.database_url)
    one = ServerContext(engine=engine, settings=settings)
    two = ServerContext(engine=engine, settings=Settings(**{**settings.__dict__, "instance": "b"}))
    table_id, people = setup_table(one)
    rng = random.Random(5)
    with two.cache.lock(table_id):
        stale = current_entry(two, table_id)
    for _ in range(12):  # moves made through the other process only
        with one.cache.lock(table_id):
            entry = current_entry(one, table_id)
        seat = entry.state.actors()[0]
        text = choose(entry.state.clone(), seat, rng)
        submit_action(
            one,
            table_id=table_id,
            account_id=people[seat],
            text=text,
            expected_version=entry.version,
        )
    with two.cache.lock(table_id), engine.connect() as connection:
        old_version = stale.version
        fresh = caught_up(connection, stale)
        whole = load_entry(connection, table_id)
    assert fresh is not None and whole is not None
    assert fresh.version == whole.version > old_version
    assert fresh.events == whole.events
    assert fresh.state.history == whole.state.history
    for seat in (0, 1, None):
        assert fresh.view(seat) == whole.view(seat)
    with engine.connect() as connection:  # nothing newer: the caller keeps what it has
        assert caught_up(connection, fresh) is None


def test_a_caught_up_entry_names_a_seat_a_computer_took_over(settings: Settings) -> None:
    """The names are kept while the same people sit, and read again once a seat changed
    hands (the clock gave it to a computer player)."""
    engine = open_database(settings.database_url)
    one = ServerContext(engine=engine, settings=settings)
    two = ServerContext(engine=engine, settings=Settings(**{**settings.__dict__, "instance": "b"}))
    table_id, people = setup_table(one)
    with two.cache.lock(table_id):
        stale = current_entry(two, table_id)
    names = list(stale.names)
    with one.cache.lock(table_id):
        entry = current_entry(one, table_id)
    seat = entry.state.actors()[0]
    text = choose(entry.state.clone(), seat, random.Random(1))
    submit_action(
        one, table_id=table_id, account_id=people[seat], text=text, expected_version=entry.version
    )
    with engine.connect() as connection:
        fresh = caught_up(connection, stale)
    assert fresh is not None and fresh.names == names
    with engine.begin() as connection:  # what the clock does after max_skips
        set_seat(connection, table_id, 1, removed=True, bot_level="steady")
    one.cache.drop(table_id)
    with one.cache.lock(table_id):
        entry = current_entry(one, table_id)
    seat = entry.state.actors()[0]
    if seat == 1:  # the computer's turn
        assert play_bots(one, table_id, most=1) == 1
    else:
        text = choose(entry.state.clone(), seat, random.Random(2))
        submit_action(
            one, table_id=table_id, account_id=people[0], text=text, expected_version=entry.version
        )
    with engine.connect() as connection:
        later = caught_up(connection, fresh)
        whole = load_entry(connection, table_id)
    assert later is not None and whole is not None
    assert later.names == whole.names
    assert later.names[1].endswith("(cpu:steady)") and later.names[0] == names[0]


@pytest.mark.parametrize("source", ["entry", "herald"])
def test_a_told_change_equals_the_table_read_afresh(settings: Settings, source: str) -> None:
    """What another process is told of each plain append (the fan-out's detail, from the
    fresh entry by the notifier thread or from the append itself by the writer's herald)
    brings its entry to the table as loaded from the whole log; a detail that does not start
    at the entry's version is not used."""
    engine = open_database(settings.database_url)
    one = ServerContext(engine=engine, settings=settings)
    two = ServerContext(engine=engine, settings=Settings(**{**settings.__dict__, "instance": "b"}))
    table_id, people = setup_table(one)
    heralded: list[Append] = []

    def herald(appends: list[Append]) -> tuple[tuple[str, list[str]], Callable[[], None]]:
        heralded.extend(appends)
        return ("parlour_test", []), lambda: None

    one.writer.herald = herald
    one.writer.start()
    rng = random.Random(7)
    with two.cache.lock(table_id):
        theirs = current_entry(two, table_id)
    details = []
    for _ in range(12):
        with one.cache.lock(table_id):
            entry = current_entry(one, table_id)
        seat = entry.state.actors()[0]
        text = choose(entry.state.clone(), seat, rng)
        submit_action(
            one,
            table_id=table_id,
            account_id=people[seat],
            text=text,
            expected_version=entry.version,
        )
        fresh = one.cache.peek(table_id)
        assert fresh is not None
        if source == "entry":
            detail = change_detail(fresh)
        else:
            assert [a.table_id for a in heralded] == [table_id]  # this move's, alone
            detail = append_detail(heralded.pop())
        assert detail is not None and detail["f"] == entry.version
        assert detail["f"] + len(detail["e"]) == fresh.version
        details.append(json.loads(json.dumps(detail)))  # as it travels
    assert told(theirs, theirs.version + 99, details[0]) is None  # not where it leads
    assert told(theirs, details[1]["f"] + 1, details[1]) is None  # not from its version
    for detail in details[:6]:
        version = detail["f"] + len(detail["e"])
        moved = told(theirs, version, detail)
        assert moved is not None
        theirs = moved
    both = merged(details[6], details[7])
    for detail in [both, *details[8:]]:
        assert detail is not None
        moved = told(theirs, detail["f"] + len(detail["e"]), detail)
        assert moved is not None
        theirs = moved
    assert merged(details[8], details[10]) is None  # not one after the other
    one.writer.stop()
    with engine.connect() as connection:
        whole = load_entry(connection, table_id)
    assert whole is not None
    assert theirs.version == whole.version
    assert theirs.events == whole.events
    assert theirs.state.history == whole.state.history
    assert theirs.names == whole.names and theirs.seats == whole.seats
    for name in ("status", "to_move", "bot_turn", "result", "deadline", "updated_at"):
        assert getattr(theirs.table, name) == getattr(whole.table, name), name
    assert theirs.table.rng_seed == whole.table.rng_seed
    for seat in (0, 1, None):
        assert theirs.view(seat) == whole.view(seat)
