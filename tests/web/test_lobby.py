"""The lobby as a newcomer meets it: an invite link opened before having an account."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import create_table, sign_up, unique


def test_a_newcomer_signs_up_from_an_invite_link_and_joins_the_table(pages: Pages) -> None:
    # found by a new user: the link sends them to "Log in"; its "Sign up" link dropped the
    # invite, so after signing up they stood in the lobby with no way to the table
    host = pages.open()
    sign_up(host, unique("host"))
    table_id = create_table(host, "ten-thousand", ["open"], invite=True)
    link = host.locator("#invite-link").input_value()
    guest = pages.open(width=390, height=844)
    guest.goto(link.removeprefix(pages.server.url))
    expect(guest.get_by_role("heading", name="Log in")).to_be_visible()
    expect(guest.locator("#nav").get_by_role("link", name="Sign up")).to_have_attribute(
        "href", re.compile(r"^#/signup\?next=")
    )
    guest.locator("main").get_by_role("link", name="Sign up").click()
    expect(guest.get_by_role("heading", name="Sign up")).to_be_visible()
    name = unique("guest")
    guest.get_by_label("Name").fill(name)
    guest.get_by_label("Password").fill("password123")
    guest.get_by_role("button", name="Sign up").click()
    expect(guest).to_have_url(re.compile(rf".*#/table/{table_id}\?invite=.*&join=1$"))
    expect(guest.locator("#table-message")).to_have_text("You joined the table.")
    expect(guest.locator("#lobby-seats li").nth(1)).to_have_text(f"{name} (you)")
    expect(host.locator("#lobby-seats li").nth(1)).to_have_text(name)
    expect(host.locator("#start")).to_be_visible()
    # only the crossword begins on votes: a vote here would do nothing, so none is offered
    expect(host.locator("#vote")).to_have_count(0)
    expect(guest.locator("#vote")).to_have_count(0)
    expect(guest.locator("#lobby-box")).to_contain_text("only the table's creator may start it")
    pages.shot(guest, "joined-from-invite")
    # and the way back: from "Sign up", "Log in" keeps the table too
    guest.locator("#nav .who").click()  # on a phone, "Log out" is on the account page
    guest.locator("#logout-here").click()
    expect(guest).to_have_url(re.compile(r".*#/login$"))  # logged out and sent to log in
    guest.goto(link.removeprefix(pages.server.url))
    expect(guest).to_have_url(re.compile(r".*#/login\?next="))
    guest.locator("main").get_by_role("link", name="Sign up").click()
    expect(guest.get_by_role("heading", name="Sign up")).to_be_visible()
    expect(guest).to_have_url(re.compile(r".*#/signup\?next="))
    guest.locator("main").get_by_role("link", name="Log in").click()
    # the log-in form, not the sign-up form it replaces, before typing (filled too early,
    # the name went into the sign-up form and the log-in form stayed empty)
    expect(guest.get_by_role("heading", name="Log in")).to_be_visible()
    expect(guest).to_have_url(re.compile(r".*#/login\?next="))
    guest.get_by_label("Name").fill(name)
    guest.get_by_label("Password").fill("password123")
    guest.get_by_role("button", name="Log in").click()
    expect(guest).to_have_url(re.compile(rf".*#/table/{table_id}\?invite="))
    expect(guest.locator("#lobby-seats li").nth(1)).to_have_text(f"{name} (you)")


def test_an_address_that_names_no_table_is_not_found(pages: Pages) -> None:
    # found by a new user mistyping an address: "#/table/abc" showed "Table #NaN" and the
    # server's validation message about path parameters
    page = pages.open()
    for address in ("/#/table/abc", "/#/replay/1x", "/#/table/0", "/#/table/99999999999"):
        page.goto(address)
        expect(page.get_by_role("heading", name="Not found")).to_be_visible()
        expect(page.locator("main")).not_to_contain_text("NaN")
    page.goto("/#/nowhere")
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.get_by_role("heading", name="Open games")).to_be_visible()


def test_a_refused_sign_up_shows_the_plain_reason(pages: Pages) -> None:
    page = pages.open()
    page.goto("/#/signup")
    page.get_by_label("Name").fill("ann!")
    page.get_by_label("Password").fill("password123")
    page.get_by_role("button", name="Sign up").click()
    alert = page.locator("form .message.error")
    expect(alert).to_contain_text("a name has only letters A-Z, digits, spaces and")
    assert (alert.text_content() or "").startswith("name: a name has only letters")
    assert "body" not in (alert.text_content() or "")
    # the browser logs the refused request itself; that one is expected here
    refused = "page 1 console: Failed to load resource: the server responded with a status of 422"
    assert len(pages.errors) == 1 and pages.errors[0].startswith(refused), pages.errors
    pages.errors.clear()
