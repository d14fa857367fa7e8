"""Modal screens every game's app uses: a yes/no confirm, help from a Markdown file, the
game-over scoreboard, and a file-name prompt for saving the record.

Each is a ``ModalScreen`` that returns a value through ``dismiss`` (Textual's pattern): push
it with a callback, ``self.app.push_screen(ConfirmScreen("End the game?"), on_answer)``.

The pop-ups with a frame are :class:`Dialog` screens, which fit any terminal from 40x12 up:
the frame shrinks to the screen, its text wraps, its body scrolls when it is taller than the
screen, and its buttons, docked under the body, stay in view; on a narrow or short terminal
the buttons lose their borders and, when narrow, stack one under the other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, Static

from parlour.tui.common.scoreboard import Scoreboard, ScoreRow

ResultT = TypeVar("ResultT")


class DialogFrame(VerticalScroll, can_focus=False):
    """A dialog's bordered frame: its body scrolls (mouse wheel, or ↑/↓ and PgUp/PgDn from
    any of its buttons) when it is taller than the screen. It never takes the focus itself,
    so the first button or field does, as in a frame that does not scroll."""


class DialogButtons(Horizontal):
    """A dialog's buttons, docked at the bottom of its frame so that they stay in view."""

    DEFAULT_CSS = """
    DialogButtons { dock: bottom; height: auto; align-horizontal: center; }
    """


class Dialog(ModalScreen[ResultT]):
    """A pop-up that fits any terminal from 40x12 up (see the module docstring).

    Compose one :class:`DialogFrame` (give it its ``width`` and ``border`` in CSS); put its
    buttons, if any, in a :class:`DialogButtons`. On a terminal narrower than
    ``NARROW_BELOW`` columns the screen has the class ``-narrow`` (less padding, buttons
    stacked), on one shorter than ``SHORT_BELOW`` rows ``-short`` (no padding above and
    below); in either, the buttons are compact (one row, no border).
    """

    NARROW_BELOW: ClassVar[int] = 60
    """Columns below which the dialog takes the ``-narrow`` look."""
    SHORT_BELOW: ClassVar[int] = 20
    """Rows below which the dialog takes the ``-short`` look."""

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > DialogFrame {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        padding: 1 2; background: $surface; scrollbar-size-vertical: 1;
    }
    Dialog.-narrow > DialogFrame { padding: 1 1; }
    Dialog.-short > DialogFrame { padding: 0 2; }
    Dialog.-narrow.-short > DialogFrame { padding: 0 1; }
    Dialog.-narrow DialogButtons { layout: vertical; margin-top: 1; }
    Dialog.-narrow.-short DialogButtons { margin-top: 0; }
    Dialog.-narrow DialogButtons Button { width: 100%; margin: 0; }
    """

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < self.NARROW_BELOW
        short = event.size.height < self.SHORT_BELOW
        self.set_class(narrow, "-narrow")
        self.set_class(short, "-short")
        for button in self.query(Button):
            button.compact = narrow or short


class ConfirmScreen(Dialog[bool]):
    """Ask a yes/no question; dismisses with ``True`` (Y, Enter on Yes) or ``False`` (N, Esc)."""

    DEFAULT_CSS = """
    ConfirmScreen > DialogFrame { width: 60; border: thick $warning; }
    ConfirmScreen #question { width: 100%; margin-bottom: 1; }
    ConfirmScreen Button { margin: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with DialogFrame():
            yield Label(self.question, id="question", markup=False)
            with DialogButtons():
                yield Button(f"{self.yes} (Y)", variant="warning", id="yes")
                yield Button(f"{self.no} (N)", variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        """Close with *answer*."""
        self.dismiss(answer)


class HelpScreen(ModalScreen[None]):
    """A Markdown file (the game's rules and keys, shipped as package data) in a scrolling
    panel; Esc, H or Q closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%; border: thick $primary; background: $surface;
        padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,h,q", "close", "Close help")]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as err:
            text = f"# Help\n\nThe help file {self.path} could not be read: {err.strerror}."
        with VerticalScroll():
            yield Markdown(text, id="help-text")

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)


class _Message(Static):
    """A message that wraps to as many lines as it needs and scrolls itself into view each
    time it is laid out anew (a long path on a small terminal: the dialog's body scrolls)."""

    def on_resize(self, _event: events.Resize) -> None:
        self.scroll_visible(animate=False)


class SaveRecordScreen(Dialog[Path | None]):
    """Ask where to save the game record; ``save`` writes it and returns the path written,
    or raises ``OSError``, whose reason is shown so the player can pick another name. An
    existing file is replaced only when Enter is pressed again on the same name.
    Dismisses with the path, or ``None`` on Esc."""

    DEFAULT_CSS = """
    SaveRecordScreen > DialogFrame { width: 76; border: thick $accent; }
    SaveRecordScreen #prompt { width: 100%; }
    SaveRecordScreen #error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: Path, save: Callable[[Path], Path]) -> None:
        super().__init__()
        self.default = default
        self.save = save
        self._replace: Path | None = None

    def compose(self) -> ComposeResult:
        with DialogFrame():
            yield Label("Save the game record (JSON) to: Enter saves, Esc cancels", id="prompt")
            yield Input(str(self.default), id="path")
            yield _Message("", id="error", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self._say("Give a file name.")
            return
        target = Path(text).expanduser()
        if target.is_file() and target != self._replace:
            self._replace = target
            self._say(f"{text} exists: Enter again replaces it, or change the name.")
            return
        try:
            written = self.save(Path(text))
        except OSError as err:
            self._say(f"Cannot write {text}: {err.strerror or err}")
            return
        self.dismiss(written)

    def _say(self, message: str) -> None:
        """Show *message* under the field (:class:`_Message` scrolls it into view)."""
        self.query_one("#error", Static).update(message)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)


class GameOverScreen(Dialog[str]):
    """The final scoreboard. Dismisses with ``"record"`` (S: save the record), ``"again"``
    (F8: a new game with the same players), ``"quit"`` (Q) or ``"close"`` (Esc: the box
    only). *at_server*: a server table's game, whose record is the server's and which is
    not played again here: S says where the record is, Q leaves the table, no F8."""

    NARROW_BELOW = 64  # its three buttons side by side need the frame's 64 columns
    DEFAULT_CSS = """
    GameOverScreen > DialogFrame { width: 64; border: thick $success; }
    GameOverScreen #headline { text-style: bold; width: 100%; content-align: center middle; }
    GameOverScreen Scoreboard { margin: 1 0; }
    GameOverScreen #saved { color: $success; height: auto; }
    GameOverScreen Button { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('record')", "Save record"),
        Binding("f8", "choose('again')", "Play again"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "choose('close')", "Close"),  # the box only: the board shows
    ]

    def __init__(
        self, headline: str, rows: Sequence[ScoreRow], *, note: str = "", at_server: bool = False
    ) -> None:
        super().__init__()
        self.headline = headline
        self.rows = list(rows)
        self.note = note
        self.at_server = at_server

    def compose(self) -> ComposeResult:
        with DialogFrame():
            yield Label(self.headline, id="headline", markup=False)
            yield Scoreboard(self.rows, title="Final scores")
            yield Static(self.note, id="saved", markup=False)
            with DialogButtons():
                if self.at_server:
                    yield Button("Record (S)", id="record", variant="primary")
                    yield Button("Leave table (Q)", id="quit")
                else:
                    yield Button("Save record (S)", id="record", variant="primary")
                    yield Button("Play again (F8)", id="again")
                    yield Button("Quit (Q)", id="quit")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No F8 (play again) at a server table."""
        return not (self.at_server and parameters == ("again",))

    def show_note(self, text: str) -> None:
        """Show *text* (where the record was saved) under the scoreboard."""
        self.note = text
        self.query_one("#saved", Static).update(text)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, choice: str) -> None:
        """Close with *choice*."""
        self.dismiss(choice)
