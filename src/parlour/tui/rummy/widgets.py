"""The widgets of the Rummy table: a card, the hand, the piles and the melds on the table.

Each draws what it is given (attributes down); a click on a card in the hand posts
:class:`HandView.Clicked` (messages up). None of them talks to the engine.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label

from parlour.games.rummy.cards import RED_SUITS, Card, card_symbol, suit_of

MOST_CARDS = 14
"""Card places in the hand: the largest hand (13 dealt) plus the card drawn."""


def card_label(c: Card, *, style: str = "") -> Text:
    """*c* with its suit symbol (``10♥``), red suits in red, in *style*."""
    colour = "bold red" if suit_of(c) in RED_SUITS else "bold"
    return Text(card_symbol(c), style=f"{colour} {style}".strip())


def cards_label(cards: Sequence[Card]) -> Text:
    """Cards with their suit symbols, separated by spaces (red suits in red)."""
    return Text(" ").join(card_label(c) for c in cards)


class CardFace(Widget):
    """One card drawn as a small card (``╭───╮ │10♥│ ╰───╯``), or its back, or a blank place.

    CSS classes: ``-red`` (hearts, diamonds), ``-back``, ``-empty``, ``-selected`` (raised),
    ``-cursor``, ``-new`` (drawn this turn).
    """

    def __init__(self, index: int = 0, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index
        self.card: Card | None = None
        self.back = False

    def show(
        self,
        card: Card | None,
        *,
        back: bool = False,
        selected: bool = False,
        cursor: bool = False,
        new: bool = False,
    ) -> None:
        """Draw *card* face up (``None``: an empty place), or its *back*."""
        self.card, self.back = card, back
        self.display = True
        self.set_class(card is not None and suit_of(card) in RED_SUITS and not back, "-red")
        self.set_class(back, "-back")
        self.set_class(card is None and not back, "-empty")
        self.set_class(selected, "-selected")
        self.set_class(cursor, "-cursor")
        self.set_class(new, "-new")
        self.border_title = "new" if new else ""
        self.refresh()

    def hide(self) -> None:
        """Take the card off the table."""
        self.display = False

    def render(self) -> RenderResult:
        if self.back:
            return "░░░"
        if self.card is None:
            return "   "
        return card_symbol(self.card).rjust(3)

    def on_click(self, event: events.Click) -> None:
        if self.card is not None and not self.back:
            self.post_message(HandView.Clicked(self.index))


@dataclass(frozen=True)
class HandPicture:
    """What the hand shows: the ``cards`` in the player's order, the ``cursor`` place, the
    ``selected`` cards and the card ``drawn`` this turn (marked "new")."""

    cards: Sequence[Card]
    cursor: int | None = None
    selected: Collection[Card] = ()
    drawn: Card | None = None


class HandView(Widget):
    """The hand as a row of cards; selected cards are raised, the cursor's card outlined."""

    class Clicked(Message):
        """A card in the hand was clicked; ``index`` is its place (0-based)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def compose(self) -> ComposeResult:
        for index in range(MOST_CARDS):
            yield CardFace(index)

    def on_mount(self) -> None:
        for face in self.query(CardFace):
            face.hide()

    def show(self, picture: HandPicture) -> None:
        """Draw *picture*."""
        faces = list(self.query(CardFace))
        for face, card in zip(faces, picture.cards, strict=False):
            face.show(
                card,
                selected=card in picture.selected,
                cursor=face.index == picture.cursor,
                new=card == picture.drawn,
            )
        for face in faces[len(picture.cards) :]:
            face.hide()
        if picture.cursor is not None and 0 <= picture.cursor < len(picture.cards):
            # On a narrow terminal the hand is wider than the screen: keep the cursor's
            # card in view (after the layout, which places the faces just shown).
            cursor = faces[picture.cursor]
            self.call_after_refresh(self.scroll_to_widget, cursor, animate=False)

    def hide_all(self) -> None:
        """Show no card (the hand is behind the curtain, or nobody's hand is shown)."""
        for face in self.query(CardFace):
            face.hide()

    def shown(self) -> list[Card]:
        """The cards drawn face up, in order (for tests)."""
        return [f.card for f in self.query(CardFace) if f.display and f.card is not None]


class Piles(Horizontal):
    """The stock (face down, with its count) and the discard pile (its top card and size)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="pile"):
            yield Label("Stock", classes="pile-title")
            yield CardFace(id="stock-card")
            yield Label("", id="stock-count", classes="pile-count")
        with Vertical(classes="pile"):
            yield Label("Discard", classes="pile-title")
            yield CardFace(id="discard-card")
            yield Label("", id="discard-count", classes="pile-count")

    def show(self, stock: int, top: Card | None, pile: int) -> None:
        """*stock* cards in the stock; the discard pile has *pile* cards, *top* on top."""
        self.query_one("#stock-card", CardFace).show(None, back=stock > 0)
        self.query_one("#stock-count", Label).update(f"{stock} left")
        self.query_one("#discard-card", CardFace).show(top)
        self.query_one("#discard-count", Label).update(f"{pile} card{'' if pile == 1 else 's'}")


@dataclass(frozen=True)
class MeldPicture:
    """A meld on the table as the view gets it: ``kind`` (``"set"``/``"run"``), its
    ``cards`` in display order and the seat that put each card there (``owners``)."""

    kind: str
    cards: tuple[Card, ...]
    owners: tuple[int, ...]


INDENT = 8
"""Columns before a meld's cards: its number and kind (``" 1 run  "``)."""


def meld_pieces(meld: MeldPicture, names: Sequence[str]) -> list[Text]:
    """A meld's cards as pieces that stay whole when a line wraps: each card, and after
    each stretch of cards put there by one player, that player's name (``"·you"``)."""
    pieces: list[Text] = []
    for i, (c, owner) in enumerate(zip(meld.cards, meld.owners, strict=True)):
        pieces.append(card_label(c))
        if i + 1 == len(meld.cards) or meld.owners[i + 1] != owner:
            pieces.append(Text(f"·{names[owner]}", style="dim italic"))
    return pieces


def meld_line(number: int, meld: MeldPicture, names: Sequence[str], width: int = 0) -> Text:
    """``" 1 run  5♥ 6♥ 7♥ ·you 8♥ ·CPU 1"``: the meld's number and kind, its cards, and
    after each stretch of cards the name of the player who put them there. With a *width*
    (columns), long melds wrap under their first card."""
    text = Text(f"{number:>2} ", style="bold cyan")
    text.append(f"{meld.kind:<4} ", style="cyan")
    column = INDENT
    for i, piece in enumerate(meld_pieces(meld, names)):
        size = piece.cell_len + (1 if i else 0)
        if i and width and column + size > width:
            text.append("\n" + " " * INDENT)
            column = INDENT
            size -= 1
        elif i:
            text.append(" ")
        text.append_text(piece)
        column += size
    return text


class MeldsView(Widget):
    """The melds on the table, numbered as the lay-off key asks for them; a long meld
    wraps under its first card."""

    DEFAULT_CSS = """
    MeldsView { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.melds: list[MeldPicture] = []
        self.names: list[str] = []

    def show(self, melds: Sequence[MeldPicture], names: Sequence[str]) -> None:
        """Redraw with *melds*; *names* are the short names of the seats."""
        self.melds = list(melds)
        self.names = list(names)
        self.refresh(layout=True)

    def lines(self, width: int) -> Text:
        """The melds as text for *width* columns."""
        if not self.melds:
            return Text("No melds on the table yet.", style="dim")
        return Text("\n").join(
            meld_line(n, m, self.names, width) for n, m in enumerate(self.melds, 1)
        )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width).plain.split("\n"))

    def render(self) -> RenderResult:
        return self.lines(self.content_size.width)
