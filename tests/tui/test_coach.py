"""The coach's panel in the dice tables (Textual's pilot, scripted dice): C shows each
choice's chance of winning with the best marked, only for the person's own decision."""

from __future__ import annotations

import pytest
from textual.content import Content

from parlour.games.greedy import coach, tournament
from parlour.games.greedy.solver import GreedyRules
from parlour.tui.common.coach import CoachPanel
from tests.tui.helpers import SIZE, greedy_app, press, screen, settle, ten_thousand_app, text


def lines(app: object) -> list[list[str]]:
    """The coach panel's lines, as words."""
    from parlour.tui.common.table import TableApp

    assert isinstance(app, TableApp)
    visual = app.table.query_one(CoachPanel).visual
    plain = visual.plain if isinstance(visual, Content) else str(visual)
    return [line.split() for line in plain.splitlines()]


async def test_c_toggles_the_coach_with_the_best_choice_marked() -> None:
    app = ten_thousand_app("me,cpu:cautious", ["roll 1 1 1 1 1 1"])
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        panel = app.table.query_one(CoachPanel)
        assert not panel.display
        await press(pilot, "c")
        assert panel.display
        assert "the figures show when it is your choice" in text(app, "#coach")
        await press(pilot, "r")  # six 1s at 0-0: banking 8,000 is best (99.9%)
        shown = lines(app)
        assert shown[0] == ["★", "keep", "1", "1", "1", "1", "1", "1", "bank", "win", "99.9%"]
        assert shown[1] == ["keep", "1", "1", "1", "1", "1", "1", "roll", "win", "98.3%"]
        assert len(shown) == 9
        assert "… and 4 more" in text(app, "#coach")  # 12 choices, 8 shown
        await press(pilot, "c")
        assert not panel.display
        assert screen(app).state.roll == (1, 1, 1, 1, 1, 1)  # the coach played nothing


async def test_the_greedy_coach_shows_a_win_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # no tournament tables in memory from an earlier test: the win figure alone
    monkeypatch.setattr(tournament, "_TABLES", {})
    coach.race_table(GreedyRules(target=1_000))  # solved: a few seconds
    app = greedy_app("me,bob", ["roll 1 1 1 2 2 3 4 6 6"], target=1_000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "c")
        assert lines(app)[0] == ["★", "keep", "1", "1", "1", "bank", "win", "100.0%"]


async def test_a_coach_with_nothing_to_say_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # a solo practice game said "no solved table for these rules" (there is nobody to beat);
    # a target without a table did not say how to solve one
    app = ten_thousand_app("me", ["roll 1 1 2 3 4 6"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "c")
        await press(pilot, "r")
        said = " ".join(text(app, "#coach").split())
        assert "nothing to say in a game alone" in said and "solved table" not in said
    monkeypatch.setattr(coach, "_TABLES", {})  # 1,150 solved nowhere (a new data directory)
    app = greedy_app("me,bob", ["roll 1 1 1 2 2 3 4 6 6"], target=1_150)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "c")
        said = " ".join(text(app, "#coach").split())
        assert "no solved table for these rules" in said
        assert "parlour solve greedy --optimal --target 1150" in said


def test_the_silent_coach_names_the_solve_of_these_rules() -> None:
    from parlour.session import LocalGame
    from parlour.tui.common.coach import silent_coach

    game = LocalGame.new("ten-thousand", "me,bob", target=1500, specials_any_roll=True)
    assert silent_coach(game) == (
        "Coach: nothing to say here (no solved table for these rules; parlour solve "
        "ten-thousand --optimal --specials-any-roll --target 1500 solves one)."
    )
