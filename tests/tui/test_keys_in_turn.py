"""Keys typed in a burst right after a prompt or a dialog opens all arrive, in order, where
the key before them put the focus (``parlour.tui.common.keys``).

Each test sends its keys with :func:`~tests.tui.helpers.type_fast`: all are read before the
first is handled, as a terminal delivers a fast typist's keys through tmux or SSH. Before
:class:`~parlour.tui.common.keys.KeysInTurn` the keys after the one that opened a prompt
went to the screen behind it (``w`` then ``h8 cake`` opened the crossword's help).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static

from parlour.tui.common.keys import KeysInTurn
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, HelpScreen, SaveRecordScreen
from parlour.tui.common.scoreboard import ScoreRow
from parlour.tui.common.table import TableExit
from parlour.tui.ten_thousand.app import TenThousandScreen
from tests.tui.helpers import screen, settle, ten_thousand_app, text, type_fast
from tests.tui.test_crossword_app import SIZE as CROSSWORD_SIZE
from tests.tui.test_crossword_app import crossword_app, table
from tests.tui.test_modals import _lay_off, _summary

# --- the dialogs, opened by a key and answered by the next ones at once ----------------


class _Host(KeysInTurn[None]):
    """O opens the dialog under test; its answers are kept in ``results``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("o", "open", "Open")]

    def __init__(self, dialog: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("host")

    def action_open(self) -> None:
        self.push_screen(self.dialog(), self.results.append)


ROWS = [ScoreRow("ann", 500, won=True), ScoreRow("bob", 300)]


@pytest.mark.parametrize(
    ("dialog", "keys", "answers"),
    [
        (lambda: ConfirmScreen("Sure?"), ["o", "y", "o", "n", "o", "escape"], [True, False, False]),
        (lambda: HelpScreen(TenThousandScreen.HELP_FILE), ["o", "q", "o", "h"], [None, None]),
        (lambda: GameOverScreen("ann wins", ROWS), ["o", "s", "o", "f8"], ["record", "again"]),
        (_summary, ["o", "enter", "o", "space"], [None, None]),
        (_lay_off, ["o", "2", "o", "down", "down", "enter", "o", "escape"], [1, 2, None]),
    ],
    ids=["confirm", "help", "game over", "round summary", "lay off"],
)
async def test_a_dialog_takes_the_keys_typed_as_it_opens(
    dialog: Callable[[], Screen[Any]], keys: list[str], answers: list[Any]
) -> None:
    app = _Host(dialog)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_fast(pilot, *keys)
        assert app.results == answers
        assert not isinstance(app.screen, type(dialog()))  # the last one closed too


async def test_the_save_record_field_takes_a_name_typed_as_it_opens(tmp_path: Path) -> None:
    target = tmp_path / "mine.json"
    app = _Host(lambda: SaveRecordScreen(tmp_path / "default.json", lambda path: path))
    async with app.run_test(size=(80, 24)) as pilot:
        # the default name is selected when the field takes the focus: typing replaces it
        await type_fast(pilot, "o", *str(target), "enter")
        assert app.results == [target]


# --- prompts at the table ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "prompt"),
    [
        (["w", "h", "8", "space", "c", "a", "k", "e"], "h8 cake"),
        (["x", "q", "z"], "exchange qz"),  # X opens the prompt with "exchange "
        (["r", "u", "q", "k", "a", "c", "e", "i"], "rack uqkacei"),  # the rack is selected
    ],
    ids=["word", "exchange", "rearrange"],
)
async def test_the_crossword_prompt_takes_the_keys_typed_as_it_opens(
    keys: list[str], prompt: str
) -> None:
    app = crossword_app(players="ann,cpu:easy")
    async with app.run_test(size=CROSSWORD_SIZE) as pilot:
        await settle(pilot)
        await type_fast(pilot, *keys)
        command = table(app).query_one("#command", Input)
        assert app.focused is command
        assert command.value == prompt


async def test_help_closed_and_a_prompt_opened_in_one_burst() -> None:
    app = crossword_app(players="ann,cpu:easy")
    async with app.run_test(size=CROSSWORD_SIZE) as pilot:
        await settle(pilot)
        await type_fast(pilot, "h", "escape", "w", "q", "i")  # Q quits, but not in the prompt
        assert app.return_value is None
        assert table(app).query_one("#command", Input).value == "qi"


async def test_escape_and_yes_typed_together_end_the_game() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 1 1 2 3 4"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await type_fast(pilot, "escape", "y")
    assert isinstance(app.return_value, TableExit)
    assert app.return_value.outcome == "saved"


async def test_dice_picked_right_after_help_closes() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 1 1 2 3 4"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await type_fast(pilot, "r", "h", "escape", "1", "2", "3")
        assert screen(app).selected == {0, 1, 2}
        assert "Selected 1 1 1 = 1,000" in text(app, "#selection")
