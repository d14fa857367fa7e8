"""Turn clocks read as time left, on the table and in My games, and the daily crossword says
when the next day begins in the table's time zone (chosen on the create form): at the three
sizes, in view (issue 15, "What players of these games expect")."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import rolls_for_seat
from tests.web.test_in_view import OUT_OF_VIEW, SIZES


@pytest.mark.parametrize("size", list(SIZES))
def test_the_turn_clock_reads_as_time_left(pages: Pages, script: ChanceScript, size: str) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 2 3 4 6 6"])
    width, height = SIZES[size]
    page = pages.open(width=width, height=height)
    sign_up(page, unique("clk"))
    page.locator("#new-game").select_option("ten-thousand")
    days = page.locator("#clock option").nth(1).get_attribute("value") or ""
    assert days.isdigit(), days
    page.locator("#clock").select_option(days)
    table = create_table(page, "ten-thousand", ["cpu:cautious"])
    expect(page.locator("#dice .die")).to_have_count(6)
    # a whole clock less the seconds since the start: "N d" or "N-1 d 23 h"
    n = int(days)
    left = rf"({n} d|{n - 1} d 23 h|23 h 5\d min)" if n == 1 else rf"({n} d|{n - 1} d 23 h)"
    expect(page.locator("#time-left")).to_have_text(re.compile(rf"^ · {left} left$"))
    assert page.evaluate(OUT_OF_VIEW, ["#time-left"]) == []
    pages.shot(page, f"clock-{size}", full_page=False)
    page.goto("/#/")
    row = page.locator("#my-games li", has=page.locator(f'a[href="#/table/{table}"]'))
    expect(row.locator(".table-state")).to_have_text(re.compile(rf"^ · you to move · {left} left$"))


def far_from_midnight(zones: tuple[str, ...] = ("Asia/Tokyo", "America/New_York")) -> str:
    """The zone (of these, both offered by the form) whose next midnight is furthest away, so
    the test's day never changes while it runs (their midnights are 10 or 14 hours apart)."""

    def until_midnight(name: str) -> timedelta:
        now = datetime.now(ZoneInfo(name))
        midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        return midnight - now

    return max(zones, key=until_midnight)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_daily_crossword_says_when_the_next_day_begins(pages: Pages, size: str) -> None:
    width, height = SIZES[size]
    page = pages.open(width=width, height=height)
    sign_up(page, unique("day"))
    page.locator("#new-game").select_option("crossword")
    zone = far_from_midnight()
    page.locator("#time-zone").select_option(zone)
    create_table(page, "crossword", ["cpu:easy"], options={"turn_mode": "daily"})
    status = page.locator("#cw-status")
    expect(status).to_have_text("Day 1: you may make one play today.", timeout=30_000)
    # a pass is the day's play too (a word could meet the computer's play of the day)
    page.locator("#pass").click()
    page.locator("#confirm-yes").click()
    expect(status).to_contain_text(
        "Day 1: you have played today. Your next play comes when a new day begins "
        f"(at midnight {zone}, "
    )
    assert page.evaluate(OUT_OF_VIEW, ["#cw-status"]) == []
    pages.shot(page, f"daily-{size}", full_page=False)
