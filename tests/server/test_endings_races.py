"""Racing endings: a resignation against a move, and two rematch acceptances, each race
repeated on fresh tables, in one "process" (odd trials) and in two (even trials: two
contexts with their own engine, cache and writer on one database). ``PARLOUR_RACE_TRIALS``
sets the trials (default 16)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import partial

import pytest
from sqlalchemy import select

from parlour.server.services import endings, lobby, play
from parlour.server.services.cache import SERVER_EVENT, current_entry
from parlour.server.settings import Settings
from parlour.storage.tables import GameTable, get_events, get_table
from tests.quick_game import QUICK_GAME
from tests.server.helpers import choose
from tests.server.test_lobby_races import OK, TRIALS, World, race, two_processes


@pytest.fixture
def world(settings: Settings) -> Iterator[World]:
    with two_processes(settings, max_open_tables=100_000) as made:
        yield made


def _two_people(world: World, game: str = "ten-thousand") -> int:
    ctx = world.ctxs[0]
    table_id = lobby.create_table(
        ctx,
        account_id=world.people["ann"],
        request=lobby.NewTable(game=game, seats=["me", "open"], options={}),
    )
    lobby.join_table(ctx, table_id=table_id, account_id=world.people["bob"])
    lobby.start_table(ctx, table_id=table_id, account_id=world.people["ann"])
    return table_id


def test_a_resignation_racing_a_move_leaves_exactly_one(world: World) -> None:
    seen: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = _two_people(world)
        ctx = world.ctxs[0]
        with ctx.cache.lock(table_id):
            entry = current_entry(ctx, table_id)
            version = entry.version
            mover = entry.state.actors()[0]
            text = choose(entry.state.clone(), mover, random.Random(trial))
        accounts = [world.people["ann"], world.people["bob"]]
        resigner = accounts[1 - mover] if trial % 4 < 2 else accounts[mover]
        outcomes = race(
            [
                partial(
                    play.submit_action,
                    world.ctx_for(trial, 0),
                    table_id=table_id,
                    account_id=accounts[mover],
                    text=text,
                    expected_version=version,
                ),
                partial(
                    endings.resign,
                    world.ctx_for(trial, 1),
                    table_id=table_id,
                    account_id=resigner,
                    version=version,
                ),
            ]
        )
        wins = [o for o, _ in outcomes if o == OK]
        assert len(wins) == 1, outcomes
        loser = next(o for o in outcomes if o[0] != OK)
        assert loser[0] in ("StaleVersion", "Conflict"), loser
        assert loser[1], "a refusal says why"
        with ctx.engine.connect() as connection:
            table = get_table(connection, table_id)
            events = get_events(connection, table_id)
        assert table is not None
        resigned = [e for e in events if e.by == SERVER_EVENT]
        moved = [e for e in events[version:] if e.by >= 0]
        if outcomes[1][0] == OK:
            assert table.status == "finished" and len(resigned) == 1 and not moved
            assert table.result["winners"] == [accounts.index(resigner) ^ 1]
            seen["resign"] += 1
        else:
            assert table.status == "active" and not resigned and len(moved) == 1
            seen["move"] += 1
        assert table.version == len(events)
        for other in world.ctxs:  # every process agrees with the database
            with other.cache.lock(table_id):
                assert current_entry(other, table_id).version == table.version
    # which one wins is the race's (both come up in most runs; each is checked when it does)
    assert seen["resign"] + seen["move"] == TRIALS, seen


def test_two_rematch_acceptances_make_one_table(world: World) -> None:
    made: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = _two_people(world, QUICK_GAME)
        ctx = world.ctxs[0]
        ann, bob = world.people["ann"], world.people["bob"]
        with ctx.cache.lock(table_id):
            version = current_entry(ctx, table_id).version
        endings.resign(ctx, table_id=table_id, account_id=ann, version=version)
        if trial % 4 < 2:  # both offer at once: one offers, the other accepts
            racers = [ann, bob]
        else:  # ann offered; bob accepts twice at once (two tabs)
            endings.rematch(ctx, table_id=table_id, account_id=ann)
            racers = [bob, bob]
        outcomes = race(
            [
                partial(endings.rematch, world.ctx_for(trial, i), table_id=table_id, account_id=who)
                for i, who in enumerate(racers)
            ]
        )
        with ctx.engine.connect() as connection:
            rows = connection.execute(select(GameTable.id, GameTable.lobby)).all()
            old = get_table(connection, table_id)
        assert old is not None
        new = [r.id for r in rows if (r.lobby or {}).get("rematch_of") == table_id]
        assert len(new) == 1, (outcomes, new)
        assert old.lobby["rematch"]["table"] == new[0]
        if racers[0] == racers[1]:
            assert sorted(o for o, _ in outcomes) == ["Conflict", OK], outcomes
            made["twice"] += 1
        else:
            assert [o for o, _ in outcomes] == [OK, OK], outcomes
            made["both"] += 1
        with ctx.engine.connect() as connection:
            fresh = get_table(connection, new[0])
        assert fresh is not None and fresh.status == "active"
    assert set(made) == {"twice", "both"}
