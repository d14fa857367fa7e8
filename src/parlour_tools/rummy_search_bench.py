"""Think time of the Rummy ``search`` level per searched decision, against one play-out.

Positions are taken from games of ``hard`` against the simple player (seeded); at every
``--every``-th position of the player to move, the level decides (``SearchBot.choose``) and
its processor time is kept, split into the decisions it searched (more than one line to
compare, ``SearchBot.lines``: a discard by the base player's choice with more than one card
to discard, or with ``--melds`` a meld now or hold) and the others (draws, melds, lay-offs:
the base player's choice). The baseline measured in the same run is one play-out of a
re-dealt world by the simple player (``play_out``), so the figures read as "the time of so
many play-outs"; absolute times are printed too, for this machine only. A play-out by the
cheap hard player (``play_out_hard``, the same worlds) is timed against it too; ``--rollout
hard`` times the level with those play-outs, and ``--base expert`` the ``search-expert``
player (the search from the expert level's choices; the positions stay those of hard's
games). A play-out by the expert copy (``POLICIES["expert"]``) is timed too; ``--rollout
expert`` times the level with those, and ``--melds`` with the meld-or-hold search (its
decisions with two lines count as searched); ``--width`` and ``--simulations`` set the
search's (a width of 1 searches no discard); ``--draws`` searches the draw too (a draw with the
top discard to take counts as searched) and ``--held 3`` re-deals the worlds as hands that hold
melds back (``SearchBot.held``).

Run: ``python -m parlour_tools.rummy_search_bench --games 10 --every 3``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import parlour
from parlour.engine.errors import ParlourError
from parlour.games.rummy.bots import make_bot
from parlour.games.rummy.determinize import determinize
from parlour.games.rummy.rollout import POLICIES, play_out, play_out_hard
from parlour.games.rummy.search import SearchBot
from parlour.games.rummy.state import RummyState


def positions(games: int, every: int, seed: int) -> list[tuple[RummyState, int]]:
    """Every *every*-th decision of *games* games of hard against the simple player."""
    game = parlour.load("rummy")
    rng = random.Random(seed)
    bots = [make_bot("hard"), make_bot("simple")]
    found: list[tuple[RummyState, int]] = []
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, RummyState)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            found.append((state.clone(), seat))
            state.apply(bots[seat].choose(state, seat, rng))
    return found[::every]


def main(argv: Sequence[str] | None = None) -> None:
    """Print the figures (see the module docstring) for the command line *argv*
    (``sys.argv`` by default); ``--games`` or ``--every`` below 1 and search settings out of
    range are argument errors (exit status 2), found before anything is measured."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout", choices=tuple(POLICIES), default="simple")
    parser.add_argument("--melds", action="store_true")
    parser.add_argument("--width", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=90)
    parser.add_argument("--base", choices=("hard", "expert"), default="hard")
    parser.add_argument("--draws", action="store_true")
    parser.add_argument("--held", type=int, default=0)
    args = parser.parse_args(argv)
    for flag, value in (("--games", args.games), ("--every", args.every)):
        if value < 1:
            parser.error(f"{flag} must be at least 1")
    try:
        bot = SearchBot(
            rollout=args.rollout,
            base=args.base,
            melds=args.melds,
            width=args.width,
            simulations=args.simulations,
            draws=args.draws,
            held=args.held,
        )
    except ParlourError as error:
        parser.error(str(error))
    found = positions(args.games, args.every, args.seed)
    rng = random.Random(args.seed)
    began = time.process_time()
    for state, seat in found:
        play_out(determinize(state, seat, rng))
    one = (time.process_time() - began) / len(found)
    rng = random.Random(args.seed)
    began = time.process_time()
    for state, seat in found:
        play_out_hard(determinize(state, seat, rng))
    by_hard = (time.process_time() - began) / len(found)
    rng = random.Random(args.seed)
    began = time.process_time()
    for state, seat in found:
        play_out(determinize(state, seat, rng), policy=POLICIES["expert"])
    by_expert = (time.process_time() - began) / len(found)
    searched: list[float] = []
    other: list[float] = []
    for state, seat in found:
        began = time.process_time()
        bot.choose(state, seat, random.Random(args.seed))
        spent = time.process_time() - began
        search = len(bot.lines(state, seat, random.Random(args.seed))) > 1
        (searched if search else other).append(spent)
    for label, times in (("searched", searched), ("other", other)):
        if not times:
            continue
        median, top = statistics.median(times), max(times)
        print(
            f"{label}: {len(times)} decisions, median {median * 1000:.1f} ms "
            f"({median / one:.0f} play-outs), max {top * 1000:.1f} ms ({top / one:.0f} play-outs)"
        )
    print(f"one play-out: {one * 1000:.3f} ms ({len(found)} measured)")
    print(f"one play-out by hard: {by_hard * 1000:.3f} ms ({by_hard / one:.2f} play-outs)")
    print(f"one play-out by expert: {by_expert * 1000:.3f} ms ({by_expert / one:.2f} play-outs)")


if __name__ == "__main__":
    main()
