"""Issue 15's lobby of games: a card per installed game (its picture, title, players and
summary line) at two laptop sizes and a phone; choosing a card puts the game in the "New
game" form. Screenshots:
``artifacts/screenshots/the_lobby_shows_a_card_per_game_at_three_sizes-<size>.png``."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import sign_up, unique
from tests.web.test_in_view import SIZES

PICTURES_LOADED = """() => [...document.querySelectorAll('#game-cards img')]
    .every((img) => img.complete && img.naturalWidth > 0)"""

CARDS = """() => [...document.querySelectorAll('#game-cards .game-card')].map((card) => {
    const box = card.getBoundingClientRect();
    const img = card.querySelector('img');
    return {game: card.dataset.game, alt: img.alt, width: img.naturalWidth,
            top: Math.round(box.top), left: box.left, right: box.right,
            title: card.querySelector('.game-title').textContent,
            line: card.querySelector('.game-line').textContent,
            players: card.querySelector('.game-players').textContent};
})"""


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - innerWidth"))


def test_the_lobby_shows_a_card_per_game_at_three_sizes(pages: Pages) -> None:
    page = pages.open(width=1280, height=800)
    page.goto("/")
    games = page.evaluate("async () => (await fetch('/games')).json()")
    assert len(games) >= 5
    # logged out, each card leads to signing up
    cards = page.locator("#game-cards .game-card")
    expect(cards).to_have_count(len(games))
    assert set(cards.evaluate_all("els => els.map((e) => e.getAttribute('href'))")) == {"#/signup"}
    page.wait_for_function(PICTURES_LOADED)
    pages.shot(page, "logged-out-1280x800")
    sign_up(page, unique("cards"))
    expect(cards).to_have_count(len(games))
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_function(PICTURES_LOADED)
        shown = page.evaluate(CARDS)
        assert [c["game"] for c in shown] == [g["name"] for g in games], size
        for card, game in zip(shown, games, strict=True):
            assert card["width"] > 0 and card["alt"] == f"Picture of {game['title']}", card
            assert card["title"] == game["title"] and card["line"] == game["summary"], card
            assert re.fullmatch(r"\d+(–\d+)? players?", card["players"]), card
        if width > 1000:  # a laptop: one row, every card in view
            assert len({c["top"] for c in shown}) == 1, (size, shown)
            assert all(c["left"] >= 0 and c["right"] <= width for c in shown), (size, shown)
        assert sideways(page) <= 0, f"the lobby scrolls sideways at {size}"
        pages.shot(page, size)
        # choosing a card (the last: not the form's first game) puts it in the form
        last = games[-1]
        card = page.locator(f'#game-cards .game-card[data-game="{last["name"]}"]')
        card.click()
        expect(page.locator("#new-game")).to_have_value(last["name"])
        expect(page.locator("#new-game")).to_be_focused()
        expect(page.locator("#game-summary")).to_have_text(last["summary"])
        expect(card).to_have_attribute("aria-pressed", "true")
        expect(page.locator('#game-cards [aria-pressed="true"]')).to_have_count(1)
        assert sideways(page) <= 0, f"the lobby scrolls sideways at {size} after choosing"
        # and by keyboard: a card is a button (Enter), and the form's choice marks its card
        first = page.locator("#game-cards .game-card").first
        first.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#new-game")).to_have_value(games[0]["name"])
        expect(page.locator("#new-game")).to_be_focused()
        page.locator("#new-game").select_option(last["name"])
        expect(card).to_have_attribute("aria-pressed", "true")
        expect(first).to_have_attribute("aria-pressed", "false")
    # the pictures on the dark theme too (they draw their own colours)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media(color_scheme="dark")
    page.evaluate("() => window.scrollTo(0, 0)")
    pages.shot(page, "1280x800-dark", full_page=False)
