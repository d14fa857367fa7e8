"""Greedy commands: ``score greedy`` (and the game's arena, solve, standings and play)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from parlour.cli.common import console, database, fail
from parlour.cli.groups import score, standings
from parlour.engine.chance import parse_dice
from parlour.engine.errors import InvalidNotation


@score.command("greedy")
def score_greedy(
    dice: Annotated[
        list[str], typer.Argument(help="Up to nine faces 1-6, e.g. 1 1 1 1 5 5 2 2 2.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Print the best Greedy score for real dice and its breakdown.

    Ten dice, a face outside 1-6 or text is refused with exit status 2.
    """
    from parlour.games.greedy.scoring import best_score

    try:
        faces = parse_dice(dice, most=9)
    except InvalidNotation as err:
        fail(str(err))
    scored = best_score(faces)
    if as_json:
        print(
            json.dumps(
                {
                    "dice": list(faces),
                    "points": scored.points,
                    "parts": [
                        {"label": p.label, "dice": list(p.dice), "points": p.points}
                        for p in scored.parts
                    ],
                    "unscored": list(scored.unscored),
                }
            )
        )
        return
    table = Table(title=f"Greedy: {' '.join(map(str, faces))}")
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
        console.print("No points: the round's points are forfeited.")


@standings.command("greedy")
def standings_greedy(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    database_url: Annotated[
        str | None,
        typer.Option("--database", help="Database URL (default: SQLite in the data directory)."),
    ] = None,
) -> None:
    """Print the Greedy tournament standings, most tournament points first.

    Every finished game of one person against the computer counts: a win earns 5,000 plus
    10 x the points over 10,000; a loss (or a quit) forfeits 1,000 plus 5 x the computer's
    points over 10,000.
    """
    from parlour.storage.standings import greedy_standings

    rows = greedy_standings(database(database_url))
    if as_json:
        print(json.dumps([r.__dict__ for r in rows]))
        return
    table = Table(title="Greedy tournament standings")
    for column in ("#", "player", "games", "wins", "losses", "points", "best margin"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for rank, r in enumerate(rows, 1):
        margin = "-" if r.best_margin is None else str(r.best_margin)
        table.add_row(
            str(rank), r.name, str(r.games), str(r.wins), str(r.losses), f"{r.points:,}", margin
        )
    console.print(table)
    if not rows:
        console.print("No finished games against the computer yet.")
