"""Helpers every command shares: the console, clean failures, the database."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from sqlalchemy import Engine

if TYPE_CHECKING:
    from parlour.engine.state import State

console = Console()
errors = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print *message* on stderr and exit with *code* (2: bad input)."""
    errors.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def database(url: str | None = None) -> Engine:
    """The database (SQLite in the data directory unless *url* is given), migrated."""
    from parlour.storage.db import open_database

    return open_database(url)


def turns_measure(state: State, seat: int) -> dict[str, float]:
    """Arena measure for the dice games: the turns *seat* played (for points per turn)."""
    from parlour.games.dice.rules import DiceState

    assert isinstance(state, DiceState)
    return {"turns": float(state.turns_played(seat))}
