"""Ten-Thousand computer players (levels named in ``parlour play ten-thousand --help``).

- ``cautious``: sets aside the best-scoring dice and banks as soon as the turn is worth 350,
  or 200 with two dice or fewer left to roll.
- ``reckless``: sets aside the best-scoring dice and banks only at 1000 or more.

Both keep rolling in the last turns until they would pass the leader, and respect the entry
score option.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.dice.actions import DiceAction, Keep
from parlour.games.ten_thousand.rules import TenThousandState


def best_keep(state: TenThousandState) -> Keep:
    """The selection with the most points; among equals the one setting aside fewest dice."""
    assert state.roll is not None
    table = state.keep_points(state.roll, first_roll=state.rolls == 1)
    dice = max(table, key=lambda sub: (table[sub], -len(sub)))
    return Keep(dice, bank=False)


def must_roll_on(state: TenThousandState, points: int) -> bool:
    """True when banking *points* more would be pointless: in the last turns, a bank that
    does not pass the leader loses anyway; below the entry score a bank is not allowed."""
    mine = state.scores[state.seat] + state.turn_total + points
    if state.scores[state.seat] == 0 and state.turn_total + points < state.entry:
        return True
    if state.last_turns():
        leader = max(s for i, s in enumerate(state.scores) if i != state.seat)
        return mine <= leader
    return False


@dataclass(frozen=True)
class ThresholdBot:
    """Best-scoring keep, then bank once the turn total reaches ``bank_at`` (or ``low_at``
    with ``low_dice`` or fewer dice left to roll)."""

    name: str
    bank_at: int
    low_at: int
    low_dice: int

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """Pick a keep and decide bank or roll (see the class docstring)."""
        assert isinstance(state, TenThousandState)
        keep = best_keep(state)
        assert state.roll is not None
        points = state.keep_points(state.roll, first_roll=state.rolls == 1)[keep.dice]
        total = state.turn_total + points
        left = len(state.roll) - len(keep.dice) or state.n_dice
        bank = total >= self.bank_at or (left <= self.low_dice and total >= self.low_at)
        if must_roll_on(state, points):
            bank = False
        return Keep(keep.dice, bank=bank)


LEVELS = {
    "cautious": ThresholdBot("cautious", bank_at=350, low_at=200, low_dice=2),
    "reckless": ThresholdBot("reckless", bank_at=1000, low_at=1000, low_dice=0),
}


def make_bot(level: str) -> ThresholdBot:
    """The computer player at *level*. Raises :class:`ParlourError` for an unknown level."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ParlourError(
            f"unknown Ten-Thousand level {level!r}; levels: {', '.join(LEVELS)}"
        ) from None
