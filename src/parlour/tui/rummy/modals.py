"""Rummy's own modal screens: the round summary between rounds, and the choice of the meld
to lay off onto. Both return through ``dismiss`` (Textual's pattern); the shared confirm,
help, game-over and record screens are in :mod:`parlour.tui.common.modals`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from parlour.games.rummy.cards import parse_card, sort_by_rank
from parlour.games.rummy.scoring import POINTS
from parlour.tui.common.modals import Dialog, DialogFrame
from parlour.tui.rummy.widgets import MeldPicture, cards_label, meld_line


@dataclass(frozen=True)
class RoundSummary:
    """A finished round as the view shows it (from the observation's ``last_round``):
    ``round`` number, how it ``ended`` (``"out"``, ``"stock"`` or ``"turns"``), the seat that went
    ``out``, and per seat the points on the table, the points left in hand, the round score,
    the game score and the cards left in hand."""

    round: int
    ended: str
    out: int | None
    table_points: tuple[int, ...]
    hand_points: tuple[int, ...]
    round_scores: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]

    @classmethod
    def from_observation(cls, last: dict[str, object]) -> RoundSummary:
        """Read the observation's ``last_round`` part."""

        def ints(key: str) -> tuple[int, ...]:
            value = last[key]
            assert isinstance(value, list)
            return tuple(int(x) for x in value)

        hands = last["hands"]
        assert isinstance(hands, list)
        out = last.get("out")
        return cls(
            round=int(str(last["round"])),
            ended=str(last["ended"]),
            out=int(out) if isinstance(out, int) else None,
            table_points=ints("table_points"),
            hand_points=ints("hand_points"),
            round_scores=ints("round_scores"),
            scores=ints("scores"),
            hands=tuple(tuple(sort_by_rank(parse_card(t) for t in h)) for h in hands),
        )

    def how(self, names: Sequence[str]) -> str:
        """``"ann went out"``, ``"the stock ran out"`` or the turn limit."""
        if self.ended == "out" and self.out is not None:
            return f"{names[self.out]} went out"
        if self.ended == "turns":
            return "the round reached its turn limit"
        return "the stock ran out"


_UNBOUNDED = 1_000


class _Fitting:
    """A Rich table drawn as ``build()`` makes it, or as ``build(narrow=True)`` makes it
    when the first does not fit the width it is given with its first column (the names)
    cut down to that column's ``min_width`` (squeezed further, Rich cuts the names to "…",
    then drops the last columns)."""

    def __init__(self, build: Callable[..., Table]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.build()
        # measured against the width given, a table never measures wider than it
        natural = Measurement.get(console, options.update_width(_UNBOUNDED), table).maximum
        first = table.columns[0]
        names = max((cell_len(str(cell)) for cell in (first.header, *first.cells)), default=0)
        if natural - names + min(names, first.min_width or 0) > options.max_width:
            table = self.build(narrow=True)
        yield table


class RoundSummaryScreen(Dialog[None]):
    """The scores of the round that just ended, and the cards left in each hand; Enter,
    Space or Esc closes it (and the next round is dealt). It leaves the top of the table in
    view, except on a short terminal; the key line stays under the part that scrolls."""

    DEFAULT_CSS = """
    RoundSummaryScreen { align: center bottom; }
    RoundSummaryScreen > DialogFrame {
        width: 76; max-height: 70%; padding: 0 2; border: thick $accent;
    }
    RoundSummaryScreen.-short > DialogFrame { max-height: 100%; }
    RoundSummaryScreen.-narrow > DialogFrame { padding: 0 1; }
    RoundSummaryScreen #round-headline { text-style: bold; width: 100%; }
    RoundSummaryScreen #round-table { margin: 1 0 0 0; height: auto; }
    RoundSummaryScreen #round-hands { height: auto; margin-top: 1; }
    RoundSummaryScreen #round-keys { dock: bottom; margin-top: 1; color: $text-muted; }
    RoundSummaryScreen.-short #round-keys { margin-top: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Continue"),
    ]

    def __init__(self, summary: RoundSummary, names: Sequence[str], *, last: bool) -> None:
        super().__init__()
        self.summary = summary
        self.names = list(names)
        self.last = last

    def compose(self) -> ComposeResult:
        s = self.summary
        with DialogFrame():
            yield Label(
                f"Round {s.round} is over: {s.how(self.names)}.", id="round-headline", markup=False
            )
            yield Static(_Fitting(self.score_table), id="round-table")
            yield Static(self.hands_text(), id="round-hands")
            then = "the final scores" if self.last else "deal the next round"
            yield Label(f"Enter: {then}", id="round-keys")

    def score_table(self, *, narrow: bool = False) -> Table:
        """Per player: points on the table, points left in hand, the round, the game;
        *narrow*: shorter headings and no padding at the edges (a 40-column terminal)."""
        s = self.summary
        table = Table(box=None, padding=(0, 1), expand=True, pad_edge=not narrow)
        table.add_column("player", ratio=1, min_width=8)
        headings = ("table", "hand") if narrow else ("on the table", "in hand")
        for column in (*headings, "round", "game"):
            table.add_column(column, justify="right")
        for seat, name in enumerate(self.names):
            table.add_row(
                Text(name, style="bold" if seat == s.out else ""),
                str(s.table_points[seat]),
                f"-{s.hand_points[seat]}" if s.hand_points[seat] else "0",
                Text(f"{s.round_scores[seat]:+d}", style="bold"),
                f"{s.scores[seat]:,}",
            )
        return table

    def hands_text(self) -> Text:
        """The cards left in each hand, with their points."""
        lines = []
        for name, hand in zip(self.names, self.summary.hands, strict=True):
            line = Text(f"{name} held ", style="dim")
            if hand:
                line.append_text(cards_label(hand))
                line.append(f"  ({sum(POINTS[c] for c in hand)} points)", style="dim")
            else:
                line.append("no cards", style="dim")
            lines.append(line)
        return Text("\n").join(lines)

    def action_close(self) -> None:
        """Close the summary."""
        self.dismiss(None)


class LayOffScreen(Dialog[int | None]):
    """Choose the meld to lay off onto, among those the cards fit: a digit picks meld by
    number, ↑/↓ and Enter pick from the list, Esc cancels. Dismisses with the meld's index
    (0-based) or ``None``."""

    DEFAULT_CSS = """
    LayOffScreen > DialogFrame { width: 76; border: thick $primary; }
    LayOffScreen OptionList { height: auto; max-height: 12; margin: 1 0; }
    LayOffScreen.-short OptionList { max-height: 50vh; margin: 0; }
    LayOffScreen #layoff-keys { dock: bottom; width: 100%; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
    ]

    def __init__(
        self,
        question: Text,
        melds: Sequence[tuple[int, MeldPicture]],
        names: Sequence[str],
    ) -> None:
        super().__init__()
        self.question = question
        self.melds = list(melds)
        self.names = list(names)

    def compose(self) -> ComposeResult:
        with DialogFrame():
            yield Static(self.question, id="layoff-question")
            yield OptionList(
                *[
                    Option(meld_line(index + 1, meld, self.names), id=str(index))
                    for index, meld in self.melds
                ],
                id="layoff-melds",
            )
            yield Label("meld number or ↑/↓ and Enter · Esc: cancel", id="layoff-keys")

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_pick(self, number: int) -> None:
        """Pick meld *number* (1-based, as on the table), if the cards fit it."""
        if any(index == number - 1 for index, _ in self.melds):
            self.dismiss(number - 1)
        else:
            self.notify(f"the cards do not fit meld {number}", severity="warning")

    def action_cancel(self) -> None:
        """Close without laying off."""
        self.dismiss(None)
