"""What the dice games' ``arena`` and ``bench`` commands share (Ten-Thousand, Greedy)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from rich.table import Table

from parlour.bots.arena import ArenaResult, Measure
from parlour.bots.base import Bot
from parlour.cli.common import console, turns_measure
from parlour.engine.state import Game


def dice_bots(levels: list[str], game: Game, random_bot: Callable[[], Bot]) -> list[Bot]:
    """The computer players for *levels* (already checked by ``parse_levels``): ``random``
    is *random_bot*, any other level the game's own."""
    from parlour.session import make_bot

    return [random_bot() if level == "random" else make_bot(game.spec, level) for level in levels]


def dice_arena(
    game: Game,
    levels: list[str],
    random_bot: Callable[[], Bot],
    *,
    title: str,
    games: int,
    seed: int,
    jobs: int,
    as_json: bool,
    measure: Measure = turns_measure,
    report: Callable[[ArenaResult], None] | None = None,
) -> None:
    """Play the arena and print win rates with 95% intervals, points per turn and per game,
    and games per second (a table, or JSON). *measure* adds per-game figures (it must give
    ``turns``); *report* prints more from the result after the table."""
    from parlour.bots.arena import run_arena

    bots = dice_bots(levels, game, random_bot)
    result = run_arena(game, bots, games=games, seed=seed, measure=measure, jobs=jobs)
    if as_json:
        out = result.to_json()
        out["game"] = game.spec.name
        out["options"] = dict(game.options)
        for figures, bot in zip(result.bots, out["bots"], strict=True):
            bot["points_per_turn"] = figures.per("turns")
        print(json.dumps(out))
        return
    table = Table(title=f"{title} arena: {' vs '.join(levels)}, {games:,} games, seed {seed}")
    for column in ("bot", "games", "win rate", "95% interval", "points/turn", "points/game"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for fig in result.bots:
        low, high = fig.interval
        per_turn = fig.per("turns")
        table.add_row(
            fig.name,
            f"{fig.games:,}",
            f"{fig.win_rate:.1%}",
            f"{low:.1%} - {high:.1%}",
            "-" if per_turn is None else f"{per_turn:.1f}",
            f"{fig.points / fig.games:,.0f}" if fig.games else "-",
        )
    console.print(table)
    if report is not None:
        report(result)
    console.print(
        f"{result.games_per_second:,.1f} games per second "
        f"({result.seconds:.2f} s, {result.jobs} process{'es' if result.jobs > 1 else ''})"
    )


def dice_bench(
    game: Game,
    random_bot: Callable[[], Bot],
    prepare: Callable[[], tuple[float, float]],
    *,
    title: str,
    games: int,
    strong_games: int,
    seed: int,
    as_json: bool,
) -> None:
    """Time *games* of random play and *strong_games* of the strong player against itself
    (one process) and print games per second. *prepare* solves what the strong player needs
    first, outside the games, and returns its (solve, race model) seconds."""
    from parlour.bots.arena import run_arena
    from parlour.session import make_bot

    random_run = run_arena(game, [random_bot(), random_bot()], games=games, seed=seed)
    started = time.perf_counter()
    solve_seconds, race_seconds = prepare()
    warm = time.perf_counter() - started
    strong = make_bot(game.spec, "strong")  # the strong level (both dice games have it)
    strong_run = run_arena(game, [strong, strong], games=strong_games, seed=seed)
    if as_json:
        figures = {
            "random_games": games,
            "random_seconds": random_run.seconds,
            "random_games_per_second": random_run.games_per_second,
            "strong_games": strong_games,
            "strong_seconds": strong_run.seconds,
            "strong_games_per_second": strong_run.games_per_second,
            "solve_seconds": solve_seconds,
            "race_model_seconds": race_seconds,
            "preparation_seconds": warm,
        }
        print(json.dumps(figures))
        return
    console.print(f"[bold]{title} benchmark[/] (2 players, one process)")
    console.print(
        f"random play: {games:,} games in {random_run.seconds:.2f} s: "
        f"[bold]{random_run.games_per_second:,.0f} games/s[/]"
    )
    console.print(
        f"strong vs strong: {strong_games:,} games in {strong_run.seconds:.2f} s: "
        f"[bold]{strong_run.games_per_second:,.0f} games/s[/]"
    )
    console.print(f"(not counted: solve {solve_seconds:.2f} s, race model {race_seconds:.2f} s)")


def time_choices(game: Game, bot: Any, opponent: Any, *, games: int, seed: int) -> dict[str, float]:
    """Play *games* games of *bot* against *opponent* (seats alternating) and time every move
    choice of *bot*: the count, median, 99th percentile and max (milliseconds) of the wall
    clock, and the same of the thread's processor time (``move_choice_cpu_*``: on a loaded
    machine the wall clock's worst case is the scheduler's)."""
    import random
    import statistics

    from parlour.bots.arena import play_game
    from parlour.engine.state import State

    times: list[float] = []
    cpu_times: list[float] = []

    class Timed:
        name = bot.name

        def choose(self, state: State, seat: int, rng: random.Random) -> object:
            started, started_cpu = time.perf_counter(), time.thread_time()
            action = bot.choose(state, seat, rng)
            cpu_times.append(time.thread_time() - started_cpu)
            times.append(time.perf_counter() - started)
            return action

    for index in range(games):
        seats: list[Any] = [Timed(), opponent][:: 1 if index % 2 == 0 else -1]
        play_game(game, seats, random.Random(seed + index))
    ms = sorted(t * 1000 for t in times)
    cpu = sorted(t * 1000 for t in cpu_times)
    return {
        "move_choices": len(ms),
        "move_choice_median_ms": statistics.median(ms),
        "move_choice_p99_ms": ms[int(0.99 * (len(ms) - 1))],
        "move_choice_max_ms": ms[-1],
        "move_choice_cpu_median_ms": statistics.median(cpu),
        "move_choice_cpu_p99_ms": cpu[int(0.99 * (len(cpu) - 1))],
        "move_choice_cpu_max_ms": cpu[-1],
    }


def print_choice_times(figures: dict[str, float], games: int, what: str) -> None:
    """Print :func:`time_choices`' figures."""
    console.print(
        f"{int(figures['move_choices']):,} move choices of {what} in {games:,} games: median "
        f"[bold]{figures['move_choice_median_ms']:.2f} ms[/], 99th percentile "
        f"{figures['move_choice_p99_ms']:.2f} ms, max {figures['move_choice_max_ms']:.2f} ms"
        f" (processor time: median {figures['move_choice_cpu_median_ms']:.2f} ms, 99th"
        f" percentile {figures['move_choice_cpu_p99_ms']:.2f} ms, max"
        f" {figures['move_choice_cpu_max_ms']:.2f} ms)"
    )
