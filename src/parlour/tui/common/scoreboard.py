"""The scoreboard every game shows: one row per seat, whose turn it is, and winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True)
class ScoreRow:
    """One seat on the scoreboard: ``name``, ``score`` (points), whether it is that seat's
    ``turn``, whether it ``won``, and a short ``note`` ("needs 500 to enter", "last turn")."""

    name: str
    score: int
    turn: bool = False
    won: bool = False
    note: str = ""


class Scoreboard(Static):
    """A table of :class:`ScoreRow`; call :meth:`show` with new rows to redraw it."""

    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    """

    def __init__(
        self, rows: Sequence[ScoreRow] = (), *, title: str = "Scores", id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.title = title
        self.rows: list[ScoreRow] = list(rows)

    def on_mount(self) -> None:
        self.show(self.rows)

    def show(self, rows: Sequence[ScoreRow]) -> None:
        """Redraw with *rows*."""
        self.rows = list(rows)
        self.update(self.render_table())

    def render_table(self) -> Table:
        """The Rich table for the current rows."""
        table = Table(title=self.title, expand=True, box=None, show_header=False, padding=0)
        table.add_column("", width=2, no_wrap=True)
        table.add_column("player", ratio=1, overflow="fold")
        table.add_column("score", justify="right", no_wrap=True, min_width=7)
        for row in self.rows:
            mark = "★" if row.won else ("▶" if row.turn else "")
            style = "bold" if row.turn or row.won else ""
            name = Text(row.name, style=style)
            if row.note:
                name.append(f"\n{row.note}", style="dim italic")
            table.add_row(mark, name, Text(f"{row.score:,}", style=style))
        return table
