"""Pig's computer players (``docs/rules/pig.md#computer-players``), weakest first.

- ``random``: rolls or holds with even chances (the baseline).
- ``hold-20``: rolls until the turn total is 20 or more, then holds; holds earlier when
  holding reaches the target (wins the game). Twenty is the hold value that maximises the
  expected points of one turn: rolling on at turn total *t* gains 5/6 x 4 = 10/3 on average
  and risks *t* with chance 1/6, worth it while *t* < 20.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.pig.notation import Hold, PigAction, Roll
from parlour.games.pig.state import PigState


class RandomPlayer:
    """Rolls or holds, each with chance 1/2."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> PigAction:
        """``roll`` or ``hold`` at random (one draw of *rng*)."""
        return Roll() if rng.random() < 0.5 else Hold()


@dataclass(frozen=True)
class HoldAt:
    """Holds once the turn total reaches ``hold_at``, or as soon as holding wins."""

    name: str
    hold_at: int

    def choose(self, state: State, seat: int, rng: random.Random) -> PigAction:
        """``hold`` at ``hold_at`` points or when the hold reaches the target, else ``roll``.

        Raises ``TypeError`` when *state* is not a Pig state."""
        if not isinstance(state, PigState):
            raise TypeError(f"a Pig player plays Pig, not {type(state).__name__}")
        total = state.turn_total
        if total >= self.hold_at or state.scores[seat] + total >= state.target:
            return Hold()
        return Roll()


LEVELS: dict[str, RandomPlayer | HoldAt] = {
    "random": RandomPlayer(),
    "hold-20": HoldAt("hold-20", 20),
}
"""The levels by name, weakest first (``GameSpec.bot_levels`` lists the same names)."""


def make_bot(level: str) -> RandomPlayer | HoldAt:
    """The computer player at *level*. Raises :class:`ParlourError` for an unknown level."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ParlourError(f"unknown Pig level {level!r}; levels: {', '.join(LEVELS)}") from None
