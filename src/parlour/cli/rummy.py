"""Rummy commands: ``score rummy``, ``stats rummy``, ``arena rummy`` and ``bench rummy``.

``play rummy`` is made from the game's spec by :mod:`parlour.cli.play` (the terminal app is
named by its ``GameSpec.terminal_app``)."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from parlour.cli.common import console, database, fail
from parlour.cli.groups import arena, bench, score, stats
from parlour.engine.errors import InvalidNotation, ParlourError
from parlour.games.rummy import SPEC


@score.command("rummy")
def score_rummy(
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. 3S 4S 5S 6S 7S 6H 6D.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Print the best split of real cards into sets and runs, and the points left unmelded.

    An unknown or duplicated card is refused with the reason and exit status 2.
    """
    from parlour.games.rummy.cards import card_text, cards_text, mask_of, parse_cards
    from parlour.games.rummy.scoring import POINTS, best_split

    try:
        parsed = parse_cards(cards)
    except InvalidNotation as err:
        fail(str(err))
    if not parsed:
        fail("no cards given")
    split = best_split(mask_of(parsed))
    melded = sum(POINTS[c] for meld in split.melds for c in meld)
    if as_json:
        print(
            json.dumps(
                {
                    "cards": [card_text(c) for c in parsed],
                    "melds": [[card_text(c) for c in meld] for meld in split.melds],
                    "melded_points": melded,
                    "deadwood": [card_text(c) for c in split.deadwood],
                    "deadwood_points": split.points,
                }
            )
        )
        return
    table = Table(title=f"Rummy: {cards_text(list(parsed))}")
    table.add_column("meld")
    table.add_column("cards")
    table.add_column("points", justify="right")
    for meld in split.melds:
        kind = "set" if len({c % 13 for c in meld}) == 1 else "run"
        table.add_row(kind, cards_text(list(meld)), str(sum(POINTS[c] for c in meld)))
    table.add_row(
        "[bold]left unmelded[/]",
        cards_text(list(split.deadwood)) or "-",
        f"[bold]{split.points}[/]",
    )
    console.print(table)


@stats.command("rummy")
def stats_rummy(
    name: Annotated[str | None, typer.Argument(help="Only this person.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Per-person Rummy statistics from games against the computer."""
    from parlour.storage.rummy_stats import rummy_stats

    try:
        rows = rummy_stats(database(), name)
    except ParlourError as err:
        fail(str(err))
    if as_json:
        print(json.dumps([row.to_json() for row in rows]))
        return
    if not rows:
        console.print(
            "No Rummy statistics yet"
            + (f" for {escape(repr(name))}" if name else "")
            + ": finish a game against the computer (parlour play rummy)."
        )
        return
    table = Table(title="Rummy statistics", pad_edge=False)
    for column in (  # short words: the table fits in 80 columns, no header cut ("pers…")
        "name",
        "games",
        "won",
        "lost",
        "win rate",
        "best game",
        "best round",
        "avg round",
        "streak now",
        "best streak",
    ):
        table.add_column(column, justify="left" if column == "name" else "right")
    for row in rows:
        rate = "-" if row.win_rate is None else f"{row.win_rate:.0%}"
        average = "-" if row.average_round_score is None else f"{row.average_round_score:.1f}"
        table.add_row(
            Text(row.name),  # a name is never markup
            str(row.played),
            str(row.won),
            str(row.lost),
            rate,
            str(row.best_game_score if row.best_game_score is not None else "-"),
            str(row.best_round_score if row.best_round_score is not None else "-"),
            average,
            str(row.current_streak),
            str(row.longest_streak),
        )
    console.print(table)


@arena.command("rummy")
def arena_rummy(
    bots: Annotated[
        str,
        typer.Option(
            "--players",
            "--bots",
            help="Levels, one per seat, e.g. hard,medium (also: simple, the baseline; search, "
            "search-expert; the planners and the searches take settings as JSON, e.g. "
            '\'search{"base": "expert", "melds": true},hard{"reach": 4.0, "gain": 3.0}\').',
        ),
    ] = "hard,medium",
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed for shuffles and bots.")] = 0,
    ending_score: Annotated[
        int, typer.Option("--ending-score", help="Game end score.")
    ] = SPEC.options["ending_score"].default,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Worker processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Computer players against each other, seats rotating: win rates with 95% intervals,
    think time per move (median, max)."""
    import parlour
    from parlour.bots.arena import parse_players, run_arena
    from parlour.bots.base import Bot
    from parlour.engine.registry import find
    from parlour.games.rummy.bots import BASELINES, SETTABLE
    from parlour.games.rummy.bots import make_bot as rummy_bot
    from parlour.session import make_bot

    try:
        spec = find("rummy")
        entries = parse_players(bots, spec, extra=BASELINES, settable=SETTABLE)
        players: list[Bot] = []
        levels: list[str] = []
        for entry in entries:
            if entry.settings or entry.level in BASELINES:
                players.append(rummy_bot(entry.level, entry.settings))
                levels.append(entry.label(rummy_bot(entry.level)))
            else:  # a level people play, or the research extra's
                players.append(make_bot(spec, entry.level))
                levels.append(entry.level)
        game = parlour.load("rummy", players=len(players), ending_score=ending_score)
    except ParlourError as err:
        fail(str(err))
    result = run_arena(game, players, games=games, seed=seed, labels=levels, jobs=jobs)
    if as_json:
        print(
            json.dumps(
                {
                    "game": "rummy",
                    "seed": seed,
                    "games": result.games,
                    "seconds": round(result.seconds, 3),
                    "bots": [
                        {
                            "name": f.name,
                            "games": f.games,
                            "wins": f.wins,
                            "win_rate": f.win_rate,
                            "interval": list(f.interval),
                            "points": f.points,
                            "mean_score": f.points / f.games,
                            **{k: v for k, v in f.to_json().items() if k.startswith("think")},
                        }
                        for f in result.bots
                    ],
                }
            )
        )
        return
    table = Table(title=f"Rummy arena: {games} games, seed {seed}")
    columns = ("level", "games", "wins", "win rate", "95% interval", "mean score", "think")
    for column in columns:
        if column == "level":  # a label with settings is folded, never cut short ("simulatio…")
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right")
    for f in result.bots:
        low, high = f.interval
        table.add_row(
            Text(f.name),  # a label is never markup: a name in the settings can hold "[/b]"
            str(f.games),
            f"{f.wins:g}",
            f"{f.win_rate:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{f.points / f.games:.1f}",
            think_text(f.think),
        )
    console.print(table)
    console.print("think: wall seconds per move, median / max")
    console.print(f"{result.games_per_second:.1f} games per second")


def think_text(seconds: list[float]) -> str:
    """``"0.012 / 0.340"``: the median and the longest of *seconds* (``"-"`` for none)."""
    if not seconds:
        return "-"
    return f"{statistics.median(seconds):.3f} / {max(seconds):.3f}"


def random_hands_per_second(hands: int, seed: int) -> float:
    """Random play of Rummy through the public protocol: rounds (hands) per second.

    Each step asks ``legal_actions()`` and applies a uniformly random one; each deal is a
    sampled chance outcome. The games use the default options.
    """
    import parlour

    game = parlour.load("rummy")
    rng = random.Random(seed)
    choice = rng.choice
    state = game.new_initial_state()
    done = 0
    started = time.perf_counter()
    while done < hands:
        player = state.current_player()
        if player >= 0:
            state.apply(choice(state.legal_actions()))
        elif state.is_chance_node():
            if state.history:
                done += 1  # a round just ended
            state.apply(state.sample_chance(rng))
        else:
            done += 1
            state = game.new_initial_state()
    return hands / (time.perf_counter() - started)


OPENSPIEL_SCRIPT = """
import random, sys, time
import pyspiel
game = pyspiel.load_game("gin_rummy")
rng = random.Random(int(sys.argv[2]))
hands = int(sys.argv[1])
started = time.perf_counter()
for _ in range(hands):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
print(hands / (time.perf_counter() - started))
"""


def openspiel_hands_per_second(hands: int, seed: int, python: str) -> float | None:
    """OpenSpiel's gin_rummy random play (one game is one hand) with *python*, which must
    have the ``open-spiel`` package; ``None`` if it cannot run."""
    try:
        done = subprocess.run(
            [python, "-c", OPENSPIEL_SCRIPT, str(hands), str(seed)],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        return float(done.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


@bench.command("rummy")
def bench_rummy(
    hands: Annotated[int, typer.Option("--hands", min=1, help="Hands (rounds) per trial.")] = 3000,
    trials: Annotated[
        int, typer.Option("--trials", min=1, help="Alternating trials; medians are shown.")
    ] = 3,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    openspiel_python: Annotated[
        str | None,
        typer.Option(
            "--openspiel-python",
            help="A Python with the open-spiel package (pip install open-spiel, or the 'bench' "
            "extra): measures OpenSpiel's gin_rummy random play in the same run. Default: this "
            "Python, if it has open-spiel.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Random-play hands per second, compared with OpenSpiel's gin_rummy in the same run.

    Trials of the two alternate (ours, theirs, ours, ...) so that a busy machine slows both
    alike; the medians are compared. OpenSpiel plays a fifth as many hands per trial.
    """
    import statistics

    python = openspiel_python or sys.executable
    ours: list[float] = []
    theirs: list[float] = []
    for trial in range(trials):
        ours.append(random_hands_per_second(hands, seed + trial))
        other = openspiel_hands_per_second(max(100, hands // 5), seed + trial, python)
        if other is not None:
            theirs.append(other)
    mine = statistics.median(ours)
    other_median = statistics.median(theirs) if theirs else None
    ratio = mine / other_median if other_median else None
    if as_json:
        print(
            json.dumps(
                {
                    "rummy_hands_per_second": mine,
                    "openspiel_gin_rummy_hands_per_second": other_median,
                    "ratio": ratio,
                    "trials": {"rummy": ours, "openspiel": theirs},
                }
            )
        )
        return
    console.print(
        f"parlour rummy, random play: {mine:,.0f} hands per second "
        f"(median of {trials} x {hands} hands: {', '.join(f'{x:,.0f}' for x in ours)})"
    )
    if other_median is None:
        console.print(
            f"OpenSpiel gin_rummy: not measured ({python} has no open-spiel; "
            "pass --openspiel-python)"
        )
    else:
        console.print(
            f"OpenSpiel gin_rummy, random play: {other_median:,.0f} hands per second "
            f"(median of {', '.join(f'{x:,.0f}' for x in theirs)})"
        )
        console.print(f"ratio: {ratio:.1f}x")
