"""The Crossword terminal game: hot-seat play in turns mode (``parlour play crossword``).

One :class:`CrosswordTable` screen drives a :class:`~parlour.session.LocalGame`: it draws the
board, the rack of the player to move, the scores, the bag and the last plays; it applies the
tile draws (chance) itself, lets computer players think in a thread worker, and saves the game
whenever a person is to move and when leaving. :meth:`CrosswordTable.play` is the one door
into the engine: a refused move is explained on screen and changes nothing.

Hot-seat: when two or more people share the keyboard, the rack of the player to move stays
hidden behind a curtain until they press Enter.

Playing a word: move the cursor with the arrows, Space turns it across/down, Enter opens the
prompt; type the word (it goes from the cursor) or a whole move (``QUACK H8 across``,
``exchange QV``, ``pass``, ``rack TSENIAR``). The preview shows the score and the words formed
as you type; Enter asks to confirm.

This package is self-contained so it can move onto the shared table of
``parlour.tui.common`` when that lands: ``CrosswordTable`` has the same shape (``advance``,
``play``, ``show_state``, ``explain``, ``autosave``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Label, Markdown, Static

from parlour.engine.errors import IllegalMove, InvalidNotation, ParlourError
from parlour.engine.state import CHANCE, Action, State
from parlour.games.crossword.board import ACROSS, DOWN, SIZE, Direction, square_name
from parlour.games.crossword.notation import Exchange, Pass, Play, Rearrange, parse
from parlour.games.crossword.rules import ScoredPlay
from parlour.games.crossword.state import CrosswordState
from parlour.session import LocalGame
from parlour.tui.crossword.widgets import (
    BoardPicture,
    BoardView,
    PlayLog,
    RackView,
    ScorePanel,
)

HELP_FILE = Path(__file__).with_name("help.md")
ChanceDraw = Callable[[State], Action]
"""Draws the chance outcome for a state at a chance node (default: the game's own rng)."""


@dataclass(frozen=True)
class CrosswordExit:
    """How the app ended: ``outcome`` is ``"saved"`` (can be resumed), ``"finished"`` or
    ``"unsaved"`` (no database, or saving failed); ``save_id`` the save's id."""

    outcome: str
    save_id: int | None


def interpret(text: str, cursor: int, direction: Direction) -> Action:
    """The move typed in the prompt: a lone word goes from the *cursor* in *direction*;
    anything else is crossword notation (``QUACK H8 across``, ``exchange QV``, ``pass``,
    ``rack TSENIAR``). Raises :class:`InvalidNotation`.

    >>> str(interpret("quack", 112, ACROSS)), str(interpret("pass", 0, DOWN))
    ('QUACK H8 across', 'pass')
    """
    words = text.split()
    if len(words) == 1 and words[0].isalpha() and words[0].lower() not in ("pass", "skip"):
        return Play(words[0].upper(), cursor, direction)
    return parse(text)


def describe(scored: ScoredPlay) -> str:
    """``QUACK H8 across: 20 points (QUACK 20; covers I)``."""
    words = ", ".join(f"{w.word} {w.points}" for w in scored.words)
    extra = "; bingo +50" if scored.bingo else ""
    cover = f"; covers {scored.covered}" if scored.covered else ""
    return f"{scored.play}: {scored.score} points ({words}{extra}{cover})"


# --- modal screens ----------------------------------------------------------------------------


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: Y or Enter says yes, N or Esc no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="question")
            yield Label("Y / Enter: yes     N / Esc: no", id="keys")

    def action_answer(self, answer: bool) -> None:
        """Close with *answer*."""
        self.dismiss(answer)


class HelpScreen(ModalScreen[None]):
    """The rules, tile values and keys (``help.md``); Esc, H or Q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,h,q", "close", "Close help")]

    def compose(self) -> ComposeResult:
        try:
            text = HELP_FILE.read_text(encoding="utf-8")
        except OSError as err:
            text = f"# Help\n\n{HELP_FILE} could not be read: {err.strerror}."
        with VerticalScroll(id="dialog"):
            yield Markdown(text)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)


class GameOverScreen(ModalScreen[None]):
    """The final scores; Enter, Q or Esc closes the game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,q,escape", "close", "Close")]

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.text, id="final")
            yield Label("Enter / Q: close", id="keys")

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)


class BotChose(Message):
    """Posted from the worker thread with a computer player's choice (or its error)."""

    def __init__(self, generation: int, action: Action | None, error: str = "") -> None:
        super().__init__()
        self.generation = generation
        self.action = action
        self.error = error


# --- the table --------------------------------------------------------------------------------


class CrosswordTable(Screen[None]):
    """A game of Crossword at one table (see the module docstring).

    ``cursor`` and ``direction`` are where a typed word goes; ``revealed`` is the seat whose
    rack is shown (``None`` behind the curtain); ``preview`` the play being previewed.
    """

    AUTO_FOCUS = None
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("space", "turn", "Across/down"),
        Binding("enter,w", "word", "Play a word"),
        Binding("x", "prompt('exchange ')", "Exchange"),
        Binding("p", "pass_turn", "Pass"),
        Binding("s", "shuffle", "Shuffle"),
        Binding("r", "rearrange", "Rearrange"),
        Binding("escape", "close_prompt", "Back", show=False),
        # issue 6 adds the hint here, on a key other than H, e.g.
        # Binding("t", "hint", "Hint"), whose action lists the best plays with show_hints()
        Binding("h", "help", "Help"),
        Binding("q", "quit_game", "Quit (saved)"),
    ]

    def __init__(
        self,
        local: LocalGame,
        *,
        database: Engine | None = None,
        chance: ChanceDraw | None = None,
        shuffle_rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.local = local
        self.database = database
        self.chance = chance
        self.shuffle_rng = shuffle_rng or random.Random()
        self.cursor = 7 * SIZE + 7
        self.direction: Direction = ACROSS
        self.revealed: int | None = None
        self.preview: tuple[tuple[int, str], ...] = ()
        self.preview_legal = True
        self.generation = 0
        self.thinking = False
        self.save_error: str | None = None
        self._over_shown = False

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield RackView(id="rack")
                yield Input(
                    placeholder="a word (from the cursor), QUACK H8 across, exchange QV, pass",
                    id="command",
                    select_on_focus=False,
                )
                yield Static("", id="preview")
            with Vertical(id="right"):
                yield ScorePanel(id="scores")
                yield PlayLog(id="log")
        yield Footer()

    @property
    def state(self) -> CrosswordState:
        """The game state (read it; change it only through :meth:`play`)."""
        state = self.local.state
        assert isinstance(state, CrosswordState)
        return state

    @property
    def names(self) -> list[str]:
        """The players' names by seat."""
        return [s.name for s in self.local.seats]

    @property
    def hotseat(self) -> bool:
        """True when two or more people share the keyboard (racks are hidden between turns)."""
        return sum(1 for seat in range(len(self.local.seats)) if seat not in self.local.bots) >= 2

    def on_mount(self) -> None:
        command = self.query_one("#command", Input)
        command.display = False
        command.disabled = True
        self.set_focus(None)
        self.advance()

    # --- drawing ------------------------------------------------------------------------

    def show_state(self) -> None:
        """Redraw everything from the state."""
        state = self.state
        view = state.observation(None)
        self.query_one("#board", BoardView).show(
            BoardPicture(state.board, self.cursor, self.direction, self.preview, self.preview_legal)
        )
        self.query_one("#scores", ScorePanel).show(self.names, view, state.actors())
        self.query_one("#log", PlayLog).show(self.names, view["log"])
        rack = self.query_one("#rack", RackView)
        seat = state.current_player()
        if state.is_terminal():
            rack.show_message("The game is over.")
        elif seat < 0:
            rack.show_message("Drawing tiles...")
        elif seat in self.local.bots:
            rack.show_message(f"{self.names[seat]} is thinking...")
        elif self.revealed == seat:
            rack.show_rack(self.names[seat], state.racks[seat])
        else:
            rack.show_curtain(self.names[seat])

    def explain(self, text: str, *, warning: bool = True) -> None:
        """Show *text* under the prompt and as a notification."""
        self.query_one("#preview", Static).update(Text(text, style="yellow" if warning else ""))
        self.notify(text, severity="warning" if warning else "information", timeout=4)

    def show_hints(self, plays: list[ScoredPlay]) -> None:
        """List *plays* (best first) in the log panel: for the hint key of issue 6."""
        self.query_one("#log", PlayLog).show_lines("Best plays", [describe(s) for s in plays])

    # --- the loop -----------------------------------------------------------------------

    def advance(self) -> None:
        """Apply draws, start computer players, and wait for a person, redrawing as it goes."""
        state = self.state
        while state.is_chance_node():
            outcome = self.chance(state) if self.chance else state.sample_chance(self.local.rng)
            try:
                state.apply(outcome, player=CHANCE)
            except ParlourError as err:
                self.explain(f"no tiles could be drawn: {err}")
                return
        self.show_state()
        if state.is_terminal():
            self.finish()
        elif self.local.bot_to_move():
            self.thinking = True
            self._choose(self.generation, self.local)
        else:
            if not self.hotseat:
                self.revealed = state.current_player()
                self.show_state()
            self.autosave()

    @work(thread=True, group="bot", exit_on_error=False)
    def _choose(self, generation: int, local: LocalGame) -> None:
        try:
            action = local.bot_choice()
        except Exception as err:  # a faulty bot must not take the table down
            self.post_message(BotChose(generation, None, str(err)))
            return
        self.post_message(BotChose(generation, action))

    def on_bot_chose(self, message: BotChose) -> None:
        if message.generation != self.generation:
            return
        self.thinking = False
        if message.action is None:
            self.explain(f"the computer player failed ({message.error}); the game is saved")
            self.autosave()
            return
        self.play(message.action)

    def play(self, action: Action, *, player: int | None = None) -> bool:
        """Apply *action* for the player to move (or *player*): the one door into the
        engine. A refused move is explained and changes nothing. Returns whether it was
        applied."""
        state = self.state
        seat = state.current_player() if player is None else player
        try:
            state.apply(action, player=player)
        except ParlourError as err:
            self.explain(str(err))
            return False
        if not isinstance(action, Rearrange):
            self.revealed = None
            self._clear_prompt()
            entry = state.log[-1] if state.log else {}
            if entry.get("kind") == "play":
                self.explain(
                    f"{self.names[seat]} played {entry['play']} for {entry['score']}", warning=False
                )
        self.advance()
        return True

    def finish(self) -> None:
        """The game is over: save it and show the final scores."""
        if self._over_shown:
            return
        self._over_shown = True
        self.autosave()
        state = self.state
        result = state.result()
        text = Text("Game over\n\n", style="bold")
        adjust = state.log[-1].get("adjustments", [0] * len(self.names))
        for seat, name in enumerate(self.names):
            mark = "★ " if seat in result.winners else "  "
            text.append(
                f"{mark}{name:<16}{result.scores[seat]:>6}", style="bold" if mark.strip() else ""
            )
            text.append(f"   (tiles left: {adjust[seat]:+d})\n", style="dim")
        self.app.push_screen(GameOverScreen(text), lambda _: self.leave())

    # --- saving and leaving -------------------------------------------------------------

    def autosave(self) -> None:
        """Save the game (if there is a database); a failure is shown, not raised."""
        if self.database is None:
            return
        try:
            self.local.save(self.database)
        except (SQLAlchemyError, OSError) as err:
            self.save_error = str(err)
            self.explain(f"could not save the game: {err}")
        else:
            self.save_error = None

    def exit_info(self) -> CrosswordExit:
        """Save, and say how the app ends."""
        self.autosave()
        if self.database is None or self.save_error is not None:
            return CrosswordExit("unsaved", self.local.save_id)
        done = self.local.state.is_terminal()
        return CrosswordExit("finished" if done else "saved", self.local.save_id)

    def leave(self) -> None:
        """Save and close the app."""
        self.generation += 1
        self.app.exit(self.exit_info())

    # --- the prompt ---------------------------------------------------------------------

    def _my_turn(self) -> int | None:
        """The seat of the person to move whose rack is showing, else None."""
        seat = self.state.current_player()
        if seat >= 0 and seat not in self.local.bots and self.revealed == seat:
            return seat
        return None

    def _open_prompt(self, text: str = "") -> None:
        command = self.query_one("#command", Input)
        command.display = True
        command.disabled = False
        command.value = text
        command.cursor_position = len(text)
        command.focus()
        self._preview(text)

    def _clear_prompt(self) -> None:
        command = self.query_one("#command", Input)
        command.value = ""
        command.display = False
        command.disabled = True
        self.set_focus(None)
        self.preview = ()
        self.query_one("#preview", Static).update("")

    @on(Input.Changed, "#command")
    def _changed(self, event: Input.Changed) -> None:
        self._preview(event.value)

    def _preview(self, text: str) -> None:
        """Show what the typed move would do (nothing changes)."""
        line = self.query_one("#preview", Static)
        self.preview = ()
        seat = self._my_turn()
        if seat is None or not text.strip():
            line.update("")
            self.show_state()
            return
        try:
            action = interpret(text, self.cursor, self.direction)
        except InvalidNotation as err:
            line.update(Text(str(err), style="dim"))
            self.show_state()
            return
        if isinstance(action, Play):
            fits = [sq for sq in action.squares() if 0 <= sq < SIZE * SIZE]
            try:
                scored = self.state.preview(action, seat)
            except IllegalMove as err:
                self.preview_legal = False
                same_line = action.direction is DOWN or len({sq // SIZE for sq in fits}) == 1
                if len(fits) == len(action.word) and same_line:
                    self.preview = tuple(zip(fits, action.word, strict=True))
                line.update(Text(f"{action}: {err}", style="red"))
            else:
                self.preview_legal = True
                self.preview = tuple(zip(action.squares(), action.word, strict=True))
                line.update(Text(describe(scored) + "   Enter to play", style="green"))
        elif isinstance(action, Exchange):
            line.update(f"exchange {action.tiles}: new tiles for these, and your turn ends")
        elif isinstance(action, Pass):
            line.update("pass: your turn ends, no points")
        elif isinstance(action, Rearrange):
            line.update(f"rearrange your rack as {action.rack}")
        else:
            line.update(Text(f"{action} is not a move you can make", style="red"))
        self.show_state()

    @on(Input.Submitted, "#command")
    def _submitted(self, event: Input.Submitted) -> None:
        seat = self._my_turn()
        if seat is None:
            return
        try:
            action = interpret(event.value, self.cursor, self.direction)
        except InvalidNotation as err:
            self.explain(str(err))
            return
        if isinstance(action, Rearrange):
            if self.play(action, player=seat):
                self._clear_prompt()
            return
        if isinstance(action, Play):
            try:
                scored = self.state.preview(action, seat)
            except IllegalMove as err:
                self.explain(str(err))
                return
            question = f"Play {describe(scored)}?"
        elif isinstance(action, Exchange):
            question = f"Exchange {action.tiles}? Your turn ends."
        elif isinstance(action, Pass):
            question = "Pass? Your turn ends with no points."
        else:
            self.explain(f"{action} is not a move you can make")
            return
        self.confirm(question, lambda: self.play(action))

    def confirm(self, question: str, then: Callable[[], object]) -> None:
        """Ask *question*; on yes call *then*."""

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question), answered)

    # --- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while the prompt is open, Enter belongs to it and the letter keys are text
        if self.query_one("#command", Input).has_focus:
            return action in ("close_prompt", "move")
        return True

    def action_move(self, dx: int, dy: int) -> None:
        """Move the cursor."""
        row, col = divmod(self.cursor, SIZE)
        row = min(SIZE - 1, max(0, row + dy))
        col = min(SIZE - 1, max(0, col + dx))
        self.cursor = row * SIZE + col
        self._preview(self.query_one("#command", Input).value)

    def action_turn(self) -> None:
        """Turn the cursor across/down."""
        self.direction = DOWN if self.direction is ACROSS else ACROSS
        self._preview(self.query_one("#command", Input).value)
        self.notify(f"words go {self.direction.value} from {square_name(self.cursor)}", timeout=2)

    def action_word(self) -> None:
        """Enter: take the turn (lift the curtain), or open the prompt."""
        seat = self.state.current_player()
        if seat < 0 or seat in self.local.bots or self.thinking:
            return
        if self.revealed != seat:
            self.revealed = seat
            self.show_state()
            self.autosave()
            return
        self._open_prompt()

    def action_prompt(self, text: str) -> None:
        """Open the prompt with *text* typed (``exchange ``)."""
        if self._my_turn() is not None:
            self._open_prompt(text)

    def action_rearrange(self) -> None:
        """Open the prompt to type the rack in a new order."""
        seat = self._my_turn()
        if seat is not None:
            self._open_prompt(f"rack {self.state.racks[seat]}")

    def action_shuffle(self) -> None:
        """Shuffle the rack (a rearrangement: no penalty, the order is kept)."""
        seat = self._my_turn()
        if seat is None:
            return
        tiles = list(self.state.racks[seat])
        self.shuffle_rng.shuffle(tiles)
        self.play(Rearrange("".join(tiles)), player=seat)

    def action_pass_turn(self) -> None:
        """Pass, after a confirm."""
        if self._my_turn() is not None:
            self.confirm("Pass? Your turn ends with no points.", lambda: self.play(Pass()))

    def action_close_prompt(self) -> None:
        """Esc: close the prompt."""
        self._clear_prompt()
        self.show_state()

    def action_help(self) -> None:
        """Show the rules, tile values and keys."""
        self.app.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        """Q: save and quit; continue later with ``parlour play crossword --resume``."""
        self.leave()


class CrosswordApp(App[CrosswordExit]):
    """The app shell around :class:`CrosswordTable` (``app.table``); Ctrl+Q saves and quits."""

    CSS_PATH = "crossword.tcss"
    TITLE = "parlour: Crossword"
    AUTO_FOCUS = None

    def __init__(self, local: LocalGame, **table: Any) -> None:
        super().__init__()
        self.table = CrosswordTable(local, **table)

    def on_mount(self) -> None:
        self.push_screen(self.table)

    async def action_quit(self) -> None:
        """Ctrl+Q: save and quit."""
        self.table.leave()
