"""The Ten-Thousand terminal app (``parlour play ten-thousand``).

Keys (``help.md`` has them with the rules): 1-6 or ←/→ and Space select dice, R sets the
selection aside and rolls the rest (at the start of a turn: rolls six dice), B sets it aside
and banks the turn total, C the coach, H help, Esc end the game early, F8 restart, Ctrl+Q
quit (saved).

The engine takes "set aside" and "roll/bank" as one action (``keep <dice> roll|bank``), so
the selection lives here until R or B; the engine then accepts it or says why not.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Footer, Header, RichLog, Static

from parlour.engine.chance import dice_text
from parlour.engine.state import CHANCE, Action, State
from parlour.engine.step import GAME_OVER, Step
from parlour.games.dice.notation import Keep, Roll
from parlour.games.ten_thousand.scoring import selection_points
from parlour.games.ten_thousand.state import TenThousandState
from parlour.tui.common.coach import CoachPanel
from parlour.tui.common.dice import Board, DiceTray, aside_dice, dice_count, pick_places
from parlour.tui.common.dice_table import DiceTableScreen, history_log
from parlour.tui.common.scoreboard import Scoreboard, ScoreRow
from parlour.tui.common.source import GameSource
from parlour.tui.common.table import TableApp, TableScreen, TableSettings

SIX = 6


class TenThousandScreen(DiceTableScreen):
    """A game of Ten-Thousand at the table (see the module docstring)."""

    NO_ROLL = "Press R to roll first."

    HELP_FILE = Path(__file__).with_name("help.md")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "roll", "Roll"),
        Binding("b", "bank", "Bank"),
        Binding("c", "coach", "Coach"),
        *[Binding(str(n), f"pick({n - 1})", f"Die {n}", show=False) for n in range(1, 7)],
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "pick_cursor", "Select", show=False),
        *TableScreen.BINDINGS,
    ]

    @property
    def state(self) -> TenThousandState:
        """The game state (the engine's, read only)."""
        return cast(TenThousandState, self.local.state)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="top"):
            with Vertical(id="table"):
                yield Static(id="turn")
                yield DiceTray(id="tray")
                yield Static(id="selection")
                yield Static(id="message", markup=False)
                yield CoachPanel()
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield Static(id="house-rules")
        yield Static(id="banner", markup=False)
        yield Static(id="log", markup=False)
        yield history_log()
        yield Footer()

    def on_mount(self) -> None:
        state = self.state
        self.title = "Ten-Thousand"
        rules = [f"target {state.target:,}"]
        if state.entry:
            rules.append(f"entry {state.entry:,}")
        if state.specials_any_roll:
            rules.append("pairs/straights on any 6")
        self.sub_title = " · ".join(rules)
        self.query_one("#house-rules", Static).update("\n".join(rules) + "\nH: rules and scoring")
        self.replay_history(self._write_replayed)
        # Textual then calls TableScreen.on_mount too (every class's handler runs), which
        # starts the game: calling it here as well would start it twice

    # --- drawing ------------------------------------------------------------------------

    def show_state(self) -> None:
        state = self.state
        board = self.board()
        selected = self.selected
        if self.bot_keep is not None and state.roll is not None:
            selected = pick_places(state.roll, self.bot_keep.dice)
        choosing = self._person_choosing()
        cursor = self.cursor if choosing else None
        self.query_one(DiceTray).show(board, selected=selected, cursor=cursor, labels=choosing)
        self.query_one("#turn", Static).update(self._turn_text())
        self.query_one("#selection", Static).update(self._selection_text())
        message = self.query_one("#message", Static)
        message.update(self.message)
        message.set_class(self.message_warning, "-warning")
        message.set_class(not self.message, "-empty")
        banner = self.query_one("#banner", Static)
        banner.update(self._banner_text())
        banner.display = bool(state.last_turns() and not state.is_terminal())
        self.query_one("#log", Static).update(self.log_line)
        self.query_one(Scoreboard).show(self.score_rows())
        self.show_coach()

    def _turn_text(self) -> Content:
        state = self.state
        if state.is_terminal():
            return Content.from_markup("[b]Game over[/b]")
        # Names are the players' own text: passed as variables, never parsed as markup.
        name = self.seat_name(state.seat)
        total = f"{state.turn_total:,}"
        if state.seat in self.local.bots:
            markup = "[b]$name[/b] is playing · turn total [b]$total[/b]"
        elif state.roll is None and state.rolls == 0:
            markup = "[b]$name[/b], your turn: press [b]R[/b] to roll six dice"
        else:
            markup = "[b]$name[/b] to play · turn total [b]$total[/b]"
        return Content.from_markup(markup, name=name, total=total)

    def _selection_text(self) -> str | Content:
        state = self.state
        if state.is_terminal() or state.roll is None:
            return ""
        if self.bot_keep is not None:
            return Content(self._keep_text(self.seat_name(state.seat), self.bot_keep))
        if not self.local.person_to_move():
            return ""
        if not self.selected:
            return (
                "Select scoring dice with [b]1-6[/b] (or ←/→ and Space), then "
                "[b]R[/b] to roll on or [b]B[/b] to bank"
            )
        dice = self._selected_dice()
        points = self._points(dice)
        if points is None:
            why = "these do not score together"
            if len(dice) == SIX and selection_points(dice, specials=True) is not None:
                why = "three pairs and straights score only on the first roll of a turn"
            return f"Selected {dice_text(dice)}: [yellow]{why}[/yellow]"
        left = len(state.roll) - len(dice)
        total = state.turn_total + points
        roll_text = "hot dice: roll all six" if left == 0 else f"roll {dice_count(left)}"
        bank_text = f"bank {total:,}"
        if state.entry and state.scores[state.seat] == 0 and total < state.entry:
            bank_text = f"not yet: a first bank needs {state.entry:,}"
        return (
            f"Selected {dice_text(dice)} = [b]{points:,}[/b]\n"
            f"[b]R[/b] {roll_text} · [b]B[/b] {bank_text}"
        )

    def _keep_text(self, name: str, keep: Keep) -> str:
        state = self.state
        assert state.roll is not None
        points = self._points(keep.dice) or 0
        total = state.turn_total + points
        if keep.bank:
            return f"{name} sets aside {dice_text(keep.dice)} ({points:,}) and banks {total:,}"
        left = len(state.roll) - len(keep.dice)
        rolls = "hot dice: rolls all six" if left == 0 else f"rolls {dice_count(left)}"
        return f"{name} sets aside {dice_text(keep.dice)} ({points:,}) and {rolls}"

    def _banner_text(self) -> str:
        state = self.state
        if state.final_turns is None:
            return ""
        seat = self.trigger_seat()
        left = state.final_turns
        turns = "1 more turn" if left == 1 else f"{left} more turns"
        return (
            f"LAST TURNS · {self.seat_name(seat)} reached {state.scores[seat]:,}: "
            f"{turns}, then the highest score wins"
        )

    def trigger_seat(self) -> int:
        """The seat whose bank reached the target and started the last turns."""
        state = self.state
        assert state.final_turns is not None
        n = self.local.game.num_players
        played = n - 1 - state.final_turns
        return (state.seat - 1 - played) % n

    def score_rows(self) -> list[ScoreRow]:
        state = self.state
        over = state.is_terminal()
        winners = state.result().winners if over else ()
        rows = []
        for seat, info in enumerate(self.local.seats):
            note = ""
            if state.entry and state.scores[seat] == 0:
                note = f"needs {state.entry:,} to enter"
            if state.final_turns is not None and not over and seat == self.trigger_seat():
                note = "reached the target"
            rows.append(
                ScoreRow(
                    info.name,
                    state.scores[seat],
                    turn=seat == state.seat and not over,
                    won=seat in winners,
                    note=note,
                )
            )
        return rows

    # --- the selection ------------------------------------------------------------------

    # --- R and B ------------------------------------------------------------------------

    def person_rolls(self) -> bool:
        state = self.state
        return state.roll is None and state.rolls == 0 and state.seat not in self.local.bots

    def chance_delay(self) -> float:
        state = self.state
        return self.settings.pace.turn if state.rolls == 0 and state.turns > 0 else 0.0

    def action_roll(self) -> None:
        """R: roll six dice at the start of a turn; otherwise set the selection aside and
        roll the rest."""
        state = self.state
        if state.is_terminal():
            return
        if self.person_rolls() and not self.waiting:
            self.message = ""
            self.roll()
            return
        if not self._can_choose():
            return
        if not self.selected:
            self.explain("Select at least one scoring die (1-6) before rolling on.")
            return
        self.play(Keep(self._selected_dice(), bank=False))

    def action_bank(self) -> None:
        """B: set the selection aside and bank the turn total."""
        if self.state.is_terminal() or not self._can_choose():
            return
        if not self.selected:
            self.explain("Select the scoring dice to set aside (1-6), then B to bank.")
            return
        self.play(Keep(self._selected_dice(), bank=True))

    # --- what happened ------------------------------------------------------------------

    def after(self, player: int, action: Action, before: State) -> None:
        assert isinstance(before, TenThousandState)
        step = self.state.describe_step(before, player, action)
        assert step.seat is not None
        name = self.seat_name(step.seat)
        self.bot_keep = None
        if player >= 0:
            self.selected = set()
            self.cursor = 0
            self.message = ""
        if player == CHANCE and isinstance(action, Roll):
            self.cursor = 0
            if step.has("farkle"):
                lost = step.facts["lost"]
                self.ended = Board(action.dice, aside_dice(before), "farkle")
                self.log_line = f"{name} rolled {dice_text(action.dice)}: farkle" + (
                    f", lost {lost:,}" if lost else ""
                )
                self._say(f"Farkle! {name} rolled {dice_text(action.dice)}.")
            else:
                self.log_line = f"{name} rolled {dice_text(action.dice)}"
        elif isinstance(action, Keep):
            text = f"{name} set aside {dice_text(action.dice)} ({step.points:,})"
            if step.has("bank"):
                left = tuple(step.facts["left"])
                self.ended = Board(left, aside_dice(before) + action.dice, "left")
                self.log_line = f"{text} and banked {step.facts['banked']:,}"
                if step.has("last_turns"):
                    self._say("Last turns: everyone else has one more turn.")
            elif step.has("hot_dice"):
                self.log_line = f"{text}: hot dice, rolling all six"
                self._say(f"Hot dice! {name} rolls all six dice again.")
            else:
                self.log_line = f"{text}, rolling {dice_count(self.state.to_roll)}"
        self._write_history(step, self.state)

    def _write_replayed(
        self, player: int, action: Action, before: TenThousandState, now: TenThousandState
    ) -> None:
        """:meth:`_write_history` for an event of a resumed game's history."""
        self._write_history(now.describe_step(before, player, action), now)

    def _write_history(self, step: Step, now: TenThousandState) -> None:
        """Add the history line(s) of *step* (which led to *now*), if any: a farkle, a bank,
        the start of the last turns, the end of the game, each marked with the round of the
        turn that just ended. Names stay plain text, never markup."""
        rounds = max(now.turns - 1, 0) // self.local.game.num_players + 1
        assert step.seat is not None
        name = self.seat_name(step.seat)
        lines: list[list[str | tuple[str, str]]] = []
        if step.has("farkle"):
            lost = step.facts["lost"]
            lines.append([name, (" farkled", "red"), f", lost {lost:,}" if lost else ""])
        elif step.has("bank"):
            score = now.scores[step.seat]
            total = step.score_changes[step.seat]
            lines.append([name, " banked ", (f"{total:,}", "bold"), f" → {score:,}"])
            if step.has("last_turns"):
                lines.append([("Last turns: ", "bold"), name, f" reached {score:,}"])
        if step.has(GAME_OVER):
            lines.append([("Game over: ", "bold"), self.headline()])
        log = self.query_one("#history", RichLog)
        for parts in lines:
            log.write(Text.assemble((f"round {rounds:>2}  ", "dim"), *parts))


class TenThousandApp(TableApp):
    """The Ten-Thousand app: :class:`TenThousandScreen` with its stylesheet."""

    CSS_PATH = "ten_thousand.tcss"
    TITLE = "Ten-Thousand"
    SCREEN = TenThousandScreen


def make_app(local: GameSource, settings: TableSettings) -> TenThousandApp:
    """The app factory the registry names (its ``GameSpec.terminal_app``)."""
    return TenThousandApp(local, settings)
