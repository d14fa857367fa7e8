"""Phone layout: with the longest name an account may have, no page of a game is wider
than a small phone's screen (the page would scroll sideways under the player's thumb)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_table, sign_up, unique

WIDER_THAN_THE_SCREEN = """() => {
  const width = window.innerWidth;
  return [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > width + 1)
    .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}`)
    .slice(0, 5);
}"""


def long_name() -> str:
    """A 20-letter name with no space to break at (the most the sign-up form takes)."""
    name = unique("W")
    return name + "w" * (20 - len(name))


def page_width(page: Page) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("ten-thousand", ["cpu:reckless", "cpu:cautious", "cpu:steady", "cpu:strong"]),
        ("rummy", ["cpu:easy", "cpu:medium", "cpu:hard"]),
        ("crossword", ["cpu:easy", "cpu:medium", "cpu:hard"]),
    ],
)
def test_a_long_name_fits_a_phone(pages: Pages, game: str, seats: list[str]) -> None:
    # found by a new user on a 360-pixel phone: a 20-letter name widened the scoreboard,
    # and with it every card of the page's one-column grid, past the screen; so did the
    # crossword's tiles you cannot see (one 91-letter word) and Ten-Thousand's scoring table
    page = pages.open(width=360, height=740)
    name = long_name()
    sign_up(page, name)
    assert page_width(page) == 360
    create_table(page, game, seats)
    expect(page.locator("#scoreboard")).to_contain_text(name)
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    pages.shot(page, f"{game}-phone")
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    assert page_width(page) == 360
    if game == "crossword":  # the rack's seven tiles in one row
        expect(page.locator("#rack .tile-btn")).to_have_count(7)
        tops = page.locator("#rack .tile-btn").evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect().top)"
        )
        assert len(tops) == 7 and len(set(tops)) == 1
        # before the first play, the list of plays says so without numbering it "1."
        empty = page.locator("#plays li")
        expect(empty).to_have_text("No plays yet.")
        assert empty.evaluate("e => getComputedStyle(e).listStyleType") == "none"


CLIPPED = """() => {
  const nav = document.getElementById('nav').getBoundingClientRect();
  return [...document.querySelectorAll('#nav > *')]
    .filter((el) => getComputedStyle(el).display !== 'none')
    .filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width < 24 || box.right > nav.right + 1;
    })
    .map((el) => el.id || el.textContent);
}"""


def test_the_phone_header_shows_every_link_with_the_badge_lit(pages: Pages) -> None:
    """Found looking at the 390x844 screenshots: with the notification badge lit, the
    header's one line had no room; the account's name shrank to nothing and "Log out" was
    cut to "Lo" under the badge. On a phone "Log out" is on the account page."""
    page = pages.open(width=390, height=844)
    page.goto("/")
    expect(page.locator("#nav")).to_contain_text("Sign up")
    # connected: while the socket still connects, "connecting…" in words takes the header's
    # room (a busy machine measured then, and found "Log in" and "Sign up" past its edge)
    expect(page.locator("#live")).to_have_attribute("data-state", "open")
    assert page.evaluate(CLIPPED) == []  # logged out: "Sign up" was cut to "Sign u"
    sign_up(page, long_name())
    create_table(page, "rummy", ["cpu:easy", "cpu:medium"])
    expect(page.locator("#notif-badge")).to_be_visible()  # the start
    assert page.evaluate(CLIPPED) == []
    assert page_width(page) == 390
    page.locator("#nav .who").click()
    page.locator("#logout-here").click()
    expect(page.locator("#nav")).to_contain_text("Log in")


def test_the_endings_card_is_as_wide_as_the_side_columns_cards(pages: Pages) -> None:
    """Found looking at the 390x844 screenshots: with a short name, the endings card
    (players, abort, resign) was as narrow as its content, beside full-width cards."""
    page = pages.open(width=390, height=844)
    sign_up(page, unique("nar"))
    create_table(page, "greedy", ["cpu:easy"])
    expect(page.locator("#endings #resign")).to_be_visible()
    widths = page.evaluate(
        "() => ['#endings', '#log-box'].map((s) => document.querySelector(s).offsetWidth)"
    )
    assert widths[0] == widths[1], widths
