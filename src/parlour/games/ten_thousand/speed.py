"""How fast the ``optimal`` level chooses and the coach advises (``parlour bench
ten-thousand-moves``): figures from one run, never a timed test.

Positions are drawn at random (both scores below the target, a later roll of one to six
dice, a turn total); each is timed three ways: the ``optimal`` level's choice with its
per-pair cache cleared (a pair of scores met for the first time: one turn's induction from
the solved table), the same choice again (cached), and the coach's advice (every choice's
figure). The ``strong`` level's choice is timed on the same positions, and so is a new
pair's choice with numpy's induction (what every move cost before the compiled one), for
ratios measured in the same run. Each timing is wall clock and the thread's processor time:
on a loaded machine the wall clock's worst case is the scheduler's, the processor time's
the work's.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import parlour
from parlour.engine.chance import roll_outcomes
from parlour.engine.coach import advise
from parlour.engine.state import CHANCE
from parlour.games.dice.notation import Roll
from parlour.games.ten_thousand.bots import make_bot
from parlour.games.ten_thousand.state import TenThousandState


@dataclass(frozen=True)
class Timing:
    """Milliseconds over the positions: ``median`` and ``worst`` (the maximum) of the wall
    clock, and ``cpu_median`` and ``cpu_worst`` of the thread's processor time."""

    median: float
    worst: float
    cpu_median: float = 0.0
    cpu_worst: float = 0.0

    @classmethod
    def of(cls, seconds: list[float], cpu: list[float] | None = None) -> Timing:
        """The timing of *seconds* (wall clock, one per position) and *cpu* (processor)."""
        cpu = cpu or [0.0]
        return cls(
            statistics.median(seconds) * 1e3,
            max(seconds) * 1e3,
            statistics.median(cpu) * 1e3,
            max(cpu) * 1e3,
        )


def positions(count: int, seed: int) -> list[TenThousandState]:
    """*count* two-player positions with a later roll to choose from (see the module
    docstring), drawn with *seed*."""
    rng = random.Random(seed)
    found: list[TenThousandState] = []
    while len(found) < count:
        state = parlour.load("ten-thousand").new_initial_state()
        assert isinstance(state, TenThousandState)
        state.scores[:] = [rng.randrange(0, 200) * 50, rng.randrange(0, 200) * 50]
        state.rolls = 1  # a later roll: no specials, the turn total stands
        state.turn_total = rng.randrange(0, 40) * 50
        state.to_roll = rng.randrange(1, 7)
        rolls = [roll for roll, _ in roll_outcomes(state.to_roll)]
        state.apply(Roll(rng.choice(rolls)), player=CHANCE)
        if state.roll is not None:  # not a farkle
            found.append(state)
    return found


def measure(count: int = 200, seed: int = 0) -> dict[str, Timing | float | int]:
    """Time the choices on *count* positions (see the module docstring): ``cold``,
    ``cached``, ``coach``, ``strong`` and ``numpy`` (a new pair with numpy's induction)
    timings, ``cold_over_strong`` and ``numpy_over_cold``, ratios of the wall-clock
    medians."""
    from parlour.games.ten_thousand.optimal import OptimalTurn, _end, optimal_turn, wins_table
    from parlour.games.ten_thousand.solver import TenThousandRules

    states = positions(count, seed)
    rules = TenThousandRules()
    wins, end = wins_table(rules), _end(rules)  # loaded once, outside the timings
    optimal, strong = make_bot("optimal"), make_bot("strong")
    rng = random.Random(seed)
    strong.choose(states[0], 0, rng)  # the strong level's tables, built outside too
    optimal.choose(states[0], 0, rng)  # and the compiled induction loaded

    def timed(run: Callable[[TenThousandState], object], clear: bool = False) -> Timing:
        wall, cpu = [], []
        for state in states:
            if clear:
                optimal_turn.cache_clear()
            started, started_cpu = time.perf_counter(), time.thread_time()
            run(state)
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)
        return Timing.of(wall, cpu)

    def with_numpy(state: TenThousandState) -> object:
        assert state.roll is not None
        mine, other = state.scores
        turn = OptimalTurn(rules, wins, end, mine, other, kernel="numpy")
        options = state.keep_points(state.roll, first_roll=False)
        return turn.choose(options, state.turn_total, len(state.roll))

    cold = timed(lambda s: optimal.choose(s, 0, rng), clear=True)
    for state in states:  # every pair into the cache (the cold run kept only the last)
        optimal.choose(state, 0, rng)
    cached = timed(lambda s: optimal.choose(s, 0, rng))
    coach = timed(lambda s: advise(s, 0))
    strong_times = timed(lambda s: strong.choose(s, 0, rng))
    numpy_times = timed(with_numpy)
    return {
        "positions": count,
        "cold": cold,
        "cached": cached,
        "coach": coach,
        "strong": strong_times,
        "numpy": numpy_times,
        "cold_over_strong": cold.median / strong_times.median,
        "numpy_over_cold": numpy_times.median / cold.median,
    }
