"""A Rummy round in the browser against a computer player, with a forced deal: a refused
meld (the reason shown, the hand unchanged), a meld, a discard, a lay-off onto the
computer's meld, going out, the round summary and the statistics page."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from parlour.engine.state import CHANCE, State
from parlour.games.rummy.cards import parse_cards
from parlour.games.rummy.state import arrange_deck
from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique


def cards(text: str) -> list[int]:
    return list(parse_cards(text.split()))


def first_deal(state: State) -> str | None:
    """Round 1: the person gets a run of spades and diamonds to go out with; the computer
    (easy) a run of hearts it lays down at once. Later rounds are shuffled by the server."""
    if state.round != 1:  # type: ignore[attr-defined]
        return None
    deal = arrange_deck(
        [cards("3S 4S 5S 10H QD KD 2C"), cards("7H 8H 9H KC 4C 2D JS")],
        cards("6D")[0],
        cards("JD 5C AD"),
    )
    assert state.is_chance_node() and state.current_player() == CHANCE
    return state.action_to_string(deal)


def hand(page: Page) -> list[str]:
    return page.locator("#hand .card-face").evaluate_all("els => els.map(e => e.dataset.card)")


def select(page: Page, text: str) -> None:
    for card in text.split():
        page.locator(f'#hand [data-card="{card}"]').click()


def test_rummy_round_with_meld_layoff_and_discard(pages: Pages, script: ChanceScript) -> None:
    script.by_game["rummy"] = first_deal
    page = pages.open()
    name = unique("rae")
    sign_up(page, name)
    create_table(page, "rummy", ["cpu:easy"], options={"hand_size": "7"})
    expect(page.locator("#rummy-status")).to_contain_text("your turn. Draw")
    assert hand(page) == ["3S", "4S", "5S", "10H", "QD", "KD", "2C"]  # as dealt
    page.locator("#sort-rank").click()  # the manual's N: by rank only
    assert hand(page) == ["2C", "3S", "4S", "5S", "10H", "QD", "KD"]
    expect(page.locator('#hand [data-card="QD"]')).to_have_attribute(
        "aria-label", "queen of diamonds"
    )
    page.keyboard.press("s")  # draw from the stock
    expect(page.locator("#hand .card-face")).to_have_count(8)
    assert hand(page)[-2:] == ["QD", "KD"] and "JD" in hand(page)

    # a refused meld: the server's reason, and the hand as it was
    select(page, "10H QD 2C")
    page.locator("#meld").click()
    expect(page.locator("#table-message")).to_have_text(
        "Refused: 2C 10H QD is neither a set (one rank) nor a run (one suit, consecutive)"
    )
    expect(page.locator("#hand .card-face")).to_have_count(8)
    expect(page.locator("#melds")).to_have_text("No melds yet.")
    pages.shot(page, "refused")
    page.keyboard.press("Escape")  # clears the selection

    select(page, "3S 4S 5S")
    page.keyboard.press("m")
    expect(page.locator('#melds .meld[data-meld="1"]')).to_contain_text("1. run")
    select(page, "2C")
    page.locator("#discard-card").click()
    # the computer lays down its hearts (shown as its cards) and discards
    expect(page.locator('#melds .meld[data-meld="2"]')).to_contain_text("2. run", timeout=15_000)
    meld = page.locator('#melds .meld[data-meld="2"] .card-face')
    expect(meld.first).to_have_attribute("aria-label", "7 of hearts, laid by cpu:easy")
    expect(page.locator("#rummy-status")).to_contain_text("your turn. Draw")
    page.locator("#draw-stock").click()
    expect(page.locator("#hand .card-face")).to_have_count(5)
    pages.shot(page, "before-layoff")
    select(page, "10H")
    page.keyboard.press("l")  # two melds: choose one
    page.keyboard.press("2")
    expect(page.locator('#melds .meld[data-meld="2"] .card-face')).to_have_count(4)
    expect(page.locator('#melds .meld[data-meld="2"] .card-face').last).to_have_attribute(
        "aria-label", "10 of hearts, laid by you"
    )
    select(page, "JD QD KD AD")
    page.locator("#meld").click()  # the last cards: out, the round is over
    summary = page.locator("#round-summary")
    expect(summary).to_contain_text("Round 1 summary")
    expect(summary).to_contain_text("You went out.")
    # 3S 4S 5S, 10H, JD QD KD (5+5+5 + 5 + 10+10+10) + AD 15 = 65; the computer: 7H 8H 9H
    # 15 on the table, JS 2D 4C 5C 25 in hand: -10
    rows = summary.locator("tbody tr")
    assert rows.nth(0).locator("th, td").all_inner_texts() == [
        f"{name} (you)",
        "65",
        "0",
        "65",
        "65",
    ]
    assert rows.nth(1).locator("th, td").all_inner_texts() == [
        "cpu:easy",
        "15",
        "-25",
        "-10",
        "-10",
    ]
    expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("65")
    pages.shot(page, "round-summary")
    # the next round is dealt by the server; the game goes on (ending score 500)
    expect(page.locator("#rummy-status")).to_contain_text("Round 2")


def test_a_finished_rummy_game_shows_every_hand_left(pages: Pages, script: ChanceScript) -> None:
    """One round of one turn (the max_rounds and max_turns safeguards): the game is over at
    the first discard, and the finished view says what each player was left holding."""
    script.by_game["rummy"] = first_deal
    page = pages.open()
    name = unique("roy")
    sign_up(page, name)
    create_table(
        page,
        "rummy",
        ["cpu:easy"],
        options={"hand_size": "7", "max_rounds": "1", "max_turns": "1"},
    )
    expect(page.locator("#rummy-status")).to_contain_text("your turn. Draw")
    page.keyboard.press("s")
    select(page, "3S 4S 5S")
    page.keyboard.press("m")
    expect(page.locator('#melds .meld[data-meld="1"]')).to_contain_text("1. run")
    select(page, "2C")
    page.locator("#discard-card").click()
    expect(page.locator("#rummy-status")).to_have_text(
        "The game is over: it reached its limit of rounds."
    )
    expect(page.locator("#result")).to_contain_text("You win!")
    # what each was left holding and what it cost: the person 3S 4S 5S on the table (15),
    # 10H JD QD KD in hand (5+10+10+10 = 35); the computer all seven (7H 8H 9H 2D 4C 5 each,
    # KC JS 10 each: 45)
    summary = page.locator("#round-summary")
    expect(summary).to_contain_text("The round reached its turn limit.")
    rows = summary.locator("tbody tr")
    assert rows.nth(0).locator("th, td").all_inner_texts() == [
        f"{name} (you)",
        "15",
        "-35",
        "-20",
        "-20",
    ]
    assert rows.nth(1).locator("th, td").all_inner_texts() == ["cpu:easy", "0", "-45", "-45", "-45"]
    held = summary.locator("p", has_text="cpu:easy held")
    cards = held.locator(".card-face").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(["7H", "8H", "9H", "KC", "4C", "2D", "JS"])
    # nothing offers a move once the game is over
    expect(page.locator(".layoff-here")).to_have_count(0)
    expect(page.locator("#rummy-keys")).to_be_hidden()
    pages.shot(page, "finished")
