"""The coach in the terminal tables: ``C`` toggles a panel listing each choice of the
person's decision with its figures (``win 53.4%``), the best marked with ``★``.

Generic: the advice comes from the game's coach (:func:`parlour.engine.coach.advise`), for
a seat this terminal plays and only when that seat decides; at a server table the coach is
not offered here (the server decides who may see advice: rated tables refuse it).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from parlour.engine.coach import Advice, advise
from parlour.tui.common.source import GameSource

SHOWN = 8
"""The most choices the panel lists (best first); the rest are counted."""


def advice_text(advice: Advice, shown: int = SHOWN) -> Text:
    """The panel's text: the best *shown* choices, best first, the best marked ``★``, each
    with its figures, then how many more there are and the advice's note."""
    text = Text()
    width = max(len(c.action) for c in advice.choices[:shown])
    for choice in advice.choices[:shown]:
        figures = " · ".join(f.text for f in choice.figures)
        line = f"{'★' if choice.best else ' '} {choice.action.ljust(width)}  {figures}\n"
        text.append(line, style="bold green" if choice.best else "")
    more = len(advice.choices) - shown
    if more > 0:
        text.append(f"  … and {more} more\n", style="dim")
    if advice.note:
        text.append(advice.note + "\n", style="dim italic")
    return text


def coach_text(local: GameSource, *, remote: bool) -> Text:
    """What the coach panel shows now for *local*'s person to decide (see the module
    docstring)."""
    if not local.game.spec.coach:
        return Text("No coach for this game.")
    if remote:
        return Text("The coach is not offered at a server table here (the web client has it).")
    state = local.state
    seat = state.current_player()
    if not local.person_to_move() or seat < 0:
        return Text("Coach: the figures show when it is your choice.", style="dim")
    advice = advise(state, seat)
    if advice is None:
        return Text("Coach: nothing to say here (no solved table for these rules).", style="dim")
    return advice_text(advice)


class CoachPanel(Static):
    """The coach's panel (``#coach``), hidden until ``C`` shows it."""

    DEFAULT_CSS = """
    CoachPanel {
        height: auto;
        max-height: 12;
        border: round $accent 50%;
        padding: 0 1;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="coach", markup=False)
        self.border_title = "Coach (C hides)"
        self.display = False
