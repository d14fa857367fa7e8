"""The generic terminal app, headless (Textual's pilot), on the test-only game "count to ten"
(tests/count_game.py), which has no app of its own; and once on Ten-Thousand as if it had none."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterable

import pytest
from rich.console import Console
from textual.widgets import Input, OptionList, RichLog, Static

from parlour.engine import registry as games
from parlour.session import LocalGame
from parlour.storage import list_saves, open_database
from parlour.tui import registry
from parlour.tui.common.chance import RandomChance, ScriptedChance
from parlour.tui.common.modals import GameOverScreen
from parlour.tui.common.table import Pace, TableExit, TableSettings
from parlour.tui.generic.app import GenericApp, GenericScreen, _refusal, make_app
from tests import count_game
from tests.tui.helpers import SIZE, press, settle, text, type_fast


@pytest.fixture(autouse=True)
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    count_game.install(monkeypatch)


def generic_app(
    players: str = "me,cpu:first",
    *,
    local: LocalGame | None = None,
    rolls: Iterable[str] = (),
    game: str = count_game.NAME,
    **options: object,
) -> GenericApp:
    app = registry.app_factory(game)(
        local or LocalGame.new(game, players, **options),
        TableSettings(
            chance=ScriptedChance(rolls, then=RandomChance(random.Random(7))),
            pace=Pace.instant(),
            database=open_database(),
        ),
    )
    assert isinstance(app, GenericApp)
    return app


def screen(app: GenericApp) -> GenericScreen:
    table = app.table
    assert isinstance(table, GenericScreen)
    return table


def moves_listed(app: GenericApp) -> list[str]:
    listing = app.table.query_one("#legal", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def observation(app: GenericApp) -> list[str]:
    """The observation table's rows as drawn, with runs of spaces made one."""
    out = Console(width=60, file=io.StringIO(), record=True)
    out.print(app.table.query_one("#observation", Static).content)
    return [" ".join(line.split()) for line in out.export_text().splitlines() if line.strip()]


def log_lines(app: GenericApp) -> list[str]:
    return [
        " ".join(strip.text.split()) for strip in app.table.query_one("#history", RichLog).lines
    ]


def history(app: GenericApp) -> list[str]:
    state = app.table.local.state
    return [state.action_to_string(a) for _, a in state.history]


def test_the_registry_gives_a_game_without_an_app_the_generic_one() -> None:
    assert registry.app_factory(count_game.NAME) is make_app
    assert not registry.has_app(count_game.NAME) and registry.has_app("ten-thousand")


async def test_a_person_plays_the_game_to_the_end_by_number_by_list_and_by_notation() -> None:
    app = generic_app("me,cpu:first")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert text(app, "#turn") == "me, your move"
        assert moves_listed(app) == ["  1  add 1", "  2  add 2"]
        assert observation(app) == [
            "to move 0",
            "count 0",
            "target 10",
            "said me: (none)",
            "CPU 1 (first): (none)",
            "scores 0, 0",
            "over no",
        ]
        assert app.focused is app.table.query_one("#legal", OptionList)

        await press(pilot, "2")  # the second listed move; the computer then adds 1
        assert history(app) == ["add 2", "add 1"]
        assert log_lines(app) == ["1 me: add 2", "2 CPU 1 (first): add 1"]
        assert observation(app)[1:5] == ["count 3", "target 10", "said me: 2", "CPU 1 (first): 3"]

        await press(pilot, "tab")  # to the prompt: type the move in notation
        assert app.focused is app.table.query_one("#notation", Input)
        await pilot.press(*"add 2", "enter")
        await settle(pilot)
        assert history(app)[-2:] == ["add 2", "add 1"]  # 5, then the computer's 6
        assert app.table.query_one("#notation", Input).value == ""

        await press(pilot, "shift+tab", "down", "enter")  # the list: the second move, add 2
        assert app.table.local.state.observation(0)["count"] == 9  # 8, and the computer's 9
        assert moves_listed(app) == ["  1  add 1"]  # add 2 would pass 10

        await press(pilot, "1")
        assert isinstance(app.screen, GameOverScreen)
        assert app.table.local.state.result().winners == (0,)
        assert log_lines(app)[-2:] == ["7 me: add 1", "Game over: me wins with 1 point"]
        await press(pilot, "q")
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "finished"
    assert [s.status for s in list_saves(open_database(), status=None)] == ["finished"]


async def test_a_bad_or_illegal_move_is_explained_and_changes_nothing() -> None:
    app = generic_app("me,cpu:smart")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "tab")
        for typed, said in [
            ("jump", "'jump' is not a move: write add <n>, such as add 2"),
            ("add 7", "add 1 to 2, not 7"),
        ]:
            await pilot.press(*typed, "enter")
            await settle(pilot)
            assert text(app, "#message") == said
            assert history(app) == []
            app.table.query_one("#notation", Input).value = ""
        await press(pilot, "shift+tab", "5")
        assert text(app, "#message") == "There is no move 5: 2 are listed."
        assert history(app) == []


async def test_typing_a_move_on_the_list_goes_to_the_prompt_not_the_highlighted_move() -> None:
    # a newcomer types the notation without pressing Tab first: the letters must not be
    # lost and Enter must not play the highlighted move instead (it played "add 1")
    app = generic_app("me,cpu:smart")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        prompt = app.table.query_one("#notation", Input)
        assert app.focused is app.table.query_one("#legal", OptionList)
        await pilot.press(*"add 7", "enter")
        await settle(pilot)
        assert app.focused is prompt
        assert prompt.value == "add 7"
        assert text(app, "#message") == "add 1 to 2, not 7"
        assert history(app) == []


async def test_a_game_left_midway_is_saved_and_resumes_with_its_log() -> None:
    app = generic_app("ann,bob")  # two people at one keyboard
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "2", "1")  # ann 2, bob 3
        assert text(app, "#turn") == "ann, your move"
        await press(pilot, "ctrl+q")
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "saved"
    assert result.save_id is not None

    local = LocalGame.resume(open_database(), result.save_id)
    again = generic_app(local=local)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert log_lines(again) == ["1 ann: add 2", "2 bob: add 1"]
        assert observation(again)[1:5] == ["count 3", "target 10", "said ann: 2", "bob: 3"]
        await press(pilot, "2")
        assert text(again, "#turn") == "bob, your move"
        assert screen(again).viewer() == 1


async def test_ten_thousand_plays_in_the_generic_app_as_if_it_had_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A real game, with chance and a computer player, through the protocol alone."""
    spec = dataclasses.replace(games.find("ten-thousand"), terminal_app="")
    monkeypatch.setitem(games._SPECS, "ten-thousand", spec)
    monkeypatch.setitem(games._SPECS, "10000", spec)
    local = LocalGame.new("ten-thousand", "me,cpu:cautious")
    app = generic_app(local=local, rolls=["roll 1 1 1 5 2 3", "roll 2 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert log_lines(app) == ["1 chance: roll 1 1 1 2 3 5"]
        listed = [m.split("  ")[-1] for m in moves_listed(app)]
        assert "keep 1 1 1 5 bank" in listed and "keep 5 roll" in listed
        await press(pilot, "tab")
        await pilot.press(*"keep 1 1 1 5 roll", "enter")
        await settle(pilot)
        # the next roll scores nothing (a farkle), and the computer plays its turn
        assert log_lines(app)[1:3] == ["2 me: keep 1 1 1 5 roll", "3 chance: roll 2 6"]
        assert log_lines(app)[3].startswith("4 chance: roll ")
        assert text(app, "#turn") == "me, your move"  # the computer's turn is over
        scores = screen(app).scores()
        assert scores is not None and scores[0] == 0
        assert observation(app)[:2] == ["game ten-thousand", "you 0"]


async def test_esc_on_the_game_over_box_shows_the_board_and_a_second_esc_leaves() -> None:
    app = generic_app("me,cpu:first")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "2", "2", "2", "1")  # 3, 6, 9 with the computer's ones, then 10
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, "escape")  # a new player's "close this box", not "quit the app"
        assert app.screen is app.table
        assert app.return_value is None and app.is_running
        await press(pilot, "escape")  # at a finished table Esc leaves at once
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "finished"


async def test_the_command_palette_is_not_offered_at_the_table() -> None:
    from textual.command import CommandPalette

    app = generic_app("me,cpu:first")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+p")
        assert not isinstance(app.screen, CommandPalette)  # its Theme/Keys/Quit items
        assert app.screen is app.table


async def test_a_move_typed_fast_on_the_list_arrives_whole_in_the_prompt() -> None:
    # the first letter moves the focus to the prompt; the letters typed right after it went
    # to the list too, each one replacing the prompt's text ("7" was left of "add 7")
    app = generic_app("me,cpu:smart")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_fast(pilot, *"add 7")
        prompt = app.table.query_one("#notation", Input)
        assert app.focused is prompt
        assert prompt.value == "add 7"


@pytest.mark.parametrize(
    ("typed", "reason", "said"),
    [
        ("jump", "'jump': write add <n>", "'jump' is not a move: write add <n>"),
        (
            "bank",
            "'bank' is not a dice move: roll or hold",
            "'bank' is not a dice move: roll or hold",
        ),
        ("add 7", "add 1 to 2, not 7", "'add 7' is not a move: add 1 to 2, not 7"),
    ],
)
def test_a_refusal_quotes_the_typed_text_once(typed: str, reason: str, said: str) -> None:
    assert _refusal(typed, reason) == said
