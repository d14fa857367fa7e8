"""Card values and the exact best meld split (issue 4, "Tests")."""

from __future__ import annotations

import itertools
import random

import pytest

from parlour.games.rummy.cards import cards_text, mask_of, parse_cards
from parlour.games.rummy.melds import MELD_KIND
from parlour.games.rummy.scoring import POINTS, best_split, deadwood_points, mask_points


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def test_card_values_from_the_manual() -> None:
    assert [POINTS[c] for c in parse_cards(["AS", "KH", "QD", "JC", "10S", "9H", "2C"])] == [
        15,
        10,
        10,
        10,
        5,
        5,
        5,
    ]
    assert mask_points((1 << 52) - 1) == 4 * (15 + 3 * 10 + 9 * 5) == 360


@pytest.mark.parametrize(
    ("hand", "melds", "deadwood"),
    [
        ("3S 4S 5S 6S 7S 6H 6D", ["3S 4S 5S", "6S 6H 6D"], "7S"),
        ("4H 5H 6H 7H 7C 7D", ["4H 5H 6H", "7H 7D 7C"], ""),
        ("AH 2H 3H QH KH", ["QH KH AH"], "2H 3H"),
        ("KS AS 2S", [], "AS 2S KS"),
        ("5C 6C 7C 8C 8S 8H", ["8S 8H 8C", "5C 6C 7C"], ""),
        ("9D 10D JD QD KD AD 2D 3D", ["AD 2D 3D", "9D 10D JD QD KD"], ""),
    ],
)
def test_best_split_examples(hand: str, melds: list[str], deadwood: str) -> None:
    split = best_split(m(hand))
    assert sorted(cards_text(list(x)) for x in split.melds) == sorted(melds)
    assert cards_text(list(split.deadwood)) == deadwood
    assert split.points == mask_points(m(deadwood))


def test_greedy_longest_run_first_would_be_wrong() -> None:
    # Longest run first takes 5C 6C 7C 8C and leaves 8S 8H (10 points); the exact split
    # gives the 8C to the set: 5C 6C 7C and 8S 8H 8C, nothing left.
    hand = m("5C 6C 7C 8C 8S 8H")
    assert deadwood_points(hand) == 0
    assert deadwood_points(hand & ~m("5C 6C 7C 8C")) == 10


def brute_force(cards: int) -> int:
    """Fewest deadwood points by trying every set of disjoint melds (small hands only)."""
    melds = [x for x in MELD_KIND if x & cards == x]
    best = mask_points(cards)
    for r in range(1, 5):
        for combo in itertools.combinations(melds, r):
            used = 0
            for x in combo:
                if used & x:
                    break
                used |= x
            else:
                best = min(best, mask_points(cards & ~used))
    return best


def test_best_split_matches_brute_force_on_random_hands() -> None:
    rng = random.Random(11)
    for _ in range(150):
        cards = mask_of(rng.sample(range(52), rng.randint(6, 11)))
        split = best_split(cards)
        assert split.points == brute_force(cards)
        used = 0
        for meld in split.melds:
            meld_mask = mask_of(meld)
            assert meld_mask in MELD_KIND and not used & meld_mask
            used |= meld_mask
        assert used | mask_of(split.deadwood) == cards
