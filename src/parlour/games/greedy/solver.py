"""Greedy's exact turn strategy and race model (the ``strong`` player's brain).

The turn solvers are shared with Ten-Thousand (:mod:`parlour.games.dice.solver`): this module
gives them Greedy's turns (nine dice scored by :mod:`.scoring`; all nine back for a bonus
round) and adds how a game of Greedy ends (the first to end a turn on the target wins at once).

- :func:`strategy`: the policy that maximises the **expected banked points per turn**, exact
  (certified above a cap of 1,000,000 points). Nine dice always score (among nine dice either
  a 1 or a 5 shows, or one of the four other faces shows three times), so a bonus round can
  never lose: the policy always takes it.
- :class:`RaceModel`: the chance that the player to move wins, when both players play the
  expected-points policy and bank as soon as a bank wins, exact for that model.
- :func:`endgame`: the turn policy that maximises that chance (the shared
  :class:`~parlour.games.dice.solver.WinPolicy`): it rolls on when the opponent is about to
  win, and banks earlier when a lead is worth keeping.

Derivations and figures: ``docs/rules/greedy.md#the-strong-player``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from parlour.games.dice.shared import built_once
from parlour.games.dice.solver import (
    UNIT,
    RollKind,
    Strategy,
    TurnModel,
    WinPolicy,
    build_roll_kind,
)
from parlour.games.greedy.scoring import keep_options

N_DICE = 9
CAP = 1_000_000
"""Turn total (points) from which the expected-points policy banks (rolling only nine dice,
which never farkle); certified by ``Strategy.certify``."""


@dataclass(frozen=True)
class GreedyRules:
    """The game options the race model depends on (points)."""

    target: int = 10_000

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> GreedyRules:
        """The rules of a loaded game's ``options`` (``players`` is ignored)."""
        return cls(target=int(options.get("target", 10_000)))


@built_once
def roll_kind(dice: int) -> RollKind:
    """The :class:`~parlour.games.dice.solver.RollKind` of rolling *dice* (1-9) dice."""
    return build_roll_kind(keep_options, dice, N_DICE)


@built_once
def turn_model() -> TurnModel:
    """Greedy's turns: nine dice, every roll scored alike, no entry score."""
    later = {n: roll_kind(n) for n in range(1, N_DICE + 1)}
    return TurnModel(N_DICE, later[N_DICE], later)


@built_once
def strategy() -> Strategy:
    """The expected-points :class:`~parlour.games.dice.solver.Strategy`, solved once."""
    return Strategy(turn_model(), cap=CAP)


SPAN = 10_000
"""The race model covers the positions where one score is within this many points of the
target (every position when the target is at most 10,000): the end of a long game costs
what the default game costs, and the strong player turns to it only within 5,000."""

TAIL = 1e-13
"""Banks whose chance together is below this are left out of the race model's sums."""


class RaceModel:
    """The chance of winning a two-player race to the target (points throughout).

    :meth:`win_probability` ``(mover, other)`` is the probability that the player about to
    start a turn with score *mover* beats one with *other*, when both play the expected-points
    :func:`strategy` but bank as soon as the bank reaches the target (and wins). A turn of a
    player with score *a* ends in a farkle, a bank of *x* below the target, or a win; one
    forward pass of the strategy gives all three for every *a* at once (the play below a turn
    total does not depend on where it stops above). ``W(a, b)`` then follows by backward
    induction over the sum of the scores, exact for the model: a farkle swaps the players
    without changing the sum, and that 2-cycle is solved in closed form. Scores never go
    down, so the positions with one score within :data:`SPAN` of the target need no others.
    """

    def __init__(self, rules: GreedyRules) -> None:
        started = time.perf_counter()
        self.rules = rules
        self.goal = goal = rules.target // UNIT
        self.low = max(0, goal - SPAN // UNIT)
        ends = strategy().forward(limit=rules.target)
        banked = np.array(ends.banked[:goal])
        farkled = np.cumsum(ends.farkled[:goal])
        tail = np.cumsum(banked[::-1])[::-1]  # tail[x]: the chance of a bank of x or more
        longest = int(np.searchsorted(-tail, -TAIL))  # the first x with tail[x] < TAIL
        sums = np.cumsum(banked)
        # zero[a]: the chance that a player with a units banks nothing (needs goal - a)
        self._zero = [float(farkled[goal - a - 1]) for a in range(goal)]
        # gains[a]: the chances of banks of 1..need-1 (the negligible tail left out); bank[a]
        # their exact sum
        self._gains = [banked[1 : min(goal - a, max(longest, 2))] for a in range(goal)]
        self._bank = [float(sums[goal - a - 1] - banked[0]) for a in range(goal)]
        self._wins = np.zeros((goal, goal))
        self._fill()
        self.seconds = time.perf_counter() - started

    def _rest(self, a: int, b: int) -> tuple[float, float]:
        """(P(a banks nothing), the chance that a wins through a bank) for mover *a*."""
        gains = self._gains[a]
        after = 1.0 - self._wins[b, a + 1 : a + 1 + len(gains)]  # the other moves next
        return self._zero[a], 1.0 - self._zero[a] - self._bank[a] + float(gains @ after)

    def _fill(self) -> None:
        goal, low, wins = self.goal, self.low, self._wins
        for total in range(2 * goal - 2, low - 1, -1):
            for a in range(max(0, total - goal + 1), min(total // 2, total - low) + 1):
                b = total - a  # b >= a, and b >= low
                zero_a, rest_a = self._rest(a, b)
                zero_b, rest_b = self._rest(b, a)
                # W(a,b) = zero_a (1 - W(b,a)) + rest_a, and the same with a, b swapped
                w_ab = (zero_a * (1 - zero_b - rest_b) + rest_a) / (1 - zero_a * zero_b)
                wins[a, b] = w_ab
                wins[b, a] = zero_b * (1 - w_ab) + rest_b

    def covers(self, mover: int, other: int) -> bool:
        """Whether the model holds the position: both below the target, one of them within
        :data:`SPAN` of it."""
        return self.low * UNIT <= max(mover, other) < self.goal * UNIT

    def _check(self, mover: int, other: int) -> None:
        if not self.covers(mover, other):
            raise ValueError(
                f"the race model covers scores within {SPAN:,} points of {self.rules.target:,}"
                f", not {mover:,} against {other:,}"
            )

    def win_probability(self, mover: int, other: int) -> float:
        """The chance that the player starting a turn with *mover* points beats *other*
        (both below the target). Raises ``ValueError`` unless :meth:`covers`."""
        self._check(mover, other)
        return float(self._wins[mover // UNIT, other // UNIT])

    def after_turns(self, mine: int, other: int, count: int) -> list[float]:
        """``u[x]`` for x in 0..count-1: the chance that a player with *mine* points wins
        after banking ``x * 50`` this turn (``u[0]``: after a farkle), *other* to move next.
        Raises ``ValueError`` unless :meth:`covers` ``(mine, other)``."""
        self._check(mine, other)
        a, b = mine // UNIT, other // UNIT
        u = [1.0 - float(w) for w in self._wins[b, a : self.goal]]
        u.extend([1.0] * max(0, count - len(u)))
        return u[:count]


@built_once
def race_model(rules: GreedyRules) -> RaceModel:
    """The :class:`RaceModel` for *rules*, built once and cached."""
    return RaceModel(rules)


@lru_cache(maxsize=512)
def endgame(rules: GreedyRules, mine: int, leader: int) -> WinPolicy:
    """The turn policy that maximises the race model's chance of winning for a player with
    *mine* points against the *leader* (points; both below the target). Exact for the
    model: from the turn total that reaches the target up, banking wins. The last 512 are
    cached."""
    race = race_model(rules)
    top = race.goal - mine // UNIT
    model = turn_model()
    u = race.after_turns(mine, leader, top + model.max_keep + 1)
    return WinPolicy(model, u, top=top)
