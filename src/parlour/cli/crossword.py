"""Crossword commands: ``bench crossword-lexicon`` (and ``play crossword``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from parlour.cli.common import console, fail
from parlour.cli.groups import bench


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
    from parlour.games.crossword.bench import measure_lexicon
    from parlour.games.crossword.lexicon import LexiconError

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
