"""Ten-Thousand commands: ``score``, ``solve``, ``arena`` and ``bench ten-thousand``."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich.table import Table

import parlour
from parlour.cli.common import console, fail, show_dice_score
from parlour.cli.dice import dice_arena, dice_bench
from parlour.cli.groups import arena, bench, score, solve
from parlour.engine.chance import dice_text, parse_dice
from parlour.engine.errors import InvalidNotation, ParlourError
from parlour.engine.state import Game
from parlour.games.dice.scoring import Scored
from parlour.games.ten_thousand import SPEC


@score.command("ten-thousand")
def score_ten_thousand(
    dice: Annotated[list[str], typer.Argument(help="Up to six faces 1-6, e.g. 1 1 1 1 5 5.")],
    first_roll: Annotated[
        bool,
        typer.Option(
            "--first-roll", help="The first roll of a turn: three pairs and straights count."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Print the best Ten-Thousand score for real dice and its breakdown.

    Three pairs and straights score only on the first roll of a turn (the manual; option
    ``specials_any_roll`` of the game), so six dice may score differently on a first roll
    and on a later one. The table is the reading asked for (``--first-roll`` or not); when
    the two differ, a line says which reading it is and another gives the other reading's
    points and parts. ``--json`` adds ``first_roll_points`` and ``later_roll_points``.
    Seven dice, a face outside 1-6 or text is refused with exit status 2.
    """
    from parlour.games.ten_thousand.scoring import best_score

    try:
        faces = parse_dice(dice, most=6)
    except InvalidNotation as err:
        fail(str(err))
    scored = best_score(faces, first_roll=first_roll)
    other = best_score(faces, first_roll=not first_roll)
    first, later = (scored, other) if first_roll else (other, scored)
    differ = first.points != later.points
    asked = _roll(first_roll=first_roll)
    title = f"Ten-Thousand: {' '.join(map(str, faces))}" + (" (first roll)" if first_roll else "")
    show_dice_score(
        title,
        scored,
        as_json=as_json,
        nothing=f"Farkle on {asked}: no scoring dice." if differ else "Farkle: no scoring dice.",
        dice=list(faces),
        first_roll=first_roll,
        first_roll_points=first.points,
        later_roll_points=later.points,
    )
    if as_json or not differ:
        return
    if scored.parts:
        console.print(f"Scored as {asked}: {scored.points} points.", markup=False)
    console.print(_other_reading(other, first_roll=not first_roll), markup=False)


def _roll(*, first_roll: bool) -> str:
    return "the first roll of a turn" if first_roll else "a later roll of the turn"


def _other_reading(scored: Scored, *, first_roll: bool) -> str:
    """The line saying what the dice score on the other kind of roll: points and parts."""
    where = _roll(first_roll=first_roll)
    if not scored.parts:
        return f"On {where}: Farkle, no scoring dice."
    parts = ", ".join(part.label for part in scored.parts)
    if first_roll:
        parts += "; --first-roll"
    return f"On {where}: {scored.points} points ({parts})."


# --- options shared by solve, arena and bench -------------------------------------------

TargetOpt = Annotated[
    int, typer.Option("--target", help="Score that starts the last turns (points).")
]
EntryOpt = Annotated[int, typer.Option("--entry", help="Minimum first bank (points; 0: none).")]
SpecialsOpt = Annotated[
    bool,
    typer.Option(
        "--specials-any-roll", help="Three pairs and straights score on any six-dice roll."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def _load(players: int, target: int, entry: int, specials: bool) -> Game:
    """The game with these options; bad values exit with status 2 and what is allowed."""
    try:
        return parlour.load(
            "ten-thousand",
            players=players,
            target=target,
            entry=entry,
            specials_any_roll=specials,
        )
    except ParlourError as err:
        fail(str(err))


# --- solve ------------------------------------------------------------------------------

EXAMPLE_ROLLS = ((1, 1, 2, 3, 4, 5), (2, 3, 4, 5, 5, 6), (1, 1, 1, 2, 5, 6), (1, 2, 2, 4, 5, 6))
"""First rolls whose best keeps the strategy table shows."""


def _solve_optimal(rules: object, *, quiet: bool) -> object:
    """Solve the optimal player's table for *rules* now, with a progress bar unless *quiet*;
    it is cached in the data directory. Returns the ``RaceTable``."""
    from rich.progress import Progress

    from parlour.games.ten_thousand import optimal
    from parlour.games.ten_thousand.solver import TenThousandRules

    assert isinstance(rules, TenThousandRules)
    if quiet:
        table = optimal.solve(rules)
    else:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("solving the two-player race", total=(rules.target // 50) ** 2)
            table = optimal.solve(rules, progress=lambda done, _: bar.update(task, completed=done))
    optimal.store(rules, table.wins)
    return table


def ensure_optimal_table(game: Game, *, quiet: bool = False) -> None:
    """Solve (with a progress bar) and cache the optimal player's table for *game*'s rules
    unless it is stored already, so that worker processes only read it."""
    from parlour.games.ten_thousand import optimal
    from parlour.games.ten_thousand.solver import TenThousandRules

    rules = TenThousandRules.of(game.options)
    if optimal.stored_table(rules) is None:
        _solve_optimal(rules, quiet=quiet)


def optimal_figures(game: Game, *, quiet: bool) -> dict[str, object]:
    """Solve the two-player race afresh and measure it: the first player's chance with both
    optimal, the fair compensation for the second player (points), seconds, peak memory."""
    import resource

    from parlour.games.dice.optimal import RaceTable
    from parlour.games.ten_thousand import optimal
    from parlour.games.ten_thousand.solver import TenThousandRules

    rules = TenThousandRules.of(game.options)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = time.process_time()
    table = _solve_optimal(rules, quiet=quiet)
    cpu = time.process_time() - cpu
    assert isinstance(table, RaceTable)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    wins = table.wins
    first = float(wins[0, 0])
    # the head start for the second player that brings the first player's chance nearest 1/2
    column = [float(w) for w in wins[0]]
    fair = min(range(len(column)), key=lambda c: abs(column[c] - 0.5))
    end = optimal.end_values(rules)
    return {
        "first_player_win_probability": first,
        "fair_compensation_points": fair * 50,
        "first_player_win_probability_fair": column[fair],
        "compensation_table": {str(c * 50): column[c] for c in range(min(len(column), 11))},
        "solve_seconds": table.seconds,
        "solve_cpu_seconds": cpu,
        "peak_memory_mb": peak / 1024,
        "memory_before_mb": before / 1024,
        "newton_steps": table.steps,
        "capped": table.capped,
        "cap_error_bound": float(1.0 - end[:, optimal.BEYOND // 50].min()),
        "table_size_kb": wins.nbytes / 1024,
        "cache": str(optimal.cache_path(rules)),
    }


def _print_optimal(figures: dict[str, object]) -> None:
    f = figures
    console.print("[bold]The optimal player: both playing to win[/]")
    console.print(
        f"First player's chance of winning: [bold]{f['first_player_win_probability']:.6f}[/]"
    )
    console.print(
        f"Fair compensation: the second player starts with [bold]{f['fair_compensation_points']:,}"
        f"[/] points (first player's chance then {f['first_player_win_probability_fair']:.6f})"
    )
    console.print(
        f"Solved in {f['solve_seconds']:.1f} s ({f['solve_cpu_seconds']:.1f} s of CPU), "
        f"peak memory {f['peak_memory_mb']:.0f} MB, {f['newton_steps']:,} Newton steps; "
        f"table {f['table_size_kb']:.0f} KB cached in {f['cache']}"
    )
    if f["capped"]:
        console.print(
            f"(some positions bank at the cap, 15,000 past the target: what rolling on could "
            f"add there is below {f['cap_error_bound']:.1e})"
        )


@solve.command("ten-thousand")
def solve_ten_thousand(
    target: TargetOpt = SPEC.options["target"].default,
    entry: EntryOpt = SPEC.options["entry"].default,
    specials_any_roll: SpecialsOpt = SPEC.options["specials_any_roll"].default,
    as_json: JsonOpt = False,
    with_optimal: Annotated[
        bool,
        typer.Option(
            "--optimal",
            help="Also solve the two-player race to win (minutes): the first player's chance, "
            "the fair compensation, solve time and memory.",
        ),
    ] = False,
) -> None:
    """Solve the strong player's turn strategy exactly and print it.

    Prints the expected points per turn from the start of a turn, the banking thresholds by
    dice left, example keeps, and how long the solve took (seconds). With ``--optimal`` it
    also solves the optimal player's two-player table afresh (with a progress bar; cached
    in the data directory) and prints its figures.
    """
    from parlour.games.ten_thousand import solver
    from parlour.games.ten_thousand.scoring import keep_options

    game = _load(2, target, entry, specials_any_roll)
    rules = solver.TenThousandRules.of(game.options)
    figures = optimal_figures(game, quiet=as_json) if with_optimal else None
    for cached in (solver.strategy, solver.turn_model, solver.roll_kind):
        cached.cache_clear()
    started = time.perf_counter()
    plan = solver.strategy(rules)  # the roll kinds are built and timed too
    solve_seconds = time.perf_counter() - started
    started = time.perf_counter()
    slack = plan.certify()
    certify_seconds = time.perf_counter() - started
    thresholds = plan.bank_thresholds()
    unentered = plan.bank_thresholds(entered=False) if rules.entry else None
    examples = []
    for roll in EXAMPLE_ROLLS:
        kept, bank = plan.choose(keep_options(roll, specials=True), 0, 6, entered=True)
        examples.append((roll, kept, bank))
    if as_json:
        print(
            json.dumps(
                {
                    "game": "ten-thousand",
                    "options": {k: v for k, v in game.options.items() if k != "players"},
                    "expected_points_per_turn": plan.expected_points,
                    "expected_points_per_turn_unentered": plan.expected_points_unentered,
                    "bank_thresholds": {str(n): t for n, t in thresholds.items()},
                    "bank_thresholds_unentered": (
                        {str(n): t for n, t in unentered.items()} if unentered else None
                    ),
                    "examples": [
                        {"first_roll": list(r), "keep": list(k), "then": "bank" if b else "roll"}
                        for r, k, b in examples
                    ],
                    "seconds": solve_seconds,
                    "cap": plan.cap * solver.UNIT,
                    "certificate_slack": slack,
                    "certify_seconds": certify_seconds,
                    "optimal": figures,
                }
            )
        )
        return
    console.print(f"[bold]Ten-Thousand: the strong player's turn strategy[/] ({rules.describe()})")
    console.print(
        f"Expected points per turn, from the start of a turn: "
        f"[bold]{plan.expected_points:.1f}[/]"
        + (f" ({plan.expected_points_unentered:.1f} before entering)" if rules.entry else "")
    )
    table = Table(title="When to bank")
    table.add_column("dice left to roll")
    table.add_column("bank at a turn total of", justify="right")
    if unentered:
        table.add_column("before entering", justify="right")
    for n, points in thresholds.items():
        row = [f"{n} (hot dice)" if n == 6 else str(n), f"{points:,}"]
        if unentered:
            row.append(f"{unentered[n]:,}")
        table.add_row(*row)
    console.print(table)
    console.print(
        "(the turn total after setting dice aside; below it, roll). "
        "Which dice to set aside, on some first rolls:"
    )
    for roll, kept, bank in examples:
        console.print(
            f"  rolled {dice_text(roll)}: keep {dice_text(kept)}, then "
            + ("bank" if bank else f"roll {6 - len(kept) or 6}")
        )
    console.print(
        f"Solved in {solve_seconds:.2f} s by backward induction over turn totals "
        f"0-{plan.cap * solver.UNIT:,} points and 1-6 dice left; banking from "
        f"{plan.cap * solver.UNIT:,} up certified optimal in {certify_seconds:.2f} s "
        f"(slack {slack:,.0f} points)."
    )
    if figures is not None:
        _print_optimal(figures)


# --- arena ------------------------------------------------------------------------------


@arena.command("ten-thousand")
def arena_ten_thousand(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="2-6 computer levels, comma-separated: reckless, cautious, steady, strong, "
            "optimal, random.",
        ),
    ] = "strong,cautious",
    games: Annotated[int, typer.Option("--games", help="Games to play.", min=1)] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the dice (same seed, same games).")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes.", min=1)] = 1,
    target: TargetOpt = SPEC.options["target"].default,
    entry: EntryOpt = SPEC.options["entry"].default,
    specials_any_roll: SpecialsOpt = SPEC.options["specials_any_roll"].default,
    as_json: JsonOpt = False,
) -> None:
    """Computer players against each other, seats rotating: win rates with 95% intervals,
    mean points per turn and games per second."""
    from parlour.bots import RandomBot
    from parlour.bots.arena import parse_levels
    from parlour.engine.registry import find
    from parlour.games.ten_thousand.bots import ARENA_LEVELS

    try:
        levels = parse_levels(players, find("ten-thousand"), extra=("random", *ARENA_LEVELS))
    except ParlourError as err:
        fail(str(err))
    game = _load(len(levels), target, entry, specials_any_roll)
    if "optimal" in levels:
        ensure_optimal_table(game, quiet=as_json)
    dice_arena(
        game,
        levels,
        RandomBot,
        title="Ten-Thousand",
        games=games,
        seed=seed,
        jobs=jobs,
        as_json=as_json,
    )


# --- bench ------------------------------------------------------------------------------


@bench.command("ten-thousand")
def bench_ten_thousand(
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
            help="Instead: time the optimal player's move choices from the solved table in "
            "--strong-games games against strong (median, 99th percentile, max).",
        ),
    ] = False,
) -> None:
    """Games per second of 2-player random play and of the strong player (one process).

    The strong player's solve is done (and timed) first, outside the games. With
    ``--optimal``: the optimal player's move choices instead (the table loaded first).
    """
    from parlour.bots import RandomBot
    from parlour.games.ten_thousand import solver

    game = parlour.load(SPEC.name, players=2)
    rules = solver.TenThousandRules.of(game.options)
    if with_optimal:
        from parlour.cli.dice import print_choice_times, time_choices
        from parlour.games.ten_thousand.bots import make_bot
        from parlour.games.ten_thousand.optimal import optimal_turn

        ensure_optimal_table(game, quiet=as_json)
        optimal_turn(rules, 0, 0)  # load the table and the last turns' values, untimed
        optimal_turn.cache_clear()
        timed = time_choices(
            game, make_bot("optimal"), make_bot("strong"), games=strong_games, seed=seed
        )
        if as_json:
            print(json.dumps({"games": strong_games, **timed}))
        else:
            print_choice_times(timed, strong_games, "optimal against strong")
        return

    def prepare() -> tuple[float, float]:
        return solver.strategy(rules).seconds, solver.race_model(rules).seconds

    dice_bench(
        game,
        RandomBot,
        prepare,
        title="Ten-Thousand",
        games=games,
        strong_games=strong_games,
        seed=seed,
        as_json=as_json,
    )


@bench.command("ten-thousand-moves")
def bench_ten_thousand_moves(
    positions: Annotated[int, typer.Option("--positions", help="Positions timed.", min=1)] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the positions.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Milliseconds per move choice of the optimal level (a pair of scores met for the
    first time, and cached) and per coach's advice, median and worst (wall clock and
    processor time), against the strong level's choice and numpy's induction on the same
    positions (one run: ratios hold on a loaded machine)."""
    from parlour.games.ten_thousand.speed import Timing, measure

    figures = measure(positions, seed)
    if as_json:
        print(
            json.dumps(
                {k: (v.__dict__ if isinstance(v, Timing) else v) for k, v in figures.items()}
            )
        )
        return
    console.print(f"[bold]Ten-Thousand move choices[/] ({positions} positions, seed {seed})")
    for key, label in (
        ("cold", "optimal, a new pair of scores"),
        ("cached", "optimal, cached pair"),
        ("coach", "the coach's advice"),
        ("strong", "strong"),
        ("numpy", "optimal, a new pair, numpy's induction"),
    ):
        timing = figures[key]
        assert isinstance(timing, Timing)
        console.print(
            f"{label}: median {timing.median:.2f} ms, worst {timing.worst:.2f} ms"
            f" (processor time: median {timing.cpu_median:.2f} ms,"
            f" worst {timing.cpu_worst:.2f} ms)"
        )
    console.print(f"optimal (new pair) / strong, medians: {figures['cold_over_strong']:.1f}")
    console.print(f"numpy's induction / compiled, medians: {figures['numpy_over_cold']:.1f}")
