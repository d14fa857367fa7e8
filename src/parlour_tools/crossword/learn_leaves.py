"""Learn the leave table of the hard computer player from self-play (writes
``data/leaves.json``; see :mod:`parlour.games.crossword.leaves`). A tool, apart from the game
(see :mod:`parlour_tools`): the game reads the table it writes and never imports it.

Each round plays two-player games between two copies of a computer player, with the ENABLE
lexicon and the default rules. After every play or exchange that the bag can refill in full,
it records the tiles kept (the leave) and, as the target, the points of that player's next
play (0 for an exchange or a pass). Ridge regression of the targets on the leave's features
gives the weights. Round 1 plays the medium player (highest score); each later round plays the
hard player with the previous round's table, so the values fit the player that uses them.

The shipped table was made from a checkout with (about 0.25 s a game on one core for round 1,
0.6 s for round 2; ``--jobs`` plays games in parallel and does not change the result)::

    python -m parlour_tools.crossword.learn_leaves --games 3000 --rounds 2 --seed 1 --jobs 2 \\
        --out src/parlour/games/crossword/data/leaves.json

The same arguments give the same table; its ``meta`` records them and each round's figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from parlour.engine.registry import load
from parlour.games.crossword.bots import CrosswordBot, HardBot, MediumBot
from parlour.games.crossword.leaves import FEATURES, LeaveModel, fit
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.tiles import RACK_SIZE

Sample = tuple[str, float]


def play_for_samples(index: int, seed: int, weights: Sequence[float] | None) -> list[Sample]:
    """Play game *index* of a round (seeded by *seed* and *index*) between two medium
    players, or two hard players with *weights*; return its ``(leave, next points)`` pairs."""
    bot: CrosswordBot = MediumBot() if weights is None else HardBot(LeaveModel(list(weights)))
    rng = random.Random(f"leaves:{seed}:{index}")
    state = load("crossword", players=2).new_initial_state()
    assert isinstance(state, CrosswordState)
    pending: dict[int, str] = {}
    samples: list[Sample] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player()
        turns = len(state.log)
        state.apply(bot.choose(state, seat, rng))
        entry = state.log[turns]
        if seat in pending:
            samples.append((pending.pop(seat), float(entry.get("score", 0))))
        if entry["kind"] in ("play", "exchange") and not state.is_terminal():
            leave = "".join(sorted(state.racks[seat]))
            if len(state.bag) >= RACK_SIZE - len(leave) and len(leave) < RACK_SIZE:
                pending[seat] = leave
    return samples


def _play_many(job: tuple[range, int, Sequence[float] | None]) -> list[Sample]:
    indices, seed, weights = job
    return [s for i in indices for s in play_for_samples(i, seed, weights)]


def learn(
    games: int, rounds: int, seed: int, jobs: int = 1, *, ridge: float = 1.0, log: bool = True
) -> LeaveModel:
    """Run *rounds* rounds of *games* games each (see the module docstring) and return the
    last round's table, with how it was made in ``meta``."""
    weights: list[float] | None = None
    history = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        size = max(1, -(-games // (jobs * 8)))
        chunks = [
            (range(i, min(i + size, games)), seed * 1000 + number, weights)
            for i in range(0, games, size)
        ]
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                parts = list(pool.map(_play_many, chunks))
        else:
            parts = [_play_many(chunk) for chunk in chunks]
        samples = [s for part in parts for s in part]
        weights, mean = fit(samples, ridge=ridge)
        seconds = time.perf_counter() - started
        history.append(
            {
                "round": number,
                "player": "medium" if number == 1 else "hard (previous round's table)",
                "games": games,
                "samples": len(samples),
                "mean_next_play": round(mean, 3),
                "stdev_next_play": round(statistics.pstdev(p for _, p in samples), 3),
                "seconds": round(seconds, 1),
            }
        )
        if log:
            print(
                f"round {number}: {len(samples)} leaves, mean next play {mean:.2f}, "
                f"{seconds:.0f} s",
                file=sys.stderr,
            )
    assert weights is not None
    meta = {
        "what": "points a leave adds to the next play, compared with an average leave",
        "command": (
            f"python -m parlour_tools.crossword.learn_leaves --games {games} "
            f"--rounds {rounds} --seed {seed} --jobs {jobs} --ridge {ridge}"
        ),
        "lexicon": "enable",
        "players": 2,
        "features": len(FEATURES),
        "rounds": history,
    }
    return LeaveModel(weights, meta)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="games per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of self-play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--ridge", type=float, default=1.0, help="ridge penalty")
    parser.add_argument("--out", type=Path, required=True, help="the JSON table to write")
    args = parser.parse_args(argv)
    model = learn(args.games, args.rounds, args.seed, args.jobs, ridge=args.ridge)
    model.save(args.out)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover - a training run
    main()
