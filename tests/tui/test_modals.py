"""Every pop-up fits the terminal, from 40x12 up: its frame inside the screen, its buttons
(or field, or key line) wholly in view and labelled, and it still answers the keyboard.

At 100x30 the pop-ups keep their full look: frames at their own widths, bordered buttons
side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button, Input, OptionList, Static

from parlour.games.rummy.cards import parse_card, parse_cards
from parlour.tui.common.modals import (
    ConfirmScreen,
    DialogFrame,
    GameOverScreen,
    HelpScreen,
    SaveRecordScreen,
)
from parlour.tui.common.scoreboard import ScoreRow
from parlour.tui.rummy.modals import LayOffScreen, RoundSummary, RoundSummaryScreen
from parlour.tui.rummy.widgets import MeldPicture
from parlour.tui.ten_thousand.app import TenThousandScreen
from tests.tui.helpers import in_view, in_view_settled

SMALL = (40, 12)
LARGE = (100, 30)
HELP = TenThousandScreen.HELP_FILE


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("host")


Results = list[Any]


async def _open(pilot: Pilot[Any], screen: Screen[Any], results: Results) -> None:
    pilot.app.push_screen(screen, results.append)
    await pilot.pause()
    await pilot.pause()


def _frame(app: App[Any]) -> Region:
    """The pop-up's frame (its one child), checked to lie inside the screen."""
    (frame,) = app.screen.children
    assert Region(0, 0, *app.size).contains_region(frame.region), frame.region
    return frame.region


def _buttons(app: App[Any]) -> dict[str, tuple[Region, str]]:
    """Each button's id: its region and the label shown on its middle row (a bordered
    button has three)."""
    found = {}
    for button in app.screen.query(Button):
        rows = in_view(app, button).split("\n")
        found[str(button.id)] = (button.region, rows[len(rows) // 2].strip())
    return found


# --- the confirm dialog ---------------------------------------------------------------

QUESTION = "End the game now? It is saved: continue it later with  parlour play --resume"


def _confirm() -> ConfirmScreen:
    return ConfirmScreen(QUESTION, yes="End game", no="Keep playing")


async def test_confirm_on_40x12_stacks_its_buttons_in_view_and_answers_keys() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=SMALL) as pilot:
        await _open(pilot, _confirm(), results)
        assert _frame(app) == Region(0, 2, 40, 8)
        question = app.screen.query_one("#question")
        assert " ".join(in_view(app, question).split()) == QUESTION.replace("  ", " ")
        buttons = _buttons(app)
        assert buttons == {
            "yes": (Region(2, 7, 36, 1), "End game (Y)"),
            "no": (Region(2, 8, 36, 1), "Keep playing (N)"),
        }
        assert app.focused is not None and app.focused.id == "no"
        await pilot.press("shift+tab")  # up to Yes
        assert app.focused is not None and app.focused.id == "yes"
        await pilot.press("enter")
        await pilot.pause()
        await _open(pilot, _confirm(), results)
        await pilot.press("enter")  # No has the focus
        await pilot.pause()
        await _open(pilot, _confirm(), results)
        await pilot.click("#yes")
        await pilot.pause()
    assert results == [True, False, True]


async def test_confirm_on_100x30_keeps_its_full_size() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=LARGE) as pilot:
        await _open(pilot, _confirm(), results)
        assert _frame(app) == Region(20, 10, 60, 10)
        buttons = _buttons(app)
        assert buttons["yes"] == (Region(32, 15, 16, 3), "End game (Y)")
        assert buttons["no"] == (Region(50, 15, 18, 3), "Keep playing (N)")
        await pilot.press("y")
        await pilot.pause()
    assert results == [True]


async def test_confirm_follows_the_terminal_when_it_is_resized() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=LARGE) as pilot:
        await _open(pilot, _confirm(), results)
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert _frame(app) == Region(0, 2, 40, 8)
        assert _buttons(app)["no"] == (Region(2, 8, 36, 1), "Keep playing (N)")
        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        assert _frame(app) == Region(20, 10, 60, 10)
        assert _buttons(app)["no"] == (Region(50, 15, 18, 3), "Keep playing (N)")
        await pilot.press("n")
        await pilot.pause()
    assert results == [False]


# --- the game-over dialog -------------------------------------------------------------

SIX = [
    ScoreRow(f"player number {i}", 1000 * i, won=i == 5, note="needs 500 to enter")
    for i in range(6)
]
SAVED = "Record saved to /home/someone/.local/share/parlour/records/ten-thousand-1.json"


def _game_over() -> GameOverScreen:
    return GameOverScreen("player number 5 wins with 5,000 points", SIX, note=SAVED)


async def test_game_over_on_40x12_scrolls_its_scores_under_buttons_that_stay() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=SMALL) as pilot:
        await _open(pilot, _game_over(), results)
        assert _frame(app) == Region(0, 0, 40, 12)
        buttons = _buttons(app)
        assert buttons == {
            "record": (Region(2, 8, 35, 1), "Save record (S)"),
            "again": (Region(2, 9, 35, 1), "Play again (F8)"),
            "quit": (Region(2, 10, 35, 1), "Quit (Q)"),
        }
        frame = app.screen.query_one(DialogFrame)
        assert frame.max_scroll_y > 0  # six players with notes: the body scrolls
        assert app.focused is not None and app.focused.id == "record"
        await pilot.press("end")  # from a button, the keys scroll the frame
        await pilot.pause()
        assert frame.scroll_y == frame.max_scroll_y
        assert "ten-thousand-1.json" in in_view(app, app.screen.query_one("#saved"))
        assert _buttons(app) == buttons  # the buttons did not move
        await pilot.press("tab", "enter")  # Play again
        await pilot.pause()
        await _open(pilot, _game_over(), results)
        await pilot.press("s")
        await pilot.pause()
        await _open(pilot, _game_over(), results)
        await pilot.click("#quit")
        await pilot.pause()
    assert results == ["again", "record", "quit"]


async def test_game_over_on_100x30_keeps_its_full_size() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=LARGE) as pilot:
        await _open(pilot, _game_over(), results)
        frame = _frame(app)
        assert (frame.width, frame.height) == (64, 26)  # 12 rows of scores, 3 of note
        assert app.screen.query_one(DialogFrame).max_scroll_y == 0
        buttons = _buttons(app)
        assert [label for _, label in buttons.values()] == [
            "Save record (S)",
            "Play again (F8)",
            "Quit (Q)",
        ]
        assert {region.y for region, _ in buttons.values()} == {frame.bottom - 5}
        assert {region.height for region, _ in buttons.values()} == {3}
        await pilot.press("f8")
        await pilot.pause()
    assert results == ["again"]


# --- the save-record dialog -----------------------------------------------------------


@pytest.mark.parametrize(("size", "frame"), [(SMALL, Region(0, 2, 40, 8)), (LARGE, None)])
async def test_save_record_fits_and_saves_by_keyboard(
    tmp_path: Path, size: tuple[int, int], frame: Region | None
) -> None:
    def save(path: Path) -> Path:
        if path.suffix != ".json":
            raise PermissionError(13, "Permission denied")
        return path

    app = _Host()
    results: Results = []
    # a path long enough that its error wraps past a 40x12 dialog's body, wherever tmp_path is
    folder = tmp_path / "records" / "a-folder-with-a-name-long-enough-to-wrap-twice-over"
    default = folder / "ten-thousand-20240101-120000-with-a-long-name.txt"
    async with app.run_test(size=size) as pilot:
        await _open(pilot, SaveRecordScreen(default, save), results)
        region = _frame(app)
        if frame is not None:
            assert region == frame
        else:
            assert (region.width, region.height) == (76, 9)
        prompt = " ".join(in_view(app, app.screen.query_one("#prompt")).split())
        assert prompt == "Save the game record (JSON) to: Enter saves, Esc cancels"
        field = app.screen.query_one(Input)
        in_view(app, field)
        assert app.focused is field
        await pilot.press("enter")  # a .txt name: the write fails, the reason is shown
        await pilot.pause()
        error = " ".join((await in_view_settled(pilot, app.screen.query_one("#error"))).split())
        assert error.startswith("Cannot write") and error.endswith("Permission denied")
        field.value = str(tmp_path / "a.json")
        await pilot.press("enter")
        await pilot.pause()
        await _open(pilot, SaveRecordScreen(default, save), results)
        await pilot.press("escape")
        await pilot.pause()
    assert results == [tmp_path / "a.json", None]


# --- the help ---------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "frame"), [(SMALL, Region(2, 1, 36, 10)), (LARGE, None)])
async def test_help_fits_scrolls_and_closes(size: tuple[int, int], frame: Region | None) -> None:
    assert HELP is not None
    app = _Host()
    results: Results = []
    async with app.run_test(size=size) as pilot:
        await _open(pilot, HelpScreen(HELP), results)
        region = _frame(app)
        assert region == (frame or Region(5, 1, 90, 27))
        panel = app.screen.query_one("VerticalScroll")
        assert panel.max_scroll_y > 0 and app.focused is panel
        await pilot.press("pagedown")
        await pilot.pause()
        assert panel.scroll_y > 0
        await pilot.press("escape")
        await pilot.pause()
    assert results == [None]


# --- Rummy: the round summary and the lay-off chooser -----------------------------------

SUMMARY = RoundSummary(
    round=3,
    ended="out",
    out=0,
    table_points=(45, 20),
    hand_points=(0, 35),
    round_scores=(45, -15),
    scores=(120, 1030),
    hands=((), tuple(parse_cards(["2S", "2H", "2D", "2C", "10S", "10H"]))),
)


def _summary() -> RoundSummaryScreen:
    return RoundSummaryScreen(SUMMARY, ["ann", "cpu:easy"], last=False)


def _rows(app: App[Any], selector: str) -> list[str]:
    """The rows the screen shows for *selector*, spaces squeezed."""
    shown = in_view(app, app.screen.query_one(selector))
    return [" ".join(line.split()) for line in shown.split("\n")]


async def test_round_summary_on_40x12_keeps_every_column_and_its_key_line() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=SMALL) as pilot:
        await _open(pilot, _summary(), results)
        assert _frame(app) == Region(0, 0, 40, 12)
        # short headings, so that the game column stays (it was cut off)
        assert _rows(app, "#round-table") == [
            "player table hand round game",
            "ann 45 0 +45 120",
            "cpu:easy 20 -35 -15 1,030",
        ]
        assert _rows(app, "#round-keys") == ["Enter: deal the next round"]
        await pilot.press("enter")
        await pilot.pause()
    assert results == [None]


async def test_round_summary_on_100x30_keeps_its_full_size() -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=LARGE) as pilot:
        await _open(pilot, _summary(), results)
        frame = _frame(app)
        assert (frame.width, frame.bottom) == (76, 30)  # at the bottom, over the table
        assert _rows(app, "#round-table")[0] == "player on the table in hand round game"
        assert _rows(app, "#round-keys") == ["Enter: deal the next round"]
        await pilot.press("escape")
        await pilot.pause()
    assert results == [None]


MELDS = [
    (i, MeldPicture("run", tuple(cards), (0,) * len(cards)))
    for i, cards in enumerate(
        parse_cards(text.split())
        for text in ("5H 6H 7H", "8S 8D 8C", "2C 3C 4C 5C", "9D 10D JD", "QS QH QD", "AH 2H 3H")
    )
]


def _lay_off(melds: list[tuple[int, MeldPicture]] = MELDS) -> LayOffScreen:
    question = Text(f"Lay off {parse_card('8H')} onto which meld?")
    return LayOffScreen(question, melds, ["you", "CPU 1"])


@pytest.mark.parametrize(("size", "shown"), [(SMALL, 4), (LARGE, 6)])
async def test_lay_off_fits_and_picks_by_keyboard(size: tuple[int, int], shown: int) -> None:
    app = _Host()
    results: Results = []
    async with app.run_test(size=size) as pilot:
        await _open(pilot, _lay_off(), results)
        frame = _frame(app)
        assert frame.width == min(76, size[0])
        options = app.screen.query_one(OptionList)
        in_view(app, options)
        assert options.region.height - 2 == shown  # the rest scroll inside the list
        keys = " ".join(_rows(app, "#layoff-keys"))
        assert keys == "meld number or ↑/↓ and Enter · Esc: cancel"
        assert app.focused is options
        await pilot.press("down", "down", "down", "down", "down", "enter")
        await pilot.pause()
        await _open(pilot, _lay_off(), results)
        await pilot.press("2")
        await pilot.pause()
        await _open(pilot, _lay_off(), results)
        await pilot.press("escape")
        await pilot.pause()
    assert results == [5, 1, None]


# --- every pop-up, at the sizes in between ----------------------------------------------

POPUPS: dict[str, Callable[[], Screen[Any]]] = {
    "confirm": _confirm,
    "game over": _game_over,
    "save record": lambda: SaveRecordScreen(Path("/tmp/x.json"), lambda p: p),
    "round summary": _summary,
    "lay off": _lay_off,
}


@pytest.mark.parametrize("size", [(40, 12), (50, 16), (60, 20), (64, 12), (80, 24), (200, 60)])
async def test_every_pop_up_and_its_buttons_stay_on_the_screen(size: tuple[int, int]) -> None:
    for name, make in POPUPS.items():
        app = _Host()
        async with app.run_test(size=size) as pilot:
            await _open(pilot, make(), [])
            _frame(app)
            for region, label in _buttons(app).values():
                assert label.endswith(")"), (name, size, label)  # the whole label
                assert region.width >= len(label), (name, size, label)


async def test_game_over_at_a_server_table_offers_the_record_and_leaving_only() -> None:
    """A server game is not played again here and its record is the server's: the box
    says Record and Leave table, and F8 does nothing."""
    app = _Host()
    results: Results = []
    async with app.run_test(size=LARGE) as pilot:
        await _open(pilot, GameOverScreen("ann wins", SIX, at_server=True), results)
        assert [str(b.label) for b in app.screen.query(Button)] == [
            "Record (S)",
            "Leave table (Q)",
        ]
        await pilot.press("f8")
        await pilot.pause()
        assert results == []
        await pilot.press("q")
        await pilot.pause()
    assert results == ["quit"]
