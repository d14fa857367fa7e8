"""Ten-Thousand commands: ``score ten-thousand`` (and the game's arena, solve and play)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from parlour.cli.common import console, fail
from parlour.cli.groups import score
from parlour.engine.chance import parse_dice
from parlour.engine.errors import InvalidNotation


@score.command("ten-thousand")
def score_ten_thousand(
    dice: Annotated[list[str], typer.Argument(help="Up to six faces 1-6, e.g. 1 1 1 1 5 5.")],
    first_roll: Annotated[
        bool,
        typer.Option(
            "--first-roll", help="The first roll of a turn: three pairs and straights count."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Print the best Ten-Thousand score for real dice and its breakdown.

    Seven dice, a face outside 1-6 or text is refused with exit status 2.
    """
    from parlour.games.ten_thousand.scoring import best_score

    try:
        faces = parse_dice(dice, most=6)
    except InvalidNotation as err:
        fail(str(err))
    scored = best_score(faces, first_roll=first_roll)
    if as_json:
        print(
            json.dumps(
                {
                    "dice": list(faces),
                    "first_roll": first_roll,
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
    table = Table(
        title=f"Ten-Thousand: {' '.join(map(str, faces))}" + (" (first roll)" if first_roll else "")
    )
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
        console.print("Farkle: no scoring dice.")
