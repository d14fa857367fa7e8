"""The dice games' widgets (Ten-Thousand, Greedy): a die drawn as a die face, and the tray.

The tray shows the dice a player may choose from (numbered from 1 on their lower edge, the
selected ones raised and green) and, apart and dimmed, the dice already set aside from this
set of dice (six in Ten-Thousand, nine in Greedy). A click on a die posts
:class:`DiceTray.Toggled`; the screen decides what it means. The look is the widgets'
``DEFAULT_CSS``; a game's stylesheet may override it. When the dice drawn with pips do not
fit the tray's width (a narrow terminal), they are drawn smaller, with their face as a digit
(:data:`LOOKS`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.message import Message
from textual.widget import Widget

from parlour.engine.chance import Dice
from parlour.games.dice.state import DiceState


def aside_dice(state: DiceState) -> Dice:
    """The dice set aside from the current set of dice (all of this turn's selections since
    the last hot dice or bonus round), oldest first."""
    on_table = len(state.roll) if state.roll is not None else state.to_roll
    wanted = state.n_dice - on_table
    aside: list[int] = []
    for dice, _points in reversed(state.kept):
        if len(aside) >= wanted:
            break
        aside[:0] = dice
    return tuple(aside)


def dice_count(n: int) -> str:
    """``"1 die"``, ``"2 dice"``."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def pick_places(roll: Dice, dice: Dice) -> set[int]:
    """The places in *roll* of the multiset *dice* (first matching places)."""
    need = Counter(dice)
    places = set()
    for i, face in enumerate(roll):
        if need[face]:
            need[face] -= 1
            places.add(i)
    return places


# Pip rows for each face, on a 5x3 grid inside the die's border.
PIPS: dict[int, tuple[str, str, str]] = {
    0: ("     ", "     ", "     "),
    1: ("     ", "  ●  ", "     "),
    2: ("    ●", "     ", "●    "),
    3: ("    ●", "  ●  ", "●    "),
    4: ("●   ●", "     ", "●   ●"),
    5: ("●   ●", "  ●  ", "●   ●"),
    6: ("●   ●", "●   ●", "●   ●"),
}

LOOKS = (("", 8, 2), ("-compact", 6, 2), ("-tiny", 4, 1))
"""How the tray draws its dice, largest first: the tray's class, the columns a die takes
(with the gap after it) and the columns added before the first die set aside: pips on a 5x3
face, or the face as a digit 3 or 1 columns wide (the die then draws its own edges, so that
its key fits on the lower one)."""

ROUND_EDGES = tuple("╭─╮│╰╯")
HEAVY_EDGES = tuple("┏━┓┃┗┛")
"""A small die's edges: the corners and sides, top left to bottom right (heavy: selected)."""

KINDS = ("showing", "aside", "blank", "farkle", "left")
"""How a die is drawn: ``showing`` (to choose from), ``aside`` (set aside this turn),
``blank`` (not rolled yet), ``farkle`` (the roll that lost the turn), ``left`` (not set aside
when the turn was banked)."""


class DieFace(Widget):
    """One die: ``face`` 1-6 (0: blank), ``kind`` (see :data:`KINDS`), ``selected``, and the
    key ``label`` drawn on its lower edge."""

    DEFAULT_CSS = """
    /* A die sits one line down; a selected die is raised to the top line. */
    DieFace {
        width: 7;
        height: 5;
        margin: 1 1 0 0;
        border: round $foreground 60%;
        border-subtitle-align: center;
        color: $foreground;
    }
    DieFace.-selected {
        margin: 0 1 1 0;
        border: heavy $success;
        color: $success;
        text-style: bold;
    }
    DieFace.-cursor {
        border-subtitle-style: reverse;
    }
    DieFace.-cursor.-selected {
        border: heavy $success;
    }
    DieFace.-aside {
        border: round $foreground 25%;
        color: $foreground 40%;
    }
    DieFace.-first-aside {
        margin: 1 1 0 3;
    }
    DieFace.-blank {
        border: round $foreground 30%;
    }
    DieFace.-farkle {
        border: round $error;
        color: $error;
    }
    DieFace.-left {
        border: round $foreground 30%;
        color: $foreground 50%;
    }
    /* A small die draws its own edges in its colour (see DieFace.small). */
    DieFace.-digit {
        width: 5;
        height: 3;
        border: none !important;
    }
    DieFace.-digit.-blank, DieFace.-digit.-left {
        color: $foreground 40%;
    }
    DieFace.-digit.-aside {
        color: $foreground 35%;
    }
    """

    def __init__(self, index: int) -> None:
        super().__init__(id=f"die-{index}")
        self.index = index
        self.face = 0
        self.kind = "blank"
        self.selected = False

    def set(
        self, face: int, kind: str, *, selected: bool = False, cursor: bool = False, label: str = ""
    ) -> None:
        """Draw face *face* as *kind*; *selected* raises it, *cursor* marks the keyboard
        cursor, *label* is the key shown under it."""
        self.face, self.kind, self.selected = face, kind, selected
        self.display = True
        for name in KINDS:
            self.set_class(name == kind, f"-{name}")
        self.set_class(selected, "-selected")
        self.set_class(cursor, "-cursor")
        self.border_subtitle = label
        self.refresh()

    def hide(self) -> None:
        """Take the die off the table (fewer than six on the board)."""
        self.display = False

    def render(self) -> RenderResult:
        if self.has_class("-digit"):  # the tray is too narrow for pips
            return self.small(self.size.width)
        return "\n".join(PIPS[self.face])

    def small(self, width: int) -> Text:
        """The die *width* columns wide (3 or more) and 3 rows high: its edges (heavy when
        selected), the face as a digit, the key on the lower edge (reversed at the cursor)."""
        inner = max(width - 2, 1)
        top_left, across, top_right, down, low_left, low_right = (
            HEAVY_EDGES if self.selected else ROUND_EDGES
        )
        face = str(self.face) if self.face else " "
        label = str(self.border_subtitle or "")[:inner]
        before = (inner - len(label)) // 2
        text = Text(f"{top_left}{across * inner}{top_right}\n")
        text.append(down)
        text.append(face.center(inner), style="bold")
        text.append(f"{down}\n{low_left}{across * before}")
        text.append(label, style="reverse" if self.has_class("-cursor") else "")
        text.append(f"{across * (inner - before - len(label))}{low_right}")
        return text

    def on_click(self, event: events.Click) -> None:
        if self.kind == "showing":
            self.post_message(DiceTray.Toggled(self.index))


@dataclass(frozen=True)
class Board:
    """What the tray shows: the ``showing`` dice (0 for a die not rolled yet) drawn as
    ``kind``, and the dice set ``aside`` from this set of dice."""

    showing: Dice
    aside: Dice = ()
    kind: str = "showing"


class DiceTray(Widget):
    """``places`` die places (six by default): the showing dice first (keys 1, 2, ...), then
    the set-aside dice."""

    DEFAULT_CSS = """
    DiceTray {
        layout: horizontal;
        height: 6;
    }
    DiceTray.-compact, DiceTray.-tiny {
        height: 4;
    }
    DiceTray.-tiny DieFace {
        width: 3;
    }
    DiceTray.-tiny DieFace.-first-aside {
        margin: 1 1 0 2;
    }
    """

    class Toggled(Message):
        """A showing die was clicked; ``index`` is its place (0-based) among them."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, places: int = 6, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.places = places

    def compose(self) -> ComposeResult:
        for index in range(self.places):
            yield DieFace(index)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width)

    def fit(self, width: int) -> str:
        """Take the largest of :data:`LOOKS` whose dice fit *width* columns (the smallest if
        none does) and return its class (the last die needs no gap after it)."""
        look = LOOKS[-1][0]
        for name, columns, apart in LOOKS:
            if self.places * columns - 1 + apart <= width:
                look = name
                break
        for name, _, _ in LOOKS:
            if name:
                self.set_class(name == look, name)
        for die in self.query(DieFace):
            die.set_class(bool(look), "-digit")
        return look

    def show(
        self,
        board: Board,
        *,
        selected: Collection[int] = (),
        cursor: int | None = None,
        labels: bool = True,
    ) -> None:
        """Draw *board*; *selected* are places among the showing dice, *cursor* the
        keyboard cursor's place (``None``: no cursor), *labels* puts the keys 1, 2, ... under
        the showing dice (when a person chooses)."""
        dice = list(self.query(DieFace))
        places: list[tuple[int, str, bool, bool, str]] = []
        for i, face in enumerate(board.showing):
            label = str(i + 1) if board.kind == "showing" and labels else ""
            places.append((face, board.kind, i in selected, i == cursor, label))
        places.extend((face, "aside", False, False, "") for face in board.aside)
        for die, place in zip(dice, places, strict=False):
            face, kind, is_selected, is_cursor, label = place
            die.set(face, kind, selected=is_selected, cursor=is_cursor, label=label)
            first_aside = kind == "aside" and die.index == len(board.showing) > 0
            die.set_class(first_aside, "-first-aside")
        for die in dice[len(places) :]:
            die.hide()

    def faces(self) -> Sequence[tuple[int, str, bool]]:
        """What is drawn, place by place: (face, kind, selected) for each visible die."""
        return [(d.face, d.kind, d.selected) for d in self.query(DieFace) if d.display]
