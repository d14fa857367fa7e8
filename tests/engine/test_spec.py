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
