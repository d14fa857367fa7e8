"""Speed of the research adapters beside the raw engine (a tool, not a test).

``python -m parlour.research.bench [seconds]`` plays random games for about *seconds* (default
3) per line and prints, in one run:

- Ten-Thousand: random turns per second through the engine's checked path
  (``apply(choice(legal_actions()))``), its simulation fast path (``legal``/``apply_legal``/
  ``apply_sample``), and pyfarkle 0.1 (if installed: ``pip install pyfarkle``), with ratios;
- Rummy: random hands per second, checked and fast, beside OpenSpiel's native C++
  ``gin_rummy`` (one game is one hand);
- for both and Greedy, player decisions per second through the engine (checked), the
  PettingZoo environment (read-only arrays per observation, and ``in_place=True``) and the pyspiel
  game, and each wrapper's overhead over the engine (``engine rate / wrapper rate - 1``);
  then the engine doing the work the environment does for its agent at each decision (the
  legal actions and the seat's observation, the engine's own JSON view) and the PettingZoo
  overheads over that.

Random choices are uniform over the legal actions; chance is sampled with the true
probabilities. Times are CPU seconds of this process (``time.process_time``), and the
contenders of each line take turns in short slices (:data:`ROUNDS` rounds, the order
reversed every other round), so that a change in the machine's load falls on all of them
alike: each rate printed is the median of its rounds, each ratio the median of the ratios
within a round, with a 95% confidence interval of that median (:func:`median_interval`).
The figures still depend on the machine and its load: compare within one run.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import Any

import numpy as np

import parlour
from parlour.engine.state import CHANCE, TERMINAL

ROUNDS = 40
"""How many turns each contender of a line takes (see the module docstring): many short
ones, so that the same-round ratios are many and each round's contenders run close together
in time."""


def _rate(run: Callable[[], int], seconds: float) -> float:
    """Units per CPU second of *run* (which returns the units it did), repeated for
    *seconds* of CPU time."""
    done = 0
    started = time.process_time()
    while True:
        done += run()
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return done / elapsed


def _rates(runs: dict[str, Callable[[], int]], seconds: float) -> dict[str, list[float]]:
    """Each contender's rate in each of :data:`ROUNDS` rounds, the contenders taking turns
    for ``seconds / ROUNDS`` each (in the order given, then reversed in the next round, so
    that no contender always runs first), after one untimed run each (imports and caches
    warm)."""
    for run in runs.values():
        run()
    rates: dict[str, list[float]] = {name: [] for name in runs}
    order = list(runs.items())
    for k in range(ROUNDS):
        for name, run in order if k % 2 == 0 else reversed(order):
            rates[name].append(_rate(run, seconds / ROUNDS))
    return rates


def median_interval(values: list[float], level: float = 0.95) -> tuple[float, float]:
    """A distribution-free confidence interval at *level* for the median of the population
    *values* were drawn from: the order statistics ``(j, n + 1 - j)`` (1-based) with ``j``
    the largest such that ``P(Binomial(n, 1/2) < j) <= (1 - level) / 2``. With fewer than 6
    values no such ``j`` exists at 95%, and the interval is the whole range. Raises
    ``ValueError`` for no values, a NaN among them (it cannot be ordered) or a *level* not
    strictly between 0 and 1."""
    if not values:
        raise ValueError("no values")
    if not 0 < level < 1:
        raise ValueError(f"the level must be strictly between 0 and 1, not {level!r}")
    if any(math.isnan(v) for v in values):
        raise ValueError("a NaN cannot be ordered: no interval")
    ordered = sorted(values)
    n = len(ordered)
    tail, below, j = (1 - level) / 2, 0.0, 0
    while j < n // 2:
        below += math.comb(n, j) / 2**n  # P(Binomial < j + 1)
        if below > tail:
            break
        j += 1
    if j == 0:
        return ordered[0], ordered[-1]
    return ordered[j - 1], ordered[n - j]


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _ratio(rates: dict[str, list[float]], top: str, bottom: str) -> str:
    """``rates[top] / rates[bottom]``: the median over the rounds of the same-round ratios,
    then its 95% interval (:func:`median_interval`) in brackets, e.g. ``"8.3x [8.1-8.6x]"``."""
    each = [a / b for a, b in zip(rates[top], rates[bottom], strict=True)]
    low, high = median_interval(each)
    return f"{_median(each):.1f}x [{low:.1f}-{high:.1f}x]"


def _overhead(rates: dict[str, list[float]], top: str, bottom: str) -> str:
    """``rates[top] / rates[bottom] - 1`` as a percentage: the median over the rounds of the
    same-round ratios, then its 95% interval (:func:`median_interval`) in brackets, e.g.
    ``"24% [21% to 27%]"``."""
    each = [a / b - 1 for a, b in zip(rates[top], rates[bottom], strict=True)]
    low, high = median_interval(each)
    return f"{_median(each):.0%} [{low:.0%} to {high:.0%}]"


def _legend() -> str:
    """The first line printed: what the figures are, and the machine's load now."""
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"Rates per CPU second of this process, each the median of {ROUNDS} rounds; each ratio "
        f"and overhead the median of the {ROUNDS} same-round ratios\n(not the ratio of the rates "
        f"printed), its 95% confidence interval in brackets. Overhead = engine rate / "
        f"wrapper rate - 1, the engine on its\nchecked path (negative: the wrapper, on the fast "
        f"path, is faster). Load average {load}."
    )


def engine_units(name: str, *, fast: bool, unit: str, rng: random.Random, **options: object) -> int:
    """One random game of *name*; returns its turns (``unit="turns"``: chance rolls that start
    a turn... counted as turns ended), hands (``"hands"``) or player ``"decisions"``."""
    game = parlour.load(name, **options)
    state = game.new_initial_state()
    decisions = 0
    choice, draw = rng.choice, rng.random
    current = state.current_player  # bound once per game (so for every contender)
    if fast:
        legal, apply_legal, apply_sample = state.legal, state.apply_legal, state.apply_sample
        while True:
            player = current()
            if player >= 0:
                decisions += 1
                apply_legal(int(draw() * len(legal())))
            elif player == CHANCE:
                apply_sample(rng)
            else:
                assert player == TERMINAL
                break
    else:
        legal_actions, apply, sample = state.legal_actions, state.apply, state.sample_chance
        while True:
            player = current()
            if player >= 0:
                decisions += 1
                apply(choice(legal_actions()))
            elif player == CHANCE:
                apply(sample(rng))
            else:
                assert player == TERMINAL
                break
    if unit == "decisions":
        return decisions
    if unit == "turns":
        return int(state.turns)  # type: ignore[attr-defined]
    return len(state.round_scores)  # type: ignore[attr-defined]


def engine_observed_decisions(name: str, *, rng: random.Random, **options: object) -> int:
    """One random game of *name* through the engine's checked path, the seat to move given
    its observation (``state.observation(seat)``, the engine's JSON view) before each
    decision: what the PettingZoo environment hands its agent, in the engine's form.
    Returns the player decisions."""
    state = parlour.load(name, **options).new_initial_state()
    decisions = 0
    choice = rng.choice
    current, observe = state.current_player, state.observation  # bound once per game
    legal_actions, apply, sample = state.legal_actions, state.apply, state.sample_chance
    while True:
        player = current()
        if player >= 0:
            decisions += 1
            observe(player)
            apply(choice(legal_actions()))
        elif player == CHANCE:
            apply(sample(rng))
        else:
            assert player == TERMINAL
            return decisions


def pyfarkle_turns(rng: random.Random, turns: int = 50) -> int:
    """*turns* random turns of pyfarkle 0.1 (uniform over its scoring holds, then bank or
    roll at random when banking is allowed). Raises ImportError without pyfarkle."""
    from pyfarkle.game import Player

    random.seed(rng.getrandbits(32))
    player = Player("random", threshold=0)
    for _ in range(turns):
        player.newturn()
        player.rollem()
        while not player.is_farkle:
            n = len(player.roll)
            holds = []
            for k in range(1, n + 1):
                for combo in combinations(range(n), k):
                    player.held = combo
                    if player.holdscore > 0:
                        holds.append(combo)
            player.hold(rng.choice(holds))
            if player.can_bank and rng.random() < 0.5:
                player.bank()
                break
            player.rollem()
    return turns


def gin_rummy_hands(rng: random.Random, hands: int = 5) -> int:
    """*hands* random games of OpenSpiel's native ``gin_rummy`` (one game is one hand)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    choices, choice = rng.choices, rng.choice
    for _ in range(hands):
        state = game.new_initial_state()
        # bound once per hand, as the engine's loop binds its state's methods once per game
        is_terminal, is_chance_node = state.is_terminal, state.is_chance_node
        chance_outcomes, legal_actions = state.chance_outcomes, state.legal_actions
        apply_action = state.apply_action
        while not is_terminal():
            if is_chance_node():
                outcomes, probs = zip(*chance_outcomes(), strict=True)
                apply_action(choices(outcomes, probs)[0])
            else:
                apply_action(choice(legal_actions()))
    return hands


def pettingzoo_decisions(env: Any, rng: random.Random) -> int:
    """One random game through the PettingZoo environment *env* (reset here); returns its
    agent steps. Each step observes the agent to move (observation and mask) and picks a
    legal id from the mask (read as ``bool``, the same bytes: numpy finds the nonzero
    entries of a ``bool`` array several times as fast as those of an ``int8`` one).

    The reset gives no seed: *env* was seeded once (by :func:`main`), and its stream goes
    on from game to game, as the engine's loop draws every game's chance from one stream
    (PettingZoo's usual form: seed once). *rng* picks the agent's actions."""
    env.reset()
    steps = 0
    observe, step, draw = env.observe, env.step, rng.random  # bound once, as the engine's
    terminations = env.terminations.values()  # the dict reset made, live for this game
    while not all(terminations):
        mask = observe(env.agent_selection)["action_mask"]
        legal = mask.view(np.bool_).nonzero()[0]
        step(int(legal[int(draw() * len(legal))]))
        steps += 1
    return steps


def pyspiel_decisions(game: Any, rng: random.Random) -> int:
    """One random game of the pyspiel *game*; returns its player decisions (Rummy's deal is
    51 chance steps here, not counted)."""
    state = game.new_initial_state()
    steps = 0
    is_terminal, is_chance_node = state.is_terminal, state.is_chance_node  # bound once
    chance_outcomes, legal_actions = state.chance_outcomes, state.legal_actions
    apply_action, choices, draw = state.apply_action, rng.choices, rng.random
    while not is_terminal():
        if is_chance_node():
            outcomes, probs = zip(*chance_outcomes(), strict=True)
            apply_action(choices(outcomes, probs)[0])
        else:
            legal = legal_actions()
            apply_action(legal[int(draw() * len(legal))])
            steps += 1
    return steps


def main(argv: list[str]) -> None:
    """Print the figures (see the module docstring)."""
    seconds = float(argv[0]) if argv else 3.0
    rng = random.Random(0)
    tt: dict[str, Any] = {"target": 10_000}
    rummy: dict[str, Any] = {}

    def show(text: str) -> None:
        print(text, flush=True)

    show(_legend())

    def engine(name: str, fast: bool, unit: str, **options: Any) -> Callable[[], int]:
        return partial(engine_units, name, fast=fast, unit=unit, rng=rng, **options)

    runs = {
        "checked": engine("ten-thousand", False, "turns", **tt),
        "fast": engine("ten-thousand", True, "turns", **tt),
    }
    try:
        import pyfarkle.game  # noqa: F401

        runs["pyfarkle"] = partial(pyfarkle_turns, rng)
    except ImportError:
        pass
    r = _rates(runs, seconds * len(runs))
    show(
        f"ten-thousand turns/s: checked {_median(r['checked']):,.0f}, "
        f"fast path {_median(r['fast']):,.0f}"
    )
    if "pyfarkle" in r:
        show(
            f"  pyfarkle turns/s {_median(r['pyfarkle']):,.0f}: "
            f"checked {_ratio(r, 'checked', 'pyfarkle')}, "
            f"fast {_ratio(r, 'fast', 'pyfarkle')} pyfarkle"
        )
    else:
        show("  pyfarkle: not installed (pip install pyfarkle)")
    r = _rates(
        {
            "checked": engine("rummy", False, "hands", **rummy),
            "fast": engine("rummy", True, "hands", **rummy),
            "gin": partial(gin_rummy_hands, rng),
        },
        seconds * 3,
    )
    show(
        f"rummy hands/s: checked {_median(r['checked']):,.0f}, fast path "
        f"{_median(r['fast']):,.0f}; OpenSpiel gin_rummy {_median(r['gin']):,.0f}: "
        f"checked {_ratio(r, 'checked', 'gin')}, fast {_ratio(r, 'fast', 'gin')}"
    )
    for name, options in (("ten-thousand", tt), ("greedy", {}), ("rummy", rummy)):
        from parlour.research.openspiel import load_game
        from parlour.research.pettingzoo import raw_env

        zoo, zoo_in_place = raw_env(name, **options), raw_env(name, in_place=True, **options)
        for env in (zoo, zoo_in_place):  # seeded once: later games go on with its stream
            env.reset(seed=rng.getrandbits(32))
        contenders: dict[str, Callable[[], int]] = {
            "engine": engine(name, False, "decisions", **options),
            "zoo": partial(pettingzoo_decisions, zoo, rng),
            "zoo in place": partial(pettingzoo_decisions, zoo_in_place, rng),
            "spiel": partial(pyspiel_decisions, load_game(name, **options), rng),
            "engine observed": partial(engine_observed_decisions, name, rng=rng, **options),
        }
        # warm the caches first, so that no contender pays for filling them: the game's
        # (Greedy's scoring tables for nine dice take far longer than one untimed game to
        # fill) and each adapter's own (its legal-id listings per roll)
        for run in contenders.values():
            _rate(run, seconds)
        r = _rates(contenders, seconds * 4)
        show(
            f"{name} decisions/s: engine {_median(r['engine']):,.0f}, "
            f"PettingZoo {_median(r['zoo']):,.0f} "
            f"(overhead {_overhead(r, 'engine', 'zoo')}), "
            f"in place {_median(r['zoo in place']):,.0f} "
            f"(overhead {_overhead(r, 'engine', 'zoo in place')}), "
            f"pyspiel {_median(r['spiel']):,.0f} "
            f"(overhead {_overhead(r, 'engine', 'spiel')})"
        )
        show(
            f"  engine with each decision's observation {_median(r['engine observed']):,.0f}: "
            f"PettingZoo overhead {_overhead(r, 'engine observed', 'zoo')}, "
            f"in place {_overhead(r, 'engine observed', 'zoo in place')}"
        )
    show(f"Load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}.")


if __name__ == "__main__":
    main(sys.argv[1:])
