"""Ten-Thousand's widgets: a die drawn as a die face, and the tray of six dice.

The tray shows the dice a player may choose from (numbered 1-6 on their lower edge, the
selected ones raised and green) and, apart and dimmed, the dice already set aside from this
set of six. A click on a die posts :class:`DiceTray.Toggled`; the screen decides what it means.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult, RenderResult
from textual.message import Message
from textual.widget import Widget

from parlour.engine.chance import Dice

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

KINDS = ("showing", "aside", "blank", "farkle", "left")
"""How a die is drawn: ``showing`` (to choose from), ``aside`` (set aside this turn),
``blank`` (not rolled yet), ``farkle`` (the roll that lost the turn), ``left`` (not set aside
when the turn was banked)."""


class DieFace(Widget):
    """One die: ``face`` 1-6 (0: blank), ``kind`` (see :data:`KINDS`), ``selected``, and the
    key ``label`` drawn on its lower edge."""

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
        return "\n".join(PIPS[self.face])

    def on_click(self, event: events.Click) -> None:
        if self.kind == "showing":
            self.post_message(DiceTray.Toggled(self.index))


@dataclass(frozen=True)
class Board:
    """What the tray shows: the ``showing`` dice (0 for a die not rolled yet) drawn as
    ``kind``, and the dice set ``aside`` from this set of six."""

    showing: Dice
    aside: Dice = ()
    kind: str = "showing"


class DiceTray(Widget):
    """Six die places: the showing dice first (keys 1-6), then the set-aside dice."""

    class Toggled(Message):
        """A showing die was clicked; ``index`` is its place (0-based) among them."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def compose(self) -> ComposeResult:
        for index in range(6):
            yield DieFace(index)

    def show(
        self,
        board: Board,
        *,
        selected: Collection[int] = (),
        cursor: int | None = None,
        labels: bool = True,
    ) -> None:
        """Draw *board*; *selected* are places among the showing dice, *cursor* the
        keyboard cursor's place (``None``: no cursor), *labels* puts the keys 1-6 under the
        showing dice (when a person chooses)."""
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
