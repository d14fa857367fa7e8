"""A position's views are only for its seats: a seat number outside 0..n-1 is refused, never
read as a seat from the end. -1 (after Rummy's deal) gave seat 1's view, its ten cards
included, and ``CHANCE`` and ``TERMINAL`` (-1, -2) are what ``current_player()`` gives where
no seat is to move."""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour.engine.state import CHANCE, TERMINAL
from parlour.research.codecs import games, load_codec


@pytest.mark.parametrize("game", games())
def test_a_seat_outside_the_table_is_refused(game: str) -> None:
    codec = load_codec(game)
    position = codec.new_position()
    rng = random.Random(2)
    for _ in range(3):  # a few chance steps in: Rummy's deal under way
        if position.current_player() == CHANCE:
            position.draw(rng)
    n = codec.num_players
    out = np.zeros(codec.observation_size, np.float32)
    for seat in (CHANCE, TERMINAL, n, True, 1.0):
        for view in (
            position.observation,
            position.observation_bytes,
            position.observation_string,
            lambda s: position.observation_into(s, out),
        ):
            with pytest.raises(ValueError, match="no seat"):
                view(seat)  # type: ignore[operator]
    # a real seat still sees its view, and a numpy integer names a seat as an int does
    assert position.observation(np.int64(n - 1)).tobytes() == position.observation(n - 1).tobytes()
    assert position.observation(0).shape == (codec.observation_size,)
