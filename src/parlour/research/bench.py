"""Speed of the research adapters beside the raw engine (a tool, not a test).

``python -m parlour.research.bench [seconds]`` plays random games for about *seconds* (default
3) per line and prints, in one run:

- Ten-Thousand: random turns per second through the engine's checked path
  (``apply(choice(legal_actions()))``), its simulation fast path (``legal``/``apply_legal``/
  ``apply_sample``), and pyfarkle 0.1 (if installed: ``pip install pyfarkle``), with ratios;
- Rummy: random hands per second, checked and fast, beside OpenSpiel's native C++
  ``gin_rummy`` (one game is one hand);
- for both, player decisions per second through the engine (checked), the PettingZoo
  environment and the pyspiel game, and each wrapper's overhead over the engine
  (``engine rate / wrapper rate - 1``).

Random choices are uniform over the legal actions; chance is sampled with the true
probabilities. The figures depend on the machine and its load: compare within one run.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import Any

import numpy as np

import parlour
from parlour.engine.state import CHANCE, TERMINAL


def _rate(run: Callable[[], int], seconds: float) -> float:
    """Units per second of *run* (which returns the units it did), repeated for *seconds*
    after one untimed run (imports and caches warm)."""
    run()
    done = 0
    started = time.perf_counter()
    while True:
        done += run()
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed


def engine_units(name: str, *, fast: bool, unit: str, rng: random.Random, **options: object) -> int:
    """One random game of *name*; returns its turns (``unit="turns"``: chance rolls that start
    a turn... counted as turns ended), hands (``"hands"``) or player ``"decisions"``."""
    game = parlour.load(name, **options)
    state = game.new_initial_state()
    decisions = 0
    choice = rng.choice
    while True:
        player = state.current_player()
        if player >= 0:
            decisions += 1
            if fast:
                state.apply_legal(int(rng.random() * len(state.legal())))
            else:
                state.apply(choice(state.legal_actions()))
        elif player == CHANCE:
            if fast:
                state.apply_sample(rng)
            else:
                state.apply(state.sample_chance(rng))
        else:
            assert player == TERMINAL
            break
    if unit == "decisions":
        return decisions
    if unit == "turns":
        return int(state.turns)  # type: ignore[attr-defined]
    return len(state.round_scores)  # type: ignore[attr-defined]


def pyfarkle_turns(rng: random.Random, turns: int = 200) -> int:
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


def gin_rummy_hands(rng: random.Random, hands: int = 20) -> int:
    """*hands* random games of OpenSpiel's native ``gin_rummy`` (one game is one hand)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return hands


def pettingzoo_decisions(env: Any, rng: random.Random) -> int:
    """One random game through the PettingZoo environment *env* (reset here); returns its
    agent steps."""
    env.reset(seed=rng.getrandbits(32))
    steps = 0
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
    return steps


def pyspiel_decisions(game: Any, rng: random.Random) -> int:
    """One random game of the pyspiel *game*; returns its player decisions (Rummy's deal is
    51 chance steps here, not counted)."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            ids = [o for o, _ in outcomes]
            state.apply_action(rng.choices(ids, [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps


def main(argv: list[str]) -> None:
    """Print the figures (see the module docstring)."""
    seconds = float(argv[0]) if argv else 3.0
    rng = random.Random(0)
    tt: dict[str, Any] = {"target": 10_000}
    rummy: dict[str, Any] = {}
    lines: list[str] = []

    def show(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    checked = _rate(
        lambda: engine_units("ten-thousand", fast=False, unit="turns", rng=rng, **tt), seconds
    )
    fast = _rate(
        lambda: engine_units("ten-thousand", fast=True, unit="turns", rng=rng, **tt), seconds
    )
    show(f"ten-thousand turns/s: checked {checked:,.0f}, fast path {fast:,.0f}")
    try:
        farkle = _rate(lambda: pyfarkle_turns(rng), seconds)
        show(
            f"  pyfarkle turns/s {farkle:,.0f}: checked {checked / farkle:.1f}x, "
            f"fast {fast / farkle:.1f}x pyfarkle"
        )
    except ImportError:
        show("  pyfarkle: not installed (pip install pyfarkle)")
    checked = _rate(
        lambda: engine_units("rummy", fast=False, unit="hands", rng=rng, **rummy), seconds
    )
    fast = _rate(lambda: engine_units("rummy", fast=True, unit="hands", rng=rng, **rummy), seconds)
    gin = _rate(lambda: gin_rummy_hands(rng), seconds)
    show(
        f"rummy hands/s: checked {checked:,.0f}, fast path {fast:,.0f}; OpenSpiel gin_rummy "
        f"{gin:,.0f}: checked {checked / gin:.1f}x, fast {fast / gin:.1f}x"
    )
    for name, options in (("ten-thousand", tt), ("greedy", {}), ("rummy", rummy)):
        from parlour.research.openspiel import load_game
        from parlour.research.pettingzoo import raw_env

        engine = partial(engine_units, name, fast=False, unit="decisions", rng=rng, **options)
        # warm the game's caches first (Greedy's scoring tables for nine dice take far
        # longer than one untimed game to fill), so whichever runs first is not slowed
        _rate(engine, seconds)
        zoo = _rate(partial(pettingzoo_decisions, raw_env(name, **options), rng), seconds)
        spiel = _rate(partial(pyspiel_decisions, load_game(name, **options), rng), seconds)
        raw = _rate(engine, seconds)
        show(
            f"{name} decisions/s: engine {raw:,.0f}, PettingZoo {zoo:,.0f} "
            f"(overhead {raw / zoo - 1:.0%}), pyspiel {spiel:,.0f} (overhead {raw / spiel - 1:.0%})"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
