"""``parlour play``: ``play <game>`` for every installed game, and ``play --resume``.

The ``play <game>`` commands are made here from each game's :class:`~parlour.engine.spec.GameSpec`
(its options become ``--target``, ``--entry``...; its computer levels are listed in the help),
for every game the registry finds: a game with a terminal app of its own
(``GameSpec.terminal_app``) plays in it, any other in the generic app
(:mod:`parlour.tui.registry`). Textual is imported only when a game starts.
"""

from __future__ import annotations

import inspect
import random
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parlour.cli.common import console, database, database_errors, fail
from parlour.cli.groups import play
from parlour.engine.errors import ParlourError
from parlour.engine.registry import find, specs
from parlour.engine.spec import GameSpec, Option
from parlour.tui.registry import app_factory

if TYPE_CHECKING:
    from parlour.session import LocalGame
    from parlour.tui.common.table import TableApp, TableExit

FastOption = Annotated[
    bool, typer.Option("--fast", help="Computer players move instantly (no pauses to follow them).")
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="Seed for chance (dice, shuffles) and the computer players (a repeatable game).",
    ),
]


def _levels_text(spec: GameSpec) -> str:
    levels = ", ".join(spec.bot_levels) or "none yet"
    strongest = f"; plain cpu is {spec.bot_levels[-1]}" if spec.bot_levels else ""
    return f"computer levels, weakest first: {levels}{strongest}"


def _play_help() -> str:
    lines = [
        "Play a game in the terminal against people and computer players.",
        "",
        "Start one with  parlour play <game> --players 'me,cpu:<level>'  (see each game's "
        "--help); continue a saved one with  parlour play --resume.",
        "",
    ]
    for spec in specs():
        app = "" if spec.terminal_app else " (in the generic table: moves listed, notation typed)"
        lines.append(f"{spec.name}{app}: {_levels_text(spec)}.")
        lines.append("")
    return "\n".join(lines)


@play.callback(invoke_without_command=True, help=_play_help())
def play_root(
    ctx: typer.Context,
    resume: Annotated[
        bool, typer.Option("--resume", help="List the saved games and continue one.")
    ] = False,
    save_id: Annotated[
        int | None,
        typer.Option("--id", help="With --resume: continue this saved game without asking."),
    ] = None,
    fast: FastOption = False,
    seed: SeedOption = None,
) -> None:
    if ctx.invoked_subcommand is not None:
        if resume or save_id is not None:
            fail("--resume continues a saved game: write  parlour play --resume  (no game name)")
        return
    if not resume and save_id is None:
        console.print(ctx.get_help())
        raise typer.Exit()
    resume_game(save_id, fast=fast, seed=seed)


def resume_game(save_id: int | None, *, fast: bool, seed: int | None) -> None:
    """List the saved games (unless *save_id* is given), ask which, and continue it.

    A missing or corrupt save is refused with the reason (exit status 2), never a traceback.
    """
    from parlour.session import LocalGame
    from parlour.storage.saves import list_saves
    from parlour.tui.common.saves import pick_save, saves_table

    engine = database()
    if save_id is None:
        with database_errors():
            saves = list_saves(engine, status="active")
        if not saves:
            console.print("No saved games to continue. Start one with  parlour play <game>")
            return
        console.print(saves_table(saves))
        save_id = pick_save(saves, lambda prompt: console.input(f"{prompt}: "))
        if save_id is None:
            console.print("Nothing resumed.")
            return
    try:
        with database_errors():
            local = LocalGame.resume(engine, save_id)
    except ParlourError as err:
        fail(f"saved game {save_id} cannot be continued: {err}")
    run_table(local, fast=fast, seed=seed)


def run_table(local: LocalGame, *, fast: bool, seed: int | None) -> None:
    """Open *local*'s terminal app; when it closes, say how to continue or export it."""
    from parlour.tui.common.chance import RandomChance
    from parlour.tui.common.table import Pace, TableSettings

    try:
        factory = app_factory(local.game.spec.name)
    except ParlourError as err:
        fail(str(err))
    if seed is not None:
        local.bot_rng = random.Random(seed)
    settings = TableSettings(
        chance=RandomChance(random.Random(seed)),
        pace=Pace.instant() if fast else Pace(),
        database=database(),
    )
    try:
        table = factory(local, settings)
    except ParlourError as err:  # the game's app refuses these options
        fail(str(err))
    report(run_app(table))


def run_app(app: TableApp) -> TableExit | None:
    """Run *app* in the terminal until it closes (tests replace this)."""
    return app.run()


def report(result: TableExit | None) -> None:
    """Tell the player where their game went."""
    if result is None:
        return
    saves = result.record_saves or (result.save_id,) * len(result.records)
    for path, save_id in zip(result.records, saves, strict=False):
        # a record of a game played before an F8 restart names its game: not the one below
        which = "" if save_id == result.save_id else f" of the earlier game #{save_id}"
        console.print(
            f"Record{which} saved to {path}  (replay it: parlour replay {path})", soft_wrap=True
        )
    if result.outcome == "saved":
        console.print(
            f"Game saved as #{result.save_id}. Continue it with:  "
            f"parlour play --resume --id {result.save_id}",
            soft_wrap=True,
        )
    elif result.outcome == "finished":
        console.print(
            f"Game #{result.save_id} is over. Export its record any time with:  "
            f"parlour saves export {result.save_id} FILE",
            soft_wrap=True,
        )
    else:
        console.print("[yellow]The game was not saved.[/]")


# --- play <game>, made from the game's spec ------------------------------------------------


def _option_parameter(name: str, option: Option) -> inspect.Parameter:
    flag = "--" + name.replace("_", "-")
    annotation: Any
    if option.kind is bool:
        # A flag that turns the house rule away from its default: --x, or --no-x.
        if option.default:
            flag, help_text = f"--no-{flag[2:]}", f"turn off: {option.help}"
        else:
            help_text = option.help
        annotation = Annotated[bool, typer.Option(flag, help=help_text, show_default=False)]
        return inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=bool(option.default),
            annotation=annotation,
        )
    text = f"{option.help} ({option.allowed()}; default {option.default!r})"
    kind = int if option.kind is int else str
    annotation = Annotated[kind | None, typer.Option(flag, help=text, show_default=False)]
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )


def _absolute_file(option: Option, value: Any) -> Any:
    """*value* of a file option (``Option.file``) that names an existing file, as an absolute
    path: the saved game keeps it, and resumes from any directory. Anything else as is."""
    if not option.file or not isinstance(value, str) or value == option.default:
        return value
    path = Path(value).expanduser()
    return str(path.resolve()) if path.is_file() else value


def add_play_command(name: str) -> None:
    """Add ``parlour play <name>`` with the game's options, ``--players``, ``--fast`` and
    ``--seed``."""
    spec = find(name)
    option_names = [n for n in spec.options if n != "players"]

    def command(**given: Any) -> None:
        from parlour.session import LocalGame

        players = given.pop("players")
        fast = bool(given.pop("fast"))
        seed = given.pop("seed")
        options = {k: v for k, v in given.items() if k in option_names and v is not None}
        options = {k: _absolute_file(spec.options[k], v) for k, v in options.items()}
        try:
            local = LocalGame.new(spec.name, players, **options)
        except ParlourError as err:
            fail(str(err))
        run_table(local, fast=fast, seed=seed)

    players_help = (
        "The seats, in turn order, separated by commas: a name for each person (several "
        f"people share the keyboard), cpu or cpu:<level> for a computer player; "
        f"{_levels_text(spec)}."
    )
    parameters = [
        inspect.Parameter(
            "players",
            inspect.Parameter.KEYWORD_ONLY,
            default="Player,cpu",  # "me" read badly on screen ("me's rack")
            annotation=Annotated[str, typer.Option("--players", "-p", help=players_help)],
        ),
        *(_option_parameter(n, spec.options[n]) for n in option_names),
        inspect.Parameter(
            "fast", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=FastOption
        ),
        inspect.Parameter(
            "seed", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=SeedOption
        ),
    ]
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {}
    command.__doc__ = (
        f"Play {spec.title} in the terminal: {spec.summary}\n\n"
        f"Players: {_levels_text(spec)}. Keys: H in the game shows them"
        + (" with the rules. " if spec.terminal_app else " (the generic table). ")
        + "Leaving the table saves the game; continue it with  parlour play --resume."
    )
    play.command(spec.name)(command)


for _spec in specs():
    add_play_command(_spec.name)
