"""Rummy statistics in the database: the figures, streaks, and each game counted once."""

from __future__ import annotations

import pytest

from parlour.engine.errors import ParlourError
from parlour.storage import open_database
from parlour.storage.rummy_stats import PersonGame, record_rummy_game, rummy_stats


def test_figures_and_streaks() -> None:
    engine = open_database()
    games = [
        (True, 520, (120, 400)),
        (True, 610, (-30, 300, 340)),
        (False, 480, (200, 280)),
        (True, 505, (505,)),
    ]
    for index, (won, score, rounds) in enumerate(games):
        assert record_rummy_game(engine, f"g{index}", [PersonGame("Ann", won, score, rounds)])
    (ann,) = rummy_stats(engine)
    assert (ann.name, ann.played, ann.won, ann.lost) == ("Ann", 4, 3, 1)
    assert ann.win_rate == 0.75
    assert ann.best_game_score == 610 and ann.best_round_score == 505
    assert ann.rounds == 8 and ann.average_round_score == (520 + 610 + 480 + 505) / 8
    assert (ann.current_streak, ann.longest_streak) == (1, 2)


def test_a_game_is_counted_once_and_names_match_case_insensitively() -> None:
    engine = open_database()
    assert record_rummy_game(engine, "same", [PersonGame("Ann", False, -40, (-40,))])
    assert not record_rummy_game(engine, "same", [PersonGame("Ann", False, -40, (-40,))])
    assert record_rummy_game(engine, "other", [PersonGame(" ann ", True, 600, (600,))])
    (ann,) = rummy_stats(engine, "ANN")
    assert (ann.played, ann.won, ann.best_game_score, ann.best_round_score) == (2, 1, 600, 600)
    assert ann.to_json()["average_round_score"] == 280.0


def test_bad_name_refused_and_nothing_written() -> None:
    engine = open_database()
    with pytest.raises(ParlourError, match="empty"):
        record_rummy_game(
            engine, "g", [PersonGame("bob", True, 1, (1,)), PersonGame(" ", False, 0, ())]
        )
    assert rummy_stats(engine) == []
