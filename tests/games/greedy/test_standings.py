"""Greedy tournament points (docs/rules/greedy.md#standings), by hand: a win is 5,000 plus 10
per point over 10,000; a loss forfeits 1,000 plus 5 per computer point over 10,000; a quit is
a loss at the computer's score then. The person is seat 0, the computer seat 1."""

from __future__ import annotations

import parlour
from parlour.engine.state import State
from parlour.games.dice.notation import Quit
from parlour.games.greedy.standings import StandingsEntry, standings_entry, tournament_points
from tests.helpers import play

NINE_ONES = ("roll 1 1 1 1 1 1 1 1 1", "keep 1 1 1 1 1 1 1 1 1 bank")  # 3 x 1,000: 3,000
THREE_TWOS = ("roll 2 2 2 3 3 4 4 6 6", "keep 2 2 2 bank")  # 200
FARKLE = ("roll 2 2 2 3 3 4 4 6 6", "keep 2 2 2 roll", "roll 3 3 4 4 6 6")  # 0
ONES_AND_A_FIVE = ("roll 1 1 1 1 1 5 2 3 4", "keep 1 1 1 1 1 5 bank")  # 1,000+200+50: 1,250


def new() -> State:
    return parlour.load("greedy", players=2).new_initial_state()


def test_a_win_is_five_thousand_and_ten_per_point_over_ten_thousand() -> None:
    state = new()
    for _ in range(3):
        play(state, *NINE_ONES, *THREE_TWOS)
    play(state, *ONES_AND_A_FIVE)
    assert state.is_terminal() and state.result().scores == (10_250, 600)
    # 5,000 + 10 x 250 = 7,500; margin 10,250 - 600
    assert standings_entry(state, 0) == StandingsEntry(won=True, points=7_500, margin=9_650)


def test_a_loss_is_one_thousand_and_five_per_computer_point_over_ten_thousand() -> None:
    state = new()
    for _ in range(2):
        play(state, *NINE_ONES, *NINE_ONES)
    play(state, *FARKLE, *NINE_ONES, *FARKLE, *ONES_AND_A_FIVE)
    assert state.is_terminal() and state.result().scores == (6_000, 10_250)
    # -(1,000 + 5 x 250) = -2,250
    assert standings_entry(state, 0) == StandingsEntry(won=False, points=-2_250, margin=None)


def test_a_quit_is_a_loss_at_the_computers_score_then() -> None:
    state = play(new(), *NINE_ONES, *NINE_ONES)
    state.apply(Quit(), player=0)
    assert state.result().scores == (3_000, 3_000)
    # the computer has fewer than 10,000: its points over 10,000 count as 0
    assert standings_entry(state, 0) == StandingsEntry(won=False, points=-1_000, margin=None)


def test_the_computer_seat_quitting_is_the_persons_win_at_their_score() -> None:
    state = play(new(), *NINE_ONES, *THREE_TWOS)
    state.apply(Quit(), player=1)
    assert state.result().scores == (3_000, 200)
    assert standings_entry(state, 0) == StandingsEntry(won=True, points=5_000, margin=2_800)


def test_the_formula_at_and_past_ten_thousand() -> None:
    assert tournament_points(won=True, person_score=10_000, computer_score=9_950) == 5_000
    assert tournament_points(won=True, person_score=12_340, computer_score=0) == 28_400
    assert tournament_points(won=False, person_score=9_000, computer_score=10_000) == -1_000
    assert tournament_points(won=False, person_score=0, computer_score=11_050) == -6_250
