"""A finished game in the browser: what stays on screen once it is over, and its replay.

(Its own module, after ``test_dice``: the test server's seeds are handed out in order, so a
table created earlier would change the computer players' dice in the tests that follow.)
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_crossword import draws
from tests.web.test_layout import WIDER_THAN_THE_SCREEN


def test_a_finished_crossword_shows_the_final_racks_and_its_replay_offers_no_turn(
    pages: Pages, script: ChanceScript
) -> None:
    script.by_game["crossword"] = draws({0: ["CATSDOG"], 1: ["BOATERS"]})
    ann, bob = pages.open(), pages.open(width=360, height=740)  # bob on a small phone
    ann_name, bob_name = unique("amy"), unique("bea")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    table = create_table(ann, "crossword", ["open"], invite=True, min_players=2)
    bob.goto(ann.locator("#invite-link").input_value())
    unseen = ann.locator("#cw-info summary", has_text="Tiles you cannot see")
    expect(unseen).to_be_visible()
    # two scoreless rounds end the game (docs/rules/crossword.md)
    for turn in range(4):
        page = (ann, bob)[turn % 2]
        expect(page.locator("#cw-status")).to_have_text("Your turn.")
        page.locator("#pass").click()
        page.locator("#confirm-yes").click()
    for page in (ann, bob):
        expect(page.locator("#cw-status")).to_have_text("The game is over.")
    expect(ann.locator("#plays li").last).to_contain_text("Game over")
    expect(unseen).to_have_count(0)
    expect(bob.locator("#cw-info summary", has_text="Tiles you cannot see")).to_have_count(0)
    # each player sees what everyone was left holding, and what it cost them: no one went
    # out, so each loses the rack's value (A1 C3 D2 G2 O1 S1 T1 = 11; A1 B3 E1 O1 R1 S1 T1 = 9)
    for page in (ann, bob):
        final = page.locator("#final-racks tbody tr")
        expect(final).to_have_count(2)
        expect(final.nth(0).locator("[data-tiles]")).to_have_attribute("data-tiles", "ACDGOST")
        expect(final.nth(1).locator("[data-tiles]")).to_have_attribute("data-tiles", "ABEORST")
        expect(final.nth(0).locator("td.num")).to_have_text("-11")
        expect(final.nth(1).locator("td.num")).to_have_text("-9")
        expect(page.locator("#final-racks")).to_contain_text("No one went out")
    expect(bob.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("-11")
    pages.shot(ann, "over")
    pages.shot(bob, "phone-over")
    assert bob.evaluate(WIDER_THAN_THE_SCREEN) == []

    # the replay: seat by seat, a name to play, never "Your turn."
    ann.goto(f"/#/replay/{table}")
    status = ann.locator("#cw-status")
    expect(ann.locator("#replay-step")).to_contain_text("Step 0 of")
    for _ in range(6):  # past the opening draws
        if "to play" in (status.text_content() or ""):
            break
        ann.keyboard.press("ArrowRight")
        ann.wait_for_timeout(200)
    expect(status).to_have_text(f"{ann_name} to play.")
    ann.keyboard.press("ArrowRight")
    expect(status).to_have_text(f"{bob_name} to play.")
    expect(ann.locator("#pass")).to_be_hidden()
    expect(ann.locator("#final-racks")).to_have_count(0)  # not before the end
    ann.keyboard.press("End")
    expect(ann.locator("#final-racks [data-tiles]").nth(1)).to_have_attribute(
        "data-tiles", "ABEORST"
    )
