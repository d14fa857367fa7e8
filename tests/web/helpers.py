"""Steps the browser tests share: signing up, creating a table through the lobby form."""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import Page, expect

_names = itertools.count(1)


def unique(name: str) -> str:
    """A name no other test took (the server's database lives for the whole session)."""
    return f"{name}{next(_names)}"


def sign_up(page: Page, name: str, password: str = "password123") -> None:
    """Sign up through the form and land in the lobby."""
    page.goto("/#/signup")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("#nav .who")).to_have_text(name)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()


def create_table(
    page: Page,
    game: str,
    seats: list[str],
    *,
    options: dict[str, str] | None = None,
    invite: bool = False,
    min_players: int | None = None,
    rated: bool = True,
) -> int:
    """Fill the lobby's form: *seats* after "You" are "open" or "cpu:<level>" (a rated
    table unless *rated* is false). Returns the new table's id once its page shows."""
    page.locator("#new-game").select_option(game)
    rows = page.locator("#new-seats li")
    while rows.count() - 1 < len(seats):
        page.locator("#add-seat").click()
    while rows.count() - 1 > len(seats):
        rows.last.get_by_role("button", name="Remove").click()
    for index, seat in enumerate(seats):
        rows.nth(index + 1).locator("select").select_option(seat)
    for name, value in (options or {}).items():
        field = page.locator(f"#option-{name}")
        if field.get_attribute("type") == "checkbox":
            field.set_checked(value == "true")
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    if invite:
        page.locator("#visibility").select_option("invite")
    if min_players is not None:
        page.locator("#min-players").fill(str(min_players))
    if not rated:
        page.locator("#rated").set_checked(False)
    page.locator("#create").click()
    page.wait_for_url(re.compile(r".*#/table/\d+$"))
    return int(page.url.rsplit("/", 1)[1])
