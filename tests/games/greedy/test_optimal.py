"""Greedy played to win: the race solver against an independent recursion at small targets."""

from __future__ import annotations

from functools import cache

import pytest

from parlour.engine.chance import roll_outcomes
from parlour.games.greedy import optimal
from parlour.games.greedy.scoring import keep_options
from parlour.games.greedy.solver import GreedyRules

Options = tuple[tuple[float, tuple[tuple[int, int], ...]], ...]


@cache
def rolls(n: int) -> tuple[float, Options]:
    """(no-points chance, [(chance, ((units, dice left), ...)), ...]) for rolling *n* dice,
    from the scoring table, rolls with the same choices merged."""
    merged: dict[tuple[tuple[int, int], ...], float] = {}
    farkle = 0.0
    for roll, p in roll_outcomes(n):
        keeps = keep_options(roll)
        if not keeps:
            farkle += float(p)
            continue
        choices = tuple(sorted({(pts // 50, n - len(kept) or 9) for kept, pts in keeps.items()}))
        merged[choices] = merged.get(choices, 0.0) + float(p)
    return farkle, tuple((p, c) for c, p in merged.items())


def brute_force(goal: int) -> dict[tuple[int, int], float]:
    """Win chances (units), pairs from the highest sum down, each pair by the secant method
    on ``x = T_ab(1 - T_ba(1 - x))``, each turn a memoised recursion; a bank reaching the
    goal wins."""
    wins: dict[tuple[int, int], float] = {}

    def turn(a: int, b: int, z: float) -> float:
        @cache
        def after(c: int, dice: int) -> float:
            if c >= goal:
                return 1.0
            farkle, outcomes = rolls(dice)
            roll_on = farkle * z + sum(
                p * max(after(c + k, m) for k, m in ch) for p, ch in outcomes
            )
            return max(1.0 - wins[b, c], roll_on)

        _, outcomes = rolls(9)
        return sum(p * max(after(a + k, m) for k, m in ch) for p, ch in outcomes)

    for total in range(2 * goal - 2, -1, -1):
        for a in range(max(0, total - goal + 1), total // 2 + 1):
            b = total - a

            def h(x: float, a: int = a, b: int = b) -> float:
                return turn(a, b, 1.0 - turn(b, a, 1.0 - x))

            x0, x1 = 0.5, h(0.5)
            f0, f1 = x1 - x0, h(x1) - x1
            while abs(f1) > 1e-15 and f1 != f0:
                x0, x1, f0 = x1, x1 - f1 * (x1 - x0) / (f1 - f0), f1
                f1 = h(x1) - x1
            wins[a, b] = x1
            wins[b, a] = turn(b, a, 1.0 - x1)
    return wins


@pytest.mark.parametrize("target", [300, 500])
def test_small_targets_match_an_independent_recursion(target: int) -> None:
    table = optimal.solve(GreedyRules(target=target))
    goal = target // 50
    brute = brute_force(goal)
    worst = max(abs(table.wins[a, b] - brute[a, b]) for a in range(goal) for b in range(goal))
    assert worst < 1e-10
    assert not table.capped
    # nine dice always score: the first player banks the target at once with some chance
    assert table.first_player > 0.5
