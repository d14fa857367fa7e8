"""Notifications and chat in the browser: the chat shows whatever players type as text
(HTML and scripts never run), a mute hides the muted person's lines, the replay shows the
chat, and a turn lights the unread badge, lands in the list and, with the tab in the
background and notifications allowed, calls the browser's Notification API."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.quick_game import QUICK_GAME
from tests.web.conftest import Pages
from tests.web.helpers import sign_up, unique

IMG = '<img src=x onerror="window.__pwned = 1">'
SCRIPT = "<script>window.__pwned = 2</script>"
# a stand-in for the Notification API that records each notification shown; the permission
# is the browser's own (granted by the test), and the tab says it is in the background
# while window.__background is true
STUB = """
(() => {
  const Real = window.Notification;
  window.__shown = [];
  class Recorded {
    constructor(title, options) { window.__shown.push({ title, body: options && options.body }); }
    static get permission() { return Real ? Real.permission : "granted"; }
    static requestPermission() {
      return Real ? Real.requestPermission() : Promise.resolve("granted");
    }
  }
  window.Notification = Recorded;
  Object.defineProperty(document, "hidden", { get: () => window.__background === true });
})();
"""


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A request with the page's cookie (no Origin header: not a cross-site form)."""
    answer = page.request.fetch(path, method=method, data=body)
    assert answer.ok, answer.text()
    return answer.json()


def pig_table(ann: Page, bob: Page, target: int = 100) -> int:
    made = api(
        ann,
        "POST",
        "/tables",
        {"game": QUICK_GAME, "seats": ["me", "open"], "options": {"target": target}},
    )
    api(bob, "POST", f"/tables/{made['id']}/join", {"invite": made["invite_code"]})
    api(ann, "POST", f"/tables/{made['id']}/start")
    return int(made["id"])


def pass_turn(page: Page, table_id: int) -> None:
    """The page's person, to move, rolls then holds until the turn passes."""
    while True:
        table = api(page, "GET", f"/tables/{table_id}")
        if table["status"] != "active" or table["to_move"] != [table["you"]]:
            return
        action = "hold" if "hold" in table["legal"] else table["legal"][0]
        api(
            page,
            "POST",
            f"/tables/{table_id}/actions",
            {"action": action, "version": table["version"]},
        )


def test_chat_shows_html_and_scripts_as_text_and_a_mute_hides_lines(pages: Pages) -> None:
    ann, bob = pages.open(), pages.open()
    ann_name, bob_name = unique("cat"), unique("dog")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    table_id = pig_table(ann, bob, target=10)
    ann.goto(f"/#/table/{table_id}")
    bob.goto(f"/#/table/{table_id}")
    expect(bob.locator("#chat")).to_be_visible()
    for count, text in enumerate((IMG, SCRIPT), start=1):
        ann.locator("#chat-input").fill(text)
        ann.locator("#chat-send").click()
        expect(ann.locator("#chat-lines .chat-text")).to_have_count(count)
    lines = bob.locator("#chat-lines .chat-text")
    expect(lines).to_have_text([IMG, SCRIPT])  # live, as typed
    expect(ann.locator("#chat-lines .chat-text")).to_have_text([IMG, SCRIPT])
    for page in (ann, bob):
        assert page.locator("#chat-lines img, #chat-lines script").count() == 0
        assert page.evaluate("window.__pwned") is None
    too_long = "x" * 501
    ann.locator("#chat-input").evaluate(
        "(el, v) => { el.removeAttribute('maxlength'); el.value = v; }", too_long
    )
    ann.locator("#chat-send").click()
    expect(ann.locator("#chat-message")).to_have_text(
        "a chat message is at most 500 characters (this one has 501)"
    )
    # bob mutes ann: her lines go, and the next one never reaches him
    bob.locator("#chat-lines li").first.get_by_role("button", name="mute").click()
    expect(bob.locator("#chat-message")).to_have_text(f"{ann_name} is muted.")
    expect(lines).to_have_count(0)
    ann.locator("#chat-input").fill("you will not read this")
    ann.locator("#chat-send").click()
    expect(ann.locator("#chat-lines .chat-text")).to_have_count(3)
    bob.locator("#chat-input").fill("quiet now")
    bob.locator("#chat-send").click()
    expect(ann.locator("#chat-lines .chat-text")).to_have_text(
        [IMG, SCRIPT, "you will not read this", "quiet now"]
    )
    expect(lines).to_have_text(["quiet now"])
    bob.reload()
    expect(bob.locator("#chat-lines .chat-text")).to_have_text(["quiet now"])
    # the game ends; the replay shows the chat (for ann, everything), as text
    while api(ann, "GET", f"/tables/{table_id}")["status"] == "active":
        pass_turn(ann, table_id)
        pass_turn(bob, table_id)
    ann.goto(f"/#/replay/{table_id}")
    expect(ann.locator("#chat-lines .chat-text")).to_have_text(
        [IMG, SCRIPT, "you will not read this", "quiet now"]
    )
    assert ann.locator("#chat-input").count() == 0
    assert ann.evaluate("window.__pwned") is None


def test_a_turn_lights_the_badge_lists_and_notifies_the_background_tab(pages: Pages) -> None:
    ann, bob = pages.open(), pages.open()
    bob.context.grant_permissions(["notifications"])
    bob.context.add_init_script(STUB)
    ann_name, bob_name = unique("fox"), unique("owl")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    bob.goto("/#/notifications")
    expect(bob.get_by_role("heading", name="Notifications")).to_be_visible()
    expect(bob.locator("#notif-list")).to_have_text("Nothing yet.")
    bob.locator("#browser-notif-on").click()
    expect(bob.locator("#browser-notif-off")).to_be_visible()
    table_id = pig_table(ann, bob)  # ann (seat 0) moves first
    expect(bob.locator("#notif-badge")).to_have_text("1")  # the start
    bob.evaluate("window.__background = true")
    pass_turn(ann, table_id)
    expect(bob.locator("#notif-badge")).to_have_text("2")
    turn = f"It is your turn at table {table_id} (Pig)."
    expect(bob.locator("#notif-list li").first).to_contain_text(turn)
    shown = bob.evaluate("window.__shown")
    assert {"title": "parlour", "body": turn} in shown
    assert all("has started" in n["body"] or n["body"] == turn for n in shown)
    # back in the foreground: the list is there, no system notification
    bob.evaluate("window.__background = false")
    bob.locator("#notif-list li").first.get_by_role("button", name="Mark read").click()
    expect(bob.locator("#notif-badge")).to_have_text("1")
    bob.locator("#notif-read-all").click()
    expect(bob.locator("#notif-badge")).to_be_hidden()
    bob.locator("#notif-list li").first.locator("a").click()
    expect(bob).to_have_url(f"{pages.server.url}/#/table/{table_id}")
    # e-mail settings: off by default, refused without an address
    bob.goto("/#/notifications")
    expect(bob.locator("#mail-notify")).not_to_be_checked()
    bob.locator("#mail-notify").check()
    bob.locator("#mail-save").click()
    expect(bob.locator("#mail-form .message")).to_have_text("give an e-mail address to get mail")
    bob.locator("#mail-address").fill("owl@example.org")
    bob.locator("#mail-save").click()
    expect(bob.locator("#mail-form .message")).to_have_text("Saved.")
    assert api(bob, "GET", "/me/mail")["email"] == "owl@example.org"
