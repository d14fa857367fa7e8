"""The account page (#/account): change the password, see the sessions and end one, log
out everywhere, delete the account."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import sign_up, unique


def _only_refusals(pages: Pages, expected: dict[str, set[int]]) -> None:
    """The pages' console errors are only the refusals *expected* (page label -> statuses:
    a wrong password, a request made with an ended login); then forget them."""
    refused = "console: Failed to load resource: the server responded with a status of "
    seen: dict[str, set[int]] = {}
    for error in pages.errors:
        label, _, rest = error.partition(" console: ")
        assert f"console: {rest}".startswith(refused), error
        seen.setdefault(label, set()).add(int(rest.removeprefix(refused[9:])[:3]))
    assert seen == expected, pages.errors
    pages.errors.clear()


def _log_in(page: Page, name: str, password: str = "password123") -> None:
    page.goto("/#/login")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#nav .who")).to_have_text(name)


def test_the_account_page_changes_the_password_and_ends_the_other_sessions(
    pages: Pages,
) -> None:
    here, there = pages.open(), pages.open()  # two browsers: two sessions
    name = unique("amy")
    sign_up(here, name)
    _log_in(there, name)
    here.locator("#nav .who").click()
    expect(here.get_by_role("heading", name=f"Your account: {name}")).to_be_visible()
    sessions = here.locator("#sessions tbody tr")
    expect(sessions).to_have_count(2)
    expect(sessions.filter(has_text="this one")).to_have_count(1)  # the other is newer

    here.get_by_label("Current password").fill("not-the-password")
    here.get_by_label("New password").fill("brand-new-pw")
    here.locator("#change-password").click()
    expect(here.get_by_role("alert")).to_have_text("the current password is wrong")
    here.get_by_label("Current password").fill("password123")
    here.locator("#change-password").click()
    expect(
        here.get_by_text("Password changed. Your other sessions were logged out.")
    ).to_be_visible()
    here.reload()
    expect(sessions).to_have_count(1)
    # the other browser finds itself logged out at its next request
    there.goto("/#/")
    expect(there.locator("#nav .who")).to_have_count(0)
    _log_in(there, name, "brand-new-pw")
    pages.shot(here, "account")
    _only_refusals(pages, {"page 1": {403}, "page 2": {401}})


def test_a_session_is_ended_from_the_page_and_log_out_everywhere_ends_all(
    pages: Pages,
) -> None:
    here, there = pages.open(), pages.open()
    name = unique("ava")
    sign_up(here, name)
    _log_in(there, name)
    here.goto("/#/account")
    sessions = here.locator("#sessions tbody tr")
    expect(sessions).to_have_count(2)
    sessions.filter(has_not_text="this one").get_by_role("button", name="Log out").click()
    expect(sessions).to_have_count(1)
    there.goto("/#/")
    expect(there.locator("#nav .who")).to_have_count(0)

    here.locator("#logout-everywhere").click()
    here.locator("#confirm-yes").click()
    expect(here.get_by_role("heading", name="Log in")).to_be_visible()
    expect(here.locator("#nav .who")).to_have_count(0)
    _only_refusals(pages, {"page 2": {401}})


def test_deleting_the_account_from_the_page(pages: Pages) -> None:
    page = pages.open()
    name = unique("ada")
    sign_up(page, name)
    page.goto("/#/account")
    page.get_by_label("Password", exact=True).fill("wrong-password")
    page.locator("#delete-account").click()
    page.locator("#confirm-yes").click()
    expect(page.get_by_role("alert")).to_have_text("the current password is wrong")
    page.get_by_label("Password", exact=True).fill("password123")
    page.locator("#delete-account").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#nav .who")).to_have_count(0)
    expect(page.get_by_role("heading", name="New game")).to_be_hidden()
    sign_up(page, name)  # the name is free again
    _only_refusals(pages, {"page 1": {403}})
