"""Crossword daily mode on the server, with the injected clock: every seat may act once a
day in any order, ``new-day`` comes at midnight in the table's time zone (applied by the
sweeper, or by the first action after it), a one-day clock skips the seats that let a day
pass, and two sweepers apply each day once. Turns mode takes the days-per-move clock."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from parlour.server.daily import next_midnight
from parlour.server.services.clock import sweep
from parlour.server.services.context import ServerContext
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from parlour.storage.tables import get_events
from tests.server.conftest import FakeClock, Headers, register
from tests.server.helpers import choose, people_table, server_state

DAILY = {"options": {"turn_mode": "daily"}, "time_zone": "Europe/Paris"}
# the clock starts at 2026-12-01 12:00 UTC, 13:00 in Paris: the day ends at 23:00 UTC
MIDNIGHT = "2026-12-01T23:00:00+00:00"
NEXT_MIDNIGHT = "2026-12-02T23:00:00+00:00"


def ctx_of(client: TestClient) -> ServerContext:
    ctx: ServerContext = client.app.state.ctx  # type: ignore[attr-defined]
    return ctx


def table(client: TestClient, table_id: int, who: Headers) -> dict:
    answer: dict = client.get(f"/tables/{table_id}", headers=who).json()
    return answer


def play(client: TestClient, table_id: int, seats: list[Headers], seat: int, version: int):
    move = choose(server_state(client, table_id), seat, random.Random(seat))
    return client.post(
        f"/tables/{table_id}/actions",
        json={"action": move, "version": version},
        headers=seats[seat],
    )


def test_next_midnight_is_by_the_calendar_of_the_zone() -> None:
    at = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)  # 23:30 in Paris
    assert next_midnight(at, "Europe/Paris").astimezone(UTC) == datetime(
        2026, 12, 1, 23, 0, tzinfo=UTC
    )
    assert next_midnight(at, "Asia/Tokyo").astimezone(UTC) == datetime(  # 07:30 on the 2nd
        2026, 12, 2, 15, 0, tzinfo=UTC
    )
    # Paris moves its clocks forward on 28 March 2027: that day lasts 23 hours
    start = next_midnight(datetime(2027, 3, 27, 12, 0, tzinfo=UTC), "Europe/Paris")
    end = next_midnight(start, "Europe/Paris")
    assert (end.astimezone(UTC) - start.astimezone(UTC)).total_seconds() == 23 * 3600


def test_two_players_act_the_same_day_and_a_second_play_waits_for_midnight(
    client: TestClient, clock: FakeClock
) -> None:
    table_id, seats = people_table(client, "crossword", **DAILY)
    start = table(client, table_id, seats[0])
    assert start["time_zone"] == "Europe/Paris"
    assert start["deadline"] == MIDNIGHT
    assert start["to_move"] == [0, 1]
    assert [table(client, table_id, s)["your_turn"] for s in seats] == [True, True]
    # seat 1 plays first (first come, first play), then seat 0 on the board seat 1 left
    first = play(client, table_id, seats, 1, start["version"])
    assert first.status_code == 200, first.text
    assert first.json()["your_turn"] is False
    second = play(client, table_id, seats, 0, first.json()["version"])
    assert second.status_code == 200, second.text
    version = second.json()["version"]
    assert table(client, table_id, seats[0])["to_move"] == []
    assert table(client, table_id, seats[0])["deadline"] == MIDNIGHT
    # a second play the same day: the engine's reason, nothing changed
    again = client.post(
        f"/tables/{table_id}/actions", json={"action": "pass", "version": version}, headers=seats[0]
    )
    assert again.status_code == 422
    assert again.json()["detail"] == (
        "seat 0 may not act now: daily mode, day 1: seat(s) 0, 1 have acted today; "
        "everyone has acted, the next turn comes with the new day"
    )
    assert table(client, table_id, seats[0])["version"] == version
    # nothing is due before midnight in Paris
    clock.advance(hours=10, minutes=59)
    assert sweep(ctx_of(client)).applied == 0
    clock.advance(minutes=1)
    report = sweep(ctx_of(client))
    assert (report.applied, report.tables) == (1, [table_id])
    after = table(client, table_id, seats[0])
    assert after["events"][-1] == {"seq": version, "by": -4, "move": "new-day"}
    assert after["view"]["day"] == 2
    assert after["to_move"] == [0, 1] and after["your_turn"]
    assert after["deadline"] == NEXT_MIDNIGHT
    assert [s["skips"] for s in after["seats"]] == [0, 0]
    assert sweep(ctx_of(client)).applied == 0  # idempotent
    # the next day is allowed
    allowed = play(client, table_id, seats, 0, after["version"])
    assert allowed.status_code == 200, allowed.text


def test_the_first_action_after_midnight_meets_the_new_day(
    client: TestClient, clock: FakeClock
) -> None:
    table_id, seats = people_table(client, "crossword", **DAILY)
    start = table(client, table_id, seats[0])
    done = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "pass", "version": start["version"]},
        headers=seats[0],
    )
    assert done.status_code == 200
    clock.advance(hours=11, seconds=1)  # past midnight in Paris; no sweep has run
    late = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "pass", "version": done.json()["version"]},
        headers=seats[0],
    )
    # the day changed under the client: a stale version, with the table as it is now
    assert late.status_code == 409
    current = late.json()["current"]
    assert current["version"] == done.json()["version"] + 1
    assert current["view"]["day"] == 2 and current["to_move"] == [0, 1]
    retried = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "pass", "version": current["version"]},
        headers=seats[0],
    )
    assert retried.status_code == 200, retried.text
    assert sweep(ctx_of(client)).applied == 0  # the new day is not applied twice


def test_a_one_day_clock_skips_the_seats_that_let_the_day_pass(
    client: TestClient, clock: FakeClock
) -> None:
    table_id, seats = people_table(client, "crossword", clock_days=1, max_skips=2, **DAILY)
    version = table(client, table_id, seats[0])["version"]
    done = play(client, table_id, seats, 0, version)
    assert done.status_code == 200
    clock.advance(hours=11)  # midnight in Paris
    assert sweep(ctx_of(client)).applied == 2
    after = table(client, table_id, seats[0])
    tail = [e["move"] for e in after["events"] if e["seq"] >= done.json()["version"]]
    assert tail == ["skip", "new-day"]
    assert [s["skips"] for s in after["seats"]] == [0, 1]
    assert after["view"]["log"][-2] == {"seat": 1, "turn": 1, "day": 1, "kind": "skip"}
    # seat 1 misses a second day: the clock takes it out; a computer plays it from then on
    done = play(client, table_id, seats, 0, after["version"])
    assert done.status_code == 200
    clock.advance(days=1)
    sweep(ctx_of(client))
    taken = table(client, table_id, seats[0])
    assert [(s["kind"], s["removed"], s["skips"]) for s in taken["seats"]] == [
        ("person", False, 0),
        ("cpu", True, 2),
    ]
    refused = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "pass", "version": taken["version"]},
        headers=seats[1],
    )
    assert refused.status_code == 403


def test_daily_mode_refuses_a_longer_clock_and_unknown_zones(client: TestClient) -> None:
    ann = register(client, "ann")
    longer = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open"], "clock_days": 3, **DAILY},
        headers=ann,
    )
    assert longer.status_code == 422
    assert longer.json()["detail"].startswith("in daily mode the day is the clock")
    for zone in ("Mars/Olympus_Mons", "../../etc/passwd", "Europe/Paris "):
        unknown = client.post(
            "/tables",
            json={"game": "crossword", "seats": ["me", "open"], "time_zone": zone},
            headers=ann,
        )
        assert unknown.status_code == 422, zone
        assert "time zone" in unknown.json()["detail"]
    assert client.get("/tables?which=mine", headers=ann).json() == []


def test_only_the_built_in_word_list(client: TestClient) -> None:
    ann = register(client, "ann")
    refused = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open"], "options": {"lexicon": "/etc/hosts"}},
        headers=ann,
    )
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "option 'lexicon' names a file, which a server game cannot use"
    )


def test_two_sweepers_apply_each_new_day_once(settings: Settings, clock: FakeClock) -> None:
    from parlour.server.services import accounts, lobby

    engine = open_database(settings.database_url)
    one = ServerContext(engine=engine, settings=settings)
    two = ServerContext(engine=engine, settings=Settings(**{**settings.__dict__, "instance": "b"}))
    people = [
        accounts.register(one, name=name, password="password123").account.id
        for name in ("ann", "bob")
    ]
    table_ids = []
    for _ in range(3):
        table_id = lobby.create_table(
            one,
            account_id=people[0],
            request=lobby.NewTable(
                game="crossword",
                seats=["me", "open"],
                options={"turn_mode": "daily"},
                time_zone="Asia/Tokyo",
            ),
        )
        lobby.join_table(one, table_id=table_id, account_id=people[1])  # begins: seats full
        table_ids.append(table_id)
    clock.advance(hours=12)  # 09:00 in Tokyo, the next day
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
    assert sum(r.applied for r in reports) == 3
    with engine.connect() as connection:
        for table_id in table_ids:
            days = [e for e in get_events(connection, table_id) if e.move == "new-day"]
            assert len(days) == 1
    assert sweep(one).applied == sweep(two).applied == 0


def test_turns_mode_takes_the_days_per_move_clock(client: TestClient, clock: FakeClock) -> None:
    table_id, seats = people_table(client, "crossword", clock_days=2)
    start = table(client, table_id, seats[0])
    assert start["deadline"] == "2026-12-03T12:00:00+00:00"
    assert start["to_move"] == [0]
    clock.advance(days=2)
    assert sweep(ctx_of(client)).applied == 1
    after = table(client, table_id, seats[1])
    assert after["events"][-1]["move"] == "skip"
    assert after["view"]["log"][-1] == {"seat": 0, "turn": 0, "day": 1, "kind": "skip"}
    assert after["to_move"] == [1] and after["your_turn"]
    assert after["deadline"] == "2026-12-05T12:00:00+00:00"
    assert [s["skips"] for s in after["seats"]] == [1, 0]


@pytest.mark.parametrize("days", [1, 5])
def test_turns_mode_takes_any_clock(client: TestClient, days: int) -> None:
    ann = register(client, "ann")
    created = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open"], "clock_days": days},
        headers=ann,
    )
    assert created.status_code == 201
    assert created.json()["clock_days"] == days
