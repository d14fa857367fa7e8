"""Helpers every command shares: the console, clean failures, the database."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from sqlalchemy import Engine

from parlour.games.dice.scoring import Scored

if TYPE_CHECKING:
    from parlour.engine.state import State

console = Console()
errors = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print *message* on stderr and exit with *code* (2: bad input).

    The message is plain text (it often quotes what the user gave): never read as markup.
    """
    errors.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
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


def show_dice_score(
    title: str, scored: Scored, *, as_json: bool, nothing: str, **facts: object
) -> None:
    """Print a dice scorer's answer: a Rich table of the parts, or JSON with *facts* first.

    *scored* is the best score (``parlour.games.dice.scoring.Scored``); *nothing* is the line
    shown when no die scores.
    """
    if as_json:
        parts = [{"label": p.label, "dice": list(p.dice), "points": p.points} for p in scored.parts]
        out = {**facts, "points": scored.points, "parts": parts, "unscored": list(scored.unscored)}
        print(json.dumps(out))
        return
    table = Table(title=title)
    table.add_column("part")
    table.add_column("dice")
    table.add_column("points", justify="right")
    for part in scored.parts:
        table.add_row(part.label, " ".join(map(str, part.dice)), str(part.points))
    if scored.unscored:
        table.add_row("not scoring", " ".join(map(str, scored.unscored)), "0")
    table.add_row("[bold]best score[/]", "", f"[bold]{scored.points}[/]")
    console.print(table)
    if not scored.parts:
        console.print(nothing)
