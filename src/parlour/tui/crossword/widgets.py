"""The widgets of the Crossword table: the board, the rack and the play log (the scores use
the shared :class:`~parlour.tui.common.scoreboard.Scoreboard`).

Each widget draws what it is given (attributes down); none of them talks to the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

from parlour.games.crossword.board import (
    CENTRE,
    COLUMNS,
    DOUBLE_LETTER,
    DOUBLE_WORD,
    EMPTY,
    SIZE,
    TRIPLE_LETTER,
    TRIPLE_WORD,
    Board,
    Direction,
)
from parlour.games.crossword.tiles import TILE_VALUES

PREMIUM_STYLE = {
    "TW": ("TW", "bold white on #b3261e"),
    "DW": ("DW", "bold black on #f2a7b3"),
    "TL": ("TL", "bold white on #1f5fa8"),
    "DL": ("DL", "bold black on #9fcbf0"),
}
PLAIN_STYLE = "#7a8a7a on #1d3b2a"
TILE_STYLE = "bold black on #e9d8a6"
COVERED_STYLE = "bold black on #e0a030"
PREVIEW_OK = "bold white on #2e7d32"
PREVIEW_BAD = "bold white on #8e2424"
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _premium(square: int) -> str:
    if square in TRIPLE_WORD:
        return "TW"
    if square in DOUBLE_WORD:
        return "DW"
    if square in TRIPLE_LETTER:
        return "TL"
    if square in DOUBLE_LETTER:
        return "DL"
    return ""


@dataclass(frozen=True)
class BoardPicture:
    """What the board shows: the ``board``, the ``cursor`` square and its ``direction``, and
    a ``preview`` of a play (``(square, letter)`` pairs) that is ``legal`` or not."""

    board: Board
    cursor: int
    direction: Direction
    preview: tuple[tuple[int, str], ...] = ()
    legal: bool = True


CELL_X = 4
"""Columns before the first square on a row of :func:`board_text` (the row number)."""
CELL_WIDTH = 3
"""Columns a square takes in :func:`board_text`."""


def board_text(picture: BoardPicture) -> Text:
    """The board as Rich text: 3 columns a square, premium squares coloured, covered squares
    in orange with their stack height (``⁺`` from 10 tiles), the cursor in reverse video."""
    board = picture.board
    preview = dict(picture.preview)
    text = Text()
    text.append(" " * CELL_X + "".join(f" {c} " for c in COLUMNS) + "\n", style="bold")
    for row in range(SIZE):
        text.append(f"{row + 1:>{CELL_X - 1}} ", style="bold")
        for col in range(SIZE):
            sq = row * SIZE + col
            letter = board.letters[sq]
            if sq in preview:
                cell, style = f" {preview[sq]} ", PREVIEW_OK if picture.legal else PREVIEW_BAD
            elif letter != EMPTY:
                height = board.heights[sq]
                if height > 1:
                    mark = str(height).translate(SUPERSCRIPT) if height < 10 else "⁺"
                    cell, style = f" {letter}{mark}", COVERED_STYLE
                else:
                    cell, style = f" {letter} ", TILE_STYLE
            elif sq == CENTRE:
                cell, style = " ★ ", PREMIUM_STYLE["DW"][1]
            elif _premium(sq):
                label, style = PREMIUM_STYLE[_premium(sq)]
                cell = f"{label} "
            else:
                cell, style = " · ", PLAIN_STYLE
            if sq == picture.cursor:
                arrow = "→" if picture.direction is Direction.ACROSS else "↓"
                cell = cell[:2] + arrow if letter == EMPTY and sq not in preview else cell
                style = style + " reverse"
            text.append(cell, style=style)
        text.append("\n")
    return text


class BoardView(Static):
    """The 15x15 board (see :func:`board_text`)."""

    def show(self, picture: BoardPicture) -> None:
        """Draw *picture*."""
        self.update(board_text(picture))


class BoardArea(ScrollableContainer, can_focus=False):
    """Where the board sits: on a terminal too small for the whole board it scrolls, and it
    keeps the cursor's square in view, also when it is resized. It never takes the focus
    (the arrow keys move the cursor)."""

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        self.cursor: int | None = None
        self.play: tuple[int, ...] = ()

    def show_cursor(self, cursor: int, play: Sequence[int] = ()) -> None:
        """Scroll, if need be, so that square *cursor* is in view, and the squares of the
        *play* previewed as well if there is room."""
        self.cursor, self.play = cursor, tuple(play)
        self.call_after_refresh(self._scroll_to_cursor)

    def on_resize(self) -> None:
        self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        if self.cursor is None:
            return
        cursor = _square_region(self.cursor)
        whole = Region.from_union([cursor, *map(_square_region, self.play)])
        for region in (whole, cursor):
            self.scroll_to_region(region, animate=False, immediate=True)


def _square_region(square: int) -> Region:
    """Where *square* is drawn in :func:`board_text` (the first line has the letters), with
    the column letters above a square of the first row and the row number beside one of
    the first column, so that scrolling back to an edge shows them too."""
    row, col = divmod(square, SIZE)
    x, y = CELL_X + CELL_WIDTH * col, row + 1
    left, top = (0 if col == 0 else x), (0 if row == 0 else y)
    return Region(left, top, x + CELL_WIDTH - left, y + 1 - top)


def rack_text(rack: str) -> Text:
    """Tiles as ``Q₁₀`` style boxes: letter then value."""
    text = Text()
    for tile in rack:
        text.append(f" {tile}{TILE_VALUES[tile]:<2}", style=TILE_STYLE)
        text.append(" ")
    return text


class RackView(Static):
    """The rack of the seat whose turn it is, or a curtain while it is hidden."""

    def show_rack(self, name: str, rack: str, note: str = "") -> None:
        """Show *name*'s *rack*, then *note* in brackets if given (who is to play)."""
        text = Text()
        text.append(f"{name}'s rack: ", style="bold")
        text.append_text(rack_text(rack) if rack else Text("(empty)"))
        if note:
            text.append(f" ({note})", style="italic")
        self.update(text)

    def show_curtain(self, name: str) -> None:
        """Hide the rack until *name* takes the keyboard."""
        self.update(
            Text.assemble(
                (f"{name}'s turn. ", "bold"),
                "Pass the keyboard to ",
                (name, "bold"),
                ", then press ",
                ("Enter", "bold reverse"),
                " to see your rack. Others, look away!",
            )
        )

    def show_message(self, text: str) -> None:
        """Show *text* where the rack goes (a computer player thinking, the end)."""
        self.update(Text(text, style="italic"))


def log_lines(names: Sequence[str], log: Sequence[dict[str, Any]], last: int = 8) -> Text:
    """The last *last* turns in words: plays with their words and points, exchanges (a count
    of tiles only), passes, skips, and the end."""
    text = Text()
    text.append("Last plays\n", style="bold underline")
    shown = [e for e in log if e.get("kind") != "new-day"][-last:]
    if not shown:
        text.append("none yet", style="dim")
    for entry in shown:
        kind = entry["kind"]
        who = names[entry["seat"]] if "seat" in entry else ""
        if kind == "play":
            words = ", ".join(f"{w} {p}" for w, p in entry["words"])
            text.append(f"{who}: ", style="bold")
            text.append(f"{entry['play']} ", style="bold green")
            text.append(f"  {entry['score']}" + (" BINGO" if entry["bingo"] else ""))
            cover = f", covers {entry['covered']}" if entry["covered"] else ""
            text.append(f"  ({words}{cover})\n", style="dim")
        elif kind == "exchange":
            text.append(f"{who}: exchanged {entry['count']} tiles\n")
        elif kind in ("pass", "skip"):
            text.append(f"{who}: {'passed' if kind == 'pass' else 'skipped (a pass)'}\n")
        elif kind == "end":
            parts = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(entry["adjustments"]))
            text.append(f"Game over. Tiles left: {parts}\n", style="bold")
    return text


class PlayLog(Static):
    """The last plays, with their words and points."""

    def show(self, names: Sequence[str], log: Sequence[dict[str, Any]]) -> None:
        """Draw the last turns of *log*."""
        self.update(log_lines(names, log))

    def show_lines(self, title: str, lines: Sequence[str]) -> None:
        """Draw a titled list (e.g. the best plays a hint key found)."""
        text = Text()
        text.append(f"{title}\n", style="bold underline")
        for line in lines:
            text.append(line + "\n")
        self.update(text)
