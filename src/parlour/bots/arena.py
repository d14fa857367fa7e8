"""The arena: computer players against each other, game after game, with figures.

Seats rotate from game to game (game *i* seats the bots shifted by *i*), so no bot keeps the
advantage of playing first. Win rates count a shared win as a fraction.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parlour.bots.base import Bot
from parlour.bots.stats import wilson_interval
from parlour.engine.state import Game, State


@dataclass
class BotFigures:
    """One bot's totals over an arena run (``name`` is its label, e.g. ``"strong"``)."""

    name: str
    games: int = 0
    wins: float = 0.0
    points: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """Wins per game (shared wins count as fractions)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)


@dataclass
class ArenaResult:
    """An arena run: per-bot figures, the number of games and the wall time in seconds."""

    bots: list[BotFigures]
    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds else float("inf")


Measure = Callable[[State, int], dict[str, float]]
"""Per-game, per-seat extra figures (e.g. turns played), summed into ``BotFigures.extra``."""


def play_game(
    game: Game, bots: Sequence[Bot], rng: random.Random, *, max_steps: int = 1_000_000
) -> State:
    """Play one game of *game* with ``bots[seat]`` in each seat; chance drawn with *rng*."""
    state = game.new_initial_state()
    for _ in range(max_steps):
        player = state.current_player()
        if player >= 0:
            state.apply(bots[player].choose(state, player, rng), player=player)
        elif state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            return state
    raise RuntimeError(f"{game.spec.name}: no end after {max_steps} steps")


def run_arena(
    game: Game,
    bots: Sequence[Bot],
    *,
    games: int,
    seed: int = 0,
    labels: Sequence[str] | None = None,
    measure: Measure | None = None,
) -> ArenaResult:
    """Play *games* games of *game* between *bots* (one per seat), rotating seats.

    ``labels`` name the bots in the figures (default: each bot's ``name``, numbered when two
    share one). The same *seed* gives the same games.
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{len(bots)} bots for {game.num_players} seats")
    names = list(labels) if labels else [b.name for b in bots]
    if len(set(names)) < len(names):
        names = [f"{n}#{i}" for i, n in enumerate(names)]
    figures = [BotFigures(n) for n in names]
    rng = random.Random(seed)
    started = time.perf_counter()
    n = game.num_players
    for index in range(games):
        order = [(index + seat) % n for seat in range(n)]  # order[seat] = bot at that seat
        state = play_game(game, [bots[b] for b in order], rng)
        result = state.result()
        for seat, bot in enumerate(order):
            fig = figures[bot]
            fig.games += 1
            fig.points += result.scores[seat]
            if seat in result.winners:
                fig.wins += 1 / len(result.winners)
            if measure:
                for key, value in measure(state, seat).items():
                    fig.extra[key] = fig.extra.get(key, 0.0) + value
    return ArenaResult(figures, games, time.perf_counter() - started)
