"""Greedy scoring: the manual's "Points Values" table and the issue's decisions."""

from __future__ import annotations

import pytest

from parlour.games.greedy.scoring import best_score, keep_options, selection_points


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ((5,), 50),
        ((1,), 100),
        ((2, 2, 2), 200),
        ((3, 3, 3), 300),
        ((4, 4, 4), 400),
        ((5, 5, 5), 500),
        ((6, 6, 6), 600),
        ((1, 1, 1), 1000),
    ],
)
def test_manual_points_table(dice: tuple[int, ...], points: int) -> None:
    assert selection_points(dice) == points


def test_several_sets_of_one_face() -> None:
    assert selection_points((2,) * 6) == 400  # two sets, not a doubled group
    assert selection_points((1,) * 9) == 3000
    assert selection_points((6,) * 9) == 1800


def test_leftover_dice_score_only_as_single_ones_and_fives() -> None:
    assert selection_points((1, 1, 1, 1)) == 1100  # one set + a single 1
    assert selection_points((5, 5, 5, 5, 5)) == 600  # one set + two single 5s
    assert selection_points((2, 2, 2, 2)) is None  # the fourth 2 does not score
    assert selection_points((4, 4)) is None


def test_no_three_pairs_or_straights_in_greedy() -> None:
    assert selection_points((2, 2, 3, 3, 4, 4)) is None
    assert selection_points((1, 2, 3, 4, 5, 6)) is None


def test_keep_options() -> None:
    assert keep_options((1, 2, 2, 2, 3, 4, 4, 6, 6)) == {
        (1,): 100,
        (2, 2, 2): 200,
        (1, 2, 2, 2): 300,
    }
    assert keep_options((2, 2, 3, 3, 4, 4, 6, 6, 6)) == {(6, 6, 6): 600}
    assert keep_options((2, 2, 3, 3, 4, 4, 6, 6, 3)) == {(3, 3, 3): 300}
    assert keep_options((2, 2, 3, 4, 4, 6, 6, 3, 2)) == {(2, 2, 2): 200}
    assert keep_options((2, 2, 3, 4, 4, 6, 6, 3, 4)) == {(4, 4, 4): 400}


def test_best_score_breakdown() -> None:
    scored = best_score((1, 1, 1, 1, 5, 5, 2, 2, 2))
    assert scored.points == 1000 + 100 + 50 + 50 + 200
    assert [p.label for p in scored.parts] == [
        "three 1s",
        "single 1",
        "three 2s",
        "single 5",
        "single 5",
    ]
    assert scored.unscored == ()
    assert best_score((2, 3, 4, 6, 6, 2, 3, 4, 6)).points == 600
    assert best_score((2, 3, 4, 6, 2, 3, 4, 2, 3)).points == 500  # 2s and 3s sets, 4s left
