"""Replays in words, not notation ("ann rolled 1 2 2 ...", never "chance: roll ..."), at the
three sizes, the step's words and the replay's controls in view (issue 15)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import rolls_for_seat
from tests.web.test_in_view import OUT_OF_VIEW, SIZES


@pytest.mark.parametrize("size", list(SIZES))
def test_a_replay_tells_each_step_in_words(pages: Pages, script: ChanceScript, size: str) -> None:
    script.by_game["greedy"] = rolls_for_seat(0, ["roll 1 2 3 4 6 6 2 3 4"])
    page = pages.open(width=SIZES[size][0], height=SIZES[size][1])
    name = unique("rep")
    sign_up(page, name)
    create_table(page, "greedy", ["cpu:easy"])
    expect(page.locator("#dice .die")).to_have_count(9)
    page.locator("#quit").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#result")).to_contain_text("cpu:easy wins")
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_have_text("Step 0 of 2")
    page.keyboard.press("ArrowRight")
    said = page.locator("#replay-event")
    expect(said).to_have_text(f"{name} rolled 1 2 2 3 3 4 4 6 6")
    expect(page.locator("#dice .die")).to_have_count(9)
    page.keyboard.press("ArrowRight")
    expect(said).to_have_text(f"{name} quit and forfeited the game")
    assert "chance" not in (said.text_content() or "").lower()
    assert page.evaluate(OUT_OF_VIEW, ["#replay-event", "#replay-step"]) == []
    pages.shot(page, f"replay-{size}", full_page=False)
