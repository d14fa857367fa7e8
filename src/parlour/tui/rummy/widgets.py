"""Widgets of the Rummy table: the hand, the melds on the table, the status line.

They only draw what they are given (attributes down); the screen talks to the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from parlour.games.rummy.cards import RED_SUITS, Card, card_symbol, suit_of
from parlour.games.rummy.melds import TableMeld


def card_markup(c: Card, *, style: str = "") -> Text:
    """*c* with its suit symbol, red suits in red."""
    colour = "bold red" if suit_of(c) in RED_SUITS else "bold"
    return Text(card_symbol(c), style=f"{colour} {style}".strip())


class HandView(Static):
    """The person's hand in their order: the cursor in reverse video, selected cards
    underlined and marked with ^ below."""

    def show(
        self, cards: Sequence[Card], cursor: int, selected: set[Card], drawn: Card | None
    ) -> None:
        """Redraw the hand."""
        top = Text()
        marks = Text()
        for index, c in enumerate(cards):
            style = "reverse" if index == cursor else ""
            if c in selected:
                style += " underline"
            label = card_markup(c, style=style.strip())
            width = max(4, len(label.plain) + 1)
            top.append_text(label)
            top.append(" " * (width - len(label.plain)))
            mark = "^" if c in selected else ("*" if c == drawn else " ")
            marks.append(mark.ljust(width), style="bold yellow" if c in selected else "dim")
        if not cards:
            top.append("(no cards)", style="dim")
        self.update(Text.assemble(top, "\n", marks))


class TableView(Static):
    """The melds on the table, numbered, with the owner of each card."""

    def show(self, melds: Sequence[TableMeld], names: Sequence[str]) -> None:
        """Redraw the table; *names* are the seats' short names."""
        text = Text()
        if not melds:
            text.append("No melds on the table yet.", style="dim")
        for number, meld in enumerate(melds, start=1):
            text.append(f"{number:>2}. {meld.kind:<4} ", style="bold cyan")
            owner = None
            for c, o in zip(meld.cards, meld.owners, strict=True):
                if o != owner:
                    if owner is not None:
                        text.append(f"[{names[owner]}] ", style="dim italic")
                    owner = o
                text.append_text(card_markup(c))
                text.append(" ")
            if owner is not None:
                text.append(f"[{names[owner]}]", style="dim italic")
            text.append("\n")
        self.update(text)
