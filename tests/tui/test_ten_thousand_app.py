"""The Ten-Thousand app, headless (Textual's pilot), with scripted dice so every value is exact."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Markdown, RichLog

from parlour.cli.play import report
from parlour.engine.records import read_record, replay
from parlour.session import LocalGame
from parlour.storage import list_saves, open_database
from parlour.tui.common.dice import DiceTray
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, HelpScreen, SaveRecordScreen
from parlour.tui.common.table import Pace, TableExit
from tests.tui.helpers import SIZE, press, screen, settle, ten_thousand_app, text


def moves(app_state: object) -> list[str]:
    from parlour.engine.state import State

    assert isinstance(app_state, State)
    return [app_state.action_to_string(a) for _, a in app_state.history]


def tray(app: object) -> list[tuple[int, str, bool]]:
    from parlour.tui.ten_thousand.app import TenThousandApp

    assert isinstance(app, TenThousandApp)
    return list(app.table.query_one(DiceTray).faces())


def history_lines(app: object) -> list[str]:
    from parlour.tui.ten_thousand.app import TenThousandApp

    assert isinstance(app, TenThousandApp)
    return [strip.text.rstrip() for strip in app.table.query_one("#history", RichLog).lines]


async def test_select_roll_bank_then_the_computer_plays() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 4 2 1 4 3 4", "roll 6 1", "roll 1 1 1 2 3 4"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(app)
        assert table.state.is_chance_node()
        assert "me, your turn: press R to roll six dice" in text(app, "#turn")

        await press(pilot, "r")
        assert table.state.roll == (1, 2, 3, 4, 4, 4)
        assert tray(app) == [(f, "showing", False) for f in (1, 2, 3, 4, 4, 4)]

        await press(pilot, "1", "4", "5", "6")
        assert table.selected == {0, 3, 4, 5}
        assert "Selected 1 4 4 4 = 500" in text(app, "#selection")
        assert "R roll 2 dice · B bank 500" in text(app, "#selection")

        await press(pilot, "r")
        assert table.state.turn_total == 500
        assert tray(app) == [
            (1, "showing", False),
            (6, "showing", False),
            (1, "aside", False),
            (4, "aside", False),
            (4, "aside", False),
            (4, "aside", False),
        ]

        await press(pilot, "1", "b")
        state = table.state
        # cautious sets aside the three 1s (1,000 points, at least 350) and banks.
        assert state.scores == [600, 1000]
        assert moves(state) == [
            "roll 1 2 3 4 4 4",
            "keep 1 4 4 4 roll",
            "roll 1 6",
            "keep 1 bank",
            "roll 1 1 1 2 3 4",
            "keep 1 1 1 bank",
        ]
        assert state.is_chance_node() and state.seat == 0
        assert text(app, "#log") == "CPU 1 (cautious) set aside 1 1 1 (1,000) and banked 1,000"
        assert history_lines(app) == [
            "round  1  me banked 600 → 600",
            "round  1  CPU 1 (cautious) banked 1,000 → 1,000",
        ]
        # The banked board stays on the table until the next roll.
        assert tray(app) == [
            (2, "left", False),
            (3, "left", False),
            (4, "left", False),
            (1, "aside", False),
            (1, "aside", False),
            (1, "aside", False),
        ]


async def test_arrows_space_and_clicks_select_dice() -> None:
    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 4 4"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "space", "right", "right", "right", "space", "left", "left")
        table = screen(app)
        assert table.selected == {0, 3}
        assert table.cursor == 1
        await pilot.click("#die-4")  # a click selects, and moves the cursor there
        await settle(pilot)
        assert table.selected == {0, 3, 4} and table.cursor == 4
        await press(pilot, "right", "space")
        assert table.selected == {0, 3, 4, 5}
        await press(pilot, "left", "space", "right", "right", "right")
        assert table.selected == {0, 3, 5} and table.cursor == 1  # the cursor wraps round
        assert "Selected 1 4 4: these do not score together" in text(app, "#selection")


async def test_farkle_loses_the_turn_total_and_shows_the_roll() -> None:
    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 6 6", "roll 2 2 3 4 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "r")
        state = screen(app).state
        assert state.scores == [0, 0]
        assert state.seat == 1 and state.is_chance_node()
        assert state.last == {"seat": 0, "end": "farkle", "points": 100, "roll": [2, 2, 3, 4, 6]}
        assert text(app, "#message") == "Farkle! me rolled 2 2 3 4 6."
        assert text(app, "#log") == "me rolled 2 2 3 4 6: farkle, lost 100"
        assert tray(app) == [(f, "farkle", False) for f in (2, 2, 3, 4, 6)] + [(1, "aside", False)]
        assert "bob, your turn" in text(app, "#turn")
        assert history_lines(app) == ["round  1  me farkled, lost 100"]


async def test_hot_dice_gives_six_fresh_dice() -> None:
    app = ten_thousand_app("me,bob", ["roll 1 1 1 5 5 5", "roll 1 1 2 2 6 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "2", "3", "4", "5", "6")
        assert "Selected 1 1 1 5 5 5 = 1,500" in text(app, "#selection")
        assert "R hot dice: roll all six" in text(app, "#selection")
        await press(pilot, "r")
        state = screen(app).state
        assert state.turn_total == 1500 and state.roll == (1, 1, 2, 2, 6, 6)
        assert text(app, "#message") == "Hot dice! me rolls all six dice again."
        assert tray(app) == [(f, "showing", False) for f in (1, 1, 2, 2, 6, 6)]
        # Three pairs, but not on the first roll of the turn: only the 1s score.
        await press(pilot, "1", "2", "3", "4", "5", "6")
        assert (
            "Selected 1 1 2 2 6 6: three pairs and straights score only on the first roll "
            "of a turn" in text(app, "#selection")
        )
        await press(pilot, "b")
        assert text(app, "#message").startswith("1 1 2 2 6 6 does not score as a whole")
        await press(pilot, "3", "4", "5", "6", "b")
        assert state.scores == [1700, 0]


async def test_invalid_selections_are_explained_and_change_nothing() -> None:
    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 4 6", "roll 5 2 3 4 6"], entry=500)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(app)
        await press(pilot, "1")
        assert text(app, "#message") == "Press R to roll first."
        await press(pilot, "b")
        assert text(app, "#message") == "Press R to roll first."

        await press(pilot, "r", "2")
        assert "Selected 2: these do not score together" in text(app, "#selection")
        before = table.state.to_json()
        for key in ("r", "b"):
            await press(pilot, key)
            assert text(app, "#message").startswith("2 does not score as a whole")
            assert table.state.to_json() == before
            assert table.selected == {1}

        await press(pilot, "2", "r")
        assert text(app, "#message") == "Select at least one scoring die (1-6) before rolling on."
        await press(pilot, "1", "b")
        assert text(app, "#message") == (
            "your first bank must be at least 500 points (this turn would bank 100)"
        )
        assert "B not yet: a first bank needs 500" in text(app, "#selection")
        assert table.state.to_json() == before

        await press(pilot, "r", "6")
        assert text(app, "#message") == "There are only 5 dice showing."
        assert table.state.roll == (2, 3, 4, 5, 6)


async def test_escape_asks_then_ends_the_game_saved() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 2 3 4 4 4"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is app.table and app.is_running
        assert screen(app).selected == {0}
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit)
    assert result.outcome == "saved" and result.save_id is not None
    again = LocalGame.resume(open_database(), result.save_id)
    assert again.state == app.table.local.state
    assert moves(again.state) == ["roll 1 2 3 4 4 4"]


async def test_f8_restarts_with_the_same_players_in_the_same_save() -> None:
    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 4 4", "roll 1 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "4", "5", "6", "r", "1", "b")
        table = screen(app)
        save_id = table.local.save_id
        assert table.state.scores == [600, 0] and save_id is not None
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        state = table.state
        assert state.history == [] and state.scores == [0, 0]
        assert [s.name for s in table.local.seats] == ["me", "bob"]
        assert table.local.save_id == save_id
        assert text(app, "#message") == "New game with the same players."
        assert history_lines(app) == []
        assert tray(app) == [(0, "blank", False)] * 6
    saves = list_saves(open_database())
    assert [s.id for s in saves] == [save_id]
    assert saves[0].state["history"] == []


async def test_quit_saves_mid_turn_and_resume_continues() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 2 3 4 4 4", "roll 1 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "4", "5", "6", "r")
        await pilot.press("ctrl+q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "saved"
    assert result.save_id is not None

    local = LocalGame.resume(open_database(), result.save_id)
    resumed = ten_thousand_app(local=local, rolls=["roll 2 2 3 3 4 6"])
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(resumed)
        assert table.state.turn_total == 500 and table.state.roll == (1, 6)
        assert tray(resumed)[2:] == [(f, "aside", False) for f in (1, 4, 4, 4)]
        await press(pilot, "1", "b")
        # The computer player farkles on its first roll; it is my turn again.
        assert table.state.scores == [600, 0]
        assert table.state.seat == 0 and table.state.is_chance_node()
        assert text(resumed, "#log") == "CPU 1 (cautious) rolled 2 2 3 3 4 6: farkle"


async def test_last_turns_banner_game_over_and_record(tmp_path: Path) -> None:
    app = ten_thousand_app(
        "me,bob", ["roll 1 1 1 2 3 4", "roll 2 2 3 3 4 6"], target=1000, record_dir=tmp_path
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "2", "3", "b")
        table = screen(app)
        assert text(app, "#banner") == (
            "LAST TURNS · me reached 1,000: 1 more turn, then the highest score wins"
        )
        assert table.query_one("#banner").display
        assert table.score_rows()[0].note == "reached the target"

        await press(pilot, "r")  # bob's last turn: a farkle
        assert table.state.is_terminal()
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert over.headline == "me wins with 1,000 points"
        assert [(r.name, r.score, r.won) for r in over.rows] == [
            ("me", 1000, True),
            ("bob", 0, False),
        ]

        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SaveRecordScreen)
        field = app.screen.query_one(Input)
        assert Path(field.value).parent == tmp_path
        field.value = str(tmp_path / "game.json")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert app.screen.note == f"Record saved to {tmp_path / 'game.json'}"
        await pilot.press("q")
        await pilot.pause()

    record = read_record(tmp_path / "game.json")
    assert record["players"] == ["me", "bob"]
    assert record["result"] == {"scores": [1000, 0], "winners": [0]}
    assert replay(record) == app.table.local.state
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "finished"
    assert result.records == (tmp_path / "game.json",)
    assert [s.status for s in list_saves(open_database(), status=None)] == ["finished"]


async def test_help_shows_the_rules_and_the_computer_waits() -> None:
    app = ten_thousand_app(
        "me,cpu:reckless",
        ["roll 1 2 3 4 4 4", "roll 1 1 1 2 3 4"],
        # the pause before the computer's turn (3 s) is long enough for H to arrive first
        # however busy the machine; while help is up, that pause runs out and the table waits
        pace=Pace(look=0.2, turn=3.0),
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1")
        await pilot.press("b", "h")  # the computer's turn starts; help stops the table
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(Markdown).source
        assert "Value of groups" in source and "| 3 | 1,000 | 200 |" in source
        seen = moves(screen(app).state)
        await pilot.pause(3.5)
        assert moves(screen(app).state) == seen
        assert seen[-1] == "keep 1 bank"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.table
        # reckless banks only at 1,000: three 1s are 1,000, so it banks.
        assert screen(app).state.scores == [100, 1000]


async def test_game_over_play_again_starts_a_new_saved_game() -> None:
    app = ten_thousand_app("me", ["roll 1 1 1 2 3 4"], target=1000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "2", "3", "b")
        assert isinstance(app.screen, GameOverScreen)
        first = screen(app).local.save_id
        await pilot.press("f8")
        await settle(pilot)
        assert app.screen is app.table
        table = screen(app)
        assert table.state.history == [] and table.local.save_id != first
    statuses = {s.id: s.status for s in list_saves(open_database(), status=None)}
    assert statuses[first] == "finished"
    assert sorted(statuses.values()) == ["active", "finished"]


async def test_without_a_database_nothing_is_saved() -> None:
    app = ten_thousand_app("me,bob", saved=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "unsaved"
    assert list_saves(open_database(), status=None) == []


async def test_names_are_shown_as_written_never_as_markup() -> None:
    app = ten_thousand_app(
        "[red]x,[/],a[b\\", ["roll 1 2 3 4 4 4", "roll 2 2 3 3 4 6"], saved=False
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert text(app, "#turn") == "[red]x, your turn: press R to roll six dice"
        await press(pilot, "r", "1", "b", "r")
        assert text(app, "#log") == "[/] rolled 2 2 3 3 4 6: farkle"
        assert text(app, "#turn") == "a[b\\, your turn: press R to roll six dice"
        assert history_lines(app) == ["round  1  [red]x banked 100 → 100", "round  1  [/] farkled"]


async def test_a_save_deleted_while_the_game_is_open_is_reported_not_a_crash() -> None:
    """``parlour saves delete`` in another terminal while the game is open: the next save
    says why it failed; the table plays on."""
    from parlour.storage.saves import delete_save

    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 4 4", "roll 1 5 2 2 3 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        save_id = app.table.local.save_id
        assert save_id is not None
        delete_save(open_database(), save_id)
        await press(pilot, "r", "1", "b")
        assert app.is_running
        assert text(app, "#message") == f"could not save the game: no saved game {save_id}"
        await press(pilot, "r", "1", "b")
        assert app.table.local.state.scores == [100, 100]
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert isinstance(app.return_value, TableExit) and app.return_value.outcome == "unsaved"


async def test_a_resumed_game_shows_its_history() -> None:
    rolls = ["roll 1 2 3 4 4 4", "roll 1 1 1 2 3 4", "roll 2 2 3 3 4 6"]
    app = ten_thousand_app("me,cpu:cautious", rolls)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "4", "5", "6", "b")  # me 500; cautious banks 1,000
        await press(pilot, "r")  # my farkle
        lines = [
            "round  1  me banked 500 → 500",
            "round  1  CPU 1 (cautious) banked 1,000 → 1,000",
            "round  2  me farkled",
        ]
        assert history_lines(app) == lines
        await pilot.press("ctrl+q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and result.save_id is not None
    resumed = ten_thousand_app(local=LocalGame.resume(open_database(), result.save_id))
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert history_lines(resumed) == lines


async def test_the_history_log_never_takes_the_arrow_keys() -> None:
    """Focused, the log would scroll itself on ←/→ instead of moving the dice cursor."""
    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 4 4"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.focused is None or app.focused.id != "history"
        await press(pilot, "r", "right", "right", "right", "space")
        assert screen(app).selected == {3}  # the arrows moved the dice cursor


async def test_after_play_again_the_exit_message_names_each_record_s_own_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the record saved at the first game's end was reported as if of the game played after
    # F8 ("Record saved to ..." then "Game saved as #2")
    app = ten_thousand_app("me", ["roll 1 1 1 2 3 4"], target=1000, record_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "2", "3", "b")
        first = screen(app).local.save_id
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SaveRecordScreen)
        app.screen.query_one(Input).value = str(tmp_path / "first.json")
        await press(pilot, "enter", "f8")
        assert app.screen is app.table
        second = screen(app).local.save_id
        await pilot.press("ctrl+q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and first is not None and second == first + 1
    assert result.save_id == second and result.record_saves == (first,)
    capsys.readouterr()
    report(result)
    lines = capsys.readouterr().out.splitlines()
    record = tmp_path / "first.json"
    assert lines == [
        f"Record of the earlier game #{first} saved to {record}  (replay it: parlour replay"
        f" {record})",
        f"Game saved as #{second}. Continue it with:  parlour play --resume --id {second}",
    ]
