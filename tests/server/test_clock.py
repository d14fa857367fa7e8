"""Turn clocks as data: skips when a clock runs out, removal after max_skips, the sweeper's
idempotence and its single leader, with an injected clock."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from parlour.engine.registry import find
from parlour.server.services.clock import sweep
from parlour.server.services.context import ServerContext
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from tests.server.conftest import FakeClock, wait_until
from tests.server.helpers import people_table, server_state


def ctx_of(client: TestClient) -> ServerContext:
    ctx: ServerContext = client.app.state.ctx  # type: ignore[attr-defined]
    return ctx


def test_no_clock_no_skip(client: TestClient, clock: FakeClock) -> None:
    people_table(client, "ten-thousand")
    clock.advance(days=400)
    assert sweep(ctx_of(client)).applied == 0


def mover(client: TestClient, table_id: int) -> int:
    return server_state(client, table_id).actors()[0]


def test_a_player_past_the_clock_is_skipped(client: TestClient, clock: FakeClock) -> None:
    table_id, seats = people_table(client, "ten-thousand", clock_days=2)
    table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    assert table["deadline"] == "2026-12-03T12:00:00+00:00"
    version = table["version"]
    late = mover(client, table_id)
    clock.advance(days=1, hours=23)
    assert sweep(ctx_of(client)).applied == 0
    clock.advance(hours=1)
    report = sweep(ctx_of(client))
    assert report.leader and report.applied == 1 and report.tables == [table_id]
    after = client.get(f"/tables/{table_id}", headers=seats[1]).json()
    assert after["events"][version] == {"seq": version, "by": -4, "move": "skip"}
    assert [s["skips"] for s in after["seats"]] == [int(s == late) for s in (0, 1)]
    assert after["your_turn"] == (mover(client, table_id) == 1)
    assert after["deadline"] == "2026-12-05T12:00:00+00:00"
    # idempotent: sweeping again at the same moment does nothing more
    assert sweep(ctx_of(client)).applied == 0
    assert len(server_state(client, table_id).history) == after["version"]


def test_a_move_resets_the_skips(client: TestClient, clock: FakeClock) -> None:
    table_id, seats = people_table(client, "ten-thousand", clock_days=1)
    for _ in range(20):  # skip until someone who was skipped before is to move again
        clock.advance(days=1)
        sweep(ctx_of(client))
        seat = mover(client, table_id)
        table = client.get(f"/tables/{table_id}", headers=seats[seat]).json()
        if table["seats"][seat]["skips"] == 1:
            break
    else:
        pytest.fail("no seat came round again")
    client.post(
        f"/tables/{table_id}/actions",
        json={"action": table["legal"][-1], "version": table["version"]},
        headers=seats[seat],
    )
    table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    assert table["seats"][seat]["skips"] == 0


def test_after_max_skips_a_computer_plays_the_seat(client: TestClient, clock: FakeClock) -> None:
    table_id, seats = people_table(client, "ten-thousand", clock_days=1, max_skips=2)
    ctx = ctx_of(client)
    level = find("ten-thousand").bot_levels[-1]
    for _ in range(40):
        table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
        if all(s["removed"] for s in table["seats"]):
            break
        clock.advance(days=1, seconds=1)
        sweep(ctx)
    # both people lost two turns in a row: both seats are now computer players
    table = wait_until(
        lambda: (
            (t := client.get(f"/tables/{table_id}", headers=seats[0]).json())["status"]
            == "finished"
            and t
        )
    )
    assert [(s["kind"], s["removed"], s["level"]) for s in table["seats"]] == [
        ("cpu", True, level),
        ("cpu", True, level),
    ]
    assert table["seats"][0]["name"] == f"player0 (cpu:{level})"
    refused = client.post(
        f"/tables/{table_id}/actions", json={"action": "skip", "version": 1}, headers=seats[0]
    )
    assert refused.status_code == 403
    record = client.get(f"/tables/{table_id}/record").json()
    assert record["players"][0] == f"player0 (cpu:{level})"


def test_one_removed_seat_is_played_out_while_the_other_person_plays(
    client: TestClient, clock: FakeClock
) -> None:
    table_id, seats = people_table(client, "ten-thousand", clock_days=1, max_skips=1)
    gone = mover(client, table_id)
    person = 1 - gone
    clock.advance(days=1, seconds=1)
    sweep(ctx_of(client))  # the late seat is taken out; a computer plays it from now on

    def persons_turn() -> dict | None:
        table = client.get(f"/tables/{table_id}", headers=seats[person]).json()
        return table if table["your_turn"] else None

    table = wait_until(persons_turn)
    assert table["seats"][gone]["removed"] and not table["seats"][person]["removed"]
    move = [a for a in table["legal"] if a.endswith("bank")][-1]
    client.post(
        f"/tables/{table_id}/actions",
        json={"action": move, "version": table["version"]},
        headers=seats[person],
    )
    # the computer moves for the removed seat by itself, promptly, until the person again
    back = wait_until(persons_turn)
    assert any(e["by"] == gone for e in back["events"][table["version"] :])


def test_two_sweepers_at_once_skip_once(settings: Settings, clock: FakeClock) -> None:
    from tests.server.helpers import setup_table

    engine = open_database(settings.database_url)
    one = ServerContext(engine=engine, settings=settings)
    two = ServerContext(engine=engine, settings=Settings(**{**settings.__dict__, "instance": "b"}))
    table_ids = []
    for index in range(3):
        from parlour.server.services import accounts, lobby

        if index == 0:
            table_id, people = setup_table(one)
        else:
            table_id = lobby.create_table(
                one,
                account_id=people[0],
                request=lobby.NewTable(
                    game="ten-thousand", seats=["me", "open"], options={}, clock_days=1
                ),
            )
            lobby.join_table(one, table_id=table_id, account_id=people[1])
            lobby.start_table(one, table_id=table_id, account_id=people[0])
        table_ids.append(table_id)
    del accounts
    clock.advance(days=1, seconds=1)
    barrier = threading.Barrier(2)
    reports = []

    def run(ctx: ServerContext) -> None:
        barrier.wait()
        reports.append(sweep(ctx))

    threads = [threading.Thread(target=run, args=(c,)) for c in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.applied for r in reports) == 2  # the two clocked tables, once each
    from parlour.storage.tables import get_events

    with engine.connect() as connection:
        for table_id in table_ids[1:]:
            skips = [e for e in get_events(connection, table_id) if e.move == "skip"]
            assert len(skips) == 1
    # and the loser of the race (if any) was not the leader or found nothing due
    assert all(r.applied == 0 or r.leader for r in reports)
