"""A finished game in the browser: what stays on screen once it is over, and its replay.

(Its own module, after ``test_dice``: the test server's seeds are handed out in order, so a
table created earlier would change the computer players' dice in the tests that follow.)
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_crossword import draws


def test_a_finished_crossword_hides_unseen_tiles_and_its_replay_offers_no_turn(
    pages: Pages, script: ChanceScript
) -> None:
    script.by_game["crossword"] = draws({0: ["CATSDOG"], 1: ["BOATERS"]})
    ann, bob = pages.open(), pages.open()
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
    pages.shot(ann, "over")

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
