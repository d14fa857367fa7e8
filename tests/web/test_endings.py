"""Ending games in the browser: resign (with its confirm) and what the other player sees
live, a rematch offered and accepted, the leaderboard and a player page, and watching a
game from the lobby's "Watch" list."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.quick_game import QUICK_GAME
from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_social import api


def test_resign_then_rematch_then_the_ratings(pages: Pages) -> None:
    ann, bob = pages.open(), pages.open()
    ann_name, bob_name = unique("rea"), unique("reb")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    table = create_table(ann, "ten-thousand", ["open"])
    bob.goto(ann.locator("#invite-link").input_value())
    expect(ann.locator("#lobby-seats li").nth(1)).to_have_text(bob_name)
    ann.locator("#start").click()
    expect(bob.locator("#resign")).to_be_visible()
    expect(bob.locator("#abort")).to_be_visible()  # nobody has moved yet

    bob.locator("#resign").click()
    expect(bob.locator("#confirm-text")).to_have_text("Resign this game? It counts as a loss.")
    bob.locator("#confirm-no").click()  # kept playing: nothing changed
    expect(bob.locator("#resign")).to_be_visible()
    bob.locator("#resign").click()
    bob.locator("#confirm-yes").click()
    expect(ann.locator("#table-message")).to_have_text(f"{bob_name} resigned.")
    expect(ann.locator("#result")).to_contain_text("You win!")
    expect(ann.locator("#resigned-note")).to_have_text(f"Resigned: {bob_name}.")
    expect(ann.locator("#resign")).to_have_count(0)

    bob.locator("#rematch").click()
    expect(bob.locator("#rematch-waiting")).to_be_visible()
    expect(ann.locator("#rematch")).to_have_text(f"Accept the rematch ({bob_name})")
    pages.shot(ann, "rematch-offered")
    ann.locator("#rematch").click()
    expect(ann).not_to_have_url(re.compile(rf".*#/table/{table}$"))
    new = int(ann.url.rsplit("/", 1)[1])
    assert new != table
    expect(bob.locator("#rematch-link")).to_have_text(f"Go to the rematch #{new}")
    bob.locator("#rematch-link").click()
    # the seat order is rotated: bob sits first now
    expect(bob.locator("#endings .players a").first).to_have_text(bob_name)

    # the leaderboard and the player pages (names link to them)
    ann.goto("/#/ratings/ten-thousand")
    rows = ann.locator("#leaderboard-table tbody tr")
    expect(rows.filter(has_text=ann_name)).to_have_count(1)
    expect(rows.filter(has_text=bob_name)).to_have_count(1)
    rows.filter(has_text=bob_name).get_by_role("link", name=bob_name).click()
    expect(ann.locator("#player-name")).to_have_text(bob_name)
    expect(ann.locator("#games-played")).to_have_text("1 game played")
    expect(ann.locator("#recent-games tbody tr").first).to_contain_text("resigned")
    pages.shot(ann, "player-page")


def test_watching_a_game_from_the_lobby(pages: Pages) -> None:
    ann, watcher = pages.open(), pages.open()
    ann_name = unique("wat")
    sign_up(ann, ann_name)
    table = create_table(ann, "ten-thousand", ["cpu:cautious"])
    expect(ann.locator("#resign")).to_be_visible()
    watcher.goto("/#/")
    link = watcher.locator("#watch-games a", has_text=f"#{table}")
    expect(link).to_be_visible()
    link.click()
    expect(watcher.locator("#watching")).to_have_text("You are watching this game.")
    expect(watcher.locator("#resign")).to_have_count(0)
    expect(watcher.locator("#dice .die")).to_have_count(6)
    # the player resigns: the spectator sees the end live
    ann.locator("#resign").click()
    ann.locator("#confirm-yes").click()
    expect(watcher.locator("#resigned-note")).to_have_text(f"Resigned: {ann_name}.")
    expect(watcher.locator("#watching")).to_have_count(0)


def test_a_resigned_player_is_not_told_they_won_when_their_computer_does(
    pages: Pages, script: ChanceScript
) -> None:
    """Found by playing: among three people ann resigned, the computer that played her seat
    out won it, and her table page said "You win!" (and My tables "you won")."""
    script.by_game[QUICK_GAME] = lambda state: "die 6"  # the computer (hold at 20) goes out first
    ann, bob, cat = pages.open(), pages.open(), pages.open()
    ann_name = unique("rsa")
    sign_up(ann, ann_name)
    sign_up(bob, unique("rsb"))
    sign_up(cat, unique("rsc"))
    made = api(
        ann,
        "POST",
        "/tables",
        {"game": QUICK_GAME, "seats": ["me", "open", "open"], "options": {"target": 30}},
    )
    table_id = made["id"]
    for page in (bob, cat):
        api(page, "POST", f"/tables/{table_id}/join", {"invite": made["invite_code"]})
    api(ann, "POST", f"/tables/{table_id}/start")
    version = api(ann, "GET", f"/tables/{table_id}")["version"]
    api(ann, "POST", f"/tables/{table_id}/resign", {"version": version})
    table: dict = {}
    for _ in range(60):
        table = api(ann, "GET", f"/tables/{table_id}")
        if table["status"] == "finished":
            break
        for page in (bob, cat):
            mine = api(page, "GET", f"/tables/{table_id}")
            if mine["legal"]:
                action = "hold" if "hold" in mine["legal"] else "roll"
                body = {"action": action, "version": mine["version"]}
                page.request.post(f"/tables/{table_id}/actions", data=body)
    assert table["status"] == "finished" and table["result"]["winners"] == [0]
    ann.goto(f"/#/table/{table_id}")
    expect(ann.locator("#result")).to_be_visible()
    expect(ann.locator("#result h2")).not_to_have_text("You win!")
    ann.goto("/#/")
    expect(ann.locator(f"a[href='#/table/{table_id}']").first).to_be_visible()
    expect(ann.locator("body")).not_to_contain_text("you won")
