"""``Position.draw``, the environments' chance step in the dice games: under numbering
version 1 one random number picks the whole roll, each roll over an interval as long as its
exact probability, and the position after it is the one the checked path gives for that
roll (the same options, farkle or not), on a first roll, a later roll and after hot dice."""

from __future__ import annotations

import pytest

from parlour.engine.chance import roll_outcomes
from parlour.games.dice.notation import Keep
from parlour.research.codecs import load_codec
from parlour.research.dice import DiceCodec, DicePosition


class _Fixed:
    """A random source whose ``random()`` is *u* (the one number a version 1 roll takes)."""

    def __init__(self, u: float) -> None:
        self.u = u
        self.calls = 0

    def random(self) -> float:
        self.calls += 1
        return self.u


def _after(codec: DiceCodec, roll: tuple[int, ...], keep: tuple[int, ...]) -> DicePosition:
    position = codec.new_position()
    if roll:
        position.apply_id(codec.index[roll])
        position.apply_id(codec.id_of(Keep(keep, False)))
    return position


@pytest.mark.parametrize(
    ("game", "roll", "keep", "n"),
    [
        ("ten-thousand", (), (), 6),  # the first roll
        ("ten-thousand", (1, 1, 1, 2, 3, 4), (1, 1, 1), 3),  # a later roll of three dice
        ("ten-thousand", (1, 1, 1, 5, 5, 5), (1, 1, 1, 5, 5, 5), 6),  # hot dice: all six back
        ("greedy", (), (), 9),
        ("greedy", (1, 2, 2, 3, 3, 4, 4, 6, 6), (1,), 8),
    ],
)
def test_one_number_picks_each_roll_over_its_probability(
    game: str, roll: tuple[int, ...], keep: tuple[int, ...], n: int
) -> None:
    codec = load_codec(game)
    assert isinstance(codec, DiceCodec) and codec.one_draw
    start = _after(codec, roll, keep)
    assert start.is_chance() and start.state.to_roll == n
    events = len(start.state.history)
    below = 0.0
    outcomes = roll_outcomes(n)
    for dice, p in outcomes:
        above = below + float(p)
        rng = _Fixed((below + above) / 2)  # the middle of the roll's interval
        drawn = start.clone()
        drawn.draw(rng)  # type: ignore[arg-type]
        assert rng.calls == 1
        assert drawn.state.history[events][1].dice == dice
        checked = start.clone()
        checked.apply_id(codec.index[dice])
        assert drawn.state == checked.state
        assert drawn.legal_ids() == checked.legal_ids()
        below = above
    assert below == pytest.approx(1.0, abs=1e-12)
    assert len(outcomes) == {3: 56, 6: 462, 8: 1287, 9: 2002}[n]


def test_version_0_draws_die_by_die() -> None:
    """``numbering="multisets"`` keeps ``sample_chance``'s stream: one number a die."""
    codec = load_codec("greedy", numbering="multisets")
    position = codec.new_position()
    rng = _Fixed(0.0)  # every die a 1
    position.draw(rng)  # type: ignore[arg-type]
    assert rng.calls == 9
    assert position.state.history[0][1].dice == (1,) * 9
