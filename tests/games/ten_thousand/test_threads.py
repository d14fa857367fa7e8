"""Strong players thinking at once (the server runs them in worker threads): the tables they
share are built once and read safely, and every thread gets the answers one thread alone
would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from parlour.games.dice.shared import built_once
from parlour.games.ten_thousand import solver
from parlour.games.ten_thousand.bots import last_turn_keep
from parlour.games.ten_thousand.scoring import keep_options

THREADS = 4
TRIALS = 20
RULES = solver.TenThousandRules()
ROLL = (1, 2, 2, 3, 5, 6)
LEADERS = list(range(500, 6001, 250))
"""Leaders' scores in the last turns (a player on 0 must pass them: needs up to 6,050)."""


def at_once(work: Callable[[int], Any], threads: int = THREADS) -> list[Any]:
    """Run ``work(i)`` in *threads* threads released together; their answers, or the first
    error one of them raised."""
    start = threading.Barrier(threads)
    answers: list[Any] = [None] * threads
    errors: list[BaseException] = []

    def run(i: int) -> None:
        start.wait()
        try:
            answers[i] = work(i)
        except BaseException as err:
            errors.append(err)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]
    return answers


def last_turn_choices(order: list[int]) -> dict[int, tuple[tuple[int, ...], bool]]:
    """The strong player's keep on the last turn from 0 against each leader in *order*."""
    options = keep_options(ROLL, specials=True)
    choices = {}
    for leader in order:
        keep = last_turn_keep(RULES, options, 0, len(ROLL), 0, leader)
        choices[leader] = (keep.dice, keep.bank)
    return choices


def test_strong_players_in_their_last_turns_at_once_agree_with_one_alone() -> None:
    solver.need_table.cache_clear()
    alone = last_turn_choices(LEADERS)
    assert alone[500] == ((1,), False)  # 550 needed: keep one 1, roll five dice on
    for _ in range(TRIALS):
        solver.need_table.cache_clear()  # fresh tables, grown by every thread at once
        # each thread asks in its own order, so they grow the table from different ends
        orders = [LEADERS[i:] + LEADERS[:i] for i in range(0, THREADS * 5, 5)]
        answers = at_once(lambda i, orders=orders: last_turn_choices(orders[i]))
        assert answers == [alone] * THREADS


def test_need_tables_grown_by_threads_at_once_hold_the_values_one_thread_finds() -> None:
    model = solver.turn_model(RULES)
    needs = list(range(50, 8001, 350))
    alone = solver.NeedTable(model, tie=0.5)
    expected = [alone.chance_first(need) for need in needs]
    assert expected[0] == pytest.approx(1 - solver.roll_kind(6, True).farkle)
    for _ in range(TRIALS):
        table = solver.NeedTable(model, tie=0.5)
        answers = at_once(lambda i, table=table: [table.chance_first(n) for n in needs[i:]])
        assert answers == [expected[i:] for i in range(THREADS)]


def test_a_table_asked_for_by_threads_at_once_is_built_once() -> None:
    builds: list[int] = []

    @built_once
    def table(size: int) -> list[int]:
        builds.append(size)
        return [k * k for k in range(size)]  # long enough for the others to ask

    for trial in range(TRIALS):
        answers = at_once(lambda _i, trial=trial: table(200_000 + trial))
        assert all(answer is answers[0] for answer in answers)
        assert answers[0][3] == 9
    assert builds == [200_000 + trial for trial in range(TRIALS)]
    assert table(200_000) is table(200_000)
    table.cache_clear()
    table(200_000)
    assert builds[-1] == 200_000 and len(builds) == TRIALS + 1


def test_a_build_that_fails_is_tried_again() -> None:
    tries: list[int] = []

    @built_once
    def flaky(key: str) -> str:
        tries.append(1)
        if len(tries) == 1:
            raise ArithmeticError("first try fails")
        return key.upper()

    with pytest.raises(ArithmeticError):
        flaky("a")
    assert flaky("a") == "A" and flaky("a") == "A"
    assert len(tries) == 2
