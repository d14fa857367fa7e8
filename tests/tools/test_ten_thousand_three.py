"""The three-player exact solve that measures ``optimal``'s approximation
(``parlour_tools.ten_thousand_three``): with two players the same code is the two-player
solve, and the approximation is the exact policy."""

from __future__ import annotations

import pytest

from parlour.games.dice.solver import NeedTable
from parlour.games.ten_thousand import solver
from parlour_tools.ten_thousand_three import Race


def test_with_two_players_it_is_the_two_player_solve_and_the_approximation_is_exact() -> None:
    race = Race(2, 300)
    exact = race.solve()
    table = race.table  # parlour.games.ten_thousand.optimal.solve at the same target
    assert exact[0, 0][0][0] == pytest.approx(0.5673914951, abs=1e-9)
    for a in range(6):
        for b in range(6):
            assert exact[a, b][0][0] == pytest.approx(table[a, b], abs=1e-12)
            assert exact[a, b][0].sum() == pytest.approx(1.0, abs=1e-12)
    mixed = race.solve(approx=0, exact=exact)
    for key, shares in exact.items():
        for mover in range(2):
            assert mixed[key][mover] == pytest.approx(shares[mover], abs=1e-12)


def test_the_last_turn_is_the_products_points_still_needed_table() -> None:
    # the last player's share, need units behind one leader (a tie half) or two (a third),
    # against the product's NeedTable (an independent DP over points still needed)
    race = Race(3, 300)
    model = solver.turn_model(race.rules)
    for need in (1, 2, 7, 30):
        for holders, tie in ((1, 0.5), (2, 1 / 3)):
            share, passes, ties = race.final(need, holders, approx=False)
            assert share == pytest.approx(passes + tie * ties, abs=1e-15)
            expected = NeedTable(model, tie=tie).chance_first((need + 1) * 50)
            assert share == pytest.approx(expected, abs=1e-12)
        # the approximation counts every tie half (as the strong player's last turn): it
        # maximises passes + ties / 2, and so gets at most the exact share of a 3-way tie
        share, passes, ties = race.final(need, 2, approx=True)
        half = NeedTable(model, tie=0.5).chance_first((need + 1) * 50)
        assert passes + ties / 2 == pytest.approx(half, abs=1e-12)
        assert share == pytest.approx(passes + ties / 3, abs=1e-15)
        assert share <= race.final(need, 2, approx=False)[0] + 1e-15
