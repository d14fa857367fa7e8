"""The Crossword terminal game, driven headless with Textual's pilot."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable

import pytest
from textual.widgets import Static

from parlour.bots.base import RandomBot
from parlour.engine.errors import InvalidNotation
from parlour.engine.state import Action, State
from parlour.games.crossword.board import ACROSS, DOWN, Board, parse_square
from parlour.games.crossword.notation import Exchange, Play
from parlour.games.crossword.state import CrosswordState
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.tui.crossword.app import (
    CrosswordApp,
    CrosswordExit,
    GameOverScreen,
    HelpScreen,
    interpret,
)
from parlour.tui.crossword.widgets import BoardPicture, board_text

SIZE = (130, 42)


def scripted(draws: Iterable[str], seed: int = 0) -> Callable[[State], Action]:
    """Draws from a script of tile strings, then fair draws."""
    script = deque(draws)
    rng = random.Random(seed)

    def draw(state: State) -> Action:
        if script:
            return state.parse_action(f"draw {script.popleft()}")
        return state.sample_chance(rng)

    return draw


def app_for(
    players: str = "ann,bob", draws: Iterable[str] = ("ACEIKQU", "DGOSXYZ"), **kw: object
) -> CrosswordApp:
    local = LocalGame.new("crossword", players)
    return CrosswordApp(local, chance=scripted(draws), shuffle_rng=random.Random(1), **kw)


def state_of(app: CrosswordApp) -> CrosswordState:
    return app.table.state


async def test_racks_are_hidden_until_the_player_takes_the_turn() -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rack = str(app.table.query_one("#rack").render())
        assert "ann's turn" in rack and "QU" not in rack.replace("keyboard", "")
        assert app.table.revealed is None
        await pilot.press("x")  # nothing happens behind the curtain
        assert not app.table.query_one("#command").display
        await pilot.press("enter")
        rack = str(app.table.query_one("#rack").render())
        assert "ann's rack" in rack and "Q10" in rack and "K5" in rack


async def test_typing_a_play_previews_then_confirms() -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")  # take the turn, open the prompt
        await pilot.press(*"quick h8 across")
        preview = str(app.table.query_one("#preview").render())
        assert "QUICK H8 across: 50 points (QUICK 50)" in preview
        assert state_of(app).scores == [0, 0]  # a preview changes nothing
        await pilot.press("enter")  # submit: asks to confirm
        await pilot.pause()
        assert state_of(app).scores == [0, 0]
        await pilot.press("y")
        await pilot.pause()
        state = state_of(app)
        assert state.scores == [50, 0] and state.board.line(7, ACROSS)[7:12] == "QUICK"
        assert state.current_player() == 1 and app.table.revealed is None
        assert "bob's turn" in str(app.table.query_one("#rack").render())
        assert "QUICK H8 across" in str(app.table.query_one("#log").render())


async def test_cursor_and_word_then_refusal_keeps_the_state() -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # ann takes the turn
        await pilot.press("down", "down")  # cursor H10, across
        assert app.table.cursor == parse_square("H10")
        await pilot.press("enter", *"quick")
        preview = str(app.table.query_one("#preview").render())
        assert "QUICK H10 across" in preview and "centre square H8" in preview
        before = state_of(app).to_json()
        await pilot.press("enter")
        await pilot.pause()
        assert state_of(app).to_json() == before  # refused, explained, nothing changed
        assert not app.table.preview_legal
        await pilot.press("escape", "up", "up", "space", "enter", *"quick", "enter", "y")
        await pilot.pause()
        # down from H8: Q on the double word, K on H12 (double letter): (10+1+1+3+10) * 2
        assert state_of(app).scores == [50, 0]
        assert state_of(app).log[-1]["play"] == "QUICK H8 down"


async def test_exchange_pass_shuffle_and_rearrange() -> None:
    app = app_for(draws=("ACEIKQU", "DGOSXYZ", "EEE"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "s")
        rack = state_of(app).racks[0]
        assert sorted(rack) == sorted("ACEIKQU") and rack != "ACEIKQU"
        await pilot.press("r")
        command = app.table.query_one("#command")
        command.value = "rack QUICKAE"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert state_of(app).racks[0] == "QUICKAE" and state_of(app).current_player() == 0
        await pilot.press("x", *"qak", "enter", "y")
        await pilot.pause()
        state = state_of(app)
        assert state.racks[0] == "UICEEEE" and state.current_player() == 1
        assert state.log[-1]["kind"] == "exchange"
        await pilot.press("enter", "p", "y")
        await pilot.pause()
        assert state_of(app).log[-1]["kind"] == "pass" and state_of(app).current_player() == 0


async def test_help_and_quit_saves_and_resumes() -> None:
    engine = open_database()
    app = app_for(database=engine)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "enter", "enter", *"quick h8 across", "enter", "y")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    result = app.return_value
    assert isinstance(result, CrosswordExit) and result.outcome == "saved"
    assert result.save_id is not None
    again = LocalGame.resume(engine, result.save_id)
    assert again.state == state_of(app) and again.state.scores[0] == 50


async def test_two_scoreless_rounds_end_the_game_on_screen() -> None:
    engine = open_database()
    app = app_for(database=engine)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(4):  # each player passes twice: the game ends
            await pilot.press("enter", "p", "y")
            await pilot.pause()
        assert state_of(app).is_terminal()
        assert isinstance(app.screen, GameOverScreen)
        final = str(app.screen.query_one("#final", Static).render())
        # nobody went out: ann loses ACEIKQU = 22, bob DGOSXYZ = 28; ann wins
        assert "★ ann" in final and "-22" in final and "-28" in final
        await pilot.press("enter")
        await pilot.pause()
    result = app.return_value
    assert result == CrosswordExit("finished", result.save_id if result else None)


def test_interpret() -> None:
    assert interpret("cats", parse_square("G8"), DOWN) == Play("CATS", parse_square("G8"), DOWN)
    assert interpret("QUACK H8 across", 0, DOWN) == Play("QUACK", parse_square("H8"), ACROSS)
    assert interpret("exchange qv", 0, DOWN) == Exchange("QV")
    with pytest.raises(InvalidNotation):
        interpret("exchange 12", 0, ACROSS)


def test_board_text_marks_premiums_covered_squares_and_the_cursor() -> None:
    board = Board.empty().with_word("QUICK", parse_square("H8"), ACROSS)
    board = board.with_word("QUACK", parse_square("H8"), ACROSS)
    text = board_text(BoardPicture(board, parse_square("A1"), ACROSS)).plain
    rows = text.splitlines()
    assert rows[0].split() == list("ABCDEFGHIJKLMNO")
    assert " A² " in rows[8] and " Q " in rows[8]  # the covered square shows its height
    assert "TW→" in rows[1] and "TW" in rows[15]  # the cursor on A1, words go across


async def test_a_computer_player_moves_in_a_worker() -> None:
    local = LocalGame.new("crossword", "ann,bob")
    local.bots = {1: RandomBot()}  # crossword's own computer players come later (issue 6)
    local.bot_rng = random.Random(4)
    app = CrosswordApp(local, chance=scripted(["ACEIKQU", "DGOSXYZ"]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # one person at the keyboard: no curtain, the rack shows at once
        assert not app.table.hotseat and app.table.revealed == 0
        await pilot.press("enter", *"quick h8 across", "enter", "y")
        for _ in range(50):
            await pilot.pause(0.05)
            if state_of(app).current_player() == 0:
                break
        state = state_of(app)
        assert state.current_player() == 0 and state.log[-1]["seat"] == 1
