"""A process's entry of a table another process moved on is brought up by the events stored
since (what the fan-out does), and equals the table loaded afresh from its whole log."""

from __future__ import annotations

import random

from parlour.server import Settings
from parlour.server.services.cache import caught_up, current_entry, load_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.play import submit_action
from parlour.storage.db import open_database
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
