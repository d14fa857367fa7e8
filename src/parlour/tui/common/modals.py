"""Modal screens every game's app uses: a yes/no confirm, help from a Markdown file, the
game-over scoreboard, and a file-name prompt for saving the record.

Each is a ``ModalScreen`` that returns a value through ``dismiss`` (Textual's pattern): push
it with a callback, ``self.app.push_screen(ConfirmScreen("End the game?"), on_answer)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, Static

from parlour.tui.common.scoreboard import Scoreboard, ScoreRow


class ConfirmScreen(ModalScreen[bool]):
    """Ask a yes/no question; dismisses with ``True`` (Y, Enter on Yes) or ``False`` (N, Esc)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 60; height: auto; padding: 1 2; border: thick $warning; background: $surface;
    }
    ConfirmScreen #question { width: 100%; margin-bottom: 1; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: center; }
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
        with Vertical():
            yield Label(self.question, id="question", markup=False)
            with Horizontal():
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


class SaveRecordScreen(ModalScreen[Path | None]):
    """Ask where to save the game record; ``save`` writes it and returns the path written,
    or raises ``OSError``, whose reason is shown so the player can pick another name. An
    existing file is replaced only when Enter is pressed again on the same name.
    Dismisses with the path, or ``None`` on Esc."""

    DEFAULT_CSS = """
    SaveRecordScreen { align: center middle; }
    SaveRecordScreen > Vertical {
        width: 76; height: auto; padding: 1 2; border: thick $accent; background: $surface;
    }
    SaveRecordScreen #error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: Path, save: Callable[[Path], Path]) -> None:
        super().__init__()
        self.default = default
        self.save = save
        self._replace: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Save the game record (JSON) to: Enter saves, Esc cancels")
            yield Input(str(self.default), id="path")
            yield Static("", id="error", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.query_one("#error", Static).update("Give a file name.")
            return
        target = Path(text).expanduser()
        if target.is_file() and target != self._replace:
            self._replace = target
            self.query_one("#error", Static).update(
                f"{text} exists: Enter again replaces it, or change the name."
            )
            return
        try:
            written = self.save(Path(text))
        except OSError as err:
            self.query_one("#error", Static).update(f"Cannot write {text}: {err.strerror or err}")
            return
        self.dismiss(written)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    """The final scoreboard. Dismisses with ``"record"`` (S: save the record), ``"again"``
    (F8: a new game with the same players) or ``"quit"`` (Q or Esc)."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical {
        width: 64; height: auto; padding: 1 2; border: thick $success; background: $surface;
    }
    GameOverScreen #headline { text-style: bold; width: 100%; content-align: center middle; }
    GameOverScreen Scoreboard { margin: 1 0; }
    GameOverScreen #saved { color: $success; height: auto; }
    GameOverScreen Horizontal { height: auto; align-horizontal: center; }
    GameOverScreen Button { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('record')", "Save record"),
        Binding("f8", "choose('again')", "Play again"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]

    def __init__(self, headline: str, rows: Sequence[ScoreRow], *, note: str = "") -> None:
        super().__init__()
        self.headline = headline
        self.rows = list(rows)
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.headline, id="headline", markup=False)
            yield Scoreboard(self.rows, title="Final scores")
            yield Static(self.note, id="saved", markup=False)
            with Horizontal():
                yield Button("Save record (S)", id="record", variant="primary")
                yield Button("Play again (F8)", id="again")
                yield Button("Quit (Q)", id="quit")

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
