"""The Greedy terminal app (``parlour play greedy``).

Keys, as the manual has them (``help.md`` lists them with the rules): 1-9 or ←/→ and Space
select dice, A selects every scoring die, Enter keeps the selection and re-rolls the rest (all
nine when all nine have scored: a bonus round), E keeps it and ends the turn (banks), C the
coach, H help, Q quits and forfeits the game (after a confirm), R redraws the screen. From the
shared table: Esc leaves the game saved (to resume), F8 restarts, Ctrl+Q saves and quits. The
first roll of each turn happens by itself.

The engine takes "keep" and "roll/bank" as one action (``keep <dice> roll|bank``), so the
selection lives here until Enter or E; the engine then accepts it or says why not.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, cast

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Footer, Header, RichLog, Static

from parlour.engine.chance import dice_text
from parlour.engine.state import CHANCE, Action, State
from parlour.engine.step import GAME_OVER, Step
from parlour.games.dice.notation import Keep, Quit, Roll
from parlour.games.greedy.platform import counting_seat
from parlour.games.greedy.standings import standings_entry
from parlour.games.greedy.state import GreedyState
from parlour.scorebook import persons
from parlour.tui.common.coach import CoachPanel
from parlour.tui.common.dice import Board, DiceTray, aside_dice, dice_count, pick_places
from parlour.tui.common.dice_table import DiceTableScreen, history_log
from parlour.tui.common.modals import ConfirmScreen
from parlour.tui.common.scoreboard import Scoreboard, ScoreRow
from parlour.tui.common.source import GameSource
from parlour.tui.common.table import TableApp, TableSettings

NINE = 9


class GreedyScreen(DiceTableScreen):
    """A game of Greedy at the table (see the module docstring)."""

    HELP_FILE = Path(__file__).with_name("help.md")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "help", "Help"),
        Binding("escape", "end_game", "End game"),  # as its dialog says
        Binding("escape", "leave_table", "Leave table"),  # at a server table
        Binding("f8", "restart", "Restart", show=False),
        Binding("enter", "roll", "Roll"),
        Binding("e", "end_turn", "End turn"),
        Binding("a", "select_all", "All"),
        Binding("c", "coach", "Coach"),
        *[Binding(str(n), f"pick({n - 1})", f"Die {n}", show=False) for n in range(1, 10)],
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "pick_cursor", "Select", show=False),
        Binding("q", "quit_game", "Forfeit"),
        Binding("r", "redraw", "Redraw", show=False),
    ]

    @property
    def state(self) -> GreedyState:
        """The game state (the engine's, read only)."""
        return cast(GreedyState, self.local.state)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="turn")
        yield DiceTray(NINE, id="tray")
        yield Static(id="selection")
        yield Static(id="message", markup=False)
        yield Static(id="bonus", markup=False)
        yield CoachPanel()
        with Horizontal(id="bottom"):
            yield Scoreboard(id="scores")
            yield Static(id="sum")
        yield Static(id="log", markup=False)
        yield history_log()
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Greedy"
        self.sub_title = f"first to end a turn on {self.state.target:,} wins · H: rules"
        self.query_one("#sum", Static).border_title = "Sum"
        self.replay_history(self._write_replayed)
        # TableScreen.on_mount (the loop) runs after this: Textual calls every class's handler

    # --- drawing ------------------------------------------------------------------------

    def show_state(self) -> None:
        state = self.state
        selected = self.selected
        if self.bot_keep is not None and state.roll is not None:
            selected = pick_places(state.roll, self.bot_keep.dice)
        choosing = self._person_choosing()
        cursor = self.cursor if choosing else None
        self.query_one(DiceTray).show(
            self.board(), selected=selected, cursor=cursor, labels=choosing
        )
        self.query_one("#turn", Static).update(self._turn_text())
        self.query_one("#selection", Static).update(self._selection_text())
        message = self.query_one("#message", Static)
        message.update(self.message)
        message.set_class(self.message_warning, "-warning")
        message.display = bool(self.message)
        bonus_text = self._bonus_text()
        bonus = self.query_one("#bonus", Static)
        bonus.update(bonus_text)
        bonus.display = bool(bonus_text)
        self.query_one("#sum", Static).update(self._sum_table())
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
        bonus = f" · bonus round {state.bonus_rounds}" if state.bonus_rounds else ""
        if state.seat in self.local.bots:
            markup = "[b]$name[/b] is playing · this round [b]$total[/b]$bonus"
        elif state.roll is None and state.rolls == 0:
            markup = "[b]$name[/b], your turn: the first roll is done for you"
        else:
            markup = "[b]$name[/b] to play · this round [b]$total[/b]$bonus"
        return Content.from_markup(markup, name=name, total=total, bonus=bonus)

    def _selection_points(self) -> int:
        """Points of the person's current selection (0 if none, or if it does not score)."""
        if self.state.roll is None or not self._person_choosing() or not self.selected:
            return 0
        return self._points(self._selected_dice()) or 0

    def _selection_text(self) -> str | Content:
        state = self.state
        if state.is_terminal() or state.roll is None:
            return ""
        if self.bot_keep is not None:
            return Content(self._keep_text(self.seat_name(state.seat), self.bot_keep))
        if not self.local.person_to_move():
            return ""
        showing = len(state.roll)
        if not self.selected:
            if self._points(state.roll) is not None and showing > 1:
                then = f"all {showing} score: keep them all, then a bonus round or bank"
            else:
                then = "then [b]Enter[/b] rolls the rest, [b]E[/b] ends your turn"
            return (
                f"Select dice with points: [b]1-{showing}[/b] (or ←/→ and Space), "
                f"[b]A[/b] every scoring die\n{then}"
            )
        dice = self._selected_dice()
        points = self._points(dice)
        if points is None:
            return (
                f"Selected {dice_text(dice)}: [yellow]these do not score together[/yellow] "
                "(keep 1s, 5s and sets of three rolled together)"
            )
        left = showing - len(dice)
        total = state.turn_total + points
        if left == 0:
            return f"Selected {dice_text(dice)} = [b]{points:,}[/b]: all {NINE} dice have scored"
        bank = f"end turn, bank {total:,}"
        if state.scores[state.seat] + total >= state.target:
            bank += " and [b]win[/b]"
        return (
            f"Selected {dice_text(dice)} = [b]{points:,}[/b]\n"
            f"[b]Enter[/b] roll {dice_count(left)} · [b]E[/b] {bank}"
        )

    def _bonus_text(self) -> str:
        """The bonus-round choice, when the person's selection makes all nine dice score."""
        state = self.state
        if not self._person_choosing() or state.roll is None or not self.selected:
            return ""
        dice = self._selected_dice()
        points = self._points(dice)
        if points is None or len(dice) < len(state.roll):
            return ""
        total = state.turn_total + points
        win = state.scores[state.seat] + total >= state.target
        return (
            f"ALL NINE DICE HAVE SCORED ({total:,}) · Enter: bonus round, re-roll all nine, "
            f"everything at risk · E: bank {total:,}" + (" and win" if win else "")
        )

    def _keep_text(self, name: str, keep: Keep) -> str:
        state = self.state
        assert state.roll is not None
        points = self._points(keep.dice) or 0
        total = state.turn_total + points
        if keep.bank:
            return f"{name} keeps {dice_text(keep.dice)} ({points:,}) and ends the turn: {total:,}"
        left = len(state.roll) - len(keep.dice)
        rolls = "bonus round: re-rolls all nine" if left == 0 else f"rolls {dice_count(left)}"
        return f"{name} keeps {dice_text(keep.dice)} ({points:,}) and {rolls}"

    def _sum_table(self) -> Table:
        """The manual's "Sum" box: the points this round plus the banked points of the player
        to move (with the person's selection, if it scores)."""
        state = self.state
        seat = state.seat
        banked, round_points = state.scores[seat], state.turn_total
        selected = self._selection_points()
        table = Table(box=None, show_header=False, expand=True, padding=0)
        table.add_column("", ratio=1)
        table.add_column("", justify="right", no_wrap=True)
        total = Text(f"{banked + round_points + selected:,}", style="bold")
        table.add_row(Text(self.seat_name(seat), style="bold", overflow="ellipsis"), total)
        table.add_row("banked", f"{banked:,}")
        table.add_row("this round", f"{round_points:,}")
        if selected:
            table.add_row("selected", f"+{selected:,}")
        return table

    def score_rows(self) -> list[ScoreRow]:
        state = self.state
        over = state.is_terminal()
        winners = state.result().winners if over else ()
        return [
            ScoreRow(
                info.name,
                state.scores[seat],
                turn=seat == state.seat and not over,
                won=seat in winners,
                note="quit (forfeit)" if state.quitter == seat else "",
            )
            for seat, info in enumerate(self.local.seats)
        ]

    # --- the selection ------------------------------------------------------------------

    def action_select_all(self) -> None:
        """A: select every scoring die (the selection with the most points)."""
        if not self._can_choose():
            return
        state = self.state
        assert state.roll is not None
        options = state.keep_points(state.roll, first_roll=state.rolls == 1)
        best = max(options, key=lambda sub: (options[sub], len(sub)))
        self.selected = pick_places(state.roll, best)
        self.message = ""
        self.show_state()

    # --- Enter, E, Q and R --------------------------------------------------------------

    def action_roll(self) -> None:
        """Enter: keep the selection and re-roll the rest (all nine: a bonus round)."""
        if not self._can_choose():
            return
        if not self.selected:
            self.explain("Select at least one scoring die (1-9, or A for all) before rolling.")
            return
        self.play(Keep(self._selected_dice(), bank=False))

    def action_end_turn(self) -> None:
        """E: keep the selection and end the turn, banking this round's points."""
        if not self._can_choose():
            return
        if not self.selected:
            self.explain("Select the dice to keep first (A: every scoring die), then E.")
            return
        self.play(Keep(self._selected_dice(), bank=True))

    def quitting_seat(self) -> int | None:
        """The person Q quits for: the person to move, or the only person at the table."""
        people = [seat for seat, info in enumerate(self.local.seats) if not info.is_bot]
        if self.state.seat in people:
            return self.state.seat
        return people[0] if len(people) == 1 else None

    def action_quit_game(self) -> None:
        """Q: quit and forfeit the game (the manual's Quit), after a confirm."""
        if self.state.is_terminal():
            self.leave()
            return
        seat = self.quitting_seat()
        if seat is None:
            self.explain("Quit on your own turn (Esc leaves the game saved instead).")
            return
        name = self.seat_name(seat)

        def answered(yes: bool | None) -> None:
            if yes and not self.state.is_terminal():
                self.generation += 1  # drop a computer player's move in flight
                self.waiting = False
                self.play(Quit(), player=seat)

        self.app.push_screen(
            ConfirmScreen(
                f"Quit and forfeit? {name} loses this game at once: it counts as a loss in "
                "the standings and cannot be made up later.",
                yes="Quit (forfeit)",
                no="Keep playing",
            ),
            answered,
        )

    def action_restart(self) -> None:
        """F8: restart, after a confirm. In a game that counts for the standings (one person
        against the computer) a restart would wipe out a loss, so it is a quit: the person
        forfeits (Q) and the game-over screen offers the new game (docs/rules/greedy.md,
        "Quitting")."""
        counted = counting_seat(self.state, persons(self.local.people())) is not None
        if self.state.is_terminal() or not counted or self.settings.database is None:
            super().action_restart()
            return
        self.explain("This game counts in the standings: restarting means quitting it first.")
        self.action_quit_game()

    def action_redraw(self) -> None:
        """R: redraw the whole screen."""
        self.show_state()
        self.app.refresh(layout=True)

    # --- what happened ------------------------------------------------------------------

    def after(self, player: int, action: Action, before: State) -> None:
        assert isinstance(before, GreedyState)
        step = self.state.describe_step(before, player, action)
        assert step.seat is not None
        name = self.seat_name(step.seat)
        self.bot_keep = None
        if player >= 0:
            self.selected = set()
            self.cursor = 0
            self.message = ""
        if step.has("quit"):
            self.log_line = f"{name} quit and forfeits the game"
        elif player == CHANCE and isinstance(action, Roll):
            self.cursor = 0
            if step.has("farkle"):  # no points: the round is lost
                lost = step.facts["lost"]
                self.ended = Board(action.dice, aside_dice(before), "farkle")
                self.log_line = f"{name} rolled {dice_text(action.dice)}: no points" + (
                    f", lost {lost:,}" if lost else ""
                )
                self._say(f"No points! {name} rolled {dice_text(action.dice)}.")
            else:
                self.log_line = f"{name} rolled {dice_text(action.dice)}"
        elif isinstance(action, Keep):
            text = f"{name} kept {dice_text(action.dice)} ({step.points:,})"
            if step.has("bank"):
                total = step.facts["banked"]
                left = tuple(step.facts["left"])
                self.ended = Board(left, aside_dice(before) + action.dice, "left")
                self.log_line = f"{text} and ended the turn with {total:,}"
            elif step.has("bonus_round"):
                total = step.facts["turn_total"]
                self.log_line = f"{text}: all nine have scored, bonus round"
                self._say(f"Bonus round! {name} re-rolls all nine dice with {total:,} at risk.")
            else:
                self.log_line = f"{text}, rolling {dice_count(self.state.to_roll)}"
        self._write_history(step, self.state)

    def _write_replayed(
        self, player: int, action: Action, before: GreedyState, now: GreedyState
    ) -> None:
        """:meth:`_write_history` for an event of a resumed game's history."""
        self._write_history(now.describe_step(before, player, action), now)

    def _write_history(self, step: Step, now: GreedyState) -> None:
        """Add the history line(s) of *step* (which led to *now*), if any: how a turn ended,
        a quit, the end of the game. Names stay plain text, never markup."""
        rounds = max(now.turns - 1, 0) // self.local.game.num_players + 1
        assert step.seat is not None
        name = self.seat_name(step.seat)
        parts: list[str | tuple[str, str]] | None = None
        if step.has("quit"):
            parts = [(name, "bold"), (" quit", "red"), " and forfeits the game"]
        elif step.has("farkle"):
            lost = step.facts["lost"]
            parts = [name, (" rolled no points", "red"), f", lost {lost:,}" if lost else ""]
        elif step.has("bank"):
            total, score = step.score_changes[step.seat], now.scores[step.seat]
            parts = [name, " banked ", (f"{total:,}", "bold"), f" → {score:,}"]
        log = self.query_one("#history", RichLog)
        if parts is not None:
            log.write(Text.assemble((f"round {rounds:>2}  ", "dim"), *parts))
        if step.has(GAME_OVER):
            log.write(
                Text.assemble(
                    (f"round {rounds:>2}  ", "dim"), ("Game over: ", "bold"), self.headline()
                )
            )

    def headline(self) -> str:
        state = self.state
        if state.quitter is not None:
            winners = [self.seat_name(w) for w in state.result().winners]
            return f"{self.seat_name(state.quitter)} quit: {' and '.join(winners)} " + (
                "wins" if len(winners) == 1 else "share the win"
            )
        return super().headline()

    def game_over_note(self) -> str:
        """What the game added to the tournament standings (a person against the computer)."""
        state = self.state
        person = counting_seat(state, persons(self.local.people()))
        if person is None or self.settings.database is None or self.save_error is not None:
            return ""
        entry = standings_entry(state, person)
        return (
            f"Standings: {self.seat_name(person)} {entry.points:+,} tournament points "
            "(parlour standings greedy)"
        )


class GreedyApp(TableApp):
    """The Greedy app: :class:`GreedyScreen` with its stylesheet."""

    CSS_PATH = "greedy.tcss"
    TITLE = "Greedy"
    SCREEN = GreedyScreen


def make_app(local: GameSource, settings: TableSettings) -> GreedyApp:
    """The app factory the registry names (its ``GameSpec.terminal_app``)."""
    return GreedyApp(local, settings)
