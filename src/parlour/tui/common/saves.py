"""Saved games and records for every terminal app: the resume picker and record export.

Nothing here imports Textual: the command line uses the picker before any app starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from parlour import __version__
from parlour.engine.errors import ParlourError
from parlour.engine.records import write_record
from parlour.session import LocalGame
from parlour.storage.saves import SaveInfo


def record_meta() -> dict[str, Any]:
    """The ``meta`` a terminal app writes in a record: when it was saved and by what."""
    return {
        "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        "program": f"parlour {__version__}",
    }


def default_record_path(local: LocalGame, directory: Path | None = None) -> Path:
    """A new file name for *local*'s record in *directory* (default: the current directory),
    ``<game>-<YYYYMMDD-HHMMSS>.json``, with ``-2``, ``-3``... if that file exists."""
    folder = directory if directory is not None else Path.cwd()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{local.game.spec.name}-{stamp}"
    path = folder / f"{base}.json"
    number = 2
    while path.exists():
        path = folder / f"{base}-{number}.json"
        number += 1
    return path


def export_record(local: LocalGame, path: str | Path) -> Path:
    """Write *local*'s game record (``docs/records.md``) to *path*; return the path.

    ``~`` is expanded. Raises ``OSError`` if the file cannot be written.
    """
    target = Path(path).expanduser()
    return write_record(local.record(**record_meta()), target)


def save_summary(info: SaveInfo) -> str:
    """One line about a save's progress: the players' scores if the snapshot has them, and
    the number of events so far (a best effort: a corrupt save still gets a line)."""
    state = info.state if isinstance(info.state, dict) else {}
    found = state.get("state")
    snapshot: dict[str, Any] = found if isinstance(found, dict) else {}
    history = state.get("history")
    events = len(history) if isinstance(history, list) else 0
    scores = snapshot.get("scores")
    seat = snapshot.get("seat") if info.status == "active" else None
    parts = []
    if isinstance(scores, list) and len(scores) == len(info.players):
        parts.append(
            ", ".join(
                f"{'▶' if i == seat else ''}{p} {s:,}" if isinstance(s, int) else f"{p} {s}"
                for i, (p, s) in enumerate(zip(info.players, scores, strict=True))
            )
        )
    else:
        parts.append(", ".join(info.players) or "(players unreadable)")
    parts.append(f"{events} events")
    return " · ".join(parts)


def saves_table(saves: Sequence[SaveInfo], *, title: str = "Saved games") -> Table:
    """A Rich table of *saves*: id, game, players and scores, status, last saved."""
    table = Table(title=title)
    table.add_column("#", justify="right")
    table.add_column("game")
    table.add_column("players and scores")
    table.add_column("status")
    table.add_column("saved")
    for info in saves:
        table.add_row(
            str(info.id),
            info.game,
            Text(save_summary(info)),  # players' names: never markup
            save_status(info),
            saved_when(info),
        )
    return table


def save_status(info: SaveInfo) -> str:
    """``active``, or how a finished game ended (:func:`save_result`), and what cannot be
    read of a damaged save: ``active, damaged (players, time saved)``."""
    if not info.damaged:
        return save_result(info) if info.status == "finished" else info.status
    return f"{info.status}, damaged ({', '.join(info.damage)})"


def save_result(info: SaveInfo) -> str:
    """How a finished save ended, by the rules: ``won by ann``, ``shared by ann, bob``,
    ``ann forfeited`` (the game's own resign move, ``Platform.resign_move``: Greedy's quit),
    or ``ended early`` (left before the rules ended it). ``finished`` when the save cannot be
    replayed."""
    try:
        local = LocalGame.from_saved(info.game, info.players, info.state)
    except Exception:  # a save of a game no longer installed, or that no longer replays
        return "finished"
    state = local.state
    if not state.is_terminal():
        return "ended early"
    names = [seat.name for seat in local.seats]
    resign = local.game.spec.platform.resign_move
    if resign is not None and state.history:
        who, action = state.history[-1]
        if 0 <= who < len(names):
            try:
                given_up = action == state.parse_action(resign, player=who)
            except ParlourError:
                given_up = False
            if given_up:
                return f"{names[who]} forfeited"
    winners = [names[w] for w in state.result().winners]
    if len(winners) == 1:
        return f"won by {winners[0]}"
    return f"shared by {', '.join(winners)}" if winners else "finished"


def saved_when(info: SaveInfo) -> str:
    """When *info* was last saved, in local time (``YYYY-MM-DD HH:MM``), or ``?`` when the
    time cannot be read."""
    when = info.updated_at
    if when is None:
        return "?"
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def pick_save(saves: Sequence[SaveInfo], ask: Callable[[str], str]) -> int | None:
    """Ask which of *saves* to continue, by its number in the table; ``None`` to cancel.

    *ask* prompts and returns the answer (``EOFError`` cancels). An empty answer cancels;
    anything that is not a listed number is asked again, with the reason.
    """
    ids = {info.id for info in saves}
    prompt = "Continue which game? (its #, Enter to cancel)"
    while True:
        try:
            answer = ask(prompt).strip().lstrip("#")
        except EOFError:
            return None
        if not answer:
            return None
        if answer.isdigit() and int(answer) in ids:
            return int(answer)
        prompt = f"{answer!r} is not a game in the list; its #, or Enter to cancel"
