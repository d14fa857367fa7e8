"""The Greedy solver against hand-computed cases, a forward pass and Monte Carlo."""

from __future__ import annotations

import math
import random

import pytest

import parlour
from parlour.games.dice.notation import Keep
from parlour.games.dice.solver import UNIT
from parlour.games.greedy.solver import (
    CAP,
    GreedyRules,
    endgame,
    race_model,
    roll_kind,
    strategy,
    turn_model,
)
from parlour.games.greedy.state import GreedyState

DEFAULT = GreedyRules()


def test_farkle_probabilities_by_hand() -> None:
    assert roll_kind(1).farkle == pytest.approx(4 / 6)  # no 1, no 5
    assert roll_kind(2).farkle == pytest.approx(16 / 36)
    # three dice from 2, 3, 4, 6 without a set: 4**3 - 4
    assert roll_kind(3).farkle == pytest.approx(60 / 216)
    # eight dice from 2, 3, 4, 6, each face exactly twice: 8! / 2!**4 orders
    assert roll_kind(8).farkle == pytest.approx(2520 / 6**8)
    # nine dice always score: without 1s and 5s, one of four faces shows three times
    assert roll_kind(9).farkle == 0
    assert turn_model().free == frozenset({9})
    assert turn_model().max_keep == 3000 // UNIT  # nine 1s: three sets


def test_one_die_left_bank_or_roll_by_hand() -> None:
    plan = strategy()
    # with one die: a 1 (100) or a 5 (50) scores all nine: nine fresh dice; else no points
    for total in (0, 300, 550, 2000, 20_000):
        by_hand = (plan.keep_value(total + 100, 9) + plan.keep_value(total + 50, 9)) / 6
        assert plan.roll_value(total, 1) == pytest.approx(by_hand, rel=1e-12)
    assert plan.roll_value(500, 1) > 500 and not plan.banks(500, 1)
    assert plan.roll_value(550, 1) <= 550 and plan.banks(550, 1)


def test_two_dice_left_by_hand() -> None:
    plan = strategy()
    v = plan.keep_value
    for t in (0, 350, 400, 1000):
        by_hand = (
            max(v(t + 200, 9), v(t + 100, 1)) / 36  # 1 1
            + max(v(t + 100, 9), v(t + 50, 1)) / 36  # 5 5
            + 2 * max(v(t + 150, 9), v(t + 100, 1), v(t + 50, 1)) / 36  # 1 5
            + 8 * v(t + 100, 1) / 36  # a 1 and a 2, 3, 4 or 6
            + 8 * v(t + 50, 1) / 36  # a 5 and a 2, 3, 4 or 6
        )  # the other 16 of 36 score nothing
        assert plan.roll_value(t, 2) == pytest.approx(by_hand, rel=1e-12)


def test_expected_points_and_thresholds() -> None:
    plan = strategy()
    assert plan.expected_points == pytest.approx(1019.560, abs=1e-3)
    assert plan.bank_thresholds() == {
        1: 550,
        2: 400,
        3: 550,
        4: 1150,
        5: 3100,
        6: 10_500,
        7: 47_900,
        8: 369_100,
    }
    assert plan.certify() > 0


def test_the_bonus_round_is_always_taken() -> None:
    plan = strategy()
    for total in (50, 1000, 10_000, 500_000, CAP, 2 * CAP):
        assert not plan.banks(total, 9)
        assert plan.roll_value(total, 9) > total
    # above the cap: the value of nine dice is the total plus c, the fixed point of one roll
    # of nine dice, keeping the best and banking unless all nine scored again
    c = plan.renewal[9]
    by_hand = sum(
        p * max(k * UNIT + (c if m == 9 else 0.0) for k, m in options)
        for p, options in roll_kind(9).outcomes
    )
    assert c == pytest.approx(by_hand, rel=1e-9)
    assert plan.keep_value(CAP + 500, 9) == pytest.approx(CAP + 500 + c)
    assert plan.keep_value(CAP + 500, 4) == CAP + 500


def test_forward_distribution_agrees_with_backward_induction() -> None:
    plan = strategy()
    dist = plan.turn_distribution()
    assert sum(dist) == pytest.approx(1.0, abs=1e-12)
    mean = sum(i * UNIT * p for i, p in enumerate(dist))
    assert mean == pytest.approx(plan.expected_points, rel=1e-12)
    # stopped at 10,000: the same banks below it, and the rest reaches it
    ends = plan.forward(limit=10_000)
    assert ends.banked == pytest.approx(plan.forward().banked[:200], abs=1e-15)
    assert sum(ends.banked) + sum(ends.farkled) + ends.reached == pytest.approx(1.0, abs=1e-12)


def test_expected_points_against_monte_carlo() -> None:
    """Play 20,000 turns through the real rules with the policy: the mean banked points per
    turn must agree with the exact value within four standard errors (about 16 points)."""
    plan = strategy()
    game = parlour.load("greedy", players=2, target=100_000)
    rng = random.Random(20_000)
    turns, banked = 20_000, []
    state = game.new_initial_state()
    assert isinstance(state, GreedyState)
    while len(banked) < turns:
        if state.is_terminal():
            state = game.new_initial_state()
            assert isinstance(state, GreedyState)
        if state.is_chance_node():
            before = state.turns
            state.apply(state.sample_chance(rng))
            if state.turns > before:
                banked.append(0)  # no points
            continue
        assert state.roll is not None
        options = state.keep_points(state.roll, first_roll=state.rolls == 1)
        kept, bank = plan.choose(options, state.turn_total, len(state.roll))
        total = state.turn_total + options[kept]
        state.apply(Keep(kept, bank))
        if bank:
            banked.append(total)
    mean = sum(banked) / turns
    sd = math.sqrt(sum((x - mean) ** 2 for x in banked) / (turns - 1))
    error = sd / math.sqrt(turns)
    assert abs(mean - plan.expected_points) < 4 * error
    assert 4 * error < 20


def test_race_model_by_hand() -> None:
    race = race_model(DEFAULT)
    w = race.win_probability
    # needing 50, the first roll of nine dice always scores: bank and win
    assert w(9950, 0) == pytest.approx(1.0, abs=1e-12)
    assert w(9950, 9950) == pytest.approx(1.0, abs=1e-12)
    # against it, only winning this turn counts: the chance to reach 10,000 from 0
    ends = strategy().forward(limit=10_000)
    assert w(0, 9950) == pytest.approx(ends.reached, abs=1e-12)
    assert 0.5 < w(0, 0) < 0.65  # the first player is half a turn ahead
    assert w(5000, 9500) < w(8000, 9500) < w(9500, 9500)
    # W(a, b) = sum over turn ends of P(end) (1 - W(b, a + x)), a win counting 1
    a, b, goal = 9000, 8000, 200
    need = goal - a // UNIT
    by_hand = (
        sum(ends.farkled[:need]) * (1 - w(b, a))
        + sum(ends.banked[x] * (1 - w(b, a + x * UNIT)) for x in range(1, need))
        + (1 - sum(ends.farkled[:need]) - sum(ends.banked[1:need]))
    )
    assert w(a, b) == pytest.approx(by_hand, abs=1e-12)


@pytest.mark.parametrize(
    ("mine", "leader"), [(0, 0), (5000, 9500), (9000, 9000), (9500, 5000), (7000, 9800)]
)
def test_endgame_policy_beats_playing_for_points_in_the_model(mine: int, leader: int) -> None:
    plan = endgame(DEFAULT, mine, leader)
    assert plan.win_chance >= race_model(DEFAULT).win_probability(mine, leader) - 1e-12
    assert plan.top == 200 - mine // UNIT  # from there a bank reaches 10,000 and wins


def test_endgame_rolls_on_when_the_opponent_is_about_to_win() -> None:
    behind = endgame(DEFAULT, 5000, 9500)
    # the opponent needs 500: nothing short of winning now is worth banking
    assert not any(behind.banks(t * UNIT, n) for t in range(100) for n in range(1, 10))
    assert behind.banks(5000, 3)
    assert behind.win_chance > 50 * race_model(DEFAULT).win_probability(5000, 9500)
    assert strategy().banks(550, 3)  # playing for points banks 550 with three dice
