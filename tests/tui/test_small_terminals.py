"""Each game's table on a small terminal (40x12, 60x20): what a player needs to see and use
stays in view (the dice and their keys, the hand, the rack, the board's cursor, the prompt
and its preview, the key bar), and the game plays on without a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Footer, Input

from parlour.engine.records import read_record
from parlour.tui.common.dice import DiceTray, DieFace
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, SaveRecordScreen
from parlour.tui.common.table import TableApp
from parlour.tui.crossword.widgets import BoardArea
from parlour.tui.rummy.widgets import CardFace, HandView
from tests.quick_game import QUICK_GAME
from tests.tui.helpers import greedy_app, in_view, press, settle, ten_thousand_app, text
from tests.tui.test_crossword_app import crossword_app, keys, state_of
from tests.tui.test_rummy_app import rummy_app, select, state

SMALL = (40, 12)
MEDIUM = (60, 20)


def dice_in_view(app: TableApp) -> list[list[str]]:
    """Each die on the table as the screen shows it, row by row (each checked to be wholly
    in view)."""
    tray = app.table.query_one(DiceTray)
    return [in_view(app, die).split("\n") for die in tray.query(DieFace) if die.display]


# --- Ten-Thousand -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "look", "first", "second"),
    [
        (SMALL, "-compact", ["┏━━━┓", "┃ 1 ┃", "┗━1━┛"], ["╭───╮", "│ 2 │", "╰─2─╯"]),
        (
            MEDIUM,
            "",
            ["┏━━━━━┓", "┃     ┃", "┃  ●  ┃", "┃     ┃", "┗━ 1 ━┛"],
            ["╭─────╮", "│    ●│", "│     │", "│●    │", "╰─ 2 ─╯"],
        ),
    ],
)
async def test_ten_thousand_shows_all_six_dice_and_plays(
    size: tuple[int, int], look: str, first: list[str], second: list[str]
) -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 2 3 4 4 4", "roll 2 2 3 3 4 6"])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1")
        tray = app.table.query_one(DiceTray)
        assert [name for name in ("-compact", "-tiny") if tray.has_class(name)] == (
            [look] if look else []
        )
        dice = dice_in_view(app)
        assert len(dice) == 6
        assert dice[0] == first and dice[1] == second  # die 1 selected, at the cursor
        selection = " ".join(in_view(app, app.table.query_one("#selection")).split())
        assert selection == "Selected 1 = 100 R roll 5 dice · B bank 100"
        scores = in_view(app, app.table.query_one("#scores"))
        assert "me" in scores and "CPU 1 (cautious)" in scores
        assert "Help" in in_view(app, app.table.query_one(Footer))
        await press(pilot, "b")  # bank 100; the computer farkles; my turn again
        assert app.table.local.state.observation(None)["scores"] == [100, 0]
        assert text(app, "#turn") == "me, your turn: press R to roll six dice"


async def test_ten_thousand_game_over_and_record_on_40x12(tmp_path: Path) -> None:
    app = ten_thousand_app(
        "me,bob", ["roll 1 1 1 2 3 4", "roll 2 2 3 3 4 6"], target=1000, record_dir=tmp_path
    )
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "2", "3", "b", "r")  # I reach 1,000; bob farkles
        assert isinstance(app.screen, GameOverScreen)
        buttons = {str(b.id): in_view(app, b).strip() for b in app.screen.query(Button)}
        assert buttons == {
            "record": "Save record (S)",
            "again": "Play again (F8)",
            "quit": "Quit (Q)",
        }
        assert "me wins with 1,000 points" in in_view(app, app.screen.query_one("#headline"))
        await pilot.press("enter")  # Save record has the focus
        await pilot.pause()
        assert isinstance(app.screen, SaveRecordScreen)
        field = app.screen.query_one(Input)
        in_view(app, field)
        field.value = str(tmp_path / "game.json")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("end")  # the note is under the scores: scroll to it
        await pilot.pause()
        note = " ".join(in_view(app, app.screen.query_one("#saved")).split())
        assert note.replace(" ", "") == f"Record saved to {tmp_path / 'game.json'}".replace(" ", "")
        await pilot.press("q")
        await pilot.pause()
    assert read_record(tmp_path / "game.json")["result"] == {"scores": [1000, 0], "winners": [0]}


# --- Greedy -----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "look", "width"), [(SMALL, "-tiny", 3), (MEDIUM, "-compact", 5)])
async def test_greedy_shows_all_nine_dice_with_their_keys(
    size: tuple[int, int], look: str, width: int
) -> None:
    app = greedy_app("me,cpu:easy", ["roll 1 2 3 4 4 4 5 6 6", "roll 1 1 2 3 3 4 6 6"])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert app.table.query_one(DiceTray).has_class(look)
        dice = dice_in_view(app)
        inner = width - 2
        assert [die[1] for die in dice] == [f"│{f:^{inner}}│" for f in "123444566"]
        keys_shown = [die[2][1:-1].strip("─") for die in dice]
        assert keys_shown == [str(n) for n in range(1, 10)]
        await press(pilot, "1", "enter")  # keep the 1, roll the other eight
        dice = dice_in_view(app)
        assert len(dice) == 9
        assert [die[1].strip("│ ") for die in dice] == [*"11233466", "1"]
        assert "Help" in in_view(app, app.table.query_one(Footer))


# --- Rummy ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [SMALL, MEDIUM])
async def test_rummy_keeps_the_turn_line_and_the_hand_in_view(size: tuple[int, int]) -> None:
    app = rummy_app(saved=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        turn = " ".join(in_view(app, app.table.query_one("#turn")).split())
        assert turn == "Your turn: S draws from the stock (31 left) or T takes J♦"
        await press(pilot, "s")
        hand = app.table.query_one(HandView)
        assert app.screen.region.contains_region(hand.region)
        await select(pilot, app, "5H", "6H", "7H")
        cursor = next(c for c in hand.query(CardFace) if c.has_class("-cursor"))
        assert "7♥" in in_view(app, cursor)
        await press(pilot, "m")
        assert [m.text() for m in state(app).table] == ["5H 6H 7H"]
        turn = " ".join(in_view(app, app.table.query_one("#turn")).split())
        assert turn == "Your turn: M meld, L lay off, D discard to end the turn"
        assert "Meld" in in_view(app, app.table.query_one(Footer))


# --- Crossword --------------------------------------------------------------------------


@pytest.mark.parametrize("size", [SMALL, MEDIUM])
async def test_crossword_keeps_the_cursor_rack_prompt_and_preview_in_view(
    size: tuple[int, int],
) -> None:
    app = crossword_app()
    async with app.run_test(size=size) as pilot:
        await keys(pilot, "enter")  # ann takes the turn
        screen = app.table
        assert "ann's rack: A1 C3 E1 I1 K5 Q10 U1" in " ".join(
            in_view(app, screen.query_one("#rack")).split()
        )
        area = screen.query_one(BoardArea)
        assert "★→" in in_view(app, area)  # the cursor, on H8
        await keys(pilot, "enter", *"quack")
        in_view(app, screen.query_one("#command", Input))
        preview = " ".join(in_view(app, screen.query_one("#preview")).split())
        assert preview.startswith("QUACK H8 across: 50 points (QUACK 50)")
        assert "Q  U  A" in in_view(app, area)  # the play, shown on the board
        await keys(pilot, "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "y")
        assert state_of(app).scores == [50, 0]
        await keys(pilot, "enter", *["down"] * 7, *["right"] * 7)  # bob: to O15
        assert "TW→" in in_view(app, area)  # the board scrolled to the cursor
        assert area.scroll_x > 0 and area.scroll_y > 0


async def test_crossword_on_60_columns_keeps_the_scores_beside_the_board() -> None:
    app = crossword_app()
    async with app.run_test(size=MEDIUM) as pilot:
        await keys(pilot, "enter")
        scores = in_view(app, app.table.query_one("#scores"))
        assert "ann" in scores and "bob" in scores
        assert app.table.query_one("#right").region.width == 26


async def test_crossword_on_80x24_shows_the_prompt_and_its_preview_under_the_whole_board() -> None:
    # 27 rows are needed with the gaps above the rack and the prompt: at 24 the preview was
    # cut off under the key bar; the gaps go, and the whole board stays
    app = crossword_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "enter", "enter", *"quack")
        area = app.table.query_one(BoardArea)
        board = in_view(app, area).split("\n")
        assert len(board) == 16 and board[-1].startswith(" 15 TW")
        assert area.max_scroll_x == area.max_scroll_y == 0
        in_view(app, app.table.query_one("#command", Input))
        preview = " ".join(in_view(app, app.table.query_one("#preview")).split())
        assert preview == "QUACK H8 across: 50 points (QUACK 50) Enter to play"


@pytest.mark.parametrize("size", [SMALL, (45, 15)])
async def test_crossword_cursor_back_at_a_corner_shows_the_row_and_column_labels(
    size: tuple[int, int],
) -> None:
    # the board scrolled to O15, then the cursor went back to A1: the scroll kept only the
    # square in view, with the letters above and the numbers beside it scrolled away
    app = crossword_app()
    async with app.run_test(size=size) as pilot:
        await keys(pilot, "enter", *["down"] * 14, *["right"] * 14)
        area = app.table.query_one(BoardArea)
        assert area.scroll_x > 0 and area.scroll_y > 0
        await keys(pilot, *["up"] * 14, *["left"] * 14)
        assert (area.scroll_x, area.scroll_y) == (0, 0)
        rows = in_view(app, area).split("\n")
        assert rows[0].split()[:2] == ["A", "B"] and rows[1].split()[:2] == ["1", "TW→"]


# --- the generic table (Pig) ------------------------------------------------------------


@pytest.mark.parametrize("size", [MEDIUM, (60, 24)])
async def test_the_generic_table_keeps_its_moves_and_the_turn_total_in_view(
    size: tuple[int, int],
) -> None:
    """Under 80 columns the moves go under the table: they and some of the table's rows stay
    on the screen, neither squeezed to an empty frame."""
    from textual.widgets import OptionList, Static

    from tests.tui.test_generic_app import generic_app

    app = generic_app("me,cpu:hold-20", game=QUICK_GAME)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        listing = app.table.query_one("#legal", OptionList)
        assert listing.option_count == 2
        shown = in_view(app, listing)
        assert "roll" in shown and "hold" in shown, shown
        view = app.table.query_one("#view")
        assert view.region.height >= 5, view.region
        assert app.table.query_one("#observation", Static).region.height > 0
