"""The Bot protocol: a computer player picks one legal action for its seat.

A bot sees the state through the public protocol only. In games with hidden information
(Rummy, Crossword) a bot must decide from ``state.observation(seat)`` and
``state.legal_actions()`` alone, never from another seat's hand or rack, or the order of the
stock or bag; each such game tests that its bots' choices do not change when hidden
information does.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from parlour.engine.state import Action, State


@runtime_checkable
class Bot(Protocol):
    """A computer player. ``name`` is its level's name (``"strong"``)."""

    name: str

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """One legal action for *seat*, which is to move in *state*. Must not mutate *state*."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions (the baseline, and for property tests)."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(list(state.legal_actions(seat)))
