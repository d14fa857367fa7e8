"""Game options as data: what each option allows, in help and in error messages."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine.errors import BadOption
from parlour.engine.spec import Option


def test_a_free_text_option_is_not_described_as_an_integer() -> None:
    lexicon = Option("enable", "word list", kind=str)
    assert lexicon.allowed() == "any text"
    assert "integer" not in parlour.load("crossword").spec.describe_options().split("lexicon")[1]


def test_a_free_text_option_given_a_number_says_it_wants_text() -> None:
    with pytest.raises(BadOption, match="lexicon=5: allowed any text"):
        parlour.load("crossword", lexicon=5)


def test_the_seats_set_the_option_of_a_game_where_the_person_starts() -> None:
    rummy = parlour.load("rummy").spec
    assert rummy.person_starts == "first"
    # by seat: True for a person; the only person against computer players plays first
    assert rummy.seat_options({"ending_score": 300}, [False, True]) == {
        "ending_score": 300,
        "first": 1,
    }
    assert rummy.seat_options({"first": 0}, [False, False, True]) == {"first": 2}
    # two people, or no person: the options as given
    assert rummy.seat_options({"first": 1}, [True, True]) == {"first": 1}
    assert rummy.seat_options({}, [False, False]) == {}
    # a game without the rule: unchanged
    assert parlour.load("ten-thousand").spec.seat_options({}, [False, True]) == {}
