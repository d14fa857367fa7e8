"""The generic terminal app: any game with no app of its own (``GameSpec.terminal_app`` is
``""``) is played here, through the engine protocol alone.

The screen shows whose turn it is, the seat's observation as a table of its named parts, the
scores (the observation's ``scores``, or the result's at the end), the legal actions as a
numbered list and a prompt for the game's notation, and the move log. Chance outcomes and
computer players are driven by the shared table (:class:`~parlour.tui.common.table.TableScreen`),
which saves the game at every person's move and when the table is left, like every other app.

Keys (``help.md``): ↑/↓ and Enter, or 1-9, play a listed move; Tab goes to the prompt, where
Enter plays the move typed; H help, Esc end the game early (saved), F8 restart, Ctrl+Q quit
(saved).

Whose view: the person to move's; when a computer player is to move, the only person's at
the table, or with several people at one keyboard, the spectator's (``observation(None)``),
so a hidden hand is never shown to the wrong person while the computer plays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from parlour.engine.errors import ParlourError
from parlour.engine.state import CHANCE, HOST, Action, State
from parlour.tui.common.scoreboard import Scoreboard, ScoreRow
from parlour.tui.common.source import GameSource
from parlour.tui.common.table import TableApp, TableScreen, TableSettings
from parlour.tui.generic.view import LEGAL_SHOWN, legal_lines, observation_table, value_text


class GenericScreen(TableScreen):
    """Any game at the table (see the module docstring). ``moves`` holds the legal actions
    listed now (at most :data:`LEGAL_SHOWN`), in the order of the numbered list."""

    HELP_FILE = Path(__file__).with_name("help.md")
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n), f"choose({n - 1})", f"Move {n}", show=False) for n in range(1, 10)],
        *TableScreen.BINDINGS,
    ]

    def __init__(self, local: GameSource, settings: TableSettings) -> None:
        super().__init__(local, settings)
        self.moves: list[Action] = []
        self.message = ""
        self.message_warning = False
        self.input_focus = "#legal"
        """Where the person's keys went last, the list or the prompt (``#legal``,
        ``#notation``): the focus returns there on their next move."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="turn")
        with Horizontal(id="top"):
            with VerticalScroll(id="view", can_focus=False):  # Tab: list <-> prompt only
                yield Static(id="observation")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield OptionList(id="legal")
        yield Input(placeholder="a move in the game's notation; Enter plays it", id="notation")
        yield Static(id="message", markup=False)
        log = RichLog(id="history", max_lines=500, wrap=True)
        log.can_focus = False
        yield log
        yield Footer()

    def on_mount(self) -> None:
        game = self.local.game
        self.title = game.spec.title
        options = [
            f"{k.replace('_', ' ')} {value_text(v)}"
            for k, v in game.options.items()
            if k != "players"
        ]
        self.sub_title = " · ".join([*options, "H: keys"])
        self.query_one("#view", VerticalScroll).border_title = "The table"
        self.query_one("#legal", OptionList).border_title = "Moves"
        self.replay_history(self._write_history)
        # TableScreen.on_mount (the loop) runs after this: Textual calls every class's handler

    # --- who sees what ------------------------------------------------------------------

    def seat_name(self, player: int) -> str:
        """The name shown for *player*: a seat's name, ``chance`` or ``host``."""
        if player == CHANCE:
            return "chance"
        if player == HOST:
            return "host"
        return self.local.seats[player].name

    def person_seat(self) -> int | None:
        """The person to move, if a person is to move."""
        return self.local.to_move() if self.local.person_to_move() else None

    def viewer(self) -> int | None:
        """Whose observation the table shows (see the module docstring); ``None``: a
        spectator's."""
        seat = self.person_seat()
        if seat is not None:
            return seat
        people = [i for i, s in enumerate(self.local.seats) if not s.is_bot]
        return people[0] if len(people) == 1 else None

    def scores(self) -> list[int] | None:
        """The scores by seat: the result's at the end, else the observation's ``scores``
        when it is a list of whole numbers, one per seat; ``None`` when there are none."""
        state = self.local.state
        if state.is_terminal():
            return list(state.result().scores)
        view = state.observation(None)
        scores = view.get("scores") if isinstance(view, dict) else None
        if (
            isinstance(scores, list)
            and len(scores) == len(self.local.seats)
            and all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            return scores
        return None

    # --- drawing ------------------------------------------------------------------------

    def show_state(self) -> None:
        state = self.local.state
        viewer = self.viewer()
        self.query_one("#turn", Static).update(self._turn_text())
        names = [seat.name for seat in self.local.seats]
        table = observation_table(state.observation(viewer), names)
        self.query_one("#observation", Static).update(table)
        self.query_one("#view", VerticalScroll).border_title = (
            "The table" if viewer is None else f"The table, as {self.seat_name(viewer)} sees it"
        )
        scoreboard = self.query_one(Scoreboard)
        scoreboard.display = self.scores() is not None
        if scoreboard.display:
            scoreboard.show(self.score_rows())
        self._show_moves()
        message = self.query_one("#message", Static)
        message.update(self.message)
        message.set_class(self.message_warning, "-warning")

    def _turn_text(self) -> Text:
        state = self.local.state
        if state.is_terminal():
            return Text.assemble(("Game over: ", "bold"), self.headline())
        seat = self.person_seat()
        if seat is not None:
            return Text.assemble((self.seat_name(seat), "bold"), ", your move")
        if state.is_chance_node():
            return Text("Chance is drawn…")
        names = [self.seat_name(s) for s in state.actors()]
        return Text.assemble((" and ".join(names) or "nobody", "bold"), " is playing")

    def _show_moves(self) -> None:
        """The numbered legal actions of the person to move (none for anyone else), and the
        prompt, enabled only then; the person to move gets the focus."""
        state = self.local.state
        listing = self.query_one("#legal", OptionList)
        prompt = self.query_one("#notation", Input)
        seat = self.person_seat()
        legal = list(state.legal_actions(seat)) if seat is not None else []
        self.moves = legal[:LEGAL_SHOWN]
        texts = [state.action_to_string(a) for a in self.moves]
        listing.clear_options()
        listing.add_options([Option(line) for line in legal_lines(texts, len(legal))])
        if len(legal) > len(self.moves):
            listing.disable_option_at_index(len(self.moves))
        listing.disabled = seat is None or not self.moves
        prompt.disabled = seat is None
        if self.moves:
            listing.highlighted = 0
        if seat is not None and self.focused not in (listing, prompt):
            back = listing if self.input_focus == "#legal" and self.moves else prompt
            back.focus()

    def on_key(self, event: events.Key) -> None:
        """A character typed on the list, other than a key of its own (1-9, H), starts a
        move in notation: the focus goes to the prompt with the character, so the letters
        are not lost and Enter plays what was typed, not the highlighted move."""
        listing = self.query_one("#legal", OptionList)
        prompt = self.query_one("#notation", Input)
        if (
            self.focused is listing
            and not prompt.disabled
            and event.is_printable
            and event.character
            and not event.character.isspace()
            and event.key not in self.bound_keys()
        ):
            event.stop()
            event.prevent_default()
            prompt.select_on_focus = False  # keep the character: typing goes on after it
            prompt.focus()
            prompt.value = event.character
            prompt.cursor_position = 1

    def bound_keys(self) -> set[str]:
        """The keys the screen binds (they keep their meaning on the list)."""
        return {
            key.strip()
            for binding in self.BINDINGS
            if isinstance(binding, Binding)
            for key in binding.key.split(",")
        }

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, Input):
            event.widget.select_on_focus = True  # Tab to the prompt selects what is there
        if event.widget.id in ("legal", "notation"):
            self.input_focus = f"#{event.widget.id}"

    def explain(self, text: str, *, warning: bool = True) -> None:
        self.message = text
        self.message_warning = warning
        if self.is_mounted:
            message = self.query_one("#message", Static)
            message.update(text)
            message.set_class(warning, "-warning")

    def score_rows(self) -> list[ScoreRow]:
        state = self.local.state
        scores = self.scores() or [0] * len(self.local.seats)
        over = state.is_terminal()
        winners = state.result().winners if over else ()
        to_move = () if over else state.actors()
        return [
            ScoreRow(seat.name, scores[i], turn=i in to_move, won=i in winners)
            for i, seat in enumerate(self.local.seats)
        ]

    def headline(self) -> str:
        result = self.local.state.result()
        names = " and ".join(self.local.seats[w].name for w in result.winners)
        if len(result.winners) > 1:
            return f"shared win: {names}"
        points = result.scores[result.winners[0]]
        return f"{names} wins with {points:,} point{'' if points == 1 else 's'}"

    # --- moves --------------------------------------------------------------------------

    def action_choose(self, index: int) -> None:
        """1-9, or Enter on the list: play the listed move *index* (0-based)."""
        if self._refused():
            return
        if not 0 <= index < len(self.moves):
            self.explain(f"There is no move {index + 1}: {len(self.moves)} are listed.")
            return
        self.play(self.moves[index])

    @on(OptionList.OptionSelected, "#legal")
    def _listed_move(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose(event.option_index)

    @on(Input.Submitted, "#notation")
    def _typed_move(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self._refused() or not text:
            return
        state = self.local.state
        try:
            action = state.parse_action(text, player=self.person_seat())
        except ParlourError as err:
            self.explain(_refusal(text, str(err)))
            return
        if self.play(action):
            event.input.value = ""

    def _refused(self) -> bool:
        """True (and says why) when a person may not move now."""
        if self.local.state.is_terminal():
            self.explain("The game is over.")
            return True
        if self.waiting or self.person_seat() is None:
            self.explain("Wait: it is not a person's move.", warning=False)
            return True
        return False

    def preview(self, action: Action) -> None:
        name = self.seat_name(self.local.to_move())
        self.explain(f"{name} plays {self.local.state.action_to_string(action)}", warning=False)

    def after(self, player: int, action: Action, before: State) -> None:
        if player >= 0 and player not in self.local.bots:
            self.message = ""
        self._write_history(player, action, before, self.local.state)

    def _write_history(self, player: int, action: Action, before: State, now: State) -> None:
        """One log line per event, ``who: move`` (names are plain text, never markup), and
        the end of the game."""
        log = self.query_one("#history", RichLog)
        number = len(now.history)
        log.write(
            Text.assemble(
                (f"{number:>4}  ", "dim"),
                (self.seat_name(player), "bold"),
                ": ",
                before.action_to_string(action),
            )
        )
        if now.is_terminal():
            log.write(Text.assemble(("      Game over: ", "bold"), self.headline()))

    def reset(self) -> None:
        self.message = ""
        self.query_one("#history", RichLog).clear()


class GenericApp(TableApp):
    """The generic app: :class:`GenericScreen` with its stylesheet."""

    CSS_PATH = "generic.tcss"
    SCREEN = GenericScreen


def make_app(local: GameSource, settings: TableSettings, **kw: Any) -> GenericApp:
    """The app for *local*, a game of any kind (the registry's fallback for a game whose
    ``GameSpec.terminal_app`` is ``""``)."""
    return GenericApp(local, settings, **kw)


def _refusal(text: str, reason: str) -> str:
    """The line shown for typed *text* the game's notation refused with *reason*, saying
    the text once: "'jump' is not a move: write add <n>" whether or not the game's reason
    starts by quoting it."""
    quoted = repr(text)
    if reason.startswith(f"{quoted}: "):
        reason = reason[len(quoted) + 2 :]
    elif reason.startswith(quoted):
        return reason
    return f"{quoted} is not a move: {reason}"
