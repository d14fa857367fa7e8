"""The pieces every terminal app shares: chance sources, saves, records, the registry, and
the table's handling of faults (a failing computer player, a database that cannot save)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from textual.app import App, ComposeResult
from textual.widgets import Input, Static

import parlour
from parlour.engine.errors import InvalidNotation, UnknownGame
from parlour.engine.state import State
from parlour.session import LocalGame
from parlour.storage.saves import SaveInfo
from parlour.tui import registry
from parlour.tui.common.chance import RandomChance, ScriptedChance, ScriptExhausted
from parlour.tui.common.modals import ConfirmScreen, SaveRecordScreen
from parlour.tui.common.saves import default_record_path, pick_save, save_summary
from parlour.tui.common.table import TableSettings
from parlour.tui.ten_thousand.app import TenThousandApp, make_app
from tests.tui.helpers import SIZE, press, settle, ten_thousand_app, text


def fresh() -> State:
    return parlour.load("ten-thousand", players=2).new_initial_state()


def test_scripted_chance_in_order_then_falls_back() -> None:
    chance = ScriptedChance(["roll 6 5 4 3 2 1"], then=RandomChance(random.Random(1)))
    state = fresh()
    assert str(chance.draw(state)) == "roll 1 2 3 4 5 6"
    fallback = chance.draw(state)
    assert str(fallback) == str(RandomChance(random.Random(1)).draw(state))
    with pytest.raises(ScriptExhausted):
        ScriptedChance([]).draw(state)
    with pytest.raises(InvalidNotation):
        ScriptedChance(["roll 7"]).draw(state)


def test_registry_finds_apps_by_name_and_alias() -> None:
    assert registry.app_factory("10000") is make_app
    assert registry.has_app("Ten_Thousand") and not registry.has_app("chess")
    with pytest.raises(UnknownGame):
        registry.app_factory("chess")
    for spec in parlour.games():  # every game's app imports and builds
        local = LocalGame.new(spec.name, "ann,bob")
        assert isinstance(registry.app_factory(spec.name)(local, TableSettings()), App)


def test_registry_gives_a_game_without_an_app_the_generic_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses

    from parlour.engine import registry as games
    from parlour.tui.generic.app import make_app as generic_app

    spec = dataclasses.replace(
        games.find("ten-thousand"), name="no-app", aliases=(), terminal_app=""
    )
    monkeypatch.setitem(games._SPECS, "no-app", spec)
    assert registry.app_factory("no-app") is generic_app
    assert not registry.has_app("no-app")


def info(state: object, status: str = "active") -> SaveInfo:
    return SaveInfo(7, "ten-thousand", ["ann", "cpu:cautious"], status, datetime.now(UTC), state)  # type: ignore[arg-type]


def test_save_summary_reads_scores_and_survives_corruption() -> None:
    good = {"state": {"scores": [1250, 300], "seat": 1}, "history": [[0, "x"]] * 5}
    assert save_summary(info(good)) == "ann 1,250, ▶cpu:cautious 300 · 5 events"
    assert save_summary(info(good, "finished")) == "ann 1,250, cpu:cautious 300 · 5 events"
    assert save_summary(info({"state": "garbage"})) == "ann, cpu:cautious · 0 events"
    assert save_summary(info(["not", "a", "dict"])) == "ann, cpu:cautious · 0 events"


def test_pick_save_asks_until_a_listed_number_or_cancel() -> None:
    saves = [info({}), info({})]
    answers = iter(["#9", "seven", "#7"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    assert pick_save(saves, ask) == 7
    assert prompts[1] == "'9' is not a game in the list; its #, or Enter to cancel"
    assert pick_save(saves, lambda _: "  ") is None

    def eof(_: str) -> str:
        raise EOFError

    assert pick_save(saves, eof) is None


def test_default_record_path_never_overwrites(tmp_path: Path) -> None:
    local = LocalGame.new("ten-thousand", "ann")
    first = default_record_path(local, tmp_path)
    assert first.parent == tmp_path and first.name.startswith("ten-thousand-")
    first.write_text("{}")
    second = default_record_path(local, tmp_path)
    assert second != first and second.name.endswith("-2.json")


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("host")


async def test_confirm_screen_returns_the_answer() -> None:
    app = _Host()
    answers: list[bool | None] = []
    async with app.run_test(size=SIZE) as pilot:
        for key in ("y", "n", "escape"):
            app.push_screen(ConfirmScreen("Sure?"), answers.append)
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
        app.push_screen(ConfirmScreen("Sure?"), answers.append)
        await pilot.pause()
        await pilot.click("#yes")
        await pilot.pause()
    assert answers == [True, False, False, True]


async def test_save_record_screen_shows_a_write_error_and_lets_you_retry(tmp_path: Path) -> None:
    def save(path: Path) -> Path:
        if path.suffix != ".json":
            raise PermissionError(13, "Permission denied")
        return path

    app = _Host()
    results: list[Path | None] = []
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SaveRecordScreen(tmp_path / "a.txt", save), results.append)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SaveRecordScreen)
        error = screen.query_one("#error", Static).visual
        assert "Permission denied" in str(getattr(error, "plain", error))
        screen.query_one(Input).value = str(tmp_path / "a.json")
        await pilot.press("enter")
        await pilot.pause()
    assert results == [tmp_path / "a.json"]


class _Broken:
    name = "broken"

    def choose(self, state: State, seat: int, rng: random.Random) -> object:
        raise RuntimeError("out of ideas")


async def test_a_failing_computer_player_is_reported_not_a_crash() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 2 3 4 4 4", "roll 1 1 5 2 3 4"])
    app.table.local.bots[1] = _Broken()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "1", "b")
        assert app.is_running
        assert text(app, "#message") == (
            "the computer player failed (out of ideas); the game is saved"
        )


async def test_a_database_that_cannot_save_is_reported(tmp_path: Path) -> None:
    app = ten_thousand_app("me,bob", ["roll 1 2 3 4 4 4"], saved=False)
    app.table.settings.database = create_engine(f"sqlite:///{tmp_path}/missing/dir/x.db")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert text(app, "#message").startswith("could not save the game:")
        await press(pilot, "r", "1", "b")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert isinstance(app, TenThousandApp)
    assert app.return_value is not None and app.return_value.outcome == "unsaved"


async def test_save_record_screen_asks_before_replacing_a_file(tmp_path: Path) -> None:
    existing = tmp_path / "old.json"
    existing.write_text("an earlier record")
    written: list[Path] = []

    def save(path: Path) -> Path:
        path.write_text("new record")
        written.append(path)
        return path

    app = _Host()
    results: list[Path | None] = []
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SaveRecordScreen(existing, save), results.append)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SaveRecordScreen)
        error = screen.query_one("#error", Static).visual
        assert "exists: Enter again replaces it" in str(getattr(error, "plain", error))
        assert existing.read_text() == "an earlier record" and written == []
        await pilot.press("enter")  # the same name again: replace it
        await pilot.pause()
    assert results == [existing] and existing.read_text() == "new record"


async def test_a_table_whose_computer_moves_first_starts_once() -> None:
    # Textual runs every on_mount along the MRO (the game's screen's and TableScreen's):
    # the computer's first roll must be drawn once, leaving the next scripted roll unused.
    app = ten_thousand_app("cpu:cautious,me", ["roll 1 1 1 2 3 4", "roll 5 5 6 6 2 3"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert [str(action) for _, action in app.table.local.state.history] == [
            "roll 1 1 1 2 3 4",
            "keep 1 1 1 bank",
        ]
        chance = app.table.settings.chance
        assert isinstance(chance, ScriptedChance)
        assert list(chance.script) == ["roll 5 5 6 6 2 3"]
