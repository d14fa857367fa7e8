"""The dice games' table (Ten-Thousand, Greedy): what both do alike with the dice.

:class:`DiceTableScreen` holds the person's selection (number keys, ←/→ and Space, clicks on
the tray), the messages under the tray, the computer player's keep shown before it is made,
and what the tray shows. A game's screen adds its keys for rolling and banking, its texts
and its history lines. ``C`` toggles the coach's panel (:class:`CoachPanel`, which each
game's screen places).
"""

from __future__ import annotations

from typing import ClassVar, cast

from rich.text import Text
from textual import on
from textual.widgets import RichLog

from parlour.engine.chance import Dice
from parlour.engine.state import Action
from parlour.games.dice.notation import Keep
from parlour.games.dice.state import DiceState
from parlour.tui.common.coach import CoachPanel, advice_from_json, advice_text, coach_text
from parlour.tui.common.dice import Board, DiceTray, aside_dice, dice_count
from parlour.tui.common.source import GameSource, Link
from parlour.tui.common.table import TableScreen, TableSettings


def history_log() -> RichLog:
    """The history log under the table (``#history``). It never takes the focus: focused, it
    would take the arrow keys that move the dice cursor, to scroll itself."""
    log = RichLog(id="history", max_lines=500, wrap=True)
    log.can_focus = False
    return log


class DiceTableScreen(TableScreen):
    """A dice game at the table: the selection, the messages and the tray (see the module
    docstring). ``NO_ROLL`` is what a key that selects dice says before the roll."""

    NO_ROLL: ClassVar[str] = "Wait: the dice are rolling."

    def __init__(self, local: GameSource, settings: TableSettings) -> None:
        super().__init__(local, settings)
        self.selected: set[int] = set()
        self.cursor = 0
        self.bot_keep: Keep | None = None
        self.ended: Board | None = None
        self.message = ""
        self.message_warning = False
        self.log_line = ""

    @property
    def dice_state(self) -> DiceState:
        """The game state (the engine's, read only)."""
        return cast(DiceState, self.local.state)

    def seat_name(self, seat: int) -> str:
        """The name shown for *seat*."""
        return self.local.seats[seat].name

    def board(self) -> Board:
        """What the tray shows now."""
        state = self.dice_state
        if state.roll is not None:
            return Board(state.roll, aside_dice(state))
        if state.rolls == 0:  # the start of a turn (or the end of the game)
            return self.ended or Board((0,) * state.n_dice, (), "blank")
        return Board((0,) * state.to_roll, aside_dice(state), "blank")

    def show_coach(self) -> None:
        """Redraw the coach's panel, when it is shown (:mod:`~parlour.tui.common.coach`); at
        a server table, ask the server once per version of the table."""
        panel = self.query_one(CoachPanel)
        if not panel.display:
            return
        remote, link = self.remote, self.settings.link
        text = coach_text(self.local, remote=remote is not None)
        if remote is None or link is None or text.plain != "Coach: asking the server…":
            self._coach_asked = None
            panel.update(text)
            return
        if self._coach_asked == remote.version:
            return  # asked already: its answer is (or will be) on the panel
        self._coach_asked = remote.version
        panel.update(text)
        self.run_worker(self._ask_coach(link, remote.table_id, remote.version), group="coach")

    _coach_asked: int | None = None

    async def _ask_coach(self, link: Link, table_id: int, version: int) -> None:
        """Fetch the coach's figures from the server and show them, unless the table moved
        on meanwhile (the next version asks again)."""
        try:
            answer = await link.coach(table_id)
        except Exception as err:  # refused (a rated table) or unreachable: say why
            text = Text(f"Coach: {getattr(err, 'detail', err)}", style="dim")
        else:
            advice = answer.get("advice")
            text = (
                advice_text(advice_from_json(advice))
                if advice
                else Text("Coach: nothing to say here (no solved table for these rules).")
            )
        remote = self.remote
        if remote is None or remote.version != version or self._coach_asked != version:
            return
        self.query_one(CoachPanel).update(text)  # kept while hidden, for when C shows it

    def action_coach(self) -> None:
        """C: show or hide the coach's panel."""
        panel = self.query_one(CoachPanel)
        panel.display = not panel.display
        self.show_coach()

    def _person_choosing(self) -> bool:
        return self.dice_state.roll is not None and self.local.person_to_move() and not self.waiting

    def explain(self, text: str, *, warning: bool = True) -> None:
        self.message = text
        self.message_warning = warning
        if self.is_mounted:
            self.show_state()
        else:  # during on_mount (a failed first save): draw once mounting is done
            self.call_later(self.show_state)

    def _say(self, text: str) -> None:
        self.message = text
        self.message_warning = False

    # --- the selection ------------------------------------------------------------------

    def _selected_dice(self) -> Dice:
        roll = self.dice_state.roll or ()
        return tuple(sorted(roll[i] for i in self.selected if i < len(roll)))

    def _points(self, dice: Dice) -> int | None:
        state = self.dice_state
        assert state.roll is not None
        return state.keep_points(state.roll, first_roll=state.rolls == 1).get(dice)

    def _can_choose(self) -> bool:
        state = self.dice_state
        if state.is_terminal():
            return False
        if self.waiting or state.seat in self.local.bots:
            self.explain(f"Wait: {self.seat_name(state.seat)} is playing.")
            return False
        if state.roll is None:
            self.explain(self.NO_ROLL)
            return False
        return True

    def action_pick(self, place: int) -> None:
        """Select or unselect the die at *place* (0-based) among the showing dice."""
        if not self._can_choose():
            return
        showing = len(self.dice_state.roll or ())
        if place >= showing:
            self.explain(
                f"There {'is' if showing == 1 else 'are'} only {dice_count(showing)} showing."
            )
            return
        self.selected ^= {place}
        self.cursor = place
        self.message = ""
        self.show_state()

    def action_cursor(self, step: int) -> None:
        """Move the keyboard cursor *step* places along the showing dice."""
        if not self._can_choose():
            return
        self.cursor = (self.cursor + step) % len(self.dice_state.roll or (0,))
        self.show_state()

    def action_pick_cursor(self) -> None:
        """Select or unselect the die under the cursor."""
        self.action_pick(self.cursor)

    @on(DiceTray.Toggled)
    def _clicked(self, event: DiceTray.Toggled) -> None:
        self.action_pick(event.index)

    def reset(self) -> None:
        """A restart: forget the old game's selection, tray and history."""
        self.selected = set()
        self.cursor = 0
        self.bot_keep = None
        self.ended = None
        self.log_line = ""
        self._say("New game with the same players.")
        self.query_one("#history", RichLog).clear()

    # --- what happened ------------------------------------------------------------------

    def preview(self, action: Action) -> None:
        if isinstance(action, Keep):
            self.bot_keep = action
            self.show_state()
