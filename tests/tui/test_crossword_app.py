"""The Crossword terminal game on the shared table, driven headless with Textual's pilot and
scripted tile draws."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from parlour.engine.errors import InvalidNotation, ParlourError
from parlour.engine.records import read_record, replay
from parlour.games.crossword.board import ACROSS, DOWN, Board, parse_square
from parlour.games.crossword.notation import Exchange, Play
from parlour.games.crossword.state import CrosswordState
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.tui.common.chance import RandomChance, ScriptedChance
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, HelpScreen, SaveRecordScreen
from parlour.tui.common.scoreboard import ScoreRow
from parlour.tui.common.table import Pace, TableExit, TableSettings
from parlour.tui.crossword.app import CrosswordApp, CrosswordScreen, interpret, make_app
from parlour.tui.crossword.widgets import BoardPicture, board_text
from tests.games.crossword.reference import all_plays
from tests.tui.helpers import settle

SIZE = (130, 42)


def crossword_app(
    players: str = "ann,bob",
    draws: Iterable[str] = ("ACEIKQU", "DGOSXYZ"),
    *,
    saved: bool = True,
    record_dir: Path | None = None,
    **options: Any,
) -> CrosswordApp:
    """An app whose first draws are *draws* (then fair draws, seeded), no pauses."""
    local = LocalGame.new("crossword", players, **options)
    local.bot_rng = random.Random(4)
    settings = TableSettings(
        chance=ScriptedChance([f"draw {d}" for d in draws], then=RandomChance(random.Random(0))),
        pace=Pace.instant(),
        database=open_database() if saved else None,
        record_dir=record_dir,
    )
    app = CrosswordApp(local, settings)
    app.table.shuffle_rng = random.Random(1)  # type: ignore[attr-defined]
    return app


def table(app: CrosswordApp) -> CrosswordScreen:
    screen = app.table
    assert isinstance(screen, CrosswordScreen)
    return screen


def state_of(app: CrosswordApp) -> CrosswordState:
    return table(app).state


def shown(app: CrosswordApp, selector: str) -> str:
    return str(table(app).query_one(selector).render())


async def keys(pilot: Pilot[Any], *pressed: str) -> None:
    for key in pressed:
        await pilot.press(key)
    await settle(pilot)


async def test_racks_are_hidden_until_the_player_takes_the_turn() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rack = shown(app, "#rack")
        assert "ann's turn" in rack and "Q10" not in rack
        assert table(app).revealed is None
        await keys(pilot, "x", "t")  # nothing happens behind the curtain: no prompt, no hint
        assert not table(app).query_one("#command").display and not table(app).hints
        await keys(pilot, "enter")
        rack = shown(app, "#rack")
        assert "ann's rack" in rack and "Q10" in rack and "K5" in rack


async def test_typing_a_play_previews_then_confirms() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "enter", *"quick h8 across")  # take the turn, type
        assert "QUICK H8 across: 50 points (QUICK 50)" in shown(app, "#preview")
        assert state_of(app).scores == [0, 0]  # a preview changes nothing
        await keys(pilot, "enter")  # submit: asks to confirm
        assert isinstance(app.screen, ConfirmScreen) and state_of(app).scores == [0, 0]
        await keys(pilot, "y")
        state = state_of(app)
        assert state.scores == [50, 0] and state.board.line(7, ACROSS)[7:12] == "QUICK"
        assert state.current_player() == 1 and table(app).revealed is None
        assert "bob's turn" in shown(app, "#rack")
        assert "QUICK H8 across" in shown(app, "#log")


async def test_cursor_and_word_then_refusal_keeps_the_state() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "down", "down")  # ann takes the turn; cursor H10, across
        assert table(app).cursor == parse_square("H10")
        await keys(pilot, "enter", *"quick")
        preview = shown(app, "#preview")
        assert "QUICK H10 across" in preview and "centre square H8" in preview
        before = state_of(app).to_json()
        await keys(pilot, "enter")
        assert state_of(app).to_json() == before  # refused, explained, nothing changed
        assert not table(app).preview_legal
        await keys(pilot, "escape", "up", "up", "space", "enter", *"quick", "enter", "y")
        # down from H8: Q on the double word, K on H12 (double letter): (10+1+1+3+10) * 2
        assert state_of(app).scores == [50, 0]
        assert state_of(app).log[-1]["play"] == "QUICK H8 down"


async def test_exchange_pass_shuffle_and_rearrange() -> None:
    app = crossword_app(draws=("ACEIKQU", "DGOSXYZ", "EEE"))
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "s")
        rack = state_of(app).racks[0]
        assert sorted(rack) == sorted("ACEIKQU") and rack != "ACEIKQU"
        await keys(pilot, "r")
        table(app).query_one("#command", Input).value = "rack QUICKAE"
        await keys(pilot, "enter")
        assert state_of(app).racks[0] == "QUICKAE" and state_of(app).current_player() == 0
        await keys(pilot, "x", *"qak", "enter", "y")
        state = state_of(app)
        assert state.racks[0] == "UICEEEE" and state.current_player() == 1
        assert state.log[-1]["kind"] == "exchange"
        await keys(pilot, "enter", "p", "y")
        assert state_of(app).log[-1]["kind"] == "pass" and state_of(app).current_player() == 0


async def test_an_exchange_or_rearrangement_the_rules_refuse_is_explained_before_confirming() -> (
    None
):
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "x", *"zz")
        assert "does not hold ZZ" in shown(app, "#preview")  # the preview says why at once
        before = state_of(app).to_json()
        await keys(pilot, "enter")
        assert not isinstance(app.screen, ConfirmScreen)  # no question for a refused move
        assert state_of(app).to_json() == before
        await keys(pilot, "escape", "r")
        table(app).query_one("#command", Input).value = "rack QUICKZZ"
        await settle(pilot)
        assert "not a rearrangement" in shown(app, "#preview")


async def test_the_hint_refusal_behind_the_curtain_goes_when_the_rack_shows() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "t")
        assert "A hint is for the player whose rack is showing" in shown(app, "#preview")
        await keys(pilot, "enter")
        assert "ann's rack" in shown(app, "#rack") and "hint" not in shown(app, "#preview")


async def test_the_hint_key_lists_the_best_plays_with_their_scores() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "t")
        hints = table(app).hints
        best = max(s.score for s in all_plays(Board.empty(), "ACEIKQU", state_of(app).lexicon))
        # QUACK or QUICK from D8 or down from H4: Q on a double letter, H8 doubles:
        # (10*2 + 1 + 1 + 3 + 5) * 2 = 60
        assert best == 60 and [h.score for h in hints[:2]] == [60, 60]
        assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
        # each word once, at its best square (QUACK scores 60 from D8 and from H4 down too)
        words = [h.play.word for h in hints]
        assert len(set(words)) == len(words) and words[:2] == ["QUACK", "QUICK"]
        log = shown(app, "#log")
        assert "Best plays" in log and "QUACK D8 across: 60 points (QUACK 60)" in log
        assert state_of(app).scores == [0, 0]  # a hint changes nothing
        await keys(pilot, "t")
        assert not table(app).hints and "Last plays" in shown(app, "#log")


async def test_help_and_quit_saves_and_resumes() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "h")
        assert isinstance(app.screen, HelpScreen)
        await keys(pilot, "escape", "enter", "enter", *"quick h8 across", "enter", "y")
        await keys(pilot, "q")
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "saved"
    assert result.save_id is not None and result.game == "crossword"
    again = LocalGame.resume(open_database(), result.save_id)
    assert again.state == state_of(app) and again.state.scores[0] == 50


async def test_escape_closes_the_prompt_then_asks_to_end_the_game() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "enter", *"qu")
        assert table(app).query_one("#command").display
        await keys(pilot, "escape")
        assert not table(app).query_one("#command").display
        assert not isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "escape")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "y")
    assert app.return_value is not None and app.return_value.outcome == "saved"


async def test_two_scoreless_rounds_end_the_game_and_the_record_is_saved(tmp_path: Path) -> None:
    app = crossword_app(record_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(4):  # each player passes twice: the game ends
            await keys(pilot, "enter", "p", "y")
        assert state_of(app).is_terminal()
        assert isinstance(app.screen, GameOverScreen)
        # nobody went out: ann loses ACEIKQU = 22, bob DGOSXYZ = 28; ann wins
        assert app.screen.rows == [
            ScoreRow("ann", -22, won=True, note="tiles left: -22"),
            ScoreRow("bob", -28, note="tiles left: -28"),
        ]
        await keys(pilot, "s")
        assert isinstance(app.screen, SaveRecordScreen)
        path = tmp_path / "game.json"
        app.screen.query_one(Input).value = str(path)
        await keys(pilot, "enter", "q")
    result = app.return_value
    assert result is not None and result.outcome == "finished" and result.records == (path,)
    record = read_record(path)
    assert record["game"] == "crossword" and record["result"]["scores"] == [-22, -28]
    assert replay(record) == state_of(app)


async def test_a_computer_player_moves_in_a_worker() -> None:
    app = crossword_app("ann,cpu:medium")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # one person at the keyboard: no curtain, the rack shows at once
        assert not table(app).hotseat and table(app).revealed == 0
        await keys(pilot, "enter", *"quick h8 across", "enter", "y")
        state = state_of(app)
        assert state.current_player() == 0 and state.log[-1]["seat"] == 1
        # medium plays its highest-scoring play on the board it saw
        assert state.log[-1]["kind"] == "play"
        assert "CPU 1 (medium) played" in shown(app, "#preview")


def test_daily_mode_is_refused_by_the_terminal_game() -> None:
    local = LocalGame.new("crossword", "ann,bob", turn_mode="daily")
    with pytest.raises(ParlourError, match="takes turns in order"):
        make_app(local, TableSettings())


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


def test_a_square_stacked_ten_high_keeps_the_board_aligned() -> None:
    board = Board.empty().with_word("AT", parse_square("H8"), ACROSS)
    for letter in "BCDEFGHIJ":  # nine covers on H8: ten tiles there
        board = board.with_tiles([(parse_square("H8"), letter)])
    assert board.heights[parse_square("H8")] == 10
    rows = board_text(BoardPicture(board, parse_square("A1"), ACROSS)).plain.splitlines()
    assert len(rows[8]) == len(rows[7])  # 3 columns a square, whatever the height


async def test_r_selects_the_rack_so_the_new_order_typed_replaces_it() -> None:
    app = crossword_app(draws=("ACEIKQU",))
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "r")
        assert table(app).query_one("#command", Input).value == "rack ACEIKQU"
        await keys(pilot, *"quickae")  # replaces the order shown, never appends to it
        assert table(app).query_one("#command", Input).value == "rack quickae"
        assert "rearrange your rack as QUICKAE" in shown(app, "#preview")
        await keys(pilot, "enter")
        assert state_of(app).racks[0] == "QUICKAE"


async def test_x_alone_is_not_read_as_the_word_exchange() -> None:
    app = crossword_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "enter", "x")
        preview = shown(app, "#preview")
        assert "EXCHANGE" not in preview and "type the tiles to put back" in preview
        assert table(app).ghost == ()  # no word drawn on the board


def test_a_prompt_refusal_lists_a_players_moves_not_the_hosts() -> None:
    # typed at the prompt through tmux: the refusal offered 'draw <tiles>', 'skip' and
    # 'new-day', which are chance's and the host's
    with pytest.raises(InvalidNotation) as refused:
        interpret("h8 gravy", 112, ACROSS)
    assert str(refused.value) == (
        "'h8 gravy': moves are '<WORD> <square> across|down' (e.g. 'QUACK H8 across'),"
        " 'exchange <tiles>', 'pass' and 'rack <tiles>'"
    )
