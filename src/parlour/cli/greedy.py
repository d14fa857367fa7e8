"""Greedy commands: ``score``, ``solve``, ``arena``, ``bench`` and ``standings greedy``
(``play greedy`` is made from the game's spec in :mod:`parlour.cli.play`)."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

import parlour
from parlour.cli.common import console, database, fail, show_dice_score, turns_measure
from parlour.cli.dice import dice_arena, dice_bench, print_choice_times, time_choices
from parlour.cli.groups import arena, bench, score, solve, standings
from parlour.engine.chance import Dice, dice_text, parse_dice
from parlour.engine.errors import InvalidNotation, ParlourError
from parlour.engine.state import Game
from parlour.games.dice.solver import UNIT
from parlour.games.greedy import SPEC


@score.command("greedy")
def score_greedy(
    dice: Annotated[
        list[str], typer.Argument(help="Up to nine faces 1-6, e.g. 1 1 1 1 5 5 2 2 2.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Print the best Greedy score for real dice and its breakdown.

    Ten dice, a face outside 1-6 or text is refused with exit status 2.
    """
    from parlour.games.greedy.scoring import best_score

    try:
        faces = parse_dice(dice, most=9)
    except InvalidNotation as err:
        fail(str(err))
    scored = best_score(faces)
    show_dice_score(
        f"Greedy: {' '.join(map(str, faces))}",
        scored,
        as_json=as_json,
        nothing="No points: the round's points are forfeited.",
        dice=list(faces),
    )


@standings.command("greedy")
def standings_greedy(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    database_url: Annotated[
        str | None,
        typer.Option("--database", help="Database URL (default: SQLite in the data directory)."),
    ] = None,
) -> None:
    """Print the Greedy tournament standings, most tournament points first.

    Every finished game of one person against the computer counts: a win earns 5,000 plus
    10 x the points over 10,000; a loss (or a quit) forfeits 1,000 plus 5 x the computer's
    points over 10,000.
    """
    from parlour.storage.standings import greedy_standings

    rows = greedy_standings(database(database_url))
    if as_json:
        print(json.dumps([r.__dict__ for r in rows]))
        return
    table = Table(title="Greedy tournament standings")
    for column in ("#", "player", "games", "wins", "losses", "points", "best margin"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for rank, r in enumerate(rows, 1):
        margin = "-" if r.best_margin is None else str(r.best_margin)
        table.add_row(
            str(rank),
            Text(r.name),  # a name is never markup
            str(r.games),
            str(r.wins),
            str(r.losses),
            f"{r.points:,}",
            margin,
        )
    console.print(table)
    if not rows:
        console.print("No finished games against the computer yet.")


# --- options shared by solve, arena and bench -------------------------------------------

TargetOpt = Annotated[
    int, typer.Option("--target", help="A player who ends a turn with this many points wins.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def _load(players: int, target: int) -> Game:
    """The game with these options; bad values exit with status 2 and what is allowed."""
    try:
        return parlour.load("greedy", players=players, target=target)
    except ParlourError as err:
        fail(str(err))


# --- solve ------------------------------------------------------------------------------

EXAMPLE_ROLLS: tuple[Dice, ...] = (
    (1, 1, 2, 2, 3, 4, 5, 6, 6),
    (2, 2, 3, 3, 4, 4, 5, 6, 6),
    (1, 1, 1, 2, 3, 4, 5, 5, 6),
    (2, 2, 3, 4, 4, 5, 6, 6, 6),
)
"""First rolls whose best keeps the strategy table shows."""

POSITIONS = ((5_000, 500), (1_000, 1_000), (500, 5_000))
"""Near-the-end positions ``solve`` shows, as (the strong player's, the opponent's) points
short of the target: (5,000, 9,500), (9,000, 9,000) and (9,500, 5,000) at 10,000."""


def _solved(solve: object, *, quiet: bool, label: str) -> tuple[object, float, float, float]:
    """Run *solve* (called with a ``progress`` callback) under a progress bar unless *quiet*:
    (its result, wall seconds, CPU seconds, peak memory MB of the process)."""
    import resource

    assert callable(solve)
    started, cpu = time.perf_counter(), time.process_time()
    if quiet:
        result = solve(progress=None)
    else:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task(label, total=None)
            result = solve(
                progress=lambda done, total: bar.update(task, completed=done, total=total)
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return result, time.perf_counter() - started, time.process_time() - cpu, peak


def race_figures(target: int, *, quiet: bool) -> dict[str, object]:
    """Solve the two-player race to win afresh (both optimal), cache it in the data
    directory (``optimal`` and the coach play and judge by it from then on) and measure it:
    the first player's chance, the fair compensation for the second player (points),
    seconds, peak memory, where it is cached."""
    from parlour.games.dice.optimal import RaceTable
    from parlour.games.greedy import coach, optimal
    from parlour.games.greedy.solver import GreedyRules

    rules = GreedyRules(target)
    table, wall, cpu, peak = _solved(
        lambda progress: optimal.solve(rules, progress=progress),
        quiet=quiet,
        label="solving Greedy's race to win (pairs of scores)",
    )
    assert isinstance(table, RaceTable)
    coach.store_race_table(rules, table.wins)
    column = [float(w) for w in table.wins[0]]
    fair = min(range(len(column)), key=lambda c: abs(column[c] - 0.5))
    return {
        "first_player_win_probability": table.first_player,
        "fair_compensation_points": fair * UNIT,
        "first_player_win_probability_fair": column[fair],
        "solve_seconds": wall,
        "solve_cpu_seconds": cpu,
        "peak_memory_mb": peak,
        "newton_steps": table.steps,
        "cache": str(coach.cache_path(rules)),
    }


def tournament_figures(target: int, *, quiet: bool) -> dict[str, object]:
    """Solve Greedy against ``strong`` afresh for both objectives (and cache the tables):
    the person's expected tournament points and chance of winning, rolling first or second;
    seconds, peak memory."""
    from parlour.games.greedy import tournament
    from parlour.games.greedy.solver import GreedyRules

    rules = GreedyRules(target)
    tables, wall, cpu, peak = _solved(
        lambda progress: tournament.solve(rules, progress=progress),
        quiet=quiet,
        label="solving Greedy against strong (pairs of scores)",
    )
    assert isinstance(tables, dict)
    tournament.store(tables, tournament.cache_path(rules))
    points, wins = tables["points"], tables["wins"]
    return {
        "tournament_points_rolling_first": points.person_first,
        "tournament_points_rolling_second": points.computer_first,
        "win_probability_rolling_first": wins.person_first,
        "win_probability_rolling_second": wins.computer_first,
        "solve_seconds": wall,
        "solve_cpu_seconds": cpu,
        "peak_memory_mb": peak,
        "newton_steps": points.steps,
        "cache": str(tournament.cache_path(rules)),
    }


def _print_figures(race: dict[str, object] | None, cup: dict[str, object] | None) -> None:
    if race is not None:
        r = race
        console.print("[bold]Both playing to win[/]")
        console.print(
            f"First player's chance of winning: [bold]{r['first_player_win_probability']:.6f}[/]"
        )
        console.print(
            f"Fair compensation: the second player starts with "
            f"[bold]{r['fair_compensation_points']:,}[/] points (first player's chance then "
            f"{r['first_player_win_probability_fair']:.6f})"
        )
        console.print(
            f"Solved in {r['solve_seconds']:.1f} s ({r['solve_cpu_seconds']:.1f} s of CPU), "
            f"peak memory {r['peak_memory_mb']:.0f} MB; cached in {r['cache']}"
        )
    if cup is not None:
        c = cup
        console.print("[bold]The person against strong (the manual's tournament)[/]")
        console.print(
            f"Most expected tournament points: [bold]{c['tournament_points_rolling_first']:,.1f}"
            f"[/] rolling first, [bold]{c['tournament_points_rolling_second']:,.1f}[/] second"
        )
        console.print(
            f"Best chance of winning: [bold]{c['win_probability_rolling_first']:.6f}[/] rolling "
            f"first, [bold]{c['win_probability_rolling_second']:.6f}[/] second"
        )
        console.print(
            f"Solved (both objectives) in {c['solve_seconds']:.1f} s "
            f"({c['solve_cpu_seconds']:.1f} s of CPU), peak memory {c['peak_memory_mb']:.0f} "
            f"MB; cached in {c['cache']}"
        )


@solve.command("greedy")
def solve_greedy(
    target: TargetOpt = SPEC.options["target"].default,
    as_json: JsonOpt = False,
    with_optimal: Annotated[
        bool,
        typer.Option(
            "--optimal",
            help="Also solve the two-player race to win (long at 10,000): the first player's "
            "chance, the fair compensation, solve time and memory.",
        ),
    ] = False,
    with_tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Also solve the person's game against strong (about 15 minutes of CPU at "
            "10,000): the most expected tournament points, the best chance of winning.",
        ),
    ] = False,
) -> None:
    """Solve the strong player's turn strategy exactly and print it.

    Prints the expected points per turn from the start of a turn, the banking thresholds by
    dice left, example keeps, how the strong player plays near the end (its chance of
    winning, and where it banks, in a few positions), and how long each solve took (seconds).
    ``--optimal`` and ``--tournament`` add the solves of ``docs/rules/greedy.md`` ("Playing
    to win", "Playing the tournament") with progress bars, their time and peak memory.
    """
    from parlour.games.greedy import solver
    from parlour.games.greedy.scoring import keep_options

    game = _load(2, target)
    race_fig = race_figures(target, quiet=as_json) if with_optimal else None
    cup = tournament_figures(target, quiet=as_json) if with_tournament else None
    rules = solver.GreedyRules.of(game.options)
    for cached in (solver.strategy, solver.turn_model, solver.roll_kind, solver.race_model):
        cached.cache_clear()
    solver.endgame.cache_clear()
    started = time.perf_counter()
    plan = solver.strategy()  # the roll kinds are built and timed too
    solve_seconds = time.perf_counter() - started
    started = time.perf_counter()
    slack = plan.certify()
    certify_seconds = time.perf_counter() - started
    race = solver.race_model(rules)
    thresholds = plan.bank_thresholds()
    examples = []
    for roll in EXAMPLE_ROLLS:
        kept, bank = plan.choose(keep_options(roll), 0, 9)
        examples.append((roll, kept, bank))
    near = []
    for mine_short, other_short in POSITIONS:
        mine, other = max(0, target - mine_short), max(0, target - other_short)
        policy = solver.endgame(rules, mine, other)
        banks_from = {}
        for n in range(1, 10):
            decisions = [policy.banks(t * UNIT, n) for t in range(policy.top + 1)]
            first = decisions.index(True)
            banks_from[n] = (first * UNIT, all(decisions[first:]))
        near.append((mine, other, race.win_probability(mine, other), policy.win_chance, banks_from))
    if as_json:
        print(
            json.dumps(
                {
                    "game": "greedy",
                    "options": {"target": target},
                    "expected_points_per_turn": plan.expected_points,
                    "bank_thresholds": {str(n): t for n, t in thresholds.items()},
                    "bonus_round": "always roll: nine dice always score",
                    "examples": [
                        {"first_roll": list(r), "keep": list(k), "then": "bank" if b else "roll"}
                        for r, k, b in examples
                    ],
                    "near_the_end": [
                        {
                            "mine": m,
                            "opponent": o,
                            "win_chance_playing_for_points": points,
                            "win_chance_strong": strong,
                            "banks_from": {str(n): t for n, (t, _) in banks.items()},
                            "threshold": {str(n): plain for n, (_, plain) in banks.items()},
                        }
                        for m, o, points, strong, banks in near
                    ],
                    "seconds": solve_seconds,
                    "cap": plan.cap * UNIT,
                    "certificate_slack": slack,
                    "certify_seconds": certify_seconds,
                    "race_model_seconds": race.seconds,
                    **({"optimal": race_fig} if race_fig is not None else {}),
                    **({"tournament": cup} if cup is not None else {}),
                }
            )
        )
        return
    console.print(f"[bold]Greedy: the strong player's turn strategy[/] (target {target:,})")
    console.print(
        f"Expected points per turn, from the start of a turn: [bold]{plan.expected_points:,.1f}[/]"
    )
    table = Table(title="When to bank (playing for points)")
    table.add_column("dice left to roll")
    table.add_column("bank at a turn total of", justify="right")
    for n, points in thresholds.items():
        table.add_row(str(n), f"{points:,}")
    table.add_row("9 (bonus round)", "never: nine dice always score")
    console.print(table)
    console.print(
        "(the turn total after keeping dice; below it, roll). Which dice to keep, on some "
        "first rolls:"
    )
    for roll, kept, bank in examples:
        console.print(
            f"  rolled {dice_text(roll)}: keep {dice_text(kept)}, then "
            + ("bank" if bank else f"roll {9 - len(kept) or 'all nine (bonus round)'}")
        )
    console.print(
        f"Solved in {solve_seconds:.2f} s by backward induction over turn totals "
        f"0-{plan.cap * UNIT:,} points and 1-9 dice left; the policy from "
        f"{plan.cap * UNIT:,} up certified optimal in {certify_seconds:.2f} s "
        f"(slack {slack:,.0f} points)."
    )
    if not near:
        _print_figures(race_fig, cup)
        return
    ends = Table(title="Near the end: the strong player plays for the win")
    ends.add_column("")
    for mine, other, *_ in near:
        ends.add_column(f"{mine:,} vs {other:,}", justify="right")
    ends.add_row("win chance, playing for points", *[f"{p:.2%}" for _, _, p, _, _ in near])
    ends.add_row("win chance, strong", *[f"{s:.2%}" for _, _, _, s, _ in near])
    for n in range(1, 10):
        cells = [f"{b[n][0]:,}" + ("" if b[n][1] else "*") for *_, b in near]
        ends.add_row(f"bank from, {n} {'die' if n == 1 else 'dice'} left", *cells)
    console.print(ends)
    console.print(
        "(win chances of the player to move, both banking by the points policy afterwards; "
        f"* also rolls on at some higher totals). Race model built in {race.seconds:.2f} s."
    )
    _print_figures(race_fig, cup)


# --- arena ------------------------------------------------------------------------------


@arena.command("greedy")
def arena_greedy(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="2-6 computer levels, comma-separated: easy, steady, strong, optimal, "
            "tournament, random.",
        ),
    ] = "strong,easy",
    games: Annotated[int, typer.Option("--games", help="Games to play.", min=1)] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the dice (same seed, same games).")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes.", min=1)] = 1,
    target: TargetOpt = SPEC.options["target"].default,
    as_json: JsonOpt = False,
) -> None:
    """Computer players against each other, seats rotating: win rates with 95% intervals,
    mean points per turn and games per second; with two players also each one's mean
    tournament points per game as the person against the other as the computer, with a 95%
    interval (points over the target)."""
    from parlour.bots.arena import parse_levels
    from parlour.engine.registry import find
    from parlour.games.greedy.bots import ARENA_LEVELS, RandomKeeper

    try:
        levels = parse_levels(players, find("greedy"), extra=("random", *ARENA_LEVELS))
    except ParlourError as err:
        fail(str(err))
    game = _load(len(levels), target)
    if "tournament" in levels:
        ensure_tournament_tables(target, quiet=as_json)
    if "optimal" in levels:
        ensure_race_table(target, quiet=as_json)  # solved and cached once: optimal plays by it
    two = len(levels) == 2
    dice_arena(
        game,
        levels,
        RandomKeeper,
        title="Greedy",
        games=games,
        seed=seed,
        jobs=jobs,
        as_json=as_json,
        measure=arena_measure if two else turns_measure,
        report=None if as_json or not two else _tournament_report,
    )


def arena_measure(state: object, seat: int) -> dict[str, float]:
    """Turns played and, for two seats, tournament points (see ``arena greedy``)."""
    from parlour.games.greedy.tournament import tournament_measure

    return {**turns_measure(state, seat), **tournament_measure(state, seat)}  # type: ignore[arg-type]


def tournament_interval(total: float, squares: float, games: int) -> tuple[float, float, float]:
    """(mean, low, high): the mean of per-game values from their sum and sum of squares,
    with its 95% normal interval (1.96 standard errors)."""
    mean = total / games
    variance = max(0.0, squares / games - mean * mean) * games / max(1, games - 1)
    half = 1.96 * (variance / games) ** 0.5
    return mean, mean - half, mean + half


def _tournament_report(result: object) -> None:
    from parlour.bots.arena import ArenaResult

    assert isinstance(result, ArenaResult)
    for fig in result.bots:
        mean, low, high = tournament_interval(
            fig.extra["tournament"], fig.extra["tournament_sq"], fig.games
        )
        console.print(
            f"{fig.name} as the person: {mean:,.1f} tournament points per game "
            f"(95% interval {low:,.1f} to {high:,.1f})"
        )


def ensure_race_table(target: int, *, quiet: bool = False) -> None:
    """Solve and cache the race table of ``optimal`` and the coach for *target* unless it is
    stored, saying so and with a progress bar unless *quiet* (minutes at 10,000: the arena
    sat silent)."""
    from parlour.games.dice.optimal import RaceTable
    from parlour.games.greedy import coach, optimal
    from parlour.games.greedy.solver import GreedyRules

    rules = GreedyRules(target)
    if coach.stored_race_table(rules) is not None:
        return
    if not quiet:
        console.print(
            f"Solving the race to win at {target:,} points once for the optimal player (a few "
            f"seconds at 1,000, minutes at 10,000); cached in {coach.cache_path(rules)}"
        )
    table, *_ = _solved(
        lambda progress: optimal.solve(rules, progress=progress),
        quiet=quiet,
        label="solving Greedy's race to win (pairs of scores)",
    )
    assert isinstance(table, RaceTable)
    coach.store_race_table(rules, table.wins)


def ensure_tournament_tables(target: int, *, quiet: bool = False) -> float:
    """Solve (with a progress bar unless *quiet*) and cache the tournament player's tables for
    *target* if they are not stored; the seconds it took (0 when stored)."""
    from parlour.games.greedy import tournament
    from parlour.games.greedy.solver import GreedyRules

    rules = GreedyRules(target)
    if tournament.stored_tables(rules) is not None:
        return 0.0
    started = time.perf_counter()
    if quiet:
        tournament.tables(rules)
    else:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("solving Greedy's tournament (pairs of scores)", total=None)
            tournament.tables(
                rules, progress=lambda done, total: bar.update(task, completed=done, total=total)
            )
    return time.perf_counter() - started


# --- bench ------------------------------------------------------------------------------


@bench.command("greedy")
def bench_greedy(
    games: Annotated[int, typer.Option("--games", help="Random-play games to time.", min=1)] = 2000,
    strong_games: Annotated[
        int, typer.Option("--strong-games", help="Strong-bot games to time.", min=1)
    ] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the dice.")] = 0,
    as_json: JsonOpt = False,
    with_optimal: Annotated[
        bool,
        typer.Option(
            "--optimal",
            help="Instead: time a fresh solve of the tournament player's tables at --target and "
            "its move choices in --strong-games games against strong (median, max).",
        ),
    ] = False,
    target: TargetOpt = SPEC.options["target"].default,
) -> None:
    """Games per second of 2-player random play and of the strong player (one process).

    Random play never quits (a random quit would end the game at once). The strong player's
    solves are done (and timed) first, outside the games. With ``--optimal``: the tournament
    player's full solve (seconds, CPU, peak memory) and the time of each of its move choices
    from the solved tables (the first choice at a pair of scores builds that pair's turn).
    """
    from parlour.games.greedy import solver
    from parlour.games.greedy.bots import RandomKeeper

    if with_optimal:
        bench_optimal(target, strong_games, seed, as_json=as_json)
        return

    game = _load(2, SPEC.options["target"].default)

    def prepare() -> tuple[float, float]:
        plan = solver.strategy()
        race = solver.race_model(solver.GreedyRules.of(game.options))
        return plan.seconds, race.seconds

    dice_bench(
        game,
        RandomKeeper,
        prepare,
        title="Greedy",
        games=games,
        strong_games=strong_games,
        seed=seed,
        as_json=as_json,
    )


@bench.command("greedy-moves")
def bench_greedy_moves(
    games: Annotated[int, typer.Option("--games", help="Games against strong.", min=1)] = 30,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the dice.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Milliseconds per move choice of the tournament player at the default target, from the
    tables that ship (no solve), in games against strong: median, 99th percentile and max,
    wall clock and processor time (the first choice at a pair of scores builds its turn)."""
    from parlour.games.greedy import tournament
    from parlour.games.greedy.bots import TournamentBot, make_bot
    from parlour.games.greedy.solver import GreedyRules

    target = SPEC.options["target"].default
    tournament.tournament_turn(GreedyRules(target), "points", 0, 0)  # tables, compiled loop
    tournament.tournament_turn.cache_clear()
    game = _load(2, target)
    strong = make_bot("strong")
    time_choices(game, strong, strong, games=1, seed=seed - 1)  # strong's tables, untimed
    timed = time_choices(game, TournamentBot(), strong, games=games, seed=seed)
    if as_json:
        print(json.dumps({"games": games, "target": target, **timed}))
        return
    print_choice_times(timed, games, f"tournament against strong at {target:,}")


def bench_optimal(target: int, games: int, seed: int, *, as_json: bool) -> None:
    """Time a fresh solve of the tournament tables at *target*, then every move choice of
    the tournament player in *games* games against strong (seats alternating)."""
    from parlour.games.greedy import tournament
    from parlour.games.greedy.bots import TournamentBot, make_bot
    from parlour.games.greedy.solver import GreedyRules

    figures = tournament_figures(target, quiet=as_json)
    tournament.tournament_turn(GreedyRules(target), "points", 0, 0)  # load the compiled loop
    tournament.tournament_turn.cache_clear()
    game = _load(2, target)
    timed = time_choices(game, TournamentBot(), make_bot("strong"), games=games, seed=seed)
    out = {**figures, "games": games, **timed}
    if as_json:
        print(json.dumps(out))
        return
    _print_figures(None, figures)
    print_choice_times(
        timed, games, "tournament against strong (the first at a pair builds its turn)"
    )
