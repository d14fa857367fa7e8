"""Meld checks (issue 4, "Tests"): sets, runs, the ace, lay-off targets."""

from __future__ import annotations

import pytest

from parlour.games.rummy.cards import mask_of, parse_cards
from parlour.games.rummy.melds import MELD_KIND, TableMeld, melds_in, why_not_meld


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


@pytest.mark.parametrize(
    "text",
    [
        "AS 2S 3S",
        "QH KH AH",
        "JD QD KD AD",
        "7S 7H 7D",
        "7S 7H 7D 7C",
        "9C 10C JC QC KC",
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    ],
)
def test_valid_melds(text: str) -> None:
    assert why_not_meld(m(text)) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("KS AS 2S", "never both"),
        ("KH AH 2H 3H", "never both"),
        ("7S 7H 8D", "not a set"),
        ("7S 7H", "at least 3 cards"),
        ("3S 4S 6S", "consecutive"),
        ("3S 4H 5S", "neither"),
        ("7S 7H 7D 8C", "not a set"),
    ],
)
def test_invalid_melds_say_why(text: str, reason: str) -> None:
    why = why_not_meld(m(text))
    assert why is not None and reason in why


def test_meld_counts() -> None:
    # Per suit: runs of 3+ within positions 1..14 (ace low or high) are 78, less A..A
    # (ace twice), less 2..A which is the same 13 cards as A..K: 76. Sets: 13 ranks x
    # (4 sets of three + 1 set of four).
    runs = sum(1 for kind in MELD_KIND.values() if kind == "run")
    sets = sum(1 for kind in MELD_KIND.values() if kind == "set")
    assert (runs, sets) == (4 * 76, 13 * 5)


def test_melds_in_hand() -> None:
    found = {frozenset(parse_cards_of(x)) for x in melds_in(m("7S 7H 7D 7C 8S 9S"))}
    assert frozenset(parse_cards(["7S", "8S", "9S"])) in found
    assert frozenset(parse_cards(["7S", "7H", "7D", "7C"])) in found
    assert len(found) == 6  # the run, four sets of three, one set of four


def parse_cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_lay_off_at_both_ends_of_a_run() -> None:
    meld = TableMeld.laid_down(m("5H 6H 7H"), seat=0)
    assert meld.accepts == m("4H 8H")
    low = meld.lay_off(parse_cards(["4H"])[0], seat=1)
    both = low.lay_off(parse_cards(["8H"])[0], seat=0)
    assert both.text() == "4H 5H 6H 7H 8H"
    assert both.owners == (1, 0, 0, 0, 0)
    assert both.accepts == m("3H 9H")


def test_ace_ends_a_run_either_way_but_not_both() -> None:
    assert TableMeld.laid_down(m("AS 2S 3S"), 0).accepts == m("4S")
    assert TableMeld.laid_down(m("QS KS AS"), 0).accepts == m("JS")
    assert TableMeld.laid_down(m("JS QS KS"), 0).accepts == m("10S AS")
    assert TableMeld.laid_down(m("2S 3S 4S"), 0).accepts == m("AS 5S")


def test_set_of_three_takes_the_fourth_only() -> None:
    three = TableMeld.laid_down(m("9S 9H 9C"), 0)
    assert three.accepts == m("9D")
    four = three.lay_off(parse_cards(["9D"])[0], 1)
    assert four.accepts == 0
    assert four.text() == "9S 9H 9D 9C" and four.owners == (0, 0, 1, 0)
