"""Crossword commands: ``play crossword`` (the terminal game) and ``bench crossword-lexicon``."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from parlour.cli.common import console, database, fail
from parlour.cli.groups import bench, play
from parlour.engine.errors import ParlourError


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


@play.command("crossword")
def play_crossword(
    players: Annotated[
        str,
        typer.Option(
            "--players", help="Names separated by commas, seat order (2-4), e.g. 'ann,bob'."
        ),
    ] = "",
    lexicon: Annotated[
        str, typer.Option("--lexicon", help="'enable' (built in) or a word list, one per line.")
    ] = "enable",
    cover_whole_word: Annotated[
        bool, typer.Option("--cover-whole-word", help="A play may cover a whole word.")
    ] = False,
    max_stack: Annotated[
        int, typer.Option("--max-stack", min=0, help="Most tiles a square may hold (0: no limit).")
    ] = 0,
    premiums_in_cross_words: Annotated[
        bool,
        typer.Option("--premiums-in-cross-words", help="Cross words use new premiums too."),
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the last saved crossword game.")
    ] = False,
    save_id: Annotated[
        int | None, typer.Option("--id", help="With --resume: continue this saved game.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the tile draws (a repeatable game).")
    ] = None,
) -> None:
    """Play Crossword in the terminal, hot-seat, taking turns (docs/rules/crossword.md).

    Each player's rack stays hidden until they press Enter to take their turn. Q saves and
    quits; continue with --resume.
    """
    import random

    from parlour.games.crossword.lexicon import LexiconError, load_lexicon
    from parlour.session import LocalGame
    from parlour.storage.saves import list_saves

    engine = database()
    try:
        if resume or save_id is not None:
            if save_id is None:
                saves = list_saves(engine, game="crossword", status="active")
                if not saves:
                    fail("no saved crossword game to continue; start one with --players")
                save_id = saves[0].id
            local = LocalGame.resume(engine, save_id)
        else:
            if not players:
                fail("give the players, e.g.  parlour play crossword --players 'ann,bob'")
            load_lexicon(lexicon)
            local = LocalGame.new(
                "crossword",
                players,
                lexicon=lexicon,
                cover_whole_word=cover_whole_word,
                max_stack=max_stack,
                premiums_in_cross_words=premiums_in_cross_words,
                turn_mode="turns",
            )
    except (LexiconError, ParlourError) as err:
        fail(str(err))
    if seed is not None:
        local.rng = random.Random(seed)
        local.bot_rng = random.Random(seed + 1)

    from parlour.tui.crossword.app import CrosswordApp

    outcome = CrosswordApp(local, database=engine).run()
    if outcome is None:
        return
    if outcome.outcome == "saved":
        console.print(
            f"Game saved (id {outcome.save_id}). Continue with  "
            f"parlour play crossword --resume --id {outcome.save_id}"
        )
    elif outcome.outcome == "finished":
        console.print("Game over; it stays in your saved games.")
    else:
        console.print("[yellow]The game could not be saved.[/]")
