"""Greedy in the browser: the bonus round twice, a win, and the standings page."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import rolls_for_seat

NINE_ONES = "roll 1 1 1 1 1 1 1 1 1"


def test_greedy_with_a_bonus_round(pages: Pages, script: ChanceScript) -> None:
    script.by_game["greedy"] = rolls_for_seat(
        0, ["roll 1 1 1 5 5 5 2 2 2", NINE_ONES, NINE_ONES, NINE_ONES]
    )
    page = pages.open(width=390, height=844)
    name = unique("gus")
    sign_up(page, name)
    create_table(page, "greedy", ["cpu:easy"])
    expect(page.locator("#dice .die")).to_have_count(9)
    expect(page.locator("#dice .die").first).to_have_attribute("aria-label", "Die 1: one")
    page.keyboard.press("a")  # every scoring die: 1000 + 500 + 200
    expect(page.locator("#selection")).to_have_text("Selected: 1,700 points · turn total 1,700")
    expect(page.locator("#bonus")).to_contain_text("Bonus round! All nine dice score")
    pages.shot(page, "bonus-offered")
    page.keyboard.press("r")  # take the bonus round: all nine again
    expect(page.locator("#turn-total")).to_have_text("Turn total: 1,700 · Sum 1,700")
    expect(page.locator("#dice .die")).to_have_count(9)
    page.keyboard.press("a")  # nine 1s: three sets, 3,000
    expect(page.locator("#bonus")).to_contain_text("Bonus round!")
    page.keyboard.press("e")  # end the turn with 4,700
    expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("4,700")
    for expected in ("7,700", "10,700"):
        expect(page.locator("#turn-head")).to_have_text("Your turn", timeout=30_000)
        # "Your turn" shows before the roll arrives: keys pressed before it chose from no dice
        expect(page.locator("#dice .die")).to_have_count(9)
        page.keyboard.press("a")
        # the preview answered before the turn ends (one sent after the win was refused: 409)
        expect(page.locator("#selection")).to_have_text("Selected: 3,000 points · turn total 3,000")
        page.keyboard.press("e")
        expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text(expected)
    expect(page.locator("#result")).to_contain_text("You win!")
    pages.shot(page, "won")
    # the manual's tournament: 5,000 + 10 x 700 points over 10,000
    page.goto("/#/standings")
    row = page.locator("#scorebook tbody tr", has_text=name)
    for _ in range(20):  # the scorebook is written just after the game, in the background
        if row.count():
            break
        page.wait_for_timeout(250)
        page.reload()
    expect(row).to_have_count(1)
    cells = row.locator("td").all_inner_texts()
    assert cells[:4] == ["1", "1", "0", "12,000"], cells
    pages.shot(page, "standings")

    # log out, and back in: the finished game is in "My games"
    page.locator("#nav .who").click()  # on a phone, "Log out" is on the account page
    page.locator("#logout-here").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    expect(page.locator("#nav")).not_to_contain_text(name)
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill("password123")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#nav .who")).to_have_text(name)
    expect(page.locator("#my-games")).to_contain_text("Greedy")
    expect(page.locator("#my-games")).to_contain_text("finished")


def test_a_quit_out_of_turn_names_the_quitter(pages: Pages, script: ChanceScript) -> None:
    """Greedy lets a player quit while another has the dice (docs/rules/greedy.md): the
    finished view names the quitter (it named the seat to move, here the winner) and shows
    no turn total: there is no turn in progress."""
    script.by_game["greedy"] = rolls_for_seat(0, ["roll 1 1 1 5 5 5 2 2 2"])
    ann, bob = pages.open(), pages.open(width=390, height=844)
    ann_name, bob_name = unique("gia"), unique("gil")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    create_table(ann, "greedy", ["open"], invite=True)
    bob.goto(ann.locator("#invite-link").input_value())
    expect(ann.locator("#lobby-seats li").nth(1)).to_have_text(bob_name)
    ann.locator("#start").click()
    expect(ann.locator("#turn-head")).to_have_text("Your turn")
    expect(bob.locator("#turn-head")).to_have_text(f"{ann_name} is playing")
    bob.locator("#quit").click()
    bob.locator("#confirm-yes").click()
    forfeit = "quit and forfeited the game: the highest score among the other players wins."
    for page, quitter in ((ann, bob_name), (bob, f"{bob_name} (you)")):
        expect(page.locator("#turn-head")).to_have_text("Game over")
        expect(page.locator("#last-turn")).to_have_text(f"{quitter} {forfeit}")
        expect(page.locator("#turn-total")).to_be_hidden()
    expect(ann.locator("#result")).to_contain_text("You win!")
    expect(bob.locator("#result")).to_contain_text(f"{ann_name} wins")
    pages.shot(bob, "quit")
