"""Paired deals for Rummy players: each deal played twice with the seats swapped.

One round a deal (``max_rounds=1``): the first player named plays seat 0 on the first play of
the deal and seat 1 on the second, so the luck of the cards falls on both. The figure is the
first player's mean round margin (its round score less the other's, points) over the deal's
two plays, averaged over the deals, with one standard error: far fewer rounds than whole games
tell two close players apart (``docs/rules/rummy.md#search-measured``). Deal *d* of seed *S*
is drawn from ``random.Random(S * 100003 + d)``; the players' random source for that deal
from ``random.Random(S * 7 + d)``, the same on both plays.

A player is a level or baseline name (``hard``, ``simple``, ...), a search followed by
its settings as JSON (``'search{"rollout": "hard", "simulations": 240}'``), or a planner
(``medium``, ``hard``, ``expert``) followed by the
:class:`~parlour.games.rummy.bots.PlannerBot` parameters that differ from its own
(``'hard{"reach": 4.0, "hold": 3}'``): what ``parlour arena rummy`` takes
(:func:`~parlour.games.rummy.bots.make_bot`), or ``rollout-`` and the name of a play-out
player of the search (``rollout-expert``, :data:`~parlour.games.rummy.rollout.POLICIES`).

Run: ``python -m parlour_tools.rummy_paired 'search' hard --deals 300 --seed 3``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import parlour
from parlour.bots.arena import parse_player
from parlour.bots.base import Bot
from parlour.engine.errors import ParlourError
from parlour.games.rummy.bots import BASELINES, LEVELS, SETTABLE, make_bot
from parlour.games.rummy.rollout import POLICIES, RolloutBot
from parlour.games.rummy.state import RummyState


def player(spec: str) -> Bot:
    """The player named by *spec* (see the module docstring), read as one entry of an
    arena's players (:func:`~parlour.bots.arena.parse_player`: the level stripped and in
    lower case, then its settings as a JSON object).

    Raises :class:`~parlour.engine.errors.ParlourError` for an unknown name, settings that
    are not a JSON object or given to a player that takes none (empty braces too, as the
    arena refuses them), an unknown setting or one out of range
    (:func:`~parlour.games.rummy.bots.make_bot`). A play-out player is read as a level is:
    ``' Rollout-Expert'`` is ``rollout-expert``.
    """
    entry = parse_player(spec)
    braces = "{" in entry.text  # empty braces are settings too, as in the arena
    if entry.level.startswith("rollout-"):
        policy = entry.level[len("rollout-") :]
        if policy not in POLICIES:
            known = ", ".join(POLICIES)
            raise ParlourError(f"unknown play-out player {policy!r}; play-out players: {known}")
        if braces:
            raise ParlourError(f"{entry.text}: {entry.level} takes no settings")
        return RolloutBot(POLICIES[policy], name=entry.level)
    if braces and entry.level not in SETTABLE and entry.level in (*LEVELS, *BASELINES):
        takes = ", ".join(SETTABLE)
        raise ParlourError(
            f"{entry.text}: {entry.level} takes no settings; only {takes} take settings"
        )
    return make_bot(entry.level, entry.settings)


def paired_margins(first: Bot, second: Bot, deals: int, seed: int) -> list[float]:
    """For each deal, *first*'s mean round margin over its two plays (points)."""
    game = parlour.load("rummy", max_rounds=1)
    margins: list[float] = []
    for d in range(deals):
        deal = game.new_initial_state().sample_chance(random.Random(seed * 100003 + d))
        total = 0
        for swap in (0, 1):
            state = game.new_initial_state()
            assert isinstance(state, RummyState)
            state.apply(deal)
            bots = [second, first] if swap else [first, second]
            rng = random.Random(seed * 7 + d)
            while not state.is_terminal():
                seat = state.current_player()
                state.apply(bots[seat].choose(state, seat, rng))
            scores = state.round_scores[-1]
            total += scores[swap] - scores[1 - swap]
        margins.append(total / 2)
    return margins


def mean_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of *values* and its standard error (0 for fewer than two values)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, statistics.stdev(values) / len(values) ** 0.5


def main(argv: Sequence[str] | None = None) -> None:
    """Print the mean margin a round with its standard error and the processor time (the
    command line *argv*, ``sys.argv`` by default); a bad player or ``--deals`` below 1 is
    an argument error (exit status 2), not a traceback."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        first, second = player(args.first), player(args.second)
    except ParlourError as bad:
        parser.error(str(bad))
    began = time.process_time()
    margins = paired_margins(first, second, args.deals, args.seed)
    mean, error = mean_error(margins)
    print(
        f"{args.first} vs {args.second}: {args.deals} deals, seed {args.seed}: "
        f"{mean:+.2f} +/- {error:.2f} points a round (one standard error; "
        f"{time.process_time() - began:.0f} s of processor time)"
    )


if __name__ == "__main__":
    main()
