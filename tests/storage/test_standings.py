"""Greedy standings in the database under concurrent writes: every finished game counts."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest

from parlour.storage import open_database, standings
from parlour.storage.standings import greedy_standings, record_greedy_game


def test_a_game_finished_while_another_is_being_recorded_counts_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two games of one person end at the same moment (two terminals, or the server's
    threads): the second is recorded while the first is between reading and writing the
    row. Both count; neither is lost to a locked database or an overwritten row."""
    engine = open_database()
    record_greedy_game(engine, "Ann", won=False, points=-1000, margin=None)
    errors: list[BaseException] = []
    clock = standings.utcnow

    def second_game() -> None:
        try:
            record_greedy_game(engine, "ann", won=True, points=5000, margin=300)
        except BaseException as err:
            errors.append(err)

    other = threading.Thread(target=second_game)

    def now() -> datetime:  # called by the first game between its read and its write
        if not other.is_alive() and other.ident is None:
            other.start()
            other.join(timeout=1.0)  # it finishes now, or waits for this one
        return clock()

    monkeypatch.setattr(standings, "utcnow", now)
    record_greedy_game(engine, "ann", won=True, points=5000, margin=200)
    other.join()
    assert errors == []
    [row] = greedy_standings(engine)
    assert (row.name, row.games, row.wins, row.losses) == ("Ann", 3, 2, 1)
    assert (row.points, row.best_margin) == (2 * 5000 - 1000, 300)
