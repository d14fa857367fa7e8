"""Greedy's coach at a small target: every keep's chance of winning from the race table,
hand-checked where it can be, and the table cached in the data directory."""

from __future__ import annotations

from typing import Any

import pytest

import parlour
from parlour.engine.chance import roll_outcomes
from parlour.engine.coach import advise
from parlour.engine.state import CHANCE
from parlour.games.dice.notation import Roll
from parlour.games.greedy import coach
from parlour.games.greedy.solver import GreedyRules
from parlour.games.greedy.state import GreedyState

RULES = GreedyRules(target=1_000)


@pytest.fixture(autouse=True)
def solved() -> None:
    """The race table at target 1,000, solved (or read back) before each test."""
    coach.race_table(RULES)


def start(*moves: str, players: int = 2) -> GreedyState:
    state = parlour.load("greedy", target=1_000, players=players).new_initial_state()
    for move in moves:
        player = CHANCE if move.startswith("roll") else state.current_player()
        state.apply(state.parse_action(move, player=player), player=player)
    assert isinstance(state, GreedyState)
    return state


def test_banking_to_the_target_wins_and_is_the_best_choice() -> None:
    state = start("roll 1 1 1 2 3 4 6 6 2")  # three 1s: 1,000 points, the target
    advice = advise(state, 0)
    assert advice is not None and advice.note == ""
    assert advice.best.action == "keep 1 1 1 bank" and advice.best.value == 1.0
    assert advice.best.figures[0].text == "win 100.0%"
    # keeping one 1 and banking 100: the opponent starts a turn at 0 against 100
    wins = coach.race_table(RULES)
    assert advice.find("keep 1 bank") is not None
    assert advice.loss("keep 1 bank") == pytest.approx(wins[0, 2], abs=1e-12)
    assert "quit" not in {c.action for c in advice.choices}


def test_rolling_on_is_worth_the_coachs_best_one_roll_later() -> None:
    state = start("roll 1 2 2 3 3 4 4 6 6")
    advice = advise(state, 0)
    assert advice is not None
    choice = advice.find("keep 1 roll")
    assert choice is not None
    wins = coach.race_table(RULES)
    expected = 0.0
    for roll, p in roll_outcomes(8):
        after = state.clone()
        after.apply(after.parse_action("keep 1 roll", player=0), player=0)
        after.apply(Roll(roll), player=CHANCE)
        if after.roll is None:  # a farkle: the opponent's turn at 0-0
            expected += float(p) * (1 - wins[0, 0])
            continue
        best = advise(after, 0)
        assert best is not None
        expected += float(p) * best.best.value
    assert choice.value == pytest.approx(expected, abs=1e-12)


def test_the_table_is_cached_in_the_data_directory() -> None:
    coach._TABLES.clear()
    coach.race_table(RULES)
    assert coach.cache_path(RULES).is_file()
    coach._TABLES.clear()
    again = coach.race_table(RULES)  # read back from the file
    assert again.shape == (20, 20)


def test_no_advice_for_the_other_seat_nor_without_a_table() -> None:
    state = start("roll 1 1 1 2 3 4 6 6 2")
    assert advise(state, 1) is None
    other = parlour.load("greedy", target=1_050).new_initial_state()
    other.apply(Roll((1, 1, 1, 2, 2, 3, 4, 6, 6)), player=CHANCE)
    assert advise(other, 0) is None  # target 1,050: not solved
    advice = advise(start("roll 1 1 1 2 3 4 6 6 2", players=3), 0)
    assert advice is not None and "leader" in advice.note


def test_with_the_tournament_tables_each_choice_has_its_tournament_points() -> None:
    from parlour.games.greedy import tournament

    tournament._TABLES.clear()
    try:
        tournament_choices(tournament)
    finally:
        tournament._TABLES.clear()  # no later test sees this target's tables in memory


def tournament_choices(tournament: Any) -> None:
    state = start("roll 1 1 1 2 3 4 6 6 2")
    before = advise(state, 0)
    assert before is not None and all(len(c.figures) == 1 for c in before.choices)
    tournament.tables(RULES)  # solved and stored: the coach now adds the second figure
    advice = advise(state, 0)
    assert advice is not None
    assert [c.action for c in advice.choices] == [c.action for c in before.choices]
    expected = {c.kept: c.points for c in tournament.choice_values(state, 0) if c.bank}
    win = advice.find("keep 1 1 1 bank")
    assert win is not None and [f.name for f in win.figures] == ["win", "tournament"]
    # a win at 1,000 exactly: 5,000 + 10 x 0 points over the target
    assert win.figures[1].value == pytest.approx(5_000) == expected[(1, 1, 1)]
    assert win.figures[1].text == "5,000 tournament points"
    for choice in advice.choices:
        assert len(choice.figures) == 2
    # three players: the win figures only (the tournament is one person against the computer)
    three = advise(start("roll 1 1 1 2 3 4 6 6 2", players=3), 0)
    assert three is not None and all(len(c.figures) == 1 for c in three.choices)


def test_the_default_targets_race_table_ships_in_the_package() -> None:
    coach._TABLES.clear()
    wins = coach.stored_race_table(GreedyRules())  # no solve: read from the package
    assert wins is not None and wins.shape == (200, 200)
    # both playing to win, the first player wins 57.6%; a 500-point head start evens it
    assert wins[0, 0] == pytest.approx(0.5761457, abs=1e-7)
    assert wins[0, 10] == pytest.approx(0.501811, abs=1e-6)
    assert wins[0, 9] > 0.5 > wins[0, 11]


@pytest.mark.parametrize(
    "moves",
    [
        ("roll 1 1 1 2 3 4 6 6 2",),
        ("roll 1 5 2 3 3 4 6 6 2",),
        ("roll 1 5 5 2 2 3 4 6 6", "keep 1 5 5 roll", "roll 1 2 3 4 6 6"),
    ],
)
def test_the_optimal_level_plays_the_coachs_best_choice(moves: tuple[str, ...]) -> None:
    import random

    from parlour.games.greedy.bots import make_bot

    state = start(*moves)
    seat = state.current_player()
    advice = advise(state, seat)
    assert advice is not None
    action = make_bot("optimal").choose(state, seat, random.Random(0))
    assert str(action) == advice.best.action
    assert advice.loss(str(action)) == 0.0


def test_the_optimal_level_banks_a_win_and_plays_as_strong_without_a_table() -> None:
    import random

    from parlour.games.dice.notation import Keep
    from parlour.games.greedy.bots import make_bot

    state = start("roll 5 5 5 2 3 4 6 6 2", "keep 5 5 5 bank", "roll 1 1 1 2 3 4 6 6 2")
    state.apply(state.parse_action("keep 1 1 1 roll", player=1), player=1)
    state.apply(state.parse_action("roll 1 5 2 2 3 3", player=CHANCE), player=CHANCE)
    # seat 1 has 1,000 in its turn now: 1,000 + 100 (+ 50) reaches the target: it banks to win
    action = make_bot("optimal").choose(state, 1, random.Random(0))
    assert action == Keep((1, 5), bank=True)
    other = parlour.load("greedy", target=1_050).new_initial_state()
    other.apply(Roll((1, 1, 1, 2, 2, 3, 4, 6, 6)), player=CHANCE)
    rng = random.Random(0)
    assert make_bot("optimal").choose(other, 0, rng) == make_bot("strong").choose(other, 0, rng)
