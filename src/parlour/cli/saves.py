"""``parlour saves``: the saved games (finished ones too): list them, export a record, delete."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from parlour.cli.common import confirm, console, database, database_errors, fail
from parlour.cli.groups import saves
from parlour.engine.errors import ParlourError


@saves.command("list")
def list_command(
    show_all: Annotated[
        bool, typer.Option("--all", help="Finished games too, not only those to continue.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """List the saved games, newest first. A damaged save is listed too, marked damaged with
    what cannot be read (it can be deleted; resuming or exporting it says why it cannot)."""
    from parlour.storage.saves import list_saves
    from parlour.tui.common.saves import save_result, save_summary, saves_table

    engine = database()
    with database_errors():
        found = list_saves(engine, status=None if show_all else "active")
    if as_json:
        rows = [
            {
                "id": s.id,
                "game": s.game,
                "players": s.players,
                "status": s.status,
                "damaged": list(s.damage),
                "summary": save_summary(s),
                "result": save_result(s) if s.status == "finished" and not s.damaged else None,
                "updated_at": None if s.updated_at is None else s.updated_at.isoformat(),
            }
            for s in found
        ]
        print(json.dumps(rows, indent=1))
        return
    if not found:
        console.print("No saved games." + ("" if show_all else " (--all shows finished ones.)"))
        return
    console.print(saves_table(found, title="Saved games" if not show_all else "All saved games"))


@saves.command("export")
def export_command(
    save_id: Annotated[int, typer.Argument(help="The saved game's # (parlour saves list --all).")],
    file: Annotated[
        Path | None, typer.Argument(help="Where to write the record; omitted: print it.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Export a saved game as a game record (JSON, docs/records.md) for  parlour replay.

    A missing or corrupt save is refused with the reason (exit status 2).
    """
    from parlour.session import LocalGame
    from parlour.tui.common.saves import export_record, record_meta

    engine = database()
    try:
        with database_errors():
            local = LocalGame.resume(engine, save_id)
    except ParlourError as err:
        fail(f"saved game {save_id} cannot be exported: {err}")
    if file is None:
        print(json.dumps(local.record(**record_meta()), indent=1))
        return
    if file.exists() and not force:
        fail(f"{file} exists: pick another name, or --force to replace it")
    try:
        written = export_record(local, file)
    except OSError as err:
        fail(f"cannot write {file}: {err.strerror or err}")
    state = "finished" if local.state.is_terminal() else "unfinished (no result yet)"
    console.print(f"Record of game #{save_id} ({state}) written to {written}", soft_wrap=True)


@saves.command("delete")
def delete_command(
    save_id: Annotated[int, typer.Argument(help="The saved game's #.")],
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Delete (and forfeit) without asking.")
    ] = False,
) -> None:
    """Delete a saved game, after asking (``--yes``: without asking; with no terminal to ask
    on and no ``--yes``, nothing is deleted). An unfinished Greedy game of one person against
    the computer counts for the standings: deleting it forfeits it first (docs/rules/greedy.md,
    "Quitting"), as Q in the game would; the question says so. A damaged save is deleted as
    it is."""
    from parlour.games.greedy.platform import counting_seat
    from parlour.games.greedy.state import GreedyState
    from parlour.scorebook import persons
    from parlour.session import LocalGame
    from parlour.storage.saves import delete_save, load_save
    from parlour.tui.common.saves import save_status, save_summary

    engine = database()
    try:
        with database_errors():
            info = load_save(engine, save_id)
    except ParlourError as err:
        fail(str(err))
    try:
        local: LocalGame | None = LocalGame.from_saved(
            info.game, info.players, info.state, save_id=save_id
        )
    except ParlourError:
        local = None  # a corrupt save: nothing to forfeit, delete it as it is
    person = (
        counting_seat(local.state, persons(local.people()))
        if local is not None and isinstance(local.state, GreedyState)
        else None
    )
    forfeits = local is not None and person is not None and not local.state.is_terminal()
    if not yes:
        show = f"Saved game #{save_id}: {info.game}, {save_status(info)}: {save_summary(info)}"
        console.print(Text(show), soft_wrap=True)
        if forfeits:
            assert local is not None and person is not None
            note = (
                "It counts for the Greedy standings: deleting it forfeits it first, a loss for "
                f"{local.seats[person].name}."
            )
            console.print(Text(note), soft_wrap=True)
        if not confirm(f"Delete saved game #{save_id}{' (a forfeit)' if forfeits else ''}?"):
            console.print("Nothing deleted.")
            return
    with database_errors(doing="write"):
        if forfeits:
            assert local is not None and person is not None
            local.state.apply(local.state.parse_action("quit", player=person), player=person)
            local.save(engine)  # records the forfeit in the standings
            points = local.state.result().scores
            console.print(
                f"Saved game #{save_id} counted for the Greedy standings: "
                f"{local.seats[person].name} forfeits it (a loss; final scores "
                f"{points[0]:,} to {points[1]:,}).",
                markup=False,
                highlight=False,
            )
        delete_save(engine, save_id)
    console.print(f"Deleted saved game #{save_id}.")
