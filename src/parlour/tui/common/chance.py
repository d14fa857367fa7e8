"""Where a table's chance outcomes come from: fair dice and shuffles, or a script.

Every terminal app draws chance through a :class:`ChanceSource`, so a test (or a demo) can
script the dice exactly while the rules stay untouched: the outcome is applied to the state
like any other chance outcome, and an impossible one is refused by the engine.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from parlour.engine.errors import ParlourError
from parlour.engine.state import CHANCE, Action, State


class ChanceSource(Protocol):
    """Draws the outcome at a chance node (it does not apply it)."""

    def draw(self, state: State) -> Action:
        """One chance outcome for *state*, which is at a chance node."""
        ...


class RandomChance:
    """Fair chance: ``state.sample_chance(rng)`` with the given (or a fresh) ``random.Random``."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def draw(self, state: State) -> Action:
        """A chance outcome drawn with the true probabilities."""
        return state.sample_chance(self.rng)


class ScriptExhausted(ParlourError):
    """A :class:`ScriptedChance` was asked for more outcomes than its script holds."""


class ScriptedChance:
    """Chance outcomes from a script of notation texts (``"roll 1 1 5 2 3 4"``), in order.

    When the script runs out, ``then`` draws the rest (fair dice, say); without ``then`` the
    next draw raises :class:`ScriptExhausted`. Texts are parsed by the state, so a bad text
    raises :class:`~parlour.engine.errors.InvalidNotation` when it is drawn.

    >>> import parlour
    >>> state = parlour.load("ten-thousand", players=2).new_initial_state()
    >>> str(ScriptedChance(["roll 5 1 2 3 4 6"]).draw(state))
    'roll 1 2 3 4 5 6'
    """

    def __init__(self, script: Iterable[str], *, then: ChanceSource | None = None) -> None:
        self.script: deque[str] = deque(script)
        self.then = then

    def draw(self, state: State) -> Action:
        """The next scripted outcome (or one from ``then`` once the script is used up)."""
        if self.script:
            return state.parse_action(self.script.popleft(), player=CHANCE)
        if self.then is not None:
            return self.then.draw(state)
        raise ScriptExhausted("the scripted chance outcomes are used up")

    def extend(self, texts: Iterable[str]) -> None:
        """Append more outcomes to the script."""
        self.script.extend(texts)
