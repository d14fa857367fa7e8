"""The login across tabs: a tab whose socket the server closes because the account logged
out in another tab (code 4401) drops to the logged-out state and says why, without a
reload."""

from __future__ import annotations

import contextlib

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import select_dice

FIRST_ROLL = "roll 1 2 2 3 4 6"


def test_a_tab_notices_a_logout_in_another_tab(pages: Pages, script: ChanceScript) -> None:
    # every turn's first roll (no dice kept yet) holds a single 1
    script.by_game["ten-thousand"] = lambda state: None if state.kept else FIRST_ROLL  # type: ignore[attr-defined]
    ann, bob = pages.open(), pages.open()
    ann_name, bob_name = unique("lou"), unique("lee")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    table = create_table(ann, "ten-thousand", ["open"])
    bob.goto(ann.locator("#invite-link").input_value())
    expect(ann.locator("#lobby-seats li").nth(1)).to_have_text(bob_name)
    ann.locator("#start").click()
    expect(ann.locator("#dice .die")).to_have_count(6)
    select_dice(ann, [1])
    ann.keyboard.press("b")
    expect(bob.locator("#turn-head")).to_have_text("Your turn")
    expect(bob.locator("#dice .die")).to_have_count(6)
    other_tab = pages.tab(ann)  # the same browser as ann's first tab: the same cookie
    other_tab.goto(f"/#/table/{table}")
    expect(other_tab.locator("#nav .who")).to_have_text(ann_name)
    expect(other_tab.locator("#turn-head")).to_have_text(f"{bob_name} is playing")

    ann.locator("#logout").click()
    expect(ann.get_by_role("heading", name="Log in")).to_be_visible()
    # bob banks: the update for ann's other tab finds her logged out, and the server closes
    # that tab's socket (4401) instead of sending it
    select_dice(bob, [1])
    bob.keyboard.press("b")
    expect(other_tab.locator("#notice")).to_have_text(
        f"{ann_name} was logged out (in another tab or window, or the login expired). "
        "Log in again to play."
    )
    expect(other_tab.locator("#nav .who")).to_have_count(0)
    expect(other_tab.locator("#nav").get_by_role("link", name="Log in")).to_be_visible()
    # the table drawn again for someone not logged in, as it is now: watching, no moves
    scores = other_tab.locator("#scoreboard tbody tr .score")
    expect(scores).to_have_text(["100", "100"])
    expect(other_tab.locator("#turn-head")).to_have_text(f"{ann_name} is playing")
    expect(other_tab.locator("#roll")).to_be_hidden()
    expect(other_tab.locator("#live")).to_have_text("● live")  # again, as a spectator
    pages.shot(other_tab, "logged-out")

    # logging in again in that tab: the notice goes, and ann's turn is there to play
    other_tab.locator("#nav").get_by_role("link", name="Log in").click()
    other_tab.get_by_label("Name").fill(ann_name)
    other_tab.get_by_label("Password").fill("password123")
    other_tab.get_by_role("button", name="Log in").click()
    expect(other_tab.locator("#nav .who")).to_have_text(ann_name)
    expect(other_tab.locator("#notice")).to_be_hidden()
    other_tab.goto(f"/#/table/{table}")
    expect(other_tab.locator("#turn-head")).to_have_text("Your turn")


def test_a_refused_request_notices_a_logout_in_another_tab(pages: Pages) -> None:
    # a tab in the lobby has no table to be sent: its next request (creating a table) is
    # refused as logged out (401), and the tab drops to the logged-out state and says why
    ann = pages.open()
    name = unique("lyn")
    sign_up(ann, name)
    lobby = pages.tab(ann)
    lobby.goto("/#/")
    expect(lobby.locator("#nav .who")).to_have_text(name)
    lobby.locator("#new-game").select_option("ten-thousand")
    ann.locator("#logout").click()
    expect(ann.get_by_role("heading", name="Log in")).to_be_visible()

    # the tab's next request is refused as logged out: the create below, or a refresh of
    # its own lists that came first (then the form is already gone: the same outcome)
    with contextlib.suppress(PlaywrightError):
        lobby.locator("#create").click(timeout=3_000)
    expect(lobby.locator("#notice")).to_have_text(
        f"{name} was logged out (in another tab or window, or the login expired). "
        "Log in again to play."
    )
    expect(lobby.locator("#nav .who")).to_have_count(0)
    expect(lobby.locator("#nav").get_by_role("link", name="Log in")).to_be_visible()
    refused = "page 2 console: Failed to load resource: the server responded with a status of 401"
    assert len(pages.errors) == 1 and pages.errors[0].startswith(refused), pages.errors
    pages.errors.clear()
