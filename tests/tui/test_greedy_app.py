"""The Greedy app, headless (Textual's pilot), with scripted dice so every value is exact."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.widgets import Input, Markdown, RichLog, Static

from parlour.engine.records import read_record, replay
from parlour.engine.state import State
from parlour.session import LocalGame
from parlour.storage import list_saves, open_database
from parlour.storage.standings import greedy_standings
from parlour.tui.common.dice import DiceTray
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, HelpScreen, SaveRecordScreen
from parlour.tui.common.table import TableApp, TableExit
from parlour.tui.greedy.app import GreedyApp, GreedyScreen
from tests.tui.helpers import SIZE, greedy_app, press, settle, text

NINE_ONES = "roll 1 1 1 1 1 1 1 1 1"


def screen(app: GreedyApp) -> GreedyScreen:
    table = app.table
    assert isinstance(table, GreedyScreen)
    return table


def moves(state: State) -> list[str]:
    return [state.action_to_string(a) for _, a in state.history]


def tray(app: GreedyApp) -> list[tuple[int, str, bool]]:
    return list(app.table.query_one(DiceTray).faces())


def history_lines(app: TableApp) -> list[str]:
    return [strip.text.rstrip() for strip in app.table.query_one("#history", RichLog).lines]


def sum_box(app: GreedyApp) -> list[str]:
    """The Sum box's lines, as drawn."""
    out = Console(width=28, file=io.StringIO(), record=True)
    out.print(app.table.query_one("#sum", Static).content)
    return [" ".join(line.split()) for line in out.export_text().splitlines() if line.strip()]


async def test_first_roll_by_itself_select_roll_bank_then_the_computer_plays() -> None:
    app = greedy_app(
        "me,cpu:easy",
        ["roll 4 2 1 4 3 4 6 6 2", "roll 6 1 2 3 3", "roll 1 1 1 2 3 4 5 6 6"],
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(app)
        # the first roll of a turn is done for the player
        assert table.state.roll == (1, 2, 2, 3, 4, 4, 4, 6, 6)
        assert tray(app) == [(f, "showing", False) for f in (1, 2, 2, 3, 4, 4, 4, 6, 6)]
        assert text(app, "#turn") == "me to play · this round 0"

        await press(pilot, "1", "5", "6", "7")
        assert table.selected == {0, 4, 5, 6}
        assert "Selected 1 4 4 4 = 500" in text(app, "#selection")
        assert "Enter roll 5 dice · E end turn, bank 500" in text(app, "#selection")
        assert sum_box(app) == ["me 500", "banked 0", "this round 0", "selected +500"]

        await press(pilot, "enter")
        assert table.state.turn_total == 500 and table.state.roll == (1, 2, 3, 3, 6)
        assert tray(app)[5:] == [(f, "aside", False) for f in (1, 4, 4, 4)]
        assert text(app, "#log") == "me rolled 1 2 3 3 6"

        await press(pilot, "a", "e")  # A: the 1, the only scoring die
        state = table.state
        # easy keeps every scoring die (1 1 1 5 = 1,050, at least 500) and ends its turn
        assert state.scores == [600, 1050]
        assert moves(state) == [
            "roll 1 2 2 3 4 4 4 6 6",
            "keep 1 4 4 4 roll",
            "roll 1 2 3 3 6",
            "keep 1 bank",
            "roll 1 1 1 2 3 4 5 6 6",
            "keep 1 1 1 5 bank",
        ]
        assert (
            text(app, "#log") == "CPU 1 (easy) kept 1 1 1 5 (1,050) and ended the turn with 1,050"
        )
        assert history_lines(app) == [
            "round  1  me banked 600 → 600",
            "round  1  CPU 1 (easy) banked 1,050 → 1,050",
        ]
        # my next turn's roll is not scripted: the table says so and waits
        assert "scripted chance outcomes are used up" in text(app, "#message")


async def test_arrows_space_clicks_and_a_select_dice() -> None:
    app = greedy_app("me,bob", ["roll 1 2 2 2 2 3 4 5 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space", "right", "right", "space", "left", "left")
        table = screen(app)
        assert table.selected == {0, 2} and table.cursor == 0
        await pilot.click("#die-8")  # a click selects, and moves the cursor there
        await settle(pilot)
        assert table.selected == {0, 2, 8} and table.cursor == 8
        await press(pilot, "right", "space")  # the cursor wraps round to the first die
        assert table.selected == {2, 8} and table.cursor == 0
        assert "Selected 2 6: these do not score together" in text(app, "#selection")
        await press(pilot, "a")  # every scoring die: the 1, a set of 2s and the 5
        assert table.selected == {0, 1, 2, 3, 7}
        assert "Selected 1 2 2 2 5 = 350" in text(app, "#selection")


async def test_no_points_forfeits_the_round_and_shows_the_roll() -> None:
    rolls = ["roll 1 2 2 3 4 4 6 6 3", "roll 2 2 3 4 4 6 6 3", "roll 1 2 2 3 4 4 6 6 5"]
    app = greedy_app("me,bob", rolls)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "enter")  # keep the 1 and roll eight: no points
        state = screen(app).state
        assert state.scores == [0, 0] and state.seat == 1
        assert state.last == {
            "seat": 0,
            "end": "farkle",
            "points": 100,
            "roll": [2, 2, 3, 3, 4, 4, 6, 6],
        }
        assert text(app, "#message") == "No points! me rolled 2 2 3 3 4 4 6 6."
        assert history_lines(app) == ["round  1  me rolled no points, lost 100"]
        # bob's first roll is done for him; the lost roll stays in the message and history
        assert text(app, "#turn") == "bob to play · this round 0"
        assert state.roll == (1, 2, 2, 3, 4, 4, 5, 6, 6)


async def test_bonus_round_choice_then_re_roll_all_nine() -> None:
    app = greedy_app(
        "me,bob", ["roll 1 1 1 5 5 5 2 2 2", "roll 1 2 2 3 3 4 4 6 6", "roll 2 2 3 3 4 4 6 6"]
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(app)
        assert "all 9 score: keep them all, then a bonus round or bank" in text(app, "#selection")
        assert not table.query_one("#bonus").display
        await press(pilot, "a")
        assert table.query_one("#bonus").display
        assert text(app, "#bonus") == (
            "ALL NINE DICE HAVE SCORED (1,700) · Enter: bonus round, re-roll all nine, "
            "everything at risk · E: bank 1,700"
        )
        await press(pilot, "enter")
        state = table.state
        assert state.bonus_rounds == 1 and state.turn_total == 1700
        assert state.roll == (1, 2, 2, 3, 3, 4, 4, 6, 6)
        assert text(app, "#message") == "Bonus round! me re-rolls all nine dice with 1,700 at risk."
        assert text(app, "#turn") == "me to play · this round 1,700 · bonus round 1"
        assert not table.query_one("#bonus").display
        # a bonus round risks everything: keep the 1, roll eight, no points
        await press(pilot, "1", "enter")
        assert state.scores == [0, 0] and state.seat == 1 and state.bonus_rounds == 0
        assert history_lines(app) == ["round  1  me rolled no points, lost 1,800"]


async def test_bonus_round_bank_keeps_everything() -> None:
    app = greedy_app("me,bob", ["roll 2 2 2 3 4 4 4 6 6", "roll 1 5 5"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "a", "enter", "a")  # 2s and 4s (600), then all three: 200
        assert "ALL NINE DICE HAVE SCORED (800)" in text(app, "#bonus")
        assert text(app, "#bonus").endswith("E: bank 800")
        await press(pilot, "e")
        assert screen(app).state.scores == [800, 0]


async def test_invalid_selections_are_explained_and_change_nothing() -> None:
    app = greedy_app("me,bob", ["roll 1 2 3 4 4 6 6 2 3", "roll 5 2 3 4 6 6 3 3"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(app)
        await press(pilot, "2")
        assert "Selected 2: these do not score together" in text(app, "#selection")
        before = table.state.to_json()
        for key in ("enter", "e"):
            await press(pilot, key)
            assert text(app, "#message").startswith("2 does not score as a whole")
            assert table.state.to_json() == before
            assert table.selected == {1}
        await press(pilot, "2", "enter")
        assert text(app, "#message") == (
            "Select at least one scoring die (1-9, or A for all) before rolling."
        )
        await press(pilot, "e")
        assert (
            text(app, "#message") == "Select the dice to keep first (A: every scoring die), then E."
        )
        assert table.state.to_json() == before
        await press(pilot, "1", "enter", "9")
        assert text(app, "#message") == "There are only 8 dice showing."
        assert table.state.roll == (2, 3, 3, 3, 4, 5, 6, 6)


async def test_r_redraws_and_h_shows_the_points_table() -> None:
    app = greedy_app("me,bob", ["roll 1 2 3 4 4 6 6 2 3"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1")
        before = screen(app).state.to_json()
        await press(pilot, "r")
        assert screen(app).state.to_json() == before and screen(app).selected == {0}
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(Markdown).source
        assert "| 1 | 3 | 1,000 |" in source and "Bonus rounds" in source
        assert "5,000 + 10 × the points above 10,000" in source
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.table


async def test_quit_forfeits_after_a_confirm_and_counts_in_the_standings() -> None:
    app = greedy_app("Ann,cpu:easy", ["roll 1 1 1 2 3 4 4 6 6", "roll 5 5 5 2 3 4 4 6 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "2", "3", "e")  # Ann banks 1,000; easy banks 500
        table = screen(app)
        assert table.state.scores == [1000, 500]
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Ann loses this game at once" in app.screen.question
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is app.table and not table.state.is_terminal()
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        state = table.state
        assert state.is_terminal() and state.quitter == 0 and state.result().winners == (1,)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert over.headline == "Ann quit: CPU 1 (easy) wins"
        # a quit is a loss at the computer's score, which is under 10,000: 1,000 forfeited
        assert over.note == "Standings: Ann -1,000 tournament points (parlour standings greedy)"
        assert [(r.name, r.note) for r in over.rows] == [
            ("Ann", "quit (forfeit)"),
            ("CPU 1 (easy)", ""),
        ]
        await pilot.press("q")
        await pilot.pause()
    [row] = greedy_standings(open_database())
    assert (row.name, row.games, row.losses, row.points) == ("Ann", 1, 1, -1000)
    assert moves(state)[-1] == "quit"


async def test_a_win_scores_in_the_standings_and_the_record_replays(tmp_path: Path) -> None:
    # nine 1s four times: 3,000 each, three bonus rounds, then end the turn on 12,000
    app = greedy_app("Ann,cpu:strong", [NINE_ONES] * 4, record_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(3):
            await press(pilot, "a", "enter")
        await press(pilot, "a")
        assert text(app, "#bonus").endswith("E: bank 12,000 and win")
        await press(pilot, "e")
        table = screen(app)
        assert table.state.is_terminal() and table.state.result().scores == (12_000, 0)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert over.headline == "Ann wins with 12,000 points"
        # 5,000 + 10 x 2,000 over 10,000
        assert over.note == "Standings: Ann +25,000 tournament points (parlour standings greedy)"
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SaveRecordScreen)
        app.screen.query_one(Input).value = str(tmp_path / "win.json")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert app.screen.note.endswith(f"Record saved to {tmp_path / 'win.json'}")
        await pilot.press("q")
        await pilot.pause()
    [row] = greedy_standings(open_database())
    assert (row.wins, row.points, row.best_margin) == (1, 25_000, 12_000)
    record = read_record(tmp_path / "win.json")
    assert record["players"] == ["Ann", "cpu:strong"]
    assert replay(record) == app.table.local.state
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "finished"


async def test_ctrl_q_saves_mid_turn_and_resume_continues() -> None:
    app = greedy_app("me,cpu:easy", ["roll 1 2 3 4 4 4 6 6 2", "roll 1 6 2 3 3"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "a", "enter")
        await pilot.press("ctrl+q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "saved"
    assert result.save_id is not None

    local = LocalGame.resume(open_database(), result.save_id)
    resumed = greedy_app(local=local, rolls=["roll 3 3 3 4 4 4 2 6 6"])
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = screen(resumed)
        assert table.state.turn_total == 500 and table.state.roll == (1, 2, 3, 3, 6)
        assert tray(resumed)[5:] == [(f, "aside", False) for f in (1, 4, 4, 4)]
        await press(pilot, "1", "e")
        # the computer's first roll: 3 3 3 and 4 4 4 score (700, at least 500): it banks
        assert table.state.scores == [600, 700]
        assert "CPU 1 (easy) kept 3 3 3 4 4 4 (700)" in text(resumed, "#log")


async def test_a_resumed_game_shows_its_history() -> None:
    rolls = ["roll 1 1 1 2 3 4 4 6 6", "roll 5 5 5 2 3 4 4 6 6", "roll 1 2 2 3 4 4 6 6 3"]
    app = greedy_app("me,cpu:easy", rolls)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "a", "e")  # me 1,000, then easy 500; my turn again
        lines = ["round  1  me banked 1,000 → 1,000", "round  1  CPU 1 (easy) banked 500 → 500"]
        assert history_lines(app) == lines
        await pilot.press("ctrl+q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and result.save_id is not None
    resumed = greedy_app(local=LocalGame.resume(open_database(), result.save_id))
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert history_lines(resumed) == lines
        assert screen(resumed).state.roll == (1, 2, 2, 3, 3, 4, 4, 6, 6)


async def test_escape_leaves_the_game_saved() -> None:
    app = greedy_app("me,cpu:easy", ["roll 1 2 3 4 4 4 6 6 2"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "saved"
    assert [s.status for s in list_saves(open_database(), status=None)] == ["active"]
    assert greedy_standings(open_database()) == []  # leaving is not quitting


async def test_a_second_window_on_a_game_forfeited_elsewhere_cannot_save_it() -> None:
    """One save open in two windows: the first forfeits (a loss in the standings); the second
    plays on and leaves. Its save is refused with the reason, not a crash, and the game stays
    over and counted once."""
    first = greedy_app("Ann,cpu:easy", ["roll 1 1 1 2 3 4 4 6 6"])
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert isinstance(first.return_value, TableExit)
    save_id = first.return_value.save_id
    assert save_id is not None
    engine = open_database()
    stale = greedy_app(local=LocalGame.resume(engine, save_id), rolls=["roll 5 2 3 4 4 6"])
    elsewhere = LocalGame.resume(engine, save_id)
    elsewhere.state.apply(elsewhere.state.parse_action("quit"), player=0)
    elsewhere.save(engine)
    async with stale.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "2", "3", "enter")
        assert text(stale, "#message").startswith("could not save the game: saved game")
        assert "is already over" in text(stale, "#message")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert isinstance(stale.return_value, TableExit)
    assert stale.return_value.outcome == "unsaved"
    again = LocalGame.resume(engine, save_id)
    assert again.state.is_terminal() and again.state.quitter == 0
    [row] = greedy_standings(engine)
    assert (row.games, row.losses) == (1, 1)


async def test_restart_of_a_counted_game_is_a_quit_first() -> None:
    """F8 in a game against the computer that counts for the standings asks to quit (a
    forfeit) instead of wiping the game out; in hot seat it restarts."""
    app = greedy_app("Ann,cpu:easy", ["roll 1 1 1 2 3 4 4 6 6", "roll 5 5 5 2 3 4 4 6 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "2", "3", "e")
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Quit and forfeit? Ann loses this game at once" in app.screen.question
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)
        assert (
            app.screen.note == "Standings: Ann -1,000 tournament points (parlour standings greedy)"
        )
    [row] = greedy_standings(open_database())
    assert (row.games, row.losses) == (1, 1)


async def test_restart_in_hot_seat_starts_again() -> None:
    app = greedy_app("Ann,Bob", ["roll 1 1 1 2 3 4 4 6 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "2", "3", "e")
        assert screen(app).state.scores == [1000, 0]
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "This game is lost" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        assert screen(app).state.scores == [0, 0]
    assert greedy_standings(open_database()) == []


async def test_the_history_log_never_takes_the_arrow_keys() -> None:
    app = greedy_app("me,bob", ["roll 1 1 1 2 3 4 4 6 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.focused is None or app.focused.id != "history"


def test_escape_is_named_in_the_footer_as_its_dialog_names_it() -> None:
    from textual.binding import Binding

    from parlour.tui.greedy.app import GreedyScreen

    escape = [b for b in GreedyScreen.BINDINGS if isinstance(b, Binding) and b.key == "escape"]
    # the confirm's button: End game (at a server table: Leave table, its confirm's button)
    assert [b.description for b in escape] == ["End game", "Leave table"]
