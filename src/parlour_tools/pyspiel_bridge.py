"""What pyspiel's Python-game bridge costs a decision, beside parlour's engine (a tool).

``python -m parlour_tools.pyspiel_bridge [games]`` registers ``python_trivial``, a two-player
pyspiel Python game whose rules cost almost nothing (three legal actions, 40 moves, no
chance), and plays random games of it two ways in alternating rounds: through pyspiel
(``legal_actions`` and ``apply_action``: each a call into C++ that calls the Python methods
back; ``is_terminal``, defined in Python, is called directly either way) and by calling the
same Python methods directly. The difference is the bridge's own cost a decision of a game
without chance, which any pyspiel Python game pays. It then plays random Ten-Thousand games
the same two ways through parlour's pyspiel game (the bench's loop, :func:`~parlour.research.
bench.pyspiel_decisions`, against :func:`parlour_direct`): there chance crosses the bridge too
(``is_chance_node``, and ``apply_action`` for each roll), and both loops sample each roll from
its explicit list of outcomes, as OpenSpiel's chance nodes require. And parlour's checked
engine for scale. Times are CPU seconds of this process; the figures are medians of 10
rounds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import pyspiel

from parlour.research.bench import engine_units, pyspiel_decisions
from parlour.research.openspiel import load_game

MOVES = 40
"""The length of every ``python_trivial`` game (decisions)."""
_ACTIONS = [0, 1, 2]

_TYPE = pyspiel.GameType(
    short_name="python_trivial",
    long_name="A Python game whose rules cost almost nothing",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_INFO = pyspiel.GameInfo(
    num_distinct_actions=len(_ACTIONS),
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MOVES,
)


class TrivialGame(pyspiel.Game):  # type: ignore[misc]
    """``python_trivial``: two players alternate any of three actions, 40 moves, a draw."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_TYPE, _INFO, params or {})

    def new_initial_state(self) -> TrivialState:
        return TrivialState(self)


class TrivialState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_trivial``: ``moves`` played, ``player`` to move."""

    def __init__(self, game: TrivialGame) -> None:
        super().__init__(game)
        self.moves = 0
        self.player = 0

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.moves >= MOVES else self.player

    def _legal_actions(self, player: int) -> list[int]:
        return _ACTIONS

    def _apply_action(self, action: int) -> None:
        self.moves += 1
        self.player ^= 1

    def is_terminal(self) -> bool:
        return self.moves >= MOVES

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action)

    def __str__(self) -> str:
        return f"{self.moves} moves"

    def returns(self) -> list[float]:
        return [0.0, 0.0]


def through_pyspiel(game: Any, rng: random.Random, games: int) -> int:
    """*games* random games through pyspiel's API; returns the decisions."""
    draw = rng.random
    for _ in range(games):
        state = game.new_initial_state()
        is_terminal, legal, apply = state.is_terminal, state.legal_actions, state.apply_action
        while not is_terminal():
            actions = legal()
            apply(actions[int(draw() * len(actions))])
    return games * MOVES


def direct(game: Any, rng: random.Random, games: int) -> int:
    """The same games calling the state's Python methods directly; returns the decisions."""
    draw = rng.random
    for _ in range(games):
        state = game.new_initial_state()
        legal, apply = state._legal_actions, state._apply_action
        while state.moves < MOVES:
            actions = legal(state.player)
            apply(actions[int(draw() * len(actions))])
    return games * MOVES


def parlour_direct(game: Any, rng: random.Random) -> int:
    """One random game of parlour's pyspiel *game* as :func:`~parlour.research.bench.
    pyspiel_decisions` plays it (the same draws from *rng*, so the same game), calling the
    Python methods pyspiel would call back (``current_player``, ``_legal_actions``,
    ``_apply_action``) directly; returns the player decisions."""
    state = game.new_initial_state()
    steps = 0
    is_terminal, current, outcomes_of = (
        state.is_terminal,
        state.current_player,
        state.chance_outcomes,
    )
    legal, apply = state._legal_actions, state._apply_action
    choices, draw = rng.choices, rng.random
    while not is_terminal():
        if current() == _CHANCE:
            outcomes, probs = zip(*outcomes_of(), strict=True)
            apply(choices(outcomes, probs)[0])
        else:
            actions = legal(current())
            apply(actions[int(draw() * len(actions))])
            steps += 1
    return steps


_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _micros(run: Callable[[], int]) -> float:
    started = time.process_time()
    decisions = run()
    return (time.process_time() - started) / decisions * 1e6


def main(argv: list[str]) -> None:
    """Print the figures (see the module docstring)."""
    games = int(argv[0]) if argv else 500
    if "python_trivial" not in pyspiel.registered_names():
        pyspiel.register_game(_TYPE, TrivialGame)
    game = pyspiel.load_game("python_trivial")
    rng = random.Random(0)
    tt = load_game("ten-thousand", target=10_000)
    per = games // 10 or 1
    runs: dict[str, Callable[[], int]] = {
        "pyspiel": lambda: through_pyspiel(game, rng, games),
        "direct": lambda: direct(game, rng, games),
        "engine": lambda: sum(
            engine_units("ten-thousand", fast=False, unit="decisions", rng=rng, target=10_000)
            for _ in range(per)
        ),
        "parlour": lambda: sum(pyspiel_decisions(tt, rng) for _ in range(per)),
        "parlour direct": lambda: sum(parlour_direct(tt, rng) for _ in range(per)),
    }
    rounds: dict[str, list[float]] = {name: [] for name in runs}
    for run in runs.values():
        run()  # warm
    for _ in range(10):
        for name, run in runs.items():
            rounds[name].append(_micros(run))
    via, own, engine, ours, ours_direct = (statistics.median(rounds[k]) for k in runs)
    print(
        f"python_trivial, microseconds a decision (CPU, median of 10 rounds): through pyspiel "
        f"{via:.2f}, its Python methods called directly {own:.2f}: the bridge {via - own:.2f}.\n"
        f"Ten-Thousand through parlour's checked engine: {engine:.2f} a decision (chance "
        f"included); the bridge alone is {(via - own) / engine:.0%} of it.\n"
        f"Ten-Thousand through parlour's pyspiel game: {ours:.2f} a decision, its Python "
        f"methods called directly {ours_direct:.2f}: the bridge {ours - ours_direct:.2f} "
        f"({(ours - ours_direct) / engine:.0%} of the engine's decision); the rest over the "
        f"engine, {ours_direct - engine:.2f}, is Python work (mostly sampling each roll from "
        f"its listed outcomes)."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
