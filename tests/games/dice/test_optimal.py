"""The win-probability race solver: Pig's published value and an independent recursion."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.games.dice import _kernel
from parlour.games.dice.optimal import pig_model, solve_race


def pig_brute_force(goal: int) -> dict[tuple[int, int, int], float]:
    """Neller and Presser's equations for Pig, by plain value iteration over every state
    (i, j, k): own score, opponent's score, turn total; hold allowed at any k, even 0."""
    p: dict[tuple[int, int, int], float] = {
        (i, j, k): 0.5 for i in range(goal) for j in range(goal) for k in range(goal - i)
    }

    def value(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else p[i, j, k]

    while True:
        change = 0.0
        for i, j, k in sorted(p, key=lambda s: -(s[0] + s[1] + s[2])):
            roll = (1 - value(j, i, 0)) / 6 + sum(value(i, j, k + r) for r in range(2, 7)) / 6
            hold = 1 - value(j, i + k, 0)
            new = max(roll, hold)
            change = max(change, abs(new - p[i, j, k]))
            p[i, j, k] = new
        if change < 1e-15:
            return p


def test_pig_to_100_reproduces_neller_and_presser() -> None:
    # Neller and Presser (2004), "Optimal play of the dice game Pig": 0.530593
    table = solve_race(pig_model(), 100, np.ones((100, 1)), beyond=0)
    assert round(table.first_player, 6) == 0.530593
    assert table.first_player == pytest.approx(0.5305927252737466, abs=1e-12)
    assert not table.capped


@pytest.mark.parametrize("goal", [5, 12, 20])
def test_pig_small_goals_match_value_iteration(goal: int) -> None:
    table = solve_race(pig_model(), goal, np.ones((goal, 1)), beyond=0)
    brute = pig_brute_force(goal)
    worst = max(abs(table.wins[i, j] - brute[i, j, 0]) for i in range(goal) for j in range(goal))
    assert worst < 1e-12
    assert table.first_player > 0.5  # the first player's advantage


@pytest.mark.skipif(_kernel.compiled is None, reason="numba is not installed")
def test_the_numpy_and_numba_kernels_agree() -> None:
    compiled = solve_race(pig_model(), 30, np.ones((30, 1)), beyond=0, kernel="numba")
    vectorised = solve_race(pig_model(), 30, np.ones((30, 1)), beyond=0, kernel="numpy")
    assert np.max(np.abs(compiled.wins - vectorised.wins)) < 1e-13


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="goal must be at least 1"):
        solve_race(pig_model(), 0, np.ones((1, 1)), beyond=0)
    with pytest.raises(ValueError, match="kernel is"):
        solve_race(pig_model(), 5, np.ones((5, 1)), beyond=0, kernel="fortran")
