"""The coach in the terminal tables: ``C`` toggles a panel listing each choice of the
person's decision with its figures (``win 53.4%``), the best marked with ``★``.

Generic: the advice comes from the game's coach (:func:`parlour.engine.coach.advise`), for
a seat this terminal plays and only when that seat decides; at a server table the figures
come from the server (``GET /tables/{id}/coach``), which decides who may see advice: a
rated table refuses it, and the panel says so in the server's words.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from parlour.engine.coach import Advice, Choice, Figure, advise
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


def advice_from_json(data: dict[str, Any]) -> Advice:
    """The :class:`Advice` of the server's JSON (:meth:`Advice.to_json`'s shape)."""
    choices = tuple(
        Choice(
            str(c["action"]),
            tuple(Figure(str(f["name"]), float(f["value"]), str(f["text"])) for f in c["figures"]),
            bool(c.get("best")),
        )
        for c in data["choices"]
    )
    return Advice(int(data["seat"]), choices, str(data.get("note") or ""))


WAIT = "Coach: the figures show when it is your choice."


def coach_text(local: GameSource, *, remote: bool) -> Text:
    """What the coach panel shows now for *local*'s person to decide (see the module
    docstring)."""
    if not local.game.spec.coach:
        return Text("No coach for this game.")
    state = local.state
    seat = state.current_player()
    if not local.person_to_move() or seat < 0:
        return Text(WAIT, style="dim")
    if remote:
        return Text("Coach: asking the server…", style="dim")
    advice = advise(state, seat)
    if advice is None:
        return Text(silent_coach(local), style="dim")
    return advice_text(advice)


def silent_coach(local: GameSource) -> str:
    """Why the coach of a local game has nothing to say: alone there is nobody to beat;
    otherwise no table is solved for its rules (``parlour solve <game> --optimal`` with the
    game's options solves and caches one, e.g. ``--target 1150``)."""
    game = local.game
    if game.num_players < 2:
        return "Coach: nothing to say in a game alone (it judges the chance of beating others)."
    flags = " ".join(
        f"--{name.replace('_', '-')}" + ("" if value is True else f" {value}")
        for name, value in sorted(game.options.items())
        if name != "players" and value != game.spec.options[name].default
    )
    command = f"parlour solve {game.spec.name} --optimal {flags}".strip()
    return f"Coach: nothing to say here (no solved table for these rules; {command} solves one)."


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
