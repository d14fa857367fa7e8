"""What every game's terminal app has in common, checked on each (a local game against a
computer player): the footer names Esc as its confirm's button does, Ctrl+P opens no
command palette, and Esc on a confirm keeps the game."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Button

from parlour.engine.registry import find
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.tui import registry
from parlour.tui.common.modals import ConfirmScreen
from parlour.tui.common.table import Pace, TableApp, TableSettings
from tests.quick_game import QUICK_GAME
from tests.tui.helpers import settle

GAMES = sorted(["ten-thousand", "greedy", "crossword", "rummy", QUICK_GAME])


def local_app(game: str) -> TableApp:
    level = find(game).bot_levels[0]
    local = LocalGame.new(game, f"me,cpu:{level}")
    settings = TableSettings(pace=Pace.instant(), database=open_database())
    app = registry.app_factory(game)(local, settings)
    assert isinstance(app, TableApp)
    return app


def footer(app: TableApp) -> dict[str, str]:
    """The keys the footer shows, with their labels."""
    return {
        key: active.binding.description
        for key, active in app.screen.active_bindings.items()
        if active.binding.show
    }


@pytest.mark.parametrize("game", GAMES)
async def test_the_footer_names_esc_as_its_confirm_does_and_no_palette(game: str) -> None:
    app = local_app(game)
    async with app.run_test(size=(130, 42)) as pilot:
        await settle(pilot)
        shown = footer(app)
        assert "Leave table" not in shown.values()  # a server table's label only
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette)
        assert app.screen is app.table
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        yes = str(app.screen.query_one("#yes", Button).label)
        # the footer names Esc (the crossword's Esc is hidden: it closes the prompt first,
        # then ends the game as Rummy's Q does) by the confirm's own word
        assert yes == "End game (Y)"
        if game == "crossword":
            assert "escape" not in shown and shown["q"] == "Quit (saved)"  # Q: no confirm
        else:
            assert shown["escape"] == "End game"
        await pilot.press("escape")  # Esc on the confirm: keep playing
        await pilot.pause()
        assert app.screen is app.table and app.is_running
