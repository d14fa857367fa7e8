"""Ten-Thousand scoring against the manual's table and examples (manual: "Value of groups")."""

from __future__ import annotations

import pytest

from parlour.games.ten_thousand.scoring import (
    best_score,
    group_points,
    keep_options,
    selection_points,
)

# The manual's "Value Of Groups" table, row by row: count -> points for faces 1..6.
MANUAL_TABLE = {
    3: (1000, 200, 300, 400, 500, 600),
    4: (2000, 400, 600, 800, 1000, 1200),
    5: (4000, 800, 1200, 1600, 2000, 2400),
    6: (8000, 1600, 2400, 3200, 4000, 4800),
}


@pytest.mark.parametrize("count", [3, 4, 5, 6])
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_manual_group_table(face: int, count: int) -> None:
    expected = MANUAL_TABLE[count][face - 1]
    assert group_points(face, count) == expected
    assert selection_points((face,) * count, specials=False) == expected


def test_singles() -> None:
    assert selection_points((1,), specials=False) == 100
    assert selection_points((5,), specials=False) == 50
    assert selection_points((1, 1), specials=False) == 200
    assert selection_points((5, 5), specials=False) == 100
    assert selection_points((2,), specials=False) is None


def test_manual_example_a_three_fours_and_two_ones() -> None:
    assert selection_points((1, 1, 4, 4, 4), specials=False) == 600


def test_manual_example_b_four_fours_a_one_and_a_five() -> None:
    assert selection_points((1, 4, 4, 4, 4, 5), specials=False) == 950


def test_three_pairs_only_with_specials() -> None:
    assert selection_points((2, 2, 4, 4, 6, 6), specials=True) == 1000  # manual example A
    assert selection_points((1, 1, 3, 3, 5, 5), specials=True) == 1000  # manual example B
    assert selection_points((2, 2, 4, 4, 6, 6), specials=False) is None
    # ones and fives as pairs without the special score only as singles
    assert selection_points((1, 1, 5, 5), specials=True) == 300


def test_four_of_a_kind_and_a_pair_is_not_three_pairs() -> None:
    assert selection_points((2, 2, 2, 2, 3, 3), specials=True) is None
    assert selection_points((1, 1, 1, 1, 5, 5), specials=True) == 2100  # four 1s + two 5s


def test_straight_only_with_specials() -> None:
    assert selection_points((1, 2, 3, 4, 5, 6), specials=True) == 1500
    assert selection_points((1, 2, 3, 4, 5, 6), specials=False) is None
    assert selection_points((1, 5), specials=False) == 150


def test_keep_options_of_a_roll() -> None:
    table = keep_options((1, 1, 1, 2, 3, 5), specials=False)
    assert table == {
        (1,): 100,
        (1, 1): 200,
        (1, 1, 1): 1000,
        (5,): 50,
        (1, 5): 150,
        (1, 1, 5): 250,
        (1, 1, 1, 5): 1050,
    }


def test_farkle_roll_has_no_options() -> None:
    assert keep_options((2, 3, 4, 6, 6, 2), specials=False) == {}
    assert keep_options((2, 2, 3, 3, 4, 4), specials=False) == {}
    assert keep_options((2, 2, 3, 3, 4, 4), specials=True) == {(2, 2, 3, 3, 4, 4): 1000}


def test_best_score_breakdown() -> None:
    scored = best_score((5, 1, 1, 1, 1, 5), first_roll=True)
    assert scored.points == 2100
    assert [p.label for p in scored.parts] == ["four 1s", "single 5", "single 5"]
    scored = best_score((2, 2, 2, 3, 4, 6), first_roll=False)
    assert (scored.points, scored.unscored) == (200, (3, 4, 6))
    # three pairs beat singles on a first roll, not on later rolls
    assert best_score((1, 1, 5, 5, 2, 2), first_roll=True).points == 1000
    assert best_score((1, 1, 5, 5, 2, 2), first_roll=False).points == 300
