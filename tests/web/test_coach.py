"""The coach's toggle in the browser (Playwright, Debian's chromium): at an unrated table it
shows each choice of your decision with its chance of winning, the best marked; a rated
table refuses it."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import rolls_for_seat


def test_the_coach_marks_the_best_choice_at_an_unrated_table(
    pages: Pages, script: ChanceScript
) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 1 1 1 1 1"])
    page = pages.open()
    sign_up(page, unique("coached"))
    create_table(page, "ten-thousand", ["cpu:cautious"], rated=False)
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    expect(page.locator("#coach")).to_be_visible()
    expect(page.locator("#coach-list li")).to_have_count(0)  # off until asked
    page.locator("#coach-toggle").check()
    items = page.locator("#coach-list li")
    expect(items).to_have_count(12)
    expect(items.first).to_have_text("★ keep 1 1 1 1 1 1 bank win 99.9%")
    expect(items.nth(1)).to_have_text("keep 1 1 1 1 1 1 roll win 98.3%")
    expect(page.locator("#coach-list li.best")).to_have_count(1)
    pages.shot(page, "coach")


def test_a_rated_table_offers_no_coach(pages: Pages, script: ChanceScript) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 1 1 1 1 1"])
    page = pages.open()
    sign_up(page, unique("rated"))
    create_table(page, "ten-thousand", ["cpu:cautious"])
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    expect(page.locator("#coach-toggle")).to_be_disabled()
    expect(page.locator("#coach-note")).to_have_text("The coach is not offered at rated tables.")
    expect(page.locator("#coach-list li")).to_have_count(0)


def test_the_coach_stays_on_after_a_reload(pages: Pages, script: ChanceScript) -> None:
    """A player who turned the coach on finds it on after a reload (or at the next table):
    the toggle is remembered in the browser (found as a new user: it went off on reload)."""
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 1 1 1 1 1"])
    page = pages.open()
    sign_up(page, unique("kept"))
    create_table(page, "ten-thousand", ["cpu:cautious"], rated=False)
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    page.locator("#coach-toggle").check()
    expect(page.locator("#coach-list li")).to_have_count(12)
    page.reload()
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    expect(page.locator("#coach-toggle")).to_be_checked()
    expect(page.locator("#coach-list li")).to_have_count(12)
    page.locator("#coach-toggle").uncheck()
    expect(page.locator("#coach-list li")).to_have_count(0)
    page.reload()
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    expect(page.locator("#coach-toggle")).not_to_be_checked()
    expect(page.locator("#coach-list li")).to_have_count(0)


def test_a_replay_the_coach_cannot_judge_says_so(pages: Pages, script: ChanceScript) -> None:
    """A finished Greedy game at a target with no solved table (1,050 here; it was the
    default target before its table shipped) showed "0.0 points
    of win chance lost in 0 decisions" and "No mistakes." for every player in the replay's
    review: it says that nothing could be judged, and why."""
    script.by_game["greedy"] = rolls_for_seat(0, ["roll 1 2 3 4 6 6 2 3 4"])
    page = pages.open()
    sign_up(page, unique("judged"))
    create_table(page, "greedy", ["cpu:easy"], rated=False, options={"target": "1050"})
    expect(page.locator("#dice .die")).to_have_count(9)
    page.locator("#quit").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#result")).to_contain_text("cpu:easy wins")
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_have_text("Step 0 of 2")
    expect(page.locator("#review-none")).to_have_text(
        "No decision could be judged: the coach has no solved table for this game's rules."
    )
    expect(page.locator("#review .review-player")).to_have_count(0)
