"""The game-agnostic arena: seats rotate, figures add up, seeds and jobs reproduce runs."""

from __future__ import annotations

import pytest

import parlour
from parlour.bots import RandomBot
from parlour.bots.arena import run_arena
from parlour.engine.state import State
from parlour.games.ten_thousand.bots import make_bot


def first_seat(state: State, seat: int) -> dict[str, float]:
    return {"first": 1.0 if seat == 0 else 0.0, "games": 1.0}


def test_seats_rotate_and_figures_add_up() -> None:
    game = parlour.load("ten-thousand", players=3, target=1000)
    bots = [RandomBot(), make_bot("cautious"), make_bot("reckless")]
    result = run_arena(game, bots, games=9, seed=4, measure=first_seat)
    assert [b.name for b in result.bots] == ["random", "cautious", "reckless"]
    assert all(b.games == 9 and b.extra == {"first": 3.0, "games": 9.0} for b in result.bots)
    assert sum(b.wins for b in result.bots) == pytest.approx(9)
    for b in result.bots:
        low, high = b.interval
        assert 0 <= low <= b.win_rate <= high <= 1
    assert result.games_per_second > 0
    data = result.to_json()
    assert data["games"] == 9 and data["bots"][0]["first"] == 3.0


def test_same_seed_same_games_for_any_number_of_jobs() -> None:
    game = parlour.load("ten-thousand", players=2, target=2000)
    bots = [make_bot("cautious"), make_bot("reckless")]
    one = run_arena(game, bots, games=12, seed=9)
    again = run_arena(game, bots, games=12, seed=9)
    two = run_arena(game, bots, games=12, seed=9, jobs=2)
    other = run_arena(game, bots, games=12, seed=10)
    figures = [(b.wins, b.points) for b in one.bots]
    assert figures == [(b.wins, b.points) for b in again.bots]
    assert figures == [(b.wins, b.points) for b in two.bots] and two.jobs == 2
    assert figures != [(b.wins, b.points) for b in other.bots]


def test_same_level_twice_is_numbered_and_bad_input_refused() -> None:
    game = parlour.load("ten-thousand", players=2, target=1000)
    result = run_arena(game, [RandomBot(), RandomBot()], games=2)
    assert [b.name for b in result.bots] == ["random#1", "random#2"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        run_arena(game, [RandomBot()] * 3, games=1)
    with pytest.raises(ValueError, match="0 or more"):
        run_arena(game, [RandomBot()] * 2, games=-1)
