"""The command groups games add their subcommands to: ``play``, ``score``, ``arena``,
``solve``. Each game's ``cli/<game>.py`` registers ``@play.command("ten-thousand")`` etc."""

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
