"""The command groups games add their subcommands to: ``play``, ``score``, ``arena``,
``solve``, ``bench``, ``standings``, ``stats`` (and ``saves``, the saved games). Each game's
``cli/<game>.py`` registers its commands, e.g. ``@score.command("ten-thousand")``."""

from __future__ import annotations

import typer

play = typer.Typer(
    help="Play a game in the terminal against people and computer players.", no_args_is_help=False
)
score = typer.Typer(
    help="Table-side scorer: the best score for real dice or cards.", no_args_is_help=True
)
arena = typer.Typer(
    help="Computer players against each other: win rates and speed.", no_args_is_help=True
)
solve = typer.Typer(help="Solve a game's strategy exactly and print it.", no_args_is_help=True)
bench = typer.Typer(
    help="Benchmarks: games per second of random and computer play.", no_args_is_help=True
)
standings = typer.Typer(help="Tournament standings (Greedy).", no_args_is_help=True)
stats = typer.Typer(help="Saved per-person statistics (Rummy).", no_args_is_help=True)
saves = typer.Typer(
    help="Saved games: list them, export a game's record, delete one.", no_args_is_help=True
)
