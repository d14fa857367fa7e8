"""The compiled win-probability induction repeats numpy's arithmetic bit for bit, so the
players' decisions did not change when it replaced numpy's (issue 17's arenas)."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

import parlour
from parlour.bots.arena import game_rng, play_game
from parlour.games.dice import _policy_kernel
from parlour.games.dice.solver import WinPolicy, bank_from, win_values_numpy
from parlour.games.greedy import solver as greedy_solver
from parlour.games.greedy.bots import make_bot as greedy_bot
from parlour.games.ten_thousand import optimal
from parlour.games.ten_thousand.bots import make_bot as ten_thousand_bot
from parlour.games.ten_thousand.solver import TenThousandRules, endgame

needs_numba = pytest.mark.skipif(_policy_kernel.compiled is None, reason="numba is not installed")


@needs_numba
def test_the_compiled_pairwise_sum_adds_as_numpy_reduceat_does() -> None:
    # segments of every length numpy treats differently: < 8, 8..128 (eight partial sums),
    # > 128 (split in two), with values of very different sizes so that the order shows
    rng = np.random.default_rng(17)
    compiled = _policy_kernel._sum
    for n in [*range(1, 40), 127, 128, 129, 130, 136, 200, 257, 500]:
        a = rng.random(n) * 10.0 ** rng.integers(-9, 3, n)
        expected = np.add.reduceat(a, [0])[0]
        assert a[0] + compiled(a, 1, n - 1) == expected, n


def test_the_pairwise_sum_differs_from_adding_in_order() -> None:
    # the reason to repeat numpy's order: adding in order gives another last bit here
    a = np.array([1.0, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16])
    in_order = 0.0
    for x in a:
        in_order += x
    assert in_order == 1.0
    expected = np.add.reduceat(a, [0])[0]
    assert expected == 1.0000000000000009  # 1 + 9e-16 rounded: the small ones added first
    assert a[0] + _policy_kernel.pairwise_sum(a, 1, 9) == expected


@needs_numba
def test_optimal_turns_are_numpys_bit_for_bit() -> None:
    rules = TenThousandRules()
    rng = random.Random(5)
    for _ in range(25):
        mine, other = rng.randrange(200) * 50, rng.randrange(200) * 50
        turn = optimal.optimal_turn.__wrapped__(rules, mine, other)
        width = turn.top + turn.model.max_keep + 1
        reference = win_values_numpy(turn.model, np.array(turn.u[:width]), turn.top, turn.entry)
        assert np.array_equal(np.array(turn._value), reference), (mine, other)


@needs_numba
def test_the_strong_players_endgames_are_numpys_bit_for_bit() -> None:
    rules = TenThousandRules(entry=500)
    for mine, leader in [(0, 9_000), (5_000, 9_950), (9_500, 6_000), (7_250, 7_250)]:
        plan = endgame.__wrapped__(rules, mine, leader)
        assert plan is not None
        width = plan.top + plan.model.max_keep + 1
        reference = win_values_numpy(plan.model, np.array(plan.u[:width]), plan.top, plan.entry)
        assert np.array_equal(np.array(plan._value), reference), (mine, leader)
    greedy = greedy_solver.GreedyRules(3_000)
    for mine, leader in [(0, 2_500), (2_950, 1_000)]:
        plan = greedy_solver.endgame.__wrapped__(greedy, mine, leader)
        numpy_plan = WinPolicy(plan.model, plan.u, top=plan.top, kernel="numpy")
        assert plan._value == numpy_plan._value


def test_bank_from_is_the_scan_down_it_replaced() -> None:
    rng = random.Random(3)
    for _ in range(500):
        u = [rng.choice([0.2, 0.5, 0.9, 1.0]) for _ in range(rng.randrange(1, 30))]
        low, high = rng.randrange(0, 5), rng.randrange(0, len(u) + 1)
        top = high
        while top > low and u[top - 1] >= 0.9:  # the loop the players ran before
            top -= 1
        assert bank_from(u, 0.9, low, high) == top
        assert bank_from(np.array(u), 0.9, low, high) == top


def test_an_unknown_kernel_is_refused() -> None:
    plan = endgame(TenThousandRules(), 9_000, 9_000)
    assert plan is not None
    with pytest.raises(ValueError, match="kernel is"):
        WinPolicy(plan.model, plan.u, top=plan.top, kernel="fortran")


def fingerprint(game_name: str, make_bot: object, seed: int, index: int) -> str:
    """The first 16 hex digits of the sha256 of a seeded arena game's history (the tables'
    player against strong, seats rotating as in ``parlour arena``)."""
    assert callable(make_bot)
    # Greedy's player of the tables is ``tournament`` (it was called ``optimal`` when these
    # games were recorded; Greedy's ``optimal`` now plays to win)
    bots = [make_bot("tournament" if game_name == "greedy" else "optimal"), make_bot("strong")]
    order = [(index + seat) % 2 for seat in range(2)]
    state = play_game(parlour.load(game_name), [bots[b] for b in order], game_rng(seed, index))
    text = "\n".join(f"{who} {action!r}" for who, action in state.history)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# Recorded with the numpy induction (commit c0131bb), before the compiled one replaced it:
# the same seeded games, move for move (200 Ten-Thousand and 60 Greedy games were compared
# in full when the change was made; these pin three of each).
BEFORE = {
    ("ten-thousand", 0): "0a991ebf93597c69",
    ("ten-thousand", 1): "de461164ece1353e",
    ("ten-thousand", 2): "09f586166cf9fab9",
    ("greedy", 0): "f187a590687d3f48",
    ("greedy", 1): "f2278256e786cb09",
    ("greedy", 2): "0dfb3c46a02d593a",
}


@pytest.mark.parametrize(("game_name", "index"), sorted(BEFORE))
def test_seeded_arena_games_are_the_same_move_for_move(game_name: str, index: int) -> None:
    make_bot = ten_thousand_bot if game_name == "ten-thousand" else greedy_bot
    assert fingerprint(game_name, make_bot, 77, index) == BEFORE[game_name, index]
