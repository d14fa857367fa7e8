"""Issue 15's smaller promises, each checked in the browser: text alternatives for the dice,
cards and tiles; visible focus when tabbing to them; no keyboard help on a phone; the
crossword's plays numbered whatever the number's length; server messages in words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from parlour.engine.registry import find
from tests.quick_game import QUICK_GAME
from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import rolls_for_seat
from tests.web.test_in_view import SIZES

PIECES = ".die, .card-face, .tile-btn, .sq, .tile-face"

WITHOUT_TEXT = """(selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length > 0)
    .filter((el) => {
        const picture = el.closest('[role="img"][aria-label]');
        if (picture && picture !== el) return false;  // a part of a picture with its words
        if (!(el.getAttribute("aria-label") || "").trim()) return true;
        // a label counts on a control or a picture, not on a plain span
        return !el.getAttribute("role") && !["BUTTON", "A", "INPUT"].includes(el.tagName);
    })
    .map((el) => el.outerHTML.slice(0, 120))"""

FOCUS = """() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return {visible: el.matches(":focus-visible"), outline: style.outlineStyle,
            width: parseFloat(style.outlineWidth)};
}"""

# game: (seats after you, a piece to tab to, what shows the game is ready)
GAMES = {
    "ten-thousand": (["cpu:cautious"], "#dice .die", "#dice .die"),
    "greedy": (["cpu:easy"], "#dice .die", "#dice .die"),
    "rummy": (["cpu:easy"], "#hand .card-face", "#draw-stock:enabled"),
    "crossword": (["cpu:easy"], "#rack .tile-btn, #board .sq", "#rack .tile-btn"),
    # the generic renderer: its die a picture with words, its moves buttons
    QUICK_GAME: (
        [f"cpu:{find(QUICK_GAME).bot_levels[0]}"],
        "#legal-actions button",
        "#generic-dice",
    ),
}


def tab_to(page: Page, selector: str, limit: int = 150) -> None:
    """Press Tab until the focus is on an element matching *selector*."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_pieces_have_words_and_a_visible_focus(
    pages: Pages, script: ChanceScript, game: str, size: str
) -> None:
    seats, piece, ready = GAMES[game]
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 1 5 2 3 4", "roll 1 2 3"])
    width, height = SIZES[size]
    page = pages.open(width=width, height=height)
    sign_up(page, unique("alt"))
    create_table(page, game, seats)
    expect(page.locator(ready).first).to_be_visible(timeout=30_000)
    if game == "ten-thousand":  # kept dice too: small ones, drawn as one picture
        page.keyboard.press("a")
        page.keyboard.press("r")
        expect(page.locator(".kept-group .die").first).to_be_visible(timeout=30_000)
        expect(page.locator("#roll")).to_have_text("Roll (R)")  # a keyboard: its hints
    assert page.locator(PIECES).count() > 0
    assert page.evaluate(WITHOUT_TEXT, PIECES) == []
    page.locator("#table-status").click()  # start tabbing from the page, not the form
    tab_to(page, piece)
    focus = page.evaluate(FOCUS)
    assert focus["visible"] and focus["outline"] != "none" and focus["width"] >= 2, focus
    # the focused piece is where the player can see it (the page scrolls it into view)
    box = page.evaluate("() => document.activeElement.getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= height and box["right"] <= width, box
    pages.shot(page, f"{game}-focus-{size}", full_page=False)


HELP = re.compile(r"\((?:[A-Z]|any key)\)|Keys:|Backspace|arrow keys", re.IGNORECASE)


def test_a_phone_shows_no_keyboard_help(pages: Pages, script: ChanceScript) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 1 1 1 1 1"])
    page = pages.open(width=390, height=844, has_touch=True)
    sign_up(page, unique("thumb"))
    for game, seat, ready in [
        ("ten-thousand", "cpu:cautious", "#dice .die"),
        ("rummy", "cpu:easy", "#draw-stock:enabled"),
        ("crossword", "cpu:easy", "#rack .tile-btn"),
        (QUICK_GAME, f"cpu:{find(QUICK_GAME).bot_levels[0]}", "#legal-actions button"),
    ]:
        page.goto("/#/")
        create_table(page, game, [seat])
        expect(page.locator(ready).first).to_be_visible(timeout=30_000)
        if game == "ten-thousand":  # hot dice: the banner names keys on a keyboard
            page.locator('#dice .die[data-face="1"]').first.tap()
            page.locator("#select-scoring").tap()
            expect(page.locator("#bonus")).to_contain_text("Hot dice!")
        page.evaluate(
            "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
        )
        shown = page.evaluate("() => document.body.innerText")
        assert not HELP.search(shown), (game, HELP.findall(shown))
        if game == "rummy":  # the sort buttons in words, not the keys "N/S" and "N"
            expect(page.locator("#sort-suit")).to_have_text("Suit", use_inner_text=True)
            expect(page.locator("#sort-rank")).to_have_text("Rank", use_inner_text=True)
        for hint in ("#cw-hint", "#rummy-keys", "#typed", ".key-hint", ".legal kbd"):
            for element in page.locator(hint).all():
                expect(element).to_be_hidden()
        # the viewport only: a full-page capture resizes the emulated screen, and the
        # coarse pointer (the CSS that hides the keys) is lost while it draws
        pages.shot(page, f"{game}-phone", full_page=False)


def test_the_crosswords_plays_are_numbered_at_any_length(pages: Pages) -> None:
    page = pages.open(width=1280, height=800)
    sign_up(page, unique("num"))
    create_table(page, "crossword", ["cpu:easy"])
    expect(page.locator("#rack .tile-btn")).to_have_count(7, timeout=30_000)
    short = page.evaluate("""() => {
        const list = document.getElementById("plays");
        const items = [];
        for (let i = 0; i < 10000; i += 1) {
            const name = document.createElement("strong");
            name.textContent = "ann";
            const item = document.createElement("li");
            item.append(name, ": CAT H8 across, 10 (CAT 10)");
            items.push(item);
        }
        list.replaceChildren(...items);
        const measure = document.createElement("canvas").getContext("2d");
        const short = [];
        for (const n of [1, 9, 10, 99, 100, 999, 1000, 10000]) {
            const item = list.children[n - 1];
            item.scrollIntoView({block: "nearest"});
            measure.font = getComputedStyle(item).font;
            const needed = measure.measureText(`${n}. `).width;
            const left = list.getBoundingClientRect().left;
            const room = item.querySelector("strong").getBoundingClientRect().left - left;
            if (room + 0.5 < needed) short.push([n, room, needed]);
        }
        return short;
    }""")
    assert short == []
    pages.shot(page, "numbers", full_page=False)


def test_a_refused_form_says_why_in_words(pages: Pages) -> None:
    page = pages.open()
    sign_up(page, unique("why"))
    page.locator("#new-game").select_option("crossword")
    # past the form's own check: the server's refusal is what is shown
    page.locator("#min-players").evaluate("(e) => { e.removeAttribute('min'); e.value = '0'; }")
    page.locator("#create").click()
    alert = page.locator("form .message.error")
    expect(alert).to_contain_text("min players")
    said = alert.text_content() or ""
    assert not re.search(r"body|_|\.\w", said), said
    refused = "page 1 console: Failed to load resource: the server responded with a status of 422"
    assert len(pages.errors) == 1 and pages.errors[0].startswith(refused), pages.errors
    pages.errors.clear()
