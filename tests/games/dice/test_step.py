"""What a step did, told by the dice games (State.describe_step): hand-checked summaries of a
farkle, a bank, hot dice, the last turns beginning, a skip, and Greedy's bonus round and quit."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine.errors import IllegalMove, ParlourError
from parlour.engine.state import CHANCE, HOST, State
from parlour.engine.step import Step
from parlour.games.dice.notation import Quit, Skip
from tests.helpers import play


def new(name: str, players: int = 2, **options: object) -> State:
    return parlour.load(name, players=players, **options).new_initial_state()


def step(state: State, text: str, player: int | None = None) -> Step:
    """Apply *text* (a roll is a chance outcome) and return its summary."""
    if player is None and text.startswith("roll"):
        player = CHANCE
    return state.step(state.parse_action(text, player=player), player=player)


def test_a_farkle_loses_the_turn_total() -> None:
    state = play(new("ten-thousand"), "roll 1 2 3 4 4 6", "keep 1 roll")  # 100, five dice
    summary = step(state, "roll 2 2 3 4 6")  # no 1, no 5, no three of a kind
    assert summary == Step(
        CHANCE,
        "roll 2 2 3 4 6",
        0,
        points=0,
        score_changes=(0, 0),
        marks=("farkle", "turn_over"),
        facts={"roll": [2, 2, 3, 4, 6], "turn_total": 0, "lost": 100},
    )


def test_a_roll_that_scores_is_no_farkle() -> None:
    summary = step(new("ten-thousand"), "roll 1 2 3 4 4 6")
    assert summary.seat == 0 and summary.marks == ()
    assert summary.facts == {"roll": [1, 2, 3, 4, 4, 6], "turn_total": 0, "lost": 0}


def test_a_bank_of_350() -> None:
    state = play(new("ten-thousand"), "roll 1 2 2 2 3 5")
    summary = step(state, "keep 1 2 2 2 5 bank")  # three 2s 200, a 1 100, a 5 50
    assert summary == Step(
        0,
        "keep 1 2 2 2 5 bank",
        0,
        points=350,
        score_changes=(350, 0),
        marks=("bank", "turn_over"),
        facts={"banked": 350, "left": [3], "turn_total": 0, "lost": 0},
    )
    assert state.scores == [350, 0]


def test_a_bank_counts_the_whole_turn() -> None:
    state = play(new("ten-thousand"), "roll 1 2 3 4 4 6", "keep 1 roll", "roll 2 3 4 5 6")
    summary = step(state, "keep 5 bank")
    assert (summary.points, summary.score_changes) == (50, (150, 0))
    assert summary.facts["banked"] == 150 and summary.facts["left"] == [2, 3, 4, 6]


def test_hot_dice() -> None:
    state = play(new("ten-thousand"), "roll 1 1 1 5 5 5")
    summary = step(state, "keep 1 1 1 5 5 5 roll")  # three 1s 1000, three 5s 500
    assert summary.marks == ("hot_dice",)
    assert summary.points == 1500 and summary.score_changes == (0, 0)
    assert summary.facts == {"turn_total": 1500, "lost": 0}
    assert state.to_roll == 6


def test_keeping_every_die_and_banking_is_a_bank_not_hot_dice() -> None:
    state = play(new("ten-thousand"), "roll 1 1 1 5 5 5")
    assert step(state, "keep 1 1 1 5 5 5 bank").marks == ("bank", "turn_over")


def test_the_last_turns_begin() -> None:
    state = play(new("ten-thousand", 3, target=1000), "roll 1 1 1 2 3 4")
    summary = step(state, "keep 1 1 1 bank")  # seat 0 reaches the target
    assert summary.marks == ("bank", "turn_over", "last_turns")
    assert summary.score_changes == (1000, 0, 0)
    # the next bank is one of the last turns: it starts nothing
    play(state, "roll 5 2 2 3 4 6")
    assert step(state, "keep 5 bank").marks == ("bank", "turn_over")


def test_the_step_that_ends_the_game() -> None:
    state = play(new("ten-thousand", target=1000), "roll 1 1 1 2 3 4", "keep 1 1 1 bank")
    summary = step(state, "roll 2 2 3 3 4 6")  # seat 1's last turn: a farkle
    assert summary.seat == 1
    assert summary.marks == ("farkle", "turn_over", "game_over")


def test_a_host_skip() -> None:
    state = play(new("ten-thousand"), "roll 1 2 3 4 4 6", "keep 1 roll")
    summary = state.step(Skip(), player=HOST)
    assert (summary.by, summary.seat, summary.action) == (HOST, 0, "skip")
    assert summary.marks == ("skip", "turn_over") and summary.facts["lost"] == 100


def test_a_greedy_bonus_round() -> None:
    state = play(new("greedy"), "roll 1 2 2 2 3 3 4 4 6", "keep 1 2 2 2 roll", "roll 1 1 1 5 5")
    summary = step(state, "keep 1 1 1 5 5 roll")  # three 1s 1000, two 5s 100: all nine scored
    assert summary == Step(
        0,
        "keep 1 1 1 5 5 roll",
        0,
        points=1100,
        score_changes=(0, 0),
        marks=("hot_dice", "bonus_round"),
        facts={"turn_total": 1400, "lost": 0, "bonus_rounds": 1},
    )


def test_a_greedy_quit_out_of_turn() -> None:
    state = play(new("greedy"), "roll 1 2 2 2 3 3 4 4 6")
    summary = state.step(Quit(), player=1)
    assert (summary.by, summary.seat) == (1, 1)
    assert summary.marks == ("quit", "turn_over", "game_over")


def test_a_refused_step_changes_nothing() -> None:
    state = play(new("ten-thousand"), "roll 1 2 3 4 4 6")
    with pytest.raises(IllegalMove):
        step(state, "keep 2 bank")
    assert state.turn_total == 0 and len(state.history) == 1


def test_describe_step_needs_the_state_just_before() -> None:
    start = new("ten-thousand")
    state = play(start.clone(), "roll 1 2 3 4 4 6", "keep 1 roll")
    with pytest.raises(ParlourError, match="just before"):
        state.describe_step(start, 0, state.history[-1][1])


def test_the_summary_is_json() -> None:
    state = play(new("ten-thousand"), "roll 1 2 2 2 3 5")
    assert step(state, "keep 1 2 2 2 5 bank").to_json() == {
        "by": 0,
        "action": "keep 1 2 2 2 5 bank",
        "seat": 0,
        "points": 350,
        "score_changes": [350, 0],
        "marks": ["bank", "turn_over"],
        "facts": {"banked": 350, "left": [3], "turn_total": 0, "lost": 0},
    }
