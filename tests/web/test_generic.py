"""A game with no renderer of its own (the test-only "count to ten", tests/count_game.py) in
the browser: the lobby's form from the API, the generic renderer's table, buttons and
notation box, played to the end against a computer player, then replayed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests import count_game
from tests.web.conftest import Pages
from tests.web.helpers import create_table, sign_up, unique


@pytest.fixture(autouse=True)
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    count_game.install(monkeypatch)


def part(page: Page, name: str) -> str:
    return page.locator(f'#observation tr[data-part="{name}"] td').inner_text()


def buttons(page: Page) -> list[str]:
    return [
        " ".join(text.split())
        for text in page.locator("#legal-actions button.legal-action").all_inner_texts()
    ]


def wait_for_count(page: Page, count: int) -> None:
    expect(page.locator('#observation tr[data-part="count"] td')).to_have_text(str(count))
    expect(page.locator("#turn-head")).to_have_text("Your turn")


def test_count_to_ten_is_played_to_the_end_in_the_generic_renderer(pages: Pages) -> None:
    page = pages.open()
    page.goto("/")  # the welcome names the installed games, this one too
    expect(page.locator("#game-titles")).to_contain_text("Crossword")
    expect(page.locator("#game-titles")).to_contain_text("Count to Ten")
    name = unique("gene")
    sign_up(page, name)
    page.locator("#new-game").select_option(count_game.NAME)
    # the form is the spec's: its options with their defaults, its computer levels
    expect(page.locator("#option-target")).to_have_value("10")
    expect(page.locator("#option-step")).to_have_value("2")
    levels = page.locator("#new-seats li select").first.locator("option").all_inner_texts()
    assert levels == ["A person (open seat)", "Computer: first", "Computer: smart"]
    # invite only: never in another test's list of open tables (where, after this test,
    # the game is not installed)
    create_table(page, count_game.NAME, ["cpu:first"], invite=True)

    wait_for_count(page, 0)
    expect(page.locator("#dice-card")).to_be_hidden()  # no part named die or dice
    assert buttons(page) == ["1 add 1", "2 add 2"]
    assert part(page, "target") == "10"
    pages.shot(page, "start")

    page.locator('#legal-actions button[data-action="add 2"]').click()  # the computer adds 1
    wait_for_count(page, 3)
    said = page.locator('#observation tr[data-part="said"] td li')
    expect(said).to_have_text([f"{name} (you): 2", "cpu:first: 3"])  # a line per seat

    page.locator("#notation").fill("add 7")  # typed, and refused with the rules' reason
    # shown as typed: notation may be case-sensitive (the crossword's box upper-cases)
    expect(page.locator("#notation")).to_have_css("text-transform", "none")
    page.locator("#notation").press("Enter")
    expect(page.locator("#table-message")).to_have_text("Refused: add 1 to 2, not 7")
    assert part(page, "count") == "3"

    page.locator("#turn-head").click()  # the keys go to the page, not the box
    page.keyboard.press("2")  # the second button
    wait_for_count(page, 6)

    page.locator("#notation").fill("add 2")
    page.locator("#play-typed").click()
    wait_for_count(page, 9)
    expect(page.locator("#notation")).to_have_value("")
    assert buttons(page) == ["1 add 1"]  # add 2 would pass 10
    log = page.locator("#generic-log li").all_inner_texts()
    assert log[:2] == ["cpu:first: add 1", "You: add 2"]  # newest first

    page.locator("#legal-actions button.legal-action").click()
    expect(page.locator("#result")).to_contain_text("You win!")
    expect(page.locator("#turn-head")).to_have_text("Game over")
    expect(page.locator("#legal-actions")).to_be_hidden()
    pages.shot(page, "finished")

    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_have_text("Step 0 of 7")
    expect(page.locator('#observation tr[data-part="count"] td')).to_have_text("0")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-event")).to_have_text(f"{name}: add 2")
    expect(page.locator('#observation tr[data-part="count"] td')).to_have_text("2")
    expect(page.locator("#turn-head")).to_have_text("cpu:first to move")
    page.keyboard.press("End")
    expect(page.locator('#observation tr[data-part="count"] td')).to_have_text("10")
    expect(page.locator("#turn-head")).to_have_text("Game over")
    pages.shot(page, "replay")
