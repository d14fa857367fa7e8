"""The worked examples of ``docs/research.md``, as functions and a command.

``python -m parlour.research.examples q-learning [episodes] [seed] [initial]``: tabular
Q-learning on a solo Ten-Thousand turn through the Gymnasium environment (*initial*: the
points an untried action is worth, 0 by default); prints the greedy policy's mean points per
turn over fresh turns, with its 95% interval, beside the exact optimum (``parlour solve
ten-thousand``: 551.642).
"""

from __future__ import annotations

import math
import random
import sys
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.research.gymnasium import ParlourGymEnv


@dataclass(frozen=True)
class QLearningResult:
    """What :func:`q_learning_solo_turn` learned: ``states`` (distinct observations seen),
    and the greedy policy's ``mean`` points per turn over ``evaluation`` fresh turns, with
    its 95% interval ``low``..``high`` (normal approximation)."""

    episodes: int
    states: int
    evaluation: int
    mean: float
    low: float
    high: float


def q_learning_solo_turn(
    episodes: int,
    *,
    seed: int = 0,
    evaluation: int = 20_000,
    alpha: float = 0.01,
    initial: float = 0.0,
) -> QLearningResult:
    """Tabular Q-learning (undiscounted, epsilon-greedy with epsilon falling from 1 to 0.02
    over the first half; step size 1/n for the n-th visit of a state and action, never
    below *alpha*) of one solo Ten-Thousand turn: the reward is the points banked. An
    action not tried yet in a state is worth *initial* points (optimistic values above the
    true ones make the greedy choice try every action once).

    The table is keyed by the observation vector (the turn total, dice to roll, the roll's
    face counts, first roll or not), so the agent knows only what the environment shows.
    Raises ``ValueError`` for fewer than one episode."""
    if episodes < 1:
        raise ValueError("at least one episode")
    env = ParlourGymEnv("ten-thousand", players=1, reward="points", turns=1)
    rng = random.Random(seed)
    table: defaultdict[bytes, dict[int, float]] = defaultdict(dict)
    visits: defaultdict[tuple[bytes, int], int] = defaultdict(int)

    def greedy(key: bytes, legal: Any) -> int:
        q = table[key]
        return int(max(legal, key=lambda a: q.get(int(a), initial)))

    for episode in range(episodes):
        epsilon = max(0.02, 1.0 - episode / (episodes / 2))
        obs, info = env.reset(seed=rng.getrandbits(32))
        done = info["over"]  # a farkle on the first roll: nothing to learn
        while not done:
            key = obs.tobytes()
            legal = np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal)) if rng.random() < epsilon else greedy(key, legal)
            obs, reward, done, _, info = env.step(action)
            if done:
                target = reward
            else:
                following = table[obs.tobytes()]
                nxt = np.flatnonzero(info["action_mask"])
                target = reward + max((following.get(int(a), initial) for a in nxt), default=0.0)
            visits[key, action] += 1
            step = max(alpha, 1.0 / visits[key, action])
            q = table[key]
            q[action] = q.get(action, initial) + step * (target - q.get(action, initial))
    total = total_sq = 0.0
    for _ in range(evaluation):
        obs, info = env.reset(seed=rng.getrandbits(32))
        done, points = info["over"], 0.0
        while not done:
            action = greedy(obs.tobytes(), np.flatnonzero(info["action_mask"]))
            obs, reward, done, _, info = env.step(action)
            points += reward
        total += points
        total_sq += points * points
    mean = total / evaluation
    sd = math.sqrt(max(0.0, total_sq / evaluation - mean * mean))
    half = 1.96 * sd / math.sqrt(evaluation)
    return QLearningResult(episodes, len(table), evaluation, mean, mean - half, mean + half)


def main(argv: list[str]) -> None:
    """The command line (see the module docstring)."""
    if not argv or argv[0] != "q-learning":
        raise SystemExit(
            "usage: python -m parlour.research.examples q-learning [episodes] [seed] [initial]"
        )
    episodes = int(argv[1]) if len(argv) > 1 else 200_000
    seed = int(argv[2]) if len(argv) > 2 else 0
    initial = float(argv[3]) if len(argv) > 3 else 0.0
    result = q_learning_solo_turn(episodes, seed=seed, initial=initial)
    print(
        f"Q-learning, {result.episodes:,} solo turns, {result.states:,} states: the greedy "
        f"policy banks {result.mean:.1f} points per turn (95% interval {result.low:.1f}-"
        f"{result.high:.1f}, {result.evaluation:,} fresh turns); the exact optimum is 551.642"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
