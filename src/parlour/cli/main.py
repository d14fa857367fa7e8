"""Entry point: ``parlour --help`` lists every command."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from parlour import __version__
from parlour.cli import groups
from parlour.cli.common import console, fail


def _flags_take_no_value() -> None:
    """Typer's help prints a value type after every option, flags too (``--json <bool>``),
    although a flag takes no value (``--json true`` is refused): show none for a flag."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:  # Typer's own click
        return None if self.is_flag else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_take_no_value()


def _unwrap(paragraph: str) -> str:
    """A docstring paragraph as one line (its line breaks are the source's, not the
    terminal's); a paragraph that starts with ``\\b`` keeps them (click's marker)."""
    if paragraph.startswith("\b"):
        return paragraph
    return " ".join(line.strip() for line in paragraph.splitlines())


def _help_wraps_to_the_terminal() -> None:
    """Typer's rich help keeps a docstring's own line breaks in a group's command list and
    in a command's later paragraphs, so at 80 columns a sentence broke mid-line where the
    source did ("the best play there was and the / points left"): rejoin each paragraph
    and let the terminal wrap it. Docstrings' ``literals`` are shown 'quoted'."""
    from typer import rich_utils

    make_command_help = rich_utils._make_command_help
    fix_linebreaks = rich_utils._fix_linebreaks

    def command_help(*, help_text: str, markup_mode: Any) -> Any:
        paragraphs = inspect.cleandoc(help_text).split("\n\n")
        paragraphs[0] = _unwrap(paragraphs[0])
        return make_command_help(help_text="\n\n".join(paragraphs), markup_mode=markup_mode)

    def linebreaks(paragraphs: list[str], markup_mode: Any) -> str:
        return fix_linebreaks([_unwrap(p) for p in paragraphs], markup_mode)

    make_rich_text = rich_utils._make_rich_text

    def rich_text(*, text: str, style: str = "", markup_mode: Any) -> Any:
        # a docstring's reStructuredText literal (``--yes``) reads as a quoted one
        return make_rich_text(text=text.replace("``", "'"), style=style, markup_mode=markup_mode)

    rich_utils._make_command_help = command_help
    rich_utils._fix_linebreaks = linebreaks
    rich_utils._make_rich_text = rich_text


_help_wraps_to_the_terminal()

app = typer.Typer(
    name="parlour",
    help="parlour: classic turn-based parlour games with exact rules and strong computer players.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(groups.play, name="play")
app.add_typer(groups.score, name="score")
app.add_typer(groups.arena, name="arena")
app.add_typer(groups.solve, name="solve")
app.add_typer(groups.bench, name="bench")
app.add_typer(groups.standings, name="standings")
app.add_typer(groups.stats, name="stats")
app.add_typer(groups.saves, name="saves")


def _version(value: bool) -> None:
    if value:
        console.print(f"parlour {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """parlour: classic turn-based parlour games."""


@app.command("games")
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """List the games with their options and computer levels."""
    from parlour.engine.registry import specs as all_specs

    specs = all_specs()
    if as_json:
        out = [
            {
                "name": s.name,
                "title": s.title,
                "aliases": list(s.aliases),
                "players": [s.min_players, s.max_players],
                "bot_levels": list(s.bot_levels),
                "options": {
                    n: {"default": o.default, "allowed": o.allowed(), "help": o.help}
                    for n, o in s.options.items()
                },
            }
            for s in specs
        ]
        print(json.dumps(out, indent=1))
        return
    table = Table(title="parlour games")
    # the options go under each game's line, where they have the most room: an option's
    # name is what a person types, never cut at 80 columns
    table.add_column("game and options", overflow="fold", ratio=1)
    table.add_column("players", no_wrap=True)
    table.add_column("computer levels", overflow="fold", max_width=16)
    for s in specs:
        opts = "".join(
            f"\n  {n} = {o.default!r} ({o.allowed()})"
            for n, o in s.options.items()
            if n != "players"
        )
        table.add_row(
            f"[bold]{escape(s.name)}[/bold]\n{escape(s.summary)}\n[dim]options:[/dim]"
            + escape(opts)
            if opts
            else f"[bold]{escape(s.name)}[/bold]\n{escape(s.summary)}",
            f"{s.min_players}-{s.max_players}",
            # plain ``cpu`` plays the last level: said under the list
            ", ".join(s.bot_levels)
            + (f"\n[dim]cpu = {s.bot_levels[-1]}[/dim]" if s.bot_levels else ""),
        )
    console.print(table)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, see docs/records.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Replay a game record and print the final scoreboard.

    A record with a bad event is refused with the event's index and the reason (exit 2).
    """
    from parlour.engine.errors import BadRecord
    from parlour.engine.records import read_record, replay

    try:
        record = read_record(file)
        state = replay(record)
    except BadRecord as err:
        fail(f"{file}: {err}")
    players = record["players"]
    scores = state.observation(None).get("scores") if not state.is_terminal() else None
    winner_seats: tuple[int, ...] = ()
    if state.is_terminal():
        result = state.result()
        scores = list(result.scores)
        winner_seats = result.winners
    winners = [players[w] for w in winner_seats]
    if as_json:
        print(
            json.dumps(
                {
                    "game": record["game"],
                    "players": players,
                    "scores": scores,
                    "winners": winners,
                    "finished": state.is_terminal(),
                    "events": len(record["events"]),
                }
            )
        )
        return
    table = Table(title=f"{state.game.spec.title}: {len(record['events'])} events replayed")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    for seat, name in enumerate(players):
        mark = " (winner)" if seat in winner_seats else ""  # by seat: names may repeat
        value = scores[seat] if scores else "-"
        table.add_row(str(seat), Text(name + mark), str(value))  # a name is never markup
    console.print(table)
    if not state.is_terminal():
        console.print("[yellow]The record ends before the game is over.[/]")


@app.command("analyse")
def analyse_command(
    file: Annotated[Path, typer.Argument(help="A finished game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Look back at a finished game. A game with a coach (the dice games): each decision's
    chance of winning lost against the best choice, and each player's biggest mistakes.
    Crossword: for each turn, the best play there was and the points left on the table.

    A record that does not replay, or of a game with neither, is refused with the reason
    (exit 2).
    """
    from parlour.cli.crossword import analyse_record
    from parlour.cli.review import analyse_with_coach
    from parlour.engine.errors import BadRecord, ParlourError
    from parlour.engine.records import read_record
    from parlour.engine.registry import find

    try:
        record = read_record(file)
        name = record.get("game") if isinstance(record, dict) else None
        spec = find(name) if isinstance(name, str) else None
    except (BadRecord, ParlourError) as err:
        fail(f"{file}: {err}")
    if spec is not None and spec.coach:
        analyse_with_coach(file, record, as_json=as_json)
    else:
        analyse_record(file, as_json=as_json)


def _load_game_commands() -> None:
    """Import each game's CLI module so its commands join the groups."""
    import importlib

    for module in ("ten_thousand", "greedy", "crossword", "rummy", "play", "saves", "server"):
        importlib.import_module(f"parlour.cli.{module}")
    from parlour.cli.admin import admin
    from parlour.cli.connect import connect
    from parlour.cli.door import door
    from parlour.cli.server import serve

    app.command("serve")(serve)
    app.command("connect")(connect)
    app.command("door")(door)
    app.add_typer(admin, name="admin")


_load_game_commands()


def main() -> None:
    """Console-script entry point."""
    app()
