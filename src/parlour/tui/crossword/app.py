"""The Crossword terminal game (``parlour play crossword``): hot-seat play in turns mode, with
computer players, on the shared table (:mod:`parlour.tui.common`).

:class:`CrosswordScreen` draws the board, the rack of the player to move, the scores, the bag
and the last plays; the shared :class:`~parlour.tui.common.table.TableScreen` draws the tiles
(chance), runs the computer players in a worker at a pace a person can follow, saves the game
whenever a person is to move, and offers the game record at the end. ``TableScreen.play`` is
the one door into the engine: a refused move is explained on screen and changes nothing.

Hot-seat: when two or more people share the keyboard, the rack of the player to move stays
hidden behind a curtain until they press Enter.

Playing a word: move the cursor with the arrows, Space turns it across/down, Enter opens the
prompt; type the word (it goes from the cursor) or a whole move (``QUACK H8 across``,
``exchange QV``, ``pass``, ``rack TSENIAR``). The preview shows the score and the words formed
as you type; Enter asks to confirm (Y). T lists the best plays for your rack (a hint).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, Static
from textual.widgets.input import Selection

from parlour.engine.errors import IllegalMove, InvalidNotation, ParlourError
from parlour.engine.state import Action, State
from parlour.games.crossword.board import ACROSS, CENTRE, DOWN, SIZE, Direction, square_name
from parlour.games.crossword.movegen import Move
from parlour.games.crossword.notation import Exchange, Pass, Play, Rearrange, parse
from parlour.games.crossword.plays import ScoredPlay
from parlour.games.crossword.state import TURNS, CrosswordState
from parlour.tui.common.modals import ConfirmScreen
from parlour.tui.common.scoreboard import Scoreboard, ScoreRow
from parlour.tui.common.source import SHADOW_BUILDERS, GameSource, ServerTable
from parlour.tui.common.table import TableApp, TableScreen, TableSettings
from parlour.tui.crossword.shadow import crossword_shadow
from parlour.tui.crossword.widgets import BoardArea, BoardPicture, BoardView, PlayLog, RackView

HINTS = 10
"""How many plays the hint key lists."""


def interpret(text: str, cursor: int, direction: Direction) -> Action:
    """The move typed in the prompt: a lone word goes from the *cursor* in *direction*;
    anything else is crossword notation (``QUACK H8 across``, ``exchange QV``, ``pass``,
    ``rack TSENIAR``). Raises :class:`InvalidNotation`.

    >>> str(interpret("quack", 112, ACROSS)), str(interpret("pass", 0, DOWN))
    ('QUACK H8 across', 'pass')
    """
    words = text.split()
    if [w.lower() for w in words] in (["exchange"], ["rack"]):  # X or R, nothing typed yet
        what = "to put back" if words[0].lower() == "exchange" else "in their new order"
        raise InvalidNotation(f"{words[0].lower()}: type the tiles {what}")
    if len(words) == 1 and words[0].isalpha() and words[0].lower() not in ("pass", "skip"):
        return Play(words[0].upper(), cursor, direction)
    return parse(text, by_seat=True)  # a refusal lists a player's moves, not the host's


def describe(scored: ScoredPlay) -> str:
    """``QUACK H8 across: 20 points (QUACK 20; covers I)``."""
    words = ", ".join(f"{w.word} {w.points}" for w in scored.words)
    extra = "; bingo +50" if scored.bingo else ""
    cover = f"; covers {scored.covered}" if scored.covered else ""
    return f"{scored.play}: {scored.score} points ({words}{extra}{cover})"


def best_plays(state: CrosswordState, seat: int, count: int = HINTS) -> list[ScoredPlay]:
    """The *count* highest-scoring words for *seat*'s rack, each at its best square and
    direction, best first (ties in notation order): one word at many squares filled the list."""
    best: dict[str, Move] = {}
    for move in sorted(state.moves(seat), key=lambda m: (-m.score, str(m.play))):
        best.setdefault(move.word, move)
        if len(best) == count:
            break
    return [m.scored(state.board, state.rules) for m in best.values()]


class CrosswordScreen(TableScreen):
    """A game of Crossword at one table (see the module docstring).

    ``cursor`` and ``direction`` are where a typed word goes; ``revealed`` is the seat whose
    rack is shown (``None`` behind the curtain); ``ghost`` the tiles of the play being
    previewed (``(square, letter)``), ``preview_legal`` whether it is legal; ``hints`` the best
    plays the hint key found.
    """

    HELP_FILE = Path(__file__).with_name("help.md")
    AUTO_FOCUS = ""  # nothing focused: the keys belong to the table until the prompt opens
    # The board with the rack, the prompt and its preview under it needs 27 rows and, with
    # the scores beside it, 80 columns: below that the board scrolls (crossword.tcss).
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [  # noqa: RUF012 (as Textual)
        (0, "-very-narrow"),
        (60, "-narrow"),
        (80, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: list[tuple[int, str]] | None = [  # noqa: RUF012 (as Textual)
        (0, "-tiny"),
        (16, "-short"),
        (27, "-tall"),
    ]
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
        Binding("t", "hint", "Hint"),
        Binding("h", "help", "Help"),
        Binding("escape", "back", "Back / end game", show=False),
        Binding("f8", "restart", "Restart"),
        Binding("q", "quit_game", "Quit (saved)"),
        Binding("q", "leave_table", "Leave table"),  # at a server table
    ]
    LOCAL_ONLY = TableScreen.LOCAL_ONLY | {"quit_game"}

    def __init__(
        self,
        local: GameSource,
        settings: TableSettings,
        *,
        shuffle_rng: random.Random | None = None,
    ) -> None:
        super().__init__(local, settings)
        self.shuffle_rng = shuffle_rng or random.Random()
        self.cursor = CENTRE
        self.direction: Direction = ACROSS
        self.revealed: int | None = None
        self.ghost: tuple[tuple[int, str], ...] = ()
        self.preview_legal = True
        self.hints: list[ScoredPlay] = []

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        if self.remote is not None:  # the table, whose turn, the clock, the connection
            yield Header(show_clock=False)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                with BoardArea(id="board-area"):
                    yield BoardView(id="board")
                yield RackView(id="rack")
                yield Input(
                    placeholder="a word (from the cursor), QUACK H8 across, exchange QV, pass",
                    id="command",
                    select_on_focus=False,
                )
                yield Static("", id="preview")
            with Vertical(id="right"):
                yield Scoreboard(id="scores")
                yield Static("", id="bag")
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

    def acting(self) -> int:
        """The seat whose turn the screen shows: ``state.current_player()``, except at a
        server table, where it is this terminal's seat while it may act (the daily mode's
        seats act in any order), else another seat that may."""
        remote = self.remote
        if remote is None:
            return self.state.current_player()
        actors = self.state.actors()
        if remote.you is not None and remote.you in actors:
            return remote.you
        return actors[0] if actors else self.state.current_player()

    @property
    def hotseat(self) -> bool:
        """True when two or more people share the keyboard (racks are hidden between turns)."""
        return sum(1 for seat in range(len(self.local.seats)) if seat not in self.local.bots) >= 2

    def on_mount(self) -> None:
        self._log_shown = len(self.state.log)
        self.title = "Crossword"
        self.sub_title = self._house_rules()
        command = self.query_one("#command", Input)
        command.display = False
        command.disabled = True
        self.set_focus(None)
        self.run_worker(self._warm_up, thread=True, group="warm-up", exit_on_error=False)
        # Textual then calls TableScreen.on_mount too (every class's handler runs), which
        # starts the game: calling it here as well would start it twice

    def _warm_up(self) -> None:
        """Load the word graph in the background, so the first hint does not wait for it."""
        _ = self.state.generator

    def _house_rules(self) -> str:
        rules = self.state.rules
        parts = [f"lexicon {self.state.lexicon.name}"]
        if rules.cover_whole_word:
            parts.append("whole words may be covered")
        if rules.max_stack:
            parts.append(f"at most {rules.max_stack} tiles a square")
        if rules.premiums_in_cross_words:
            parts.append("premiums in cross words")
        return " · ".join(parts)

    # --- drawing ------------------------------------------------------------------------

    def show_state(self) -> None:
        """Redraw everything from the state."""
        state = self.state
        view = state.observation(None)
        self.query_one("#board", BoardView).show(
            BoardPicture(state.board, self.cursor, self.direction, self.ghost, self.preview_legal)
        )
        self.query_one(BoardArea).show_cursor(self.cursor, [sq for sq, _ in self.ghost])
        self.query_one("#scores", Scoreboard).show(self.score_rows())
        bag = Text(f"Bag: {view['bag']} tiles", style="bold")
        if view["covered"]:
            bag.append(f"\nCovered (out of the game): {len(view['covered'])}", style="dim")
        self.query_one("#bag", Static).update(bag)
        log = self.query_one("#log", PlayLog)
        if self.hints and self.revealed is not None:
            log.show_lines("Best plays (T again hides them)", [describe(s) for s in self.hints])
        else:
            log.show(self.names, view["log"])
        rack = self.query_one("#rack", RackView)
        seat = self.acting()
        if state.is_terminal():
            rack.show_message("The game is over.")
        elif seat < 0:
            rack.show_message("Drawing tiles...")
        elif self.remote is not None and self.remote.you not in (None, seat):
            you = self.remote.you  # a server table: this terminal's own rack, always
            rack.show_rack(self.names[you], state.racks[you], f"{self.names[seat]} to play")
        elif seat in self.local.bots:
            rack.show_message(f"{self.names[seat]} is thinking...")
        elif self.revealed == seat:
            rack.show_rack(self.names[seat], state.racks[seat])
        else:
            rack.show_curtain(self.names[seat])

    def score_rows(self) -> list[ScoreRow]:
        state = self.state
        over = state.is_terminal()
        winners = state.result().winners if over else ()
        to_move = state.actors()
        end = state.log[-1] if over and state.log else {}
        rows = []
        for seat, name in enumerate(self.names):
            if over:
                note = f"tiles left: {end.get('adjustments', [0] * len(self.names))[seat]:+d}"
            else:
                note = f"{len(state.racks[seat])} tiles"
            rows.append(
                ScoreRow(
                    name, state.scores[seat], turn=seat in to_move, won=seat in winners, note=note
                )
            )
        return rows

    def explain(self, text: str, *, warning: bool = True) -> None:
        """Show *text* under the prompt and as a notification."""
        if self.is_mounted:
            self.query_one("#preview", Static).update(Text(text, style="yellow" if warning else ""))
        self.notify(text, severity="warning" if warning else "information", timeout=4)

    # --- the loop (hooks of the shared table) -------------------------------------------

    def advance(self) -> None:
        seat = self.acting()
        if seat >= 0 and seat not in self.local.bots and not self.hotseat:
            self.revealed = seat  # one person at the keyboard: no curtain
        super().advance()

    def preview(self, action: Action) -> None:
        """Show the computer player's play on the board before it is made."""
        if isinstance(action, Play):
            try:
                scored = self.state.preview(action)
            except IllegalMove:
                return
            self.ghost = tuple(zip(action.squares(), action.word, strict=True))
            self.preview_legal = True
            seat = self.acting()
            self.query_one("#rack", RackView).show_message(
                f"{self.names[seat]} plays {describe(scored)}"
            )
            self.query_one("#board", BoardView).show(
                BoardPicture(self.state.board, self.cursor, self.direction, self.ghost, True)
            )

    def after(self, player: int, action: Action, before: State) -> None:
        if isinstance(action, Rearrange) or player < 0:
            return
        self.revealed = None
        self.hints = []
        self._clear_prompt()
        entry = self.state.log[len(before.log)] if isinstance(before, CrosswordState) else {}
        name = self.names[player]
        if entry.get("kind") == "play":
            self.explain(f"{name} played {entry['play']} for {entry['score']}", warning=False)
        elif entry.get("kind") == "exchange":
            self.explain(f"{name} exchanged {entry['count']} tiles", warning=False)
        elif entry.get("kind") == "pass":
            self.explain(f"{name} passed", warning=False)

    def rebuilt(self) -> None:
        """A server table's state was rebuilt from the observation: say what the plays
        since the last one shown were (the log's new entries), as :meth:`after` does, and
        close the prompt once one of them is this seat's own."""
        log = self.state.log
        remote = self.remote
        for entry in log[self._log_shown :]:
            name = self.names[int(entry["seat"])] if "seat" in entry else "?"
            if remote is not None and entry.get("seat") == remote.you:
                self._clear_prompt()  # the server took this seat's play: its preview goes
            if entry.get("kind") == "play":
                self.explain(f"{name} played {entry['play']} for {entry['score']}", warning=False)
            elif entry.get("kind") == "exchange":
                self.explain(f"{name} exchanged {entry['count']} tiles", warning=False)
            elif entry.get("kind") == "pass":
                self.explain(f"{name} passed", warning=False)
        if len(log) != self._log_shown:
            self.hints = []
        self._log_shown = len(log)

    _log_shown = 0

    def reset(self) -> None:
        self.revealed = None
        self.hints = []
        self.cursor = CENTRE
        self.direction = ACROSS
        self._clear_prompt()

    # --- the prompt ---------------------------------------------------------------------

    def _my_turn(self) -> int | None:
        """The seat of the person to move whose rack is showing, else None."""
        seat = self.acting()
        if self.waiting or seat < 0 or seat in self.local.bots or self.revealed != seat:
            return None
        return seat

    def _prompt_open(self) -> bool:
        return bool(self.query_one("#command", Input).display)

    def _open_prompt(self, text: str = "", selected: int | None = None) -> None:
        """Open the prompt with *text*; from *selected* on it is selected (typing replaces it)."""
        command = self.query_one("#command", Input)
        command.display = True
        command.disabled = False
        command.value = text
        command.cursor_position = len(text)
        if selected is not None:
            command.selection = Selection(selected, len(text))
        command.focus()
        self._preview(text)

    def _clear_prompt(self) -> None:
        command = self.query_one("#command", Input)
        command.value = ""
        command.display = False
        command.disabled = True
        self.set_focus(None)
        self.ghost = ()
        self.query_one("#preview", Static).update("")

    @on(Input.Changed, "#command")
    def _changed(self, event: Input.Changed) -> None:
        self._preview(event.value)

    def _preview(self, text: str) -> None:
        """Show what the typed move would do (nothing changes)."""
        line = self.query_one("#preview", Static)
        self.ghost = ()
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
                    self.ghost = tuple(zip(fits, action.word, strict=True))
                line.update(Text(f"{action}: {err}", style="red"))
            else:
                self.preview_legal = True
                self.ghost = tuple(zip(action.squares(), action.word, strict=True))
                line.update(Text(describe(scored) + "   Enter to play", style="green"))
        elif isinstance(action, (Exchange, Rearrange)) and (reason := self._refusal(action, seat)):
            line.update(Text(f"{action}: {reason}", style="red"))
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
                self.show_state()
            return
        if isinstance(action, Play):
            try:
                scored = self.state.preview(action, seat)
            except IllegalMove as err:
                self.explain(str(err))
                return
            question = f"Play {describe(scored)}?"
        elif isinstance(action, Exchange):
            reason = self._refusal(action, seat)
            if reason:
                self.explain(reason)
                return
            question = f"Exchange {action.tiles}? Your turn ends."
        elif isinstance(action, Pass):
            question = "Pass? Your turn ends with no points."
        else:
            self.explain(f"{action} is not a move you can make")
            return
        self.confirm(question, lambda: self.play(action))

    def _refusal(self, action: Action, seat: int) -> str | None:
        """Why the rules would refuse *action* by *seat* now, or ``None`` (tried on a copy of
        the state: nothing changes)."""
        try:
            self.state.clone().apply(action, player=seat)
        except IllegalMove as err:
            return str(err)
        return None

    def confirm(self, question: str, then: Callable[[], object]) -> None:
        """Ask *question*; on yes call *then*."""

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question, yes="Yes", no="No"), answered)

    # --- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while the prompt is open, Enter belongs to it and the letter keys are text
        if self.query_one("#command", Input).has_focus:
            return action in ("back", "move")
        return super().check_action(action, parameters)

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
        seat = self.acting()
        if self.waiting or seat < 0 or seat in self.local.bots:
            return
        if self.revealed != seat:
            self.revealed = seat
            self.query_one("#preview", Static).update("")  # a note from behind the curtain
            self.show_state()
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
            self._open_prompt(f"rack {self.state.racks[seat]}", selected=len("rack "))

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

    def action_hint(self) -> None:
        """T: list the best plays for the rack showing (T again goes back to the log)."""
        seat = self._my_turn()
        if seat is None:
            self.explain("A hint is for the player whose rack is showing.")
            return
        if self.hints:
            self.hints = []
        else:
            self.hints = best_plays(self.state, seat)
            if not self.hints:
                self.explain("No play is possible with this rack: exchange or pass.")
        self.show_state()

    def action_back(self) -> None:
        """Esc: close the prompt; with no prompt open, end the game (after a confirm)."""
        if self._prompt_open():
            self._clear_prompt()
            self.show_state()
            return
        self.action_end_game()

    def action_quit_game(self) -> None:
        """Q: save and quit; continue later with ``parlour play --resume``."""
        self.leave()


class CrosswordApp(TableApp):
    """The Crossword app: :class:`CrosswordScreen` with its stylesheet."""

    CSS_PATH = "crossword.tcss"
    TITLE = "Crossword"
    SCREEN = CrosswordScreen


def make_app(local: GameSource, settings: TableSettings) -> CrosswordApp:
    """The app factory the registry names (its ``GameSpec.terminal_app``). Raises
    :class:`ParlourError` for a local game in daily mode (the terminal takes turns in order;
    a server table in daily mode plays as on the server)."""
    if not isinstance(local, ServerTable) and local.game.options.get("turn_mode", TURNS) != TURNS:
        raise ParlourError(
            "the terminal game takes turns in order: leave out --turn-mode daily "
            "(one play a day is for server games: parlour connect)"
        )
    return CrosswordApp(local, settings)


SHADOW_BUILDERS["crossword"] = crossword_shadow
