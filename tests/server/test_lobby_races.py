"""Racing lobby requests: every pair of lobby requests that can race, each race repeated.

Each trial builds a fresh table, lets the racers go at once (threads behind a barrier) and then
checks that the answers make sense together (exactly one success where only one can succeed,
a refusal that says why for the other) and that the database, each process's memory and
every player's view agree, and that the game can still move. Odd trials run the racers in
one "process" (one context: its writer may put both writes in one batch); even trials in two
(two contexts, each with its own engine, cache and writer, as two server processes).

``PARLOUR_RACE_TRIALS`` sets the trials per race (default 16).
"""

from __future__ import annotations

import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from parlour.engine.registry import find
from parlour.server.errors import Conflict, ServerError
from parlour.server.hooks import LobbyView, hooks_for
from parlour.server.services import accounts, lobby, views
from parlour.server.services.context import ServerContext
from parlour.server.settings import Settings
from parlour.storage import db
from parlour.storage.tables import (
    ACTIVE,
    LOBBY,
    SeatRow,
    TableRow,
    count_unfinished,
    get_seats,
    get_table,
)
from tests.server.conftest import register

TRIALS = int(os.environ.get("PARLOUR_RACE_TRIALS", "16"))
NAMES = ("ann", "bob", "cat", "dan")
OK = "ok"

Outcome = tuple[str, str]
"""``("ok", "")`` or ``(error class name, detail)``."""


@dataclass
class World:
    """Two server "processes" on one database, and four accounts (ann creates the tables)."""

    ctxs: list[ServerContext]
    people: dict[str, int]

    def ctx_for(self, trial: int, racer: int) -> ServerContext:
        """One process for odd trials, the racers spread over two for even ones."""
        return self.ctxs[0] if trial % 2 else self.ctxs[racer % 2]


def _second_engine(url: str) -> Engine:
    """A second engine on the same database (its own pool and, on SQLite, its own write
    lock: another process's)."""
    with db._lock:
        first = db._engines.pop(url)
    try:
        return db.open_database(url, migrate=False)
    finally:
        with db._lock:
            db._engines[url] = first


@contextmanager
def two_processes(settings: Settings, *, max_open_tables: int) -> Iterator[World]:
    """A :class:`World` whose accounts may sit at *max_open_tables* unfinished tables."""
    limited = replace(settings, max_open_tables=max_open_tables)
    assert limited.database_url is not None
    one = db.open_database(limited.database_url)
    two = _second_engine(limited.database_url)
    ctxs = [
        ServerContext(engine=one, settings=limited),
        ServerContext(engine=two, settings=limited),
    ]
    people = {
        name: accounts.register(ctxs[0], name=name, password="password123").account.id
        for name in NAMES
    }
    for ctx in ctxs:
        ctx.writer.start()
    try:
        yield World(ctxs, people)
    finally:
        for ctx in ctxs:
            ctx.writer.stop()
        two.dispose()


@pytest.fixture
def world(settings: Settings) -> Iterator[World]:
    with two_processes(settings, max_open_tables=100_000) as made:
        yield made


_SPREAD = random.Random(13)


def race(calls: list[Callable[[], None]]) -> list[Outcome]:
    """Run *calls* at once, one thread each; their outcomes in order. Each racer waits a
    random fraction of a millisecond after the common start, so that every order of arrival
    comes up (the checks hold whatever the order; nothing here is timed)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Outcome] = [("unfinished", "")] * len(calls)
    delays = [_SPREAD.uniform(0, 0.002) for _ in calls]

    def run(index: int) -> None:
        barrier.wait()
        time.sleep(delays[index])
        try:
            calls[index]()
            outcomes[index] = (OK, "")
        except ServerError as err:
            outcomes[index] = (type(err).__name__, err.detail)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def new_table(
    world: World, game: str, seats: list[str], *, joined: tuple[str, ...] = (), **extra: Any
) -> int:
    """A table ann created (``extra``: min_players), with *joined* seated in that order."""
    ctx = world.ctxs[0]
    table_id = lobby.create_table(
        ctx,
        account_id=world.people["ann"],
        request=lobby.NewTable(game=game, seats=seats, options={}, **extra),
    )
    for name in joined:
        lobby.join_table(ctx, table_id=table_id, account_id=world.people[name])
    return table_id


def stored(world: World, table_id: int) -> tuple[TableRow, list[SeatRow]]:
    with world.ctxs[0].engine.connect() as connection:
        table = get_table(connection, table_id)
        assert table is not None
        return table, get_seats(connection, table_id)


def seated(world: World, seats: list[SeatRow]) -> dict[str, list[int]]:
    """Each account's live (not removed) seats."""
    return {
        name: [s.seat for s in seats if s.account_id == account and not s.removed]
        for name, account in world.people.items()
    }


def check_agreement(world: World, table_id: int) -> tuple[TableRow, dict[str, int | None]]:
    """The database, each process's memory and every player's view agree, and the table can
    move on; returns the stored table and each account's seat."""
    table, seats = stored(world, table_id)
    places = seated(world, seats)
    for name, mine in places.items():
        assert len(mine) <= 1, f"{name} holds seats {mine}"
    seat_of = {name: (mine[0] if mine else None) for name, mine in places.items()}
    kinds = [
        "open" if s.is_open else "cpu" if s.account_id is None or s.removed else "person"
        for s in seats
    ]
    for ctx in world.ctxs:
        for name, account in [*world.people.items(), ("spectator", None)]:
            view = views.table_view(ctx, table_id, account)
            assert view["status"] == table.status, (name, view["status"], table.status)
            assert view["version"] == table.version
            assert view["you"] == (seat_of[name] if account is not None else None), name
            assert [s["kind"] for s in view["seats"]] == kinds
            assert view["votes"] == list(table.lobby.get("votes", []))
        entry = ctx.cache.peek(table_id)
        if entry is not None:  # what the process holds in memory is what is stored
            assert entry.table.status == table.status
            assert entry.version == table.version
            assert entry.seats == seats
    if table.status == ACTIVE:
        entry = world.ctxs[0].cache.peek(table_id)
        assert entry is not None
        assert entry.state.game.num_players == len(seats)
        assert not any(s.is_open for s in seats), "a started game has an open seat"
        for seat in entry.state.actors():  # someone can act for every seat to move
            row = seats[seat]
            assert entry.plays_itself(seat) or (
                row.account_id is not None and entry.seat_of(row.account_id) == seat
            ), f"nobody can act for seat {seat}"
    elif table.status == LOBBY:  # a lobby that should have begun by itself has begun
        spec = find(table.game)
        assert not hooks_for(spec.name).start.starts_by_itself(LobbyView(table, seats, spec))
    return table, seat_of


def tally(outcomes: list[Outcome]) -> str:
    """``"ok+Conflict"``: the outcome kinds, sorted."""
    return "+".join(sorted(kind for kind, _ in outcomes))


def only(outcomes: list[Outcome], allowed: dict[str, str]) -> None:
    """Every refusal is of a kind in *allowed*, its detail matching that kind's pattern."""
    for kind, detail in outcomes:
        if kind == OK:
            continue
        assert kind in allowed, (kind, detail)
        assert re.search(allowed[kind], detail), (kind, detail)


def report(name: str, counts: Counter[str]) -> None:
    """Print the outcome counts (``pytest -s`` shows them)."""
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    print(f"\n{name} x{TRIALS}: {shown}")


def do(ctx: ServerContext, what: str, table_id: int, account: int) -> Callable[[], None]:
    """The lobby request *what* (join, leave, vote, start) as a call for :func:`race`."""
    act = {
        "join": lobby.join_table,
        "leave": lobby.leave_table,
        "vote": lobby.vote_start,
        "start": lobby.start_table,
    }[what]
    return lambda: act(ctx, table_id=table_id, account_id=account)


# ---------------------------------------------------------------------------------------------


def test_join_join_one_account_gets_one_seat(world: World) -> None:
    # three joins by bob at once, at a crossword with three open seats: the first one seats
    # him, the others are refused; the table never fills with bob (nor starts by itself)
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(world, "crossword", ["me", "open", "open", "open"])
        outcomes = race(
            [do(world.ctx_for(trial, i), "join", table_id, world.people["bob"]) for i in range(3)]
        )
        only(outcomes, {"Conflict": r"^you already sit at this table$"})
        assert tally(outcomes) == "Conflict+Conflict+ok", outcomes
        table, seat_of = check_agreement(world, table_id)
        assert table.status == LOBBY
        assert seat_of["bob"] == 1
        counts[tally(outcomes)] += 1
    report("join/join (one account)", counts)


def test_join_join_two_accounts_for_the_last_seat(world: World) -> None:
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(world, "ten-thousand", ["me", "open"])
        racers = ["bob", "cat"]
        outcomes = race(
            [
                do(world.ctx_for(trial, i), "join", table_id, world.people[name])
                for i, name in enumerate(racers)
            ]
        )
        only(outcomes, {"Conflict": r"^the table is full$"})
        assert tally(outcomes) == "Conflict+ok", outcomes
        _table, seat_of = check_agreement(world, table_id)
        winner = racers[[kind for kind, _ in outcomes].index(OK)]
        assert seat_of[winner] == 1
        counts[tally(outcomes)] += 1
    report("join/join (two accounts, one seat)", counts)


def test_join_leave_by_one_account(world: World) -> None:
    # bob joins and leaves at once: the join always succeeds; the leave either came first
    # (refused: no seat yet, bob stays seated) or after (bob is gone again)
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(world, "crossword", ["me", "open", "open"])
        bob = world.people["bob"]
        outcomes = race(
            [
                do(world.ctx_for(trial, 0), "join", table_id, bob),
                do(world.ctx_for(trial, 1), "leave", table_id, bob),
            ]
        )
        only(outcomes, {"Forbidden": r"^you have no seat at this table$"})
        assert outcomes[0] == (OK, ""), outcomes
        _table, seat_of = check_agreement(world, table_id)
        assert (seat_of["bob"] is not None) == (outcomes[1][0] != OK), outcomes
        counts[f"join {outcomes[0][0]}, leave {outcomes[1][0]}"] += 1
    report("join/leave", counts)


def test_join_leave_two_accounts_for_one_seat(world: World) -> None:
    # the table is full: bob leaves while cat joins; cat gets bob's seat if bob left first
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(world, "ten-thousand", ["me", "open"], joined=("bob",))
        outcomes = race(
            [
                do(world.ctx_for(trial, 0), "leave", table_id, world.people["bob"]),
                do(world.ctx_for(trial, 1), "join", table_id, world.people["cat"]),
            ]
        )
        only(outcomes, {"Conflict": r"^the table is full$"})
        assert outcomes[0] == (OK, ""), outcomes
        _table, seat_of = check_agreement(world, table_id)
        assert seat_of["bob"] is None
        assert seat_of["cat"] == (1 if outcomes[1][0] == OK else None)
        counts[f"leave {outcomes[0][0]}, join {outcomes[1][0]}"] += 1
    report("join/leave (two accounts)", counts)


@pytest.mark.parametrize("game", ["ten-thousand", "crossword"])
def test_leave_start(world: World, game: str) -> None:
    # bob leaves as the table starts (ten-thousand: ann starts it; crossword: bob voted and
    # ann's vote begins it): either it starts with bob (his leave is refused) or bob left
    # first (ten-thousand: the start is refused, a seat is open; crossword: bob's vote went
    # with him, so ann's vote is counted and the table waits)
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        if game == "crossword":
            table_id = new_table(
                world, game, ["me", "open", "open"], joined=("bob",), min_players=2
            )
            lobby.vote_start(world.ctxs[0], table_id=table_id, account_id=world.people["bob"])
            starter = do(world.ctx_for(trial, 0), "vote", table_id, world.people["ann"])
        else:
            table_id = new_table(world, game, ["me", "open"], joined=("bob",))
            starter = do(world.ctx_for(trial, 0), "start", table_id, world.people["ann"])
        leaver = do(world.ctx_for(trial, 1), "leave", table_id, world.people["bob"])
        outcomes = race([starter, leaver])
        only(
            outcomes,
            {
                "Conflict": r"^(the game has started: leaving is only possible before the start"
                r"|1 seat still open: wait for players to join)$",
            },
        )
        table, seat_of = check_agreement(world, table_id)
        if game == "ten-thousand":
            assert tally(outcomes) == "Conflict+ok", outcomes
        else:
            assert outcomes[0] == (OK, ""), outcomes
        started = table.status == ACTIVE
        assert started == (outcomes[1][0] != OK), outcomes
        assert (seat_of["bob"] is not None) == started
        counts[f"start {outcomes[0][0]}, leave {outcomes[1][0]}"] += 1
    report(f"leave/start ({game})", counts)


def test_vote_vote_both_counted_both_answered(world: World) -> None:
    # bob and cat vote at once; two votes begin the game: both are counted, both are 200
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(
            world, "crossword", ["me", "open", "open", "open"], joined=("bob", "cat"), min_players=2
        )
        outcomes = race(
            [
                do(world.ctx_for(trial, i), "vote", table_id, world.people[name])
                for i, name in enumerate(["bob", "cat"])
            ]
        )
        assert tally(outcomes) == "ok+ok", outcomes
        table, seat_of = check_agreement(world, table_id)
        assert table.status == ACTIVE
        assert table.options["players"] == 3
        assert sorted(table.lobby["votes"]) == [1, 2]
        assert [seat_of[n] for n in ("ann", "bob", "cat", "dan")] == [0, 1, 2, None]
        counts[tally(outcomes)] += 1
    report("vote/vote", counts)


def test_vote_vote_when_one_vote_begins_it(world: World) -> None:
    # ann voted; bob and cat vote at once: the first begins the game, the second is refused
    # (its vote is not counted: the votes stored are the two that began it)
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(
            world, "crossword", ["me", "open", "open", "open"], joined=("bob", "cat"), min_players=2
        )
        lobby.vote_start(world.ctxs[0], table_id=table_id, account_id=world.people["ann"])
        outcomes = race(
            [
                do(world.ctx_for(trial, i), "vote", table_id, world.people[name])
                for i, name in enumerate(["bob", "cat"])
            ]
        )
        only(outcomes, {"Conflict": r"^the game has already started: votes are for the lobby$"})
        assert tally(outcomes) == "Conflict+ok", outcomes
        table, _seat_of = check_agreement(world, table_id)
        assert table.status == ACTIVE
        winner = 1 + [kind for kind, _ in outcomes].index(OK)
        assert table.lobby["votes"] == [0, winner]
        counts[tally(outcomes)] += 1
    report("vote/vote (one begins it)", counts)


def test_vote_leave(world: World) -> None:
    # ann voted; bob's vote begins the game while cat leaves: either cat left first (the game
    # begins with ann and bob) or the game began first (cat's leave is refused; cat plays)
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(
            world, "crossword", ["me", "open", "open", "open"], joined=("bob", "cat"), min_players=2
        )
        lobby.vote_start(world.ctxs[0], table_id=table_id, account_id=world.people["ann"])
        outcomes = race(
            [
                do(world.ctx_for(trial, 0), "vote", table_id, world.people["bob"]),
                do(world.ctx_for(trial, 1), "leave", table_id, world.people["cat"]),
            ]
        )
        only(
            outcomes,
            {"Conflict": r"^the game has started: leaving is only possible before the start$"},
        )
        assert outcomes[0] == (OK, ""), outcomes
        table, seat_of = check_agreement(world, table_id)
        assert table.status == ACTIVE
        cat_plays = outcomes[1][0] != OK
        assert table.options["players"] == (3 if cat_plays else 2)
        assert (seat_of["cat"] is not None) == cat_plays
        counts[f"vote {outcomes[0][0]}, leave {outcomes[1][0]}"] += 1
    report("vote/leave", counts)


def test_vote_leave_of_the_voter(world: World) -> None:
    # ann voted, bob voted; cat's vote would begin it as bob leaves (taking his vote): the
    # leave first leaves ann and cat voted (2: it begins with them), else all three play
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(
            world, "crossword", ["me", "open", "open", "open"], joined=("bob", "cat"), min_players=3
        )
        for name in ("ann", "bob"):
            lobby.vote_start(world.ctxs[0], table_id=table_id, account_id=world.people[name])
        outcomes = race(
            [
                do(world.ctx_for(trial, 0), "vote", table_id, world.people["cat"]),
                do(world.ctx_for(trial, 1), "leave", table_id, world.people["bob"]),
            ]
        )
        only(
            outcomes,
            {"Conflict": r"^the game has started: leaving is only possible before the start$"},
        )
        assert outcomes[0] == (OK, ""), outcomes
        table, seat_of = check_agreement(world, table_id)
        bob_plays = outcomes[1][0] != OK
        assert (seat_of["bob"] is not None) == bob_plays
        if bob_plays:
            assert table.status == ACTIVE and table.options["players"] == 3
        else:  # three voters needed, two left voting: it waits, with bob's vote gone
            assert table.status == LOBBY
            assert table.lobby["votes"] == [0, 2]
        counts[f"vote {outcomes[0][0]}, leave {outcomes[1][0]}"] += 1
    report("vote/leave (the voter leaves)", counts)


def test_start_cancel(world: World) -> None:
    # ann starts and leaves (cancels) at once: exactly one happens, the other says why
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        table_id = new_table(world, "ten-thousand", ["me", "open"], joined=("bob",))
        ann = world.people["ann"]
        outcomes = race(
            [
                do(world.ctx_for(trial, 0), "start", table_id, ann),
                do(world.ctx_for(trial, 1), "leave", table_id, ann),
            ]
        )
        only(
            outcomes,
            {
                "Conflict": r"^(the table is cancelled \(its creator left\)"
                r"|the game has started: leaving is only possible before the start)$"
            },
        )
        assert tally(outcomes) == "Conflict+ok", outcomes
        table, _seat_of = check_agreement(world, table_id)
        assert table.status == (ACTIVE if outcomes[0][0] == OK else "cancelled")
        counts[f"start {outcomes[0][0]}, cancel {outcomes[1][0]}"] += 1
    report("start/cancel", counts)


@pytest.mark.parametrize("game", ["ten-thousand", "crossword"])
def test_join_start(world: World, game: str) -> None:
    # ten-thousand: cat takes the last seat as ann starts (the start needs it taken);
    # crossword: cat joins as bob's vote begins the game (cat plays if the join came first)
    counts: Counter[str] = Counter()
    for trial in range(TRIALS):
        if game == "crossword":
            table_id = new_table(
                world, game, ["me", "open", "open", "open"], joined=("bob",), min_players=2
            )
            lobby.vote_start(world.ctxs[0], table_id=table_id, account_id=world.people["ann"])
            starter = do(world.ctx_for(trial, 0), "vote", table_id, world.people["bob"])
        else:
            table_id = new_table(world, game, ["me", "open", "open"], joined=("bob",))
            starter = do(world.ctx_for(trial, 0), "start", table_id, world.people["ann"])
        joiner = do(world.ctx_for(trial, 1), "join", table_id, world.people["cat"])
        outcomes = race([starter, joiner])
        only(
            outcomes,
            {
                "Conflict": r"^(the game has already started"
                r"|1 seat still open: wait for players to join)$"
            },
        )
        table, seat_of = check_agreement(world, table_id)
        assert outcomes[0] == (OK, "") or outcomes[1] == (OK, ""), outcomes
        assert (seat_of["cat"] is not None) == (outcomes[1][0] == OK)
        assert (table.status == ACTIVE) == (outcomes[0][0] == OK)
        counts[f"start {outcomes[0][0]}, join {outcomes[1][0]}"] += 1
    report(f"join/start ({game})", counts)


def test_join_join_at_two_tables_at_the_table_limit(settings: Settings) -> None:
    # bob sits at one table of the two he may; he joins two more at once: one join seats
    # him, the other is refused at the limit (the count and the seat are one step)
    counts: Counter[str] = Counter()
    with two_processes(settings, max_open_tables=2) as world:
        ann, bob, cat = (world.people[n] for n in ("ann", "bob", "cat"))
        for trial in range(TRIALS):
            first = new_table(world, "ten-thousand", ["me", "open"], joined=("bob",))
            second = new_table(world, "ten-thousand", ["me", "open"])
            third = lobby.create_table(
                world.ctxs[0],
                account_id=cat,
                request=lobby.NewTable(game="ten-thousand", seats=["me", "open"], options={}),
            )
            outcomes = race(
                [
                    do(world.ctx_for(trial, i), "join", table_id, bob)
                    for i, table_id in enumerate((second, third))
                ]
            )
            only(outcomes, {"Refused": r"^you already sit at 2 unfinished tables$"})
            assert tally(outcomes) == "Refused+ok", outcomes
            for table_id in (second, third):
                check_agreement(world, table_id)
            with world.ctxs[0].engine.connect() as connection:
                assert count_unfinished(connection, bob) == 2
            for table_id, creator in ((first, ann), (second, ann), (third, cat)):
                lobby.leave_table(world.ctxs[0], table_id=table_id, account_id=creator)
            counts[tally(outcomes)] += 1
    report("join/join (two tables, at the limit)", counts)


def test_the_database_refuses_a_second_seat_the_check_missed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a join whose own check does not see bob's seat (as a write that forgot to lock the
    # row would not): the unique index refuses the second seat, and bob is told why
    table_id = new_table(world, "ten-thousand", ["me", "open", "open"], joined=("bob",))
    bob = world.people["bob"]

    def forgetful(connection: Any, key: int) -> list[SeatRow]:
        return [
            replace(s, account_id=None) if s.account_id == bob else s
            for s in get_seats(connection, key)
        ]

    monkeypatch.setattr(lobby, "get_seats", forgetful)
    with pytest.raises(Conflict, match=r"^you already sit at this table$"):
        lobby.join_table(world.ctxs[0], table_id=table_id, account_id=bob)
    monkeypatch.undo()
    _table, seat_of = check_agreement(world, table_id)
    assert seat_of["bob"] == 1


def test_join_join_through_the_api(client: TestClient) -> None:
    # the report, through HTTP: three joins by one account at once, many times
    ann, bob = register(client, "ann"), register(client, "bob")
    counts: Counter[str] = Counter()
    for _trial in range(TRIALS):
        table = client.post(
            "/tables",
            json={"game": "crossword", "seats": ["me", "open", "open", "open"]},
            headers=ann,
        )
        assert table.status_code == 201, table.text
        url = f"/tables/{table.json()['id']}"
        answers: list[Any] = []
        race([lambda: answers.append(client.post(f"{url}/join", json={}, headers=bob))] * 3)  # noqa: B023
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 409, 409], [a.text for a in answers]
        assert {a.json()["detail"] for a in answers if a.status_code == 409} == {
            "you already sit at this table"
        }
        for who, seat in ((ann, 0), (bob, 1)):
            seen = client.get(url, headers=who).json()
            assert seen["status"] == "lobby" and seen["you"] == seat
            assert [s["kind"] for s in seen["seats"]] == ["person", "person", "open", "open"]
        counts["+".join(map(str, codes))] += 1
        # ann leaves: the table is cancelled and no longer counts against the table limit
        assert client.post(f"{url}/leave", headers=ann).status_code == 200
    report("join/join (one account, HTTP)", counts)
