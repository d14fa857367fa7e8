"""Greedy played to win: the two-player policy that maximises the chance of winning.

The race solver of :mod:`parlour.games.dice.optimal` on Greedy's turns with every distinct
keep (points, dice left) as a choice: the first to end a turn on the target wins at once,
so banking to the target is worth 1 and there is nothing past it. ``wins[a, b]`` (units of
50 points) is the chance that the player about to start a turn with *a* beats *b*, both
playing to win. Nine dice always score, so the smallest farkle chance is 0 and banking is
provably best only at the target: the induction covers every turn total below it.

The ``optimal`` computer level (plain ``cpu``) and the coach play and judge by it (:mod:`.bots`,
:mod:`.coach`): see ``docs/rules/greedy.md#playing-to-win``.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from parlour.games.dice.optimal import Progress, RaceTable, solve_race
from parlour.games.dice.solver import UNIT, RollKind, TurnModel, build_roll_kind
from parlour.games.greedy.scoring import keep_options
from parlour.games.greedy.solver import N_DICE, GreedyRules


@cache
def every_roll_kind(dice: int) -> RollKind:
    """Rolling *dice* (1-9) dice with every distinct (points, dice left) keep listed."""
    return build_roll_kind(keep_options, dice, N_DICE, every=True)


@cache
def turn_model() -> TurnModel:
    """Greedy's turns with every keep: nine dice, every roll scored alike."""
    later = {n: every_roll_kind(n) for n in range(1, N_DICE + 1)}
    return TurnModel(N_DICE, later[N_DICE], later)


def solve(
    rules: GreedyRules, *, progress: Progress | None = None, kernel: str = "auto"
) -> RaceTable:
    """Solve the two-player race to *rules*' target (see the module docstring); the errors
    of :func:`~parlour.games.dice.optimal.solve_race`."""
    goal = rules.target // UNIT
    return solve_race(
        turn_model(), goal, np.ones((goal, 1)), beyond=0, progress=progress, kernel=kernel
    )
