"""A name is given only to an id: a number that is not one (negative, too large, a bool or a
float) is refused with ``IllegalMove`` by ``Codec.action_name`` and ``Position.id_to_string``,
at a decision and at a chance node. The dice games named -1 "keep 6 6 6 6 6 6 bank" (an
index from the end), a table game's -1 its last action, and an id past the end raised
``IndexError``."""

from __future__ import annotations

import random

import pytest

from parlour.engine.errors import IllegalMove
from parlour.research.codecs import games, load_codec


@pytest.mark.parametrize("game", games())
def test_only_an_id_has_a_name(game: str) -> None:
    codec = load_codec(game)
    position = codec.new_position()
    assert position.is_chance()
    chance = len(position.chance_outcomes())
    for bad in (-1, -2, codec.max_chance_outcomes, 10**6, 1.0):
        with pytest.raises(IllegalMove):
            position.id_to_string(bad)  # type: ignore[arg-type]
    first = position.chance_outcomes()[0][0]
    assert position.id_to_string(first)  # a real chance id keeps its name
    assert chance >= 1
    position.advance(random.Random(1))
    assert not position.is_chance() and not position.is_terminal()
    for bad in (-1, -2, codec.num_actions, 10**6, True, 1.0):
        with pytest.raises(IllegalMove):
            position.id_to_string(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalMove):
            codec.action_name(bad)  # type: ignore[arg-type]
    legal = position.legal_ids()[0]
    assert position.id_to_string(legal) == codec.action_name(legal)


@pytest.mark.parametrize(
    ("game", "last"),
    [("ten-thousand", "keep 6 6 6 6 6 6 bank"), ("greedy", "quit")],
)
def test_the_last_id_keeps_its_name(game: str, last: str) -> None:
    codec = load_codec(game)
    assert codec.action_name(codec.num_actions - 1) == last
