"""The Ten-Thousand solver against hand-computed cases, a forward pass and Monte Carlo."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import parlour
from parlour.games.dice.notation import Keep
from parlour.games.ten_thousand.solver import (
    TenThousandRules,
    endgame,
    need_table,
    race_model,
    roll_kind,
    strategy,
)
from parlour.games.ten_thousand.state import TenThousandState

DEFAULT = TenThousandRules()
F6 = 1440 / 46656  # six dice, no specials: no 1, no 5, no triple among 2, 3, 4, 6


def test_farkle_probabilities_by_hand() -> None:
    assert roll_kind(1, False).farkle == pytest.approx(4 / 6)
    assert roll_kind(2, False).farkle == pytest.approx(16 / 36)
    # three dice from 2, 3, 4, 6 without a triple: 4**3 - 4
    assert roll_kind(3, False).farkle == pytest.approx(60 / 216)
    assert roll_kind(6, False).farkle == pytest.approx(F6)
    # first roll: three pairs of 2, 3, 4, 6 score too (4 choices of values x 90 orders)
    assert roll_kind(6, True).farkle == pytest.approx((1440 - 360) / 46656)


def test_one_die_left_bank_or_roll_by_hand() -> None:
    plan = strategy(DEFAULT)
    # with one die: a 1 (100) or a 5 (50) gives hot dice, six fresh dice; else a farkle
    for total in (0, 250, 300, 1000, 5000):
        by_hand = (plan.keep_value(total + 100, 6) + plan.keep_value(total + 50, 6)) / 6
        assert plan.roll_value(total, 1) == pytest.approx(by_hand, rel=1e-12)
    # far enough up, the policy banks even six fresh dice, so rolling one die is worth
    # (t + 100 + t + 50) / 6 and banking t is better
    assert plan.roll_value(10_900, 1) == pytest.approx((11_000 + 10_950) / 6)
    assert plan.banks(10_900, 1)
    # the threshold with one die: roll at 250, bank at 300
    assert plan.roll_value(250, 1) > 250 and not plan.banks(250, 1)
    assert plan.roll_value(300, 1) <= 300 and plan.banks(300, 1)


def test_two_dice_left_by_hand() -> None:
    plan = strategy(DEFAULT)
    v = plan.keep_value
    for t in (0, 200, 250, 600):
        by_hand = (
            max(v(t + 200, 6), v(t + 100, 1)) / 36  # 1 1
            + max(v(t + 100, 6), v(t + 50, 1)) / 36  # 5 5
            + 2 * max(v(t + 150, 6), v(t + 100, 1), v(t + 50, 1)) / 36  # 1 5
            + 8 * v(t + 100, 1) / 36  # a 1 and a 2, 3, 4 or 6
            + 8 * v(t + 50, 1) / 36  # a 5 and a 2, 3, 4 or 6
        )  # the other 16 of 36 farkle
        assert plan.roll_value(t, 2) == pytest.approx(by_hand, rel=1e-12)


def test_expected_points_and_thresholds() -> None:
    plan = strategy(DEFAULT)
    assert plan.expected_points == pytest.approx(551.642, abs=1e-3)
    assert plan.bank_thresholds() == {1: 300, 2: 250, 3: 400, 4: 1000, 5: 3050, 6: 10950}
    assert plan.certify() > 0


def test_forward_distribution_agrees_with_backward_induction() -> None:
    plan = strategy(DEFAULT)
    dist = plan.turn_distribution()
    assert sum(dist) == pytest.approx(1.0, abs=1e-12)
    assert sum(i * 50 * p for i, p in enumerate(dist)) == pytest.approx(
        plan.expected_points, rel=1e-12
    )
    # a turn banks nothing with at least the first roll's farkle chance
    assert dist[0] > roll_kind(6, True).farkle


def test_expected_points_against_monte_carlo() -> None:
    """Play 20,000 turns through the real rules with the policy: the mean banked points per
    turn must agree with the exact value within four standard errors (about 22 points)."""
    plan = strategy(DEFAULT)
    game = parlour.load("ten-thousand", players=1, target=100_000)
    rng = random.Random(20_000)
    turns, banked = 20_000, []
    state = game.new_initial_state()
    assert isinstance(state, TenThousandState)
    while len(banked) < turns:
        if state.is_terminal():
            state = game.new_initial_state()
            assert isinstance(state, TenThousandState)
        if state.is_chance_node():
            before = state.turns
            state.apply(state.sample_chance(rng))
            if state.turns > before:
                banked.append(0)  # a farkle
            continue
        assert state.roll is not None
        options = state.keep_points(state.roll, first_roll=state.rolls == 1)
        kept, bank = plan.choose(options, state.turn_total, len(state.roll), entered=True)
        total = state.turn_total + options[kept]
        state.apply(Keep(kept, bank))
        if bank:
            banked.append(total)
    mean = sum(banked) / turns
    sd = math.sqrt(sum((x - mean) ** 2 for x in banked) / (turns - 1))
    error = sd / math.sqrt(turns)
    assert abs(mean - plan.expected_points) < 4 * error
    assert 4 * error < 25


def test_options_change_the_strategy() -> None:
    plain = strategy(DEFAULT)
    # the target does not change a turn's strategy
    assert strategy(TenThousandRules(target=5000)).expected_points == plain.expected_points
    # three pairs and straights after hot dice are worth something
    assert (
        strategy(TenThousandRules(specials_any_roll=True)).expected_points > plain.expected_points
    )
    entry = strategy(TenThousandRules(entry=1000))
    assert entry.expected_points == pytest.approx(plain.expected_points)
    assert entry.expected_points_unentered < plain.expected_points
    unentered = entry.bank_thresholds(entered=False)
    assert all(points >= 1000 for points in unentered.values())
    assert not entry.banks(950, 1, entered=False)


def test_points_still_needed_by_hand() -> None:
    table = need_table(DEFAULT)
    assert table.chance(50, 1) == pytest.approx(2 / 6)  # a 1 or a 5
    assert table.chance(50, 6) == pytest.approx(1 - F6)  # anything that scores
    # 100 with one die: a 1, or a 5 then 50 more from six fresh dice
    assert table.chance(100, 1) == pytest.approx(1 / 6 + (1 / 6) * (1 - F6))
    assert table.chance_first(50) == pytest.approx(1 - roll_kind(6, True).farkle)
    assert table.after_keep(0, 3) == 1.0
    chances = [table.chance_first(points) for points in range(50, 5001, 50)]
    assert all(a >= b for a, b in itertools.pairwise(chances))


def test_a_tie_is_worth_half_in_the_last_turn() -> None:
    table = need_table(DEFAULT, 0.5)
    # level with the leader and one die left: a tie (1/2) beats rolling (1/3)
    assert table.banks(50, 1) and table.after_keep(50, 1) == 0.5
    # with six fresh dice, rolling on passes with 1 - F6 > 1/2
    assert not table.banks(50, 6) and table.after_keep(50, 6) == pytest.approx(1 - F6)


def test_race_model_is_consistent() -> None:
    race = race_model(DEFAULT)
    w = race.win_probability
    assert 0.5 < w(5000, 5000) < 0.6  # the player to move is ahead by a turn
    assert w(5000, 9500) < w(8000, 9500) < w(9500, 9500)
    assert w(9500, 5000) > 0.99
    # W(a, b) = sum over banked x of P(x) (1 - W(b, a + x)), at one cell by hand
    dist = race.turn[True]
    a, b = 9000, 8000
    by_hand = sum(p * race.after_turn(a, b, i * 50) for i, p in enumerate(dist))
    assert w(a, b) == pytest.approx(by_hand, abs=1e-9)


@pytest.mark.parametrize(
    ("mine", "leader"), [(5000, 9700), (8000, 9700), (9500, 9000), (3000, 6000), (9000, 9500)]
)
def test_endgame_policy_beats_playing_for_points_in_the_model(mine: int, leader: int) -> None:
    plan = endgame(DEFAULT, mine, leader)
    assert plan is not None
    assert plan.win_chance >= race_model(DEFAULT).win_probability(mine, leader) - 1e-12


def test_endgame_takes_more_risk_when_far_behind() -> None:
    plan = endgame(DEFAULT, 5000, 9700)
    assert plan is not None
    assert not plan.banks(400, 2)  # playing for points banks 400 with two dice
    assert strategy(DEFAULT).banks(400, 2)
    assert endgame(DEFAULT, 1000, 2000) is None  # outside the race model
