"""Card notation: every way the issue allows to write a card, and refusals."""

from __future__ import annotations

import pytest

from parlour.engine.errors import InvalidNotation
from parlour.games.rummy.cards import (
    card,
    card_symbol,
    card_text,
    parse_card,
    parse_cards,
    sort_by_rank,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10H", 10, 1),
        ("TH", 10, 1),
        ("th", 10, 1),
        ("QS", 12, 0),
        ("AD", 1, 2),
        ("2C", 2, 3),
        ("K♣", 13, 3),
        ("10♥", 10, 1),
        ("J♦", 11, 2),
    ],
)
def test_parse_card(text: str, rank: int, suit: int) -> None:
    assert parse_card(text) == card(rank, suit)


def test_card_text_round_trips_all_52() -> None:
    assert [parse_card(card_text(c)) for c in range(52)] == list(range(52))
    assert card_text(card(10, 1)) == "10H"
    assert card_symbol(card(1, 0)) == "A♠"


@pytest.mark.parametrize(
    ("text", "why"), [("1X", "suit"), ("ZS", "rank"), ("H", "not a card"), ("11H", "rank")]
)
def test_bad_cards_are_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidNotation, match=why):
        parse_card(text)


def test_duplicate_card_refused() -> None:
    with pytest.raises(InvalidNotation, match="5H is given twice"):
        parse_cards(["5H", "3S", "5h"])


def test_sort_buttons() -> None:
    cards = parse_cards(["KS", "2H", "2C", "AD", "2S"])
    assert [card_text(c) for c in sort_by_rank(cards)] == ["AD", "2S", "2H", "2C", "KS"]
    assert [card_text(c) for c in sort_by_rank(cards, suit_too=False)] == [
        "AD",
        "2H",
        "2C",
        "2S",
        "KS",
    ]
