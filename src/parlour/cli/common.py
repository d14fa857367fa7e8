"""Helpers every command shares: the console, clean failures, the database."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from sqlalchemy import Engine

from parlour.engine.errors import ParlourError
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


def confirm(question: str, *, yes_option: str = "--yes") -> bool:
    """Ask *question* (plain text, never markup) and return True for ``y``/``yes``; any other
    answer is no. With nothing to answer from (no terminal, input closed) the command fails
    at once, saying that *yes_option* answers yes, rather than waiting or guessing."""
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        _no_answer(question, yes_option)
    try:
        answer = console.input(Text(f"{question} [y/N] "))
    except EOFError:
        _no_answer(question, yes_option)
    return answer.strip().lower() in ("y", "yes")


def _no_answer(question: str, yes_option: str) -> NoReturn:
    fail(f"{question} No answer (no terminal?): nothing changed; {yes_option} answers yes")


def database(url: str | None = None) -> Engine:
    """The database (SQLite in the data directory unless *url* is given), migrated.

    One that cannot be opened (not a database, damaged, unreadable, from a newer parlour,
    a server that does not answer) fails the command with one line naming it and the cause
    (exit status 2), never a traceback.
    """
    from parlour.paths import default_database_url
    from parlour.storage.db import open_database

    url = url or default_database_url()
    with database_errors(url, doing="open"):
        return open_database(url)


@contextmanager
def database_errors(url: str | None = None, *, doing: str = "read") -> Iterator[None]:
    """Fail the command with one line (exit status 2) when the database at *url* (default:
    the data directory's) fails inside the block: ``cannot read the database <file>: <cause>``.
    """
    from sqlalchemy.exc import SQLAlchemyError

    try:
        yield
    except typer.Exit:
        raise
    except Exception as err:  # opening: the driver's, Alembic's and the URL's errors too
        if doing != "open" and not isinstance(err, SQLAlchemyError | OSError):
            raise
        fail(f"cannot {doing} the database {database_name(url)}: {database_cause(err)}")


def database_name(url: str | None) -> str:
    """The database as a person names it: the file of an SQLite URL, else the URL without
    its password."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    from parlour.paths import default_database_url

    url = url or default_database_url()
    try:
        parsed = make_url(url)
    except ArgumentError:
        return url
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return parsed.database
    return parsed.render_as_string(hide_password=True)


def database_cause(err: BaseException) -> str:
    """*err* in one line: the driver's error (``DatabaseError: file is not a database``)
    rather than SQLAlchemy's wrapping of it with the statement and a link."""
    from sqlalchemy.exc import DBAPIError

    if isinstance(err, ParlourError):
        return str(err)
    cause: BaseException = err.orig if isinstance(err, DBAPIError) and err.orig else err
    text = str(cause).split("(Background on this error at:")[0]
    text = " ".join(text.split()) or "no reason given"
    return f"{type(cause).__name__}: {text}"


def turns_measure(state: State, seat: int) -> dict[str, float]:
    """Arena measure for the dice games: the turns *seat* played (for points per turn)."""
    from parlour.games.dice.state import DiceState

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
