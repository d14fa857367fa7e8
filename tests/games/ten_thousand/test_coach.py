"""Ten-Thousand's coach: every keep's chance of winning, hand-checked where it can be, and
agreeing with the ``optimal`` player and with the coach one roll later."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import parlour
from parlour.engine.chance import roll_outcomes
from parlour.engine.coach import advise
from parlour.engine.state import CHANCE
from parlour.games.dice.notation import Keep, Roll
from parlour.games.ten_thousand import optimal
from parlour.games.ten_thousand.bots import make_bot
from parlour.games.ten_thousand.optimal import optimal_turn, win_probability
from parlour.games.ten_thousand.solver import TenThousandRules
from parlour.games.ten_thousand.state import TenThousandState

RULES = TenThousandRules()


def start(*moves: str, **options: object) -> TenThousandState:
    state = parlour.load("ten-thousand", **options).new_initial_state()
    for move in moves:
        player = CHANCE if move.startswith("roll") else state.current_player()
        state.apply(state.parse_action(move, player=player), player=player)
    assert isinstance(state, TenThousandState)
    return state


def test_six_ones_at_the_start_the_coach_banks_where_strong_rolls_on() -> None:
    state = start("roll 1 1 1 1 1 1")  # 8,000 points on the first roll at 0-0
    advice = advise(state, 0)
    assert advice is not None and advice.note == ""
    assert advice.best.action == "keep 1 1 1 1 1 1 bank"
    # banking 8,000: the opponent starts a turn at 0 against 8,000
    assert advice.best.value == pytest.approx(1 - win_probability(RULES, 0, 8_000), abs=1e-12)
    assert advice.best.figures[0].text == "win 99.9%"
    assert advice.find("keep 1 1 1 1 1 1 roll") is not None
    assert advice.loss("keep 1 1 1 1 1 1 roll") == pytest.approx(0.016132, abs=1e-6)
    rng = random.Random(0)
    assert make_bot("optimal").choose(state, 0, rng) == Keep((1,) * 6, bank=True)
    assert make_bot("strong").choose(state, 0, rng) == Keep((1,) * 6, bank=False)
    assert sum(c.best for c in advice.choices) == 1


def test_the_best_choice_is_the_optimal_players_and_worth_the_policys_value() -> None:
    rng = random.Random(7)
    bot = make_bot("optimal")
    checked = 0
    while checked < 12:
        state = start()
        state.scores[:] = [rng.randrange(0, 190) * 50, rng.randrange(0, 190) * 50]
        state.apply(state.sample_chance(rng), player=CHANCE)
        if state.roll is None or state.current_player() != 0:
            continue  # a farkle
        advice = advise(state, 0)
        assert advice is not None
        chosen = advice.find(str(bot.choose(state, 0, rng)))
        assert chosen is not None and chosen.value == pytest.approx(advice.best.value, abs=1e-12)
        policy = optimal_turn(RULES, state.scores[0], state.scores[1])
        points = state.keep_points(state.roll, first_roll=True)
        top = max(
            policy.value(points[k.dice], len(state.roll) - len(k.dice) or 6)
            for k in map(lambda c: state.parse_action(c.action), advice.choices)
            if isinstance(k, Keep)
        )
        assert advice.best.value == pytest.approx(top, abs=1e-12)
        checked += 1


def test_rolling_on_is_worth_the_coachs_best_one_roll_later() -> None:
    # 0-0, first roll 1 1 2 3 4 6: keep one 1 and roll five dice, or both 1s and roll four
    state = start("roll 1 1 2 3 4 6")
    advice = advise(state, 0)
    assert advice is not None
    for action, dice_left in (("keep 1 roll", 5), ("keep 1 1 roll", 4)):
        choice = advice.find(action)
        assert choice is not None
        farkle_value = 1 - win_probability(RULES, 0, 0)  # the opponent's turn at 0-0
        expected = 0.0
        for roll, p in roll_outcomes(dice_left):
            after = state.clone()
            after.apply(after.parse_action(action, player=0), player=0)
            after.apply(Roll(roll), player=CHANCE)
            if after.roll is None:  # a farkle
                expected += float(p) * farkle_value
                continue
            best = advise(after, 0)
            assert best is not None
            expected += float(p) * best.best.value
        assert choice.value == pytest.approx(expected, abs=1e-12)


def test_a_last_turn_hand_checked() -> None:
    optimal.wins_table(TenThousandRules(target=1_000))  # solved: a few seconds
    # target 1,000: seat 1 has 900, seat 0 banked 1,000 (the last turns); seat 1 rolls
    # 1 2 3 4 6 6: keeping the 1 and banking ties the leader (worth half), rolling the
    # other five on passes unless they farkle: 600 of the 7,776 rolls of five dice do
    state = start(
        "roll 2 2 3 3 4 6",
        "roll 1 1 2 5 5 5",
        "keep 1 1 5 5 5 roll",
        "roll 1",
        "keep 1 roll",
        "roll 1 2 2 3 3 4",
        "keep 1 bank",
        "roll 1 1 1 2 3 4",
        "keep 1 1 1 bank",
        "roll 1 2 3 4 6 6",
        target=1_000,
    )
    assert state.scores == [1_000, 900] and state.last_turns()
    advice = advise(state, 1)
    assert advice is not None
    assert {c.action: c.value for c in advice.choices} == {
        "keep 1 roll": pytest.approx(float(1 - Fraction(600, 7_776))),
        "keep 1 bank": 0.5,
    }
    assert advice.best.action == "keep 1 roll"


def test_no_advice_for_another_seat_a_chance_node_or_practice() -> None:
    state = start("roll 1 1 2 3 4 6")
    assert advise(state, 1) is None  # seat 0 decides
    assert advise(start(), 0) is None  # the dice are not rolled yet
    alone = start("roll 1 1 2 3 4 6", players=1)
    assert advise(alone, 0) is None


def test_three_players_say_the_figures_are_against_the_leader() -> None:
    state = start("roll 1 1 2 3 4 6", players=3)
    advice = advise(state, 0)
    assert advice is not None and "leader" in advice.note
