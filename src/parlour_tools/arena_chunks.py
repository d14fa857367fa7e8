"""Combine arena runs played in seeded chunks (``parlour arena ... --seed S --json``, one
file per seed) into one result: ``python -m parlour_tools.arena_chunks 'runs/*.json'``.

A long arena on a shared machine is best played as chunks that each finish on their own
(an unfinished run reports nothing). Different seeds give independent games, so the chunks
add up: wins (a tie counts as the arena counts it), games, points and turns are summed per
bot (by its place in ``--players``); the win rate gets a 95% Wilson interval; with Greedy's
tournament measure, the mean tournament points per game get the arena's normal interval
from the summed values and squares (:func:`parlour.cli.greedy.tournament_interval`).
"""

from __future__ import annotations

import argparse
import glob
import json
from dataclasses import dataclass
from typing import Any

from parlour.bots.stats import wilson_interval


@dataclass
class Totals:
    """One bot's figures summed over the chunks."""

    name: str
    games: int = 0
    wins: float = 0.0
    points: int = 0
    turns: float = 0.0
    tournament: float = 0.0
    tournament_sq: float = 0.0
    has_tournament: bool = False

    def add(self, bot: dict[str, Any]) -> None:
        """Add one chunk's figures of this bot (the arena's JSON ``bots`` entry)."""
        self.games += int(bot["games"])
        self.wins += float(bot["wins"])
        self.points += int(bot["points"])
        self.turns += float(bot.get("turns", 0.0))
        if "tournament" in bot:
            self.has_tournament = True
            self.tournament += float(bot["tournament"])
            self.tournament_sq += float(bot["tournament_sq"])

    def to_json(self) -> dict[str, Any]:
        """The combined figures: win rate with its 95% interval, points per turn and, with
        the tournament measure, mean tournament points per game with its 95% interval."""
        low, high = wilson_interval(self.wins, self.games)
        out: dict[str, Any] = {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games,
            "ci95": [low, high],
        }
        if self.turns:
            out["points_per_turn"] = self.points / self.turns
        if self.has_tournament:
            from parlour.cli.greedy import tournament_interval

            mean, t_low, t_high = tournament_interval(
                self.tournament, self.tournament_sq, self.games
            )
            out["tournament_per_game"] = mean
            out["tournament_ci95"] = [t_low, t_high]
        return out


def combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The combined result of *runs* (the arena's JSON, the same players in the same
    order). Raises ``ValueError`` for no runs, runs of different players, or a seed twice
    (the same games would count twice)."""
    if not runs:
        raise ValueError("no arena runs to combine")
    names = [b["name"] for b in runs[0]["bots"]]
    seeds = [r["seed"] for r in runs]
    if len(set(seeds)) < len(seeds):
        raise ValueError(f"a seed appears twice: {sorted(seeds)}")
    totals = [Totals(n) for n in names]
    for run in runs:
        if [b["name"] for b in run["bots"]] != names or run.get("game") != runs[0].get("game"):
            raise ValueError(f"seed {run['seed']}: other players or game than {names}")
        for total, bot in zip(totals, run["bots"], strict=True):
            total.add(bot)
    return {
        "game": runs[0].get("game"),
        "runs": len(runs),
        "games": sum(int(r["games"]) for r in runs),
        "seeds": sorted(seeds),
        "seconds": sum(float(r["seconds"]) for r in runs),
        "bots": [t.to_json() for t in totals],
    }


RUN_KEYS = ("seed", "games", "seconds", "bots")
BOT_KEYS = ("name", "games", "wins", "points")
"""What :func:`combine` reads of a run (the arena's ``--json``) and of each of its bots."""


def is_run(run: object) -> bool:
    """Whether *run* has the shape of an arena's ``--json`` output that :func:`combine`
    reads (:data:`RUN_KEYS`, a list of bots each with :data:`BOT_KEYS`)."""
    if not isinstance(run, dict) or any(key not in run for key in RUN_KEYS):
        return False
    bots = run["bots"]
    return isinstance(bots, list) and all(
        isinstance(bot, dict) and all(key in bot for key in BOT_KEYS) for bot in bots
    )


def main(argv: list[str] | None = None) -> None:
    """Print the combined result of the files matching the patterns given, as JSON. No file
    matched, a file that cannot be read as JSON or is not an arena's ``--json`` output, and
    runs :func:`combine` refuses are argument errors (exit status 2), not tracebacks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="+", help="JSON files or glob patterns")
    args = parser.parse_args(argv)
    files = sorted({f for pattern in args.patterns for f in glob.glob(pattern)})
    if not files:
        parser.error(f"no file matches {' '.join(args.patterns)}")
    runs = []
    for path in files:
        try:
            with open(path, encoding="utf-8") as handle:
                run = json.load(handle)
        except (OSError, ValueError) as error:  # JSONDecodeError and UnicodeDecodeError too
            parser.error(f"{path}: cannot be read as JSON ({error})")
        if not is_run(run):
            parser.error(f"{path}: not an arena's JSON (parlour arena GAME ... --json)")
        runs.append(run)
    try:
        combined = combine(runs)
    except (ValueError, TypeError) as error:  # a seed twice, other players, a figure not a number
        parser.error(str(error))
    print(json.dumps(combined, indent=1))


if __name__ == "__main__":
    main()
