"""A position takes only ``int`` ids (the environments turn a numpy integer into one, and
refuse anything else first): any other value is refused with ``IllegalMove``, nothing
changed, whatever number it equals. Greedy's ``quit`` id took ``572.0``,
``np.float64(572)`` and ``np.int64(572)`` (an equality test came before the type check),
while ``np.int64(0)`` was refused; the crossword took a float."""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour.engine.errors import IllegalMove
from parlour.research.codecs import games, load_codec
from parlour.research.position import Position


def _decision(game: str, **options: object) -> Position:
    position = load_codec(game, **options).new_position()
    position.advance(random.Random(1))  # Greedy's first roll of nine dice always scores
    assert not position.is_chance() and not position.is_terminal()
    return position


QUIT_IDS = [("scoring", 572), ("multisets", 10_008)]


@pytest.mark.parametrize(("numbering", "quit_id"), QUIT_IDS)
@pytest.mark.parametrize("kind", [float, np.float64, np.int64, np.int32])
def test_greedy_quit_is_refused_unless_given_as_an_int(
    numbering: str, quit_id: int, kind: type
) -> None:
    for apply in ("apply_id", "step_id"):
        position = _decision("greedy", numbering=numbering)
        assert quit_id in position.legal_ids()
        events = len(position.state.history)
        with pytest.raises(IllegalMove, match="not an action id"):
            if apply == "apply_id":
                position.apply_id(kind(quit_id))
            else:
                position.step_id(kind(quit_id), random.Random(2))
        assert len(position.state.history) == events and not position.is_terminal()
    position = _decision("greedy", numbering=numbering)
    position.apply_id(quit_id)  # an int: the quit
    assert position.is_terminal() and position.returns() == [0.0, 1.0]


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("kind", [float, np.float64, np.int64])
def test_every_game_refuses_a_legal_id_given_as_another_type(game: str, kind: type) -> None:
    position = _decision(game)
    legal = position.legal_ids()[0]
    events = len(position.state.history)
    with pytest.raises(IllegalMove, match="not"):
        position.apply_id(kind(legal))
    assert len(position.state.history) == events
    assert position.legal_ids()[0] == legal
