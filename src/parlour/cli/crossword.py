"""Crossword commands: ``arena crossword``, ``bench crossword``, ``bench crossword-lexicon``
and the work of ``parlour analyse`` (``play crossword`` comes from the game's spec, in
:mod:`parlour.cli.play`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from parlour.cli.common import console, fail
from parlour.cli.groups import arena, bench


@bench.command("crossword-lexicon")
def bench_crossword_lexicon(
    lexicon: Annotated[
        str, typer.Option("--lexicon", help="'enable' (built in) or a word-list file.")
    ] = "enable",
    repeats: Annotated[int, typer.Option(min=1, max=100, help="Loads timed each way.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Time loading a Crossword lexicon: first run (compile and cache), cached, in a fresh
    process; and the memory it holds. Uses the data directory's cache."""
    from parlour.games.crossword.lexicon import LexiconError
    from parlour_tools.crossword.bench import measure_lexicon

    try:
        figures = measure_lexicon(lexicon, repeats=repeats)
    except (LexiconError, OSError) as err:
        fail(str(err))
    if as_json:
        print(json.dumps(figures.to_json()))
        return
    table = Table(title=f"Crossword lexicon {figures.name!r}: {figures.words:,} playable words")
    table.add_column("measure")
    table.add_column("value", justify="right")
    rows = [
        ("first run: compile + write cache (median)", f"{figures.cold_seconds * 1000:.1f} ms"),
        ("cached load (median)", f"{figures.cached_seconds * 1000:.1f} ms"),
        (
            "cached load in a fresh process (median)",
            f"{figures.fresh_process_seconds * 1000:.1f} ms",
        ),
        ("memory held by the lexicon", f"{figures.retained_bytes / 2**20:.1f} MiB"),
        ("peak memory while loading", f"{figures.peak_bytes / 2**20:.1f} MiB"),
        ("source / cache file", f"{figures.source_bytes:,} / {figures.cache_bytes:,} bytes"),
    ]
    for label, value in rows:
        table.add_row(label, value)
    console.print(table)


@arena.command("crossword")
def arena_crossword(
    players: Annotated[
        str, typer.Option("--players", help="Computer levels by seat, e.g. hard,medium (2-4).")
    ] = "hard,medium",
    games: Annotated[int, typer.Option(min=1, help="Games to play (seats rotate).")] = 100,
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same games.")] = 0,
    lexicon: Annotated[
        str, typer.Option("--lexicon", help="'enable' (built in) or a word-list file.")
    ] = "enable",
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes.", min=1)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Crossword computer players against each other: win rates with 95% intervals, points
    per game and per play, bingos and cover plays per game, games per second."""
    from parlour.engine.errors import ParlourError
    from parlour_tools.crossword.arena import run

    try:
        figures = run(players, games=games, seed=seed, lexicon=lexicon, jobs=jobs)
    except ParlourError as err:
        fail(str(err))
    if as_json:
        print(json.dumps(figures))
        return
    table = Table(
        title=f"Crossword arena: {figures['games']:,} games, seed {seed}, "
        f"{figures['games_per_second']:.2f} games/s"
    )
    for column in ("player", "wins", "95% interval", "points/game", "points/play",
                   "bingos/game", "covers/game"):  # fmt: skip
        table.add_column(column, justify="left" if column == "player" else "right")
    for bot in figures["bots"]:
        low, high = bot["ci95"]
        table.add_row(
            bot["name"],
            f"{bot['win_rate']:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{bot['points_per_game']:.1f}",
            f"{bot['points_per_play']:.1f}",
            f"{bot['bingos_per_game']:.2f}",
            f"{bot['covers_per_game']:.2f}",
        )
    console.print(table)


@bench.command("crossword")
def bench_crossword(
    positions: Annotated[
        int, typer.Option(min=1, help="Mid-game positions from seeded self-play.")
    ] = 60,
    games: Annotated[
        int, typer.Option(min=0, help="Hard against medium: games to play (0: skip).")
    ] = 1100,
    seed: Annotated[int, typer.Option(help="Seed of the positions and the games.")] = 1,
    repeats: Annotated[
        int, typer.Option(min=1, max=20, help="Lexicon and word-graph loads timed each way.")
    ] = 3,
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes for the games.", min=1)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Figures for the Crossword move generator: time to list every play on fixed mid-game
    positions (covering on and off), the word graph's load time and memory, and the hard
    player's win rate against the medium one. Uses the data directory's cache."""
    from parlour.games.crossword.plays import CrosswordRules
    from parlour_tools.crossword.arena import run
    from parlour_tools.crossword.bench import (
        bench_positions,
        measure_generation,
        measure_graph,
        measure_lexicon,
    )

    report: dict[str, object] = {}
    lexicon = measure_lexicon(repeats=repeats)
    graph = measure_graph(repeats=repeats)
    report["lexicon"] = lexicon.to_json()
    report["graph"] = graph.to_json()
    chosen = bench_positions(positions, seed=seed)
    covering = measure_generation(chosen, CrosswordRules())
    plain = measure_generation(chosen, CrosswordRules(max_stack=1))
    report["generation"] = [covering.to_json(), plain.to_json()]
    if games:
        report["arena"] = run("hard,medium", games=games, seed=seed, jobs=jobs)
    if as_json:
        print(json.dumps(report))
        return
    table = Table(title=f"Crossword move generator: {len(chosen)} mid-game positions, seed {seed}")
    table.add_column("every play of a position")
    table.add_column("covering on", justify="right")
    table.add_column("covering off", justify="right")
    rows = (
        ("median time (ms)", "median_ms", "{:.1f}"),
        ("maximum time (ms)", "max_ms", "{:.1f}"),
        ("median processor time (ms)", "median_cpu_ms", "{:.1f}"),
        ("maximum processor time (ms)", "max_cpu_ms", "{:.1f}"),
        ("plays found, median", "median_plays", "{:.0f}"),
        ("plays found, maximum", "max_plays", "{:,}"),
        ("cover plays, all positions", "cover_plays", "{:,}"),
        ("with words and points, median (ms)", "median_scored_ms", "{:.1f}"),
    )
    for label, name, form in rows:
        table.add_row(
            label, form.format(getattr(covering, name)), form.format(getattr(plain, name))
        )
    console.print(table)
    load = Table(title="Lexicon and word graph (ENABLE)")
    load.add_column("measure")
    load.add_column("value", justify="right")
    for label, value in (
        ("lexicon: first run (compile + cache)", f"{lexicon.cold_seconds * 1000:.0f} ms"),
        ("lexicon: cached load", f"{lexicon.cached_seconds * 1000:.0f} ms"),
        ("lexicon: memory held", f"{lexicon.retained_bytes / 2**20:.1f} MiB"),
        ("word graph: nodes / edges", f"{graph.nodes:,} / {graph.edges:,}"),
        ("word graph: first run (build)", f"{graph.build_seconds * 1000:.0f} ms"),
        ("word graph: cached load", f"{graph.cached_seconds * 1000:.1f} ms"),
        ("word graph: cached load, fresh process", f"{graph.fresh_process_seconds * 1000:.1f} ms"),
        ("word graph: memory held", f"{graph.retained_bytes / 2**20:.1f} MiB"),
        ("word graph: cache file", f"{graph.cache_bytes:,} bytes"),
    ):
        load.add_row(label, value)
    console.print(load)
    if games:
        arena_figures = report["arena"]
        assert isinstance(arena_figures, dict)
        hard = arena_figures["bots"][0]
        low, high = hard["ci95"]
        console.print(
            f"Hard against medium: {hard['win_rate']:.1%} of {arena_figures['games']:,} games won "
            f"(95% interval {low:.1%}-{high:.1%}); {arena_figures['games_per_second']:.2f} games/s"
        )


def analyse_record(file: Path, *, as_json: bool) -> None:
    """``parlour analyse FILE``: each turn of a Crossword record, its best play and the points
    left on the table. An unfinished game is analysed as far as it goes, and says so."""
    from parlour.engine.errors import BadRecord, ParlourError
    from parlour.engine.records import read_record, replay
    from parlour.games.crossword.analysis import analyse

    try:
        record = read_record(file)
        reviews = analyse(record)
        finished = replay(record).is_terminal()
    except (BadRecord, ParlourError) as err:
        fail(f"{file}: {err}")
    if as_json:
        print(json.dumps([r.to_json() for r in reviews]))
        return
    table = Table(title=f"{file}: the best play of each turn")
    for column in ("turn", "player", "rack", "played", "points", "best play", "best", "left"):
        table.add_column(
            column, justify="right" if column in ("turn", "points", "best", "left") else "left"
        )
    left: dict[str, int] = {}
    for r in reviews:
        table.add_row(
            str(r.turn + 1),
            r.player,
            r.rack,
            r.made,
            str(r.points),
            str(r.best.play) if r.best else "(none)",
            str(r.best.score) if r.best else "-",
            str(r.left),
        )
        left[r.player] = left.get(r.player, 0) + r.left
    console.print(table)
    for player, points in left.items():
        console.print(f"{player}: {points} points left on the table")
    if not finished:
        console.print(f"The game is not finished: its first {len(reviews)} turns are analysed.")
