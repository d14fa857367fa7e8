"""Coordinate search of the hard Rummy player's parameters on paired deals (issue 18).

Every candidate is a copy of ``hard`` (:class:`~parlour.games.rummy.bots.PlannerBot`) with
some parameters changed, played against ``hard`` itself on the same deals
(:func:`~parlour_tools.rummy_paired.paired_margins`: each deal played twice with the seats
swapped, one round). The search goes through the parameters in turn; for each it tries every
value of its grid with the others at the current best, and moves to the value whose mean
round margin is highest only if that is ahead of the current best's by more than
``--bar`` standard errors of the per-deal differences (the deals are common, so the
difference is paired). It stops after ``--passes`` passes or a pass that moves nothing.
The figures are points a round (the candidate's round score less hard's).

Run: ``python -m parlour_tools.rummy_tune --deals 4000 --seed 11``; confirm the winner on
fresh deals with ``python -m parlour_tools.rummy_paired 'hard{...}' hard --seed 12``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from parlour.bots.arena import json_object
from parlour.engine.errors import ParlourError
from parlour.games.rummy.bots import HARD
from parlour_tools.rummy_paired import mean_error, paired_margins

GRID: dict[str, Sequence[Any]] = {
    "reach": (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0),
    "gain": (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0),
    "start_bonus": (0.0, 5.0, 10.0, 15.0, 20.0),
    "danger_weight": (0.0, 3.0, 6.0, 10.0, 15.0),
    "take_start": (0, 5, 10, 15),
    "take_fit": (False, True),
    "tie_outs": (False, True),
    "start_draws": (0.0, 2.0, 4.0, 6.0),
    "hold": (0, 3, 4, 5, 6, 8),
}
"""The values tried for each parameter (hard's own value among them)."""


def margins(settings: dict[str, Any], deals: int, seed: int) -> list[float]:
    """Per deal, the mean round margin of hard with *settings* against hard (points)."""
    return paired_margins(replace(HARD, **settings), HARD, deals, seed)


def tune(
    grid: dict[str, Sequence[Any]],
    deals: int,
    seed: int,
    bar: float,
    passes: int,
    start: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The settings the coordinate search ends on (module docstring), from *start* (hard's
    own settings when None), printing each step."""
    best: dict[str, Any] = dict(start or {})
    best_margins = margins(best, deals, seed) if best else [0.0] * deals
    for n in range(passes):
        moved = False
        for name, values in grid.items():
            current = best.get(name, getattr(HARD, name))
            choice = None
            for value in values:
                if value == current:
                    continue
                trial = {**best, name: value}
                got = margins(trial, deals, seed)
                mean, error = mean_error(got)
                ahead = [a - b for a, b in zip(got, best_margins, strict=True)]
                gain, gain_error = mean_error(ahead)
                print(
                    f"pass {n + 1} {json.dumps(trial)}: {mean:+.2f} +/- {error:.2f} "
                    f"against hard; {gain:+.2f} +/- {gain_error:.2f} against the best",
                    flush=True,
                )
                if gain > bar * gain_error and (choice is None or gain > choice[0]):
                    choice = (gain, value, got)
            if choice is not None:
                best = {**best, name: choice[1]}
                best_margins = choice[2]
                moved = True
                print(f"  -> {json.dumps(best)}", flush=True)
        if not moved:
            break
    mean, error = mean_error(best_margins)
    print(f"best {json.dumps(best)}: {mean:+.2f} +/- {error:.2f} points a round", flush=True)
    return best


def main(argv: Sequence[str] | None = None) -> None:
    """Run the search with the command line's deals, seed, bar and passes (*argv*,
    ``sys.argv`` by default). ``--deals`` or ``--passes`` below 1, a negative or non-finite
    ``--bar``, ``--start`` settings that are not a JSON object hard takes, and an unknown
    name in ``--only`` are argument errors (exit status 2), found before any deal is played."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--bar", type=float, default=2.0)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--start", default="{}", help="settings to start from, as JSON")
    parser.add_argument("--only", default="", help="the parameters to search, comma-separated")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.passes < 1:
        parser.error("--deals and --passes must be at least 1")
    if not (math.isfinite(args.bar) and args.bar >= 0):
        parser.error(f"--bar must be a number of at least 0, not {args.bar}")
    names = [name.strip() for name in args.only.split(",")] if args.only else list(GRID)
    unknown = [name for name in names if name not in GRID]
    if unknown:
        parser.error(f"--only: unknown parameter {unknown[0]!r}; they are: {', '.join(GRID)}")
    try:  # read as an arena reads a player's settings
        start = json_object("--start", args.start)
    except ParlourError as unread:
        parser.error(str(unread))
    try:
        fields = {f.name for f in dataclasses.fields(HARD)}
        if bad := sorted(set(start) - fields):
            raise ParlourError(f"unknown setting {bad[0]!r}")
        replace(HARD, **start)  # checks each value's range (PlannerBot.__post_init__)
    except ParlourError as bad:
        parser.error(f"--start: {bad}")
    tune({name: GRID[name] for name in names}, args.deals, args.seed, args.bar, args.passes, start)


if __name__ == "__main__":
    main()
