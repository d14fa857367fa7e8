"""What players of these games expect: dice buttons only for a scoring selection, the turn
total with the selection, the focus kept on the dice; the tab saying it is your turn; the
crossword's last play marked and no cursor when it is not your turn; clocks as time left."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_dice import rolls_for_seat, select_dice
from tests.web.test_in_view import SIZES


@pytest.mark.parametrize("size", list(SIZES))
def test_dice_buttons_follow_the_selection_and_the_tab_says_your_turn(
    pages: Pages, script: ChanceScript, size: str
) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 2 3 4 6 6"])
    page = pages.open(width=SIZES[size][0], height=SIZES[size][1])
    sign_up(page, unique("sel"))
    create_table(page, "ten-thousand", ["cpu:cautious"])
    expect(page.locator("#dice .die")).to_have_count(6)
    expect(page).to_have_title(
        "▶ Your turn · Ten-Thousand #" + page.url.rsplit("/", 1)[1] + " · parlour"
    )
    assert page.locator('link[rel="icon"]').get_attribute("href") == "favicon-turn.svg"
    expect(page.locator("#roll")).to_be_disabled()  # nothing selected
    select_dice(page, [2])
    expect(page.locator("#selection")).to_contain_text("Not a keep")
    expect(page.locator("#roll")).to_be_disabled()
    expect(page.locator("#bank")).to_be_disabled()
    select_dice(page, [2])  # off again
    # Space on a focused die selects it and the focus stays on that die
    page.locator('#dice .die[data-face="1"]').focus()
    page.keyboard.press("Space")
    expect(page.locator('#dice .die[data-face="1"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#dice .die[data-face="1"]')).to_be_focused()
    expect(page.locator("#selection")).to_have_text("Selected: 100 points · turn total 100")
    expect(page.locator("#turn-total")).to_have_text("Turn total: 100")
    expect(page.locator("#roll")).to_be_enabled()
    expect(page.locator("#bank")).to_be_enabled()


def test_time_left_reads_in_days_hours_and_minutes(pages: Pages) -> None:
    page = pages.open()
    page.goto("/")
    said = page.evaluate("""async () => {
        const { timeLeft } = await import("/js/table.js");
        const now = Date.parse("2026-01-01T00:00:00Z");
        const at = (m) => new Date(now + m * 60000).toISOString();
        return [at(3 * 1440 + 2 * 60 + 5), at(2 * 1440), at(5 * 60 + 10), at(4), at(-1)]
            .map((d) => timeLeft(d, now));
    }""")
    assert said == ["3 d 2 h", "2 d", "5 h 10 min", "4 min", "no time"]


MARKS = """() => {
    window.marks = [];
    const game = document.getElementById("game");
    new MutationObserver(() => window.marks.push({
        yours: document.getElementById("table-status").classList.contains("yours"),
        cursor: document.querySelectorAll("#board .sq.cursor").length,
    })).observe(game, {attributes: true, attributeFilter: ["data-version"]});
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_crossword_marks_the_last_play_and_hides_the_cursor_off_turn(
    pages: Pages, size: str
) -> None:
    page = pages.open(width=SIZES[size][0], height=SIZES[size][1])
    page.context.add_init_script("localStorage.setItem('parlour.pace', '400')")
    sign_up(page, unique("cw"))
    create_table(page, "crossword", ["cpu:hard"])
    expect(page.locator("#rack .tile-btn")).to_have_count(7, timeout=30_000)
    page.locator('#board [data-square="H8"]').click()
    expect(page.locator("#board .sq.cursor")).to_have_count(1)
    page.evaluate(MARKS)
    page.locator("#pass").click()
    page.locator("#confirm-yes").click()
    # the computer plays; then it is our turn again, its play marked
    expect(page.locator("#move-log li").last).to_contain_text("played", timeout=30_000)
    expect(page.locator("#table-status")).to_have_class("status yours", timeout=30_000)
    marks = page.evaluate("window.marks")
    off_turn = [m for m in marks if not m["yours"]]
    assert off_turn and all(m["cursor"] == 0 for m in off_turn), marks
    marked = page.locator("#board .sq.last-play")
    assert marked.count() >= 2
    assert "(last play)" in (marked.first.get_attribute("aria-label") or "")
    line = page.locator("#move-log li").last.text_content() or ""
    assert line.startswith("cpu:hard played ") and " for " in line, line


def test_the_site_follows_the_systems_dark_setting(pages: Pages) -> None:
    page = pages.open()
    page.emulate_media(color_scheme="dark")
    page.goto("/#/login")
    dark = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    page.emulate_media(color_scheme="light")
    light = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    assert (dark, light) == ("rgb(21, 25, 29)", "rgb(251, 250, 246)")


@pytest.mark.parametrize("size", list(SIZES))
def test_my_games_say_whose_turn_it_is(pages: Pages, script: ChanceScript, size: str) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 2 3 4 6 6"])
    page = pages.open(width=SIZES[size][0], height=SIZES[size][1])
    sign_up(page, unique("my"))
    table = create_table(page, "ten-thousand", ["cpu:cautious"])
    expect(page.locator("#dice .die")).to_have_count(6)
    page.goto("/#/")
    row = page.locator("#my-games li", has=page.locator(f'a[href="#/table/{table}"]'))
    expect(row.locator(".table-state")).to_have_text(" · you to move")


@pytest.mark.parametrize("size", list(SIZES))
def test_my_games_show_a_finished_games_result(
    pages: Pages, script: ChanceScript, size: str
) -> None:
    script.by_game["greedy"] = rolls_for_seat(0, ["roll 1 2 3 4 6 6 2 3 4"])
    page = pages.open(width=SIZES[size][0], height=SIZES[size][1])
    sign_up(page, unique("quit"))
    table = create_table(page, "greedy", ["cpu:easy"])
    expect(page.locator("#dice .die")).to_have_count(9)
    page.locator("#quit").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#result")).to_contain_text("cpu:easy wins")
    page.goto("/#/")
    row = page.locator("#my-games li", has=page.locator(f'a[href="#/table/{table}"]'))
    expect(row.locator(".table-state")).to_have_text(" · cpu:easy won (0 to 0)")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_crossword_judges_a_play_only_once_it_is_complete(
    pages: Pages, script: ChanceScript, size: str
) -> None:
    from tests.web.test_crossword import draws

    script.by_game["crossword"] = draws({0: ["CATSDOG"]})  # type: ignore[assignment]
    page = pages.open(width=SIZES[size][0], height=SIZES[size][1])
    sign_up(page, unique("half"))
    create_table(page, "crossword", ["cpu:easy"])
    expect(page.locator("#rack .tile-btn")).to_have_count(7, timeout=30_000)
    page.locator('#board [data-square="H8"]').click()
    page.keyboard.press("c")  # one tile on the first play: not a whole placement yet
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Place the tiles in one line")
    page.locator('#board [data-square="J8"]').click()
    page.keyboard.press("t")  # a gap at I8
    expect(page.locator('#board [data-square="J8"]')).to_contain_text("T")
    expect(preview).to_contain_text("Place the tiles in one line")
    expect(preview).not_to_contain_text("Not a legal play")
    page.locator('#board [data-square="I8"]').click()
    page.keyboard.press("g")  # CGT H8 across: whole, and no word
    expect(preview).to_contain_text("Not a legal play")
    expect(page.locator("#play")).to_be_disabled()


def test_a_new_table_takes_the_browsers_time_zone(pages: Pages) -> None:
    context = pages.browser.new_context(timezone_id="Asia/Tokyo", base_url=pages.server.url)
    pages.contexts.append(context)
    page = context.new_page()
    sign_up(page, unique("tz"))
    expect(page.locator("#time-zone")).to_have_value("Asia/Tokyo")
    table = create_table(page, "crossword", ["cpu:easy"])
    zone = page.evaluate(
        "async (t) => (await (await fetch(`/tables/${t}`)).json()).time_zone", table
    )
    assert zone == "Asia/Tokyo"


def test_the_create_forms_options_read_in_words(pages: Pages) -> None:
    page = pages.open()
    sign_up(page, unique("opt"))
    page.locator("#new-game").select_option("crossword")
    options = page.locator("fieldset", has_text="Options").inner_text()
    assert ".." not in options and "_" not in options, options
    assert "Max stack" in options and "(0 or more)" in options, options
    # numbers grouped as the scores are: "10,000" on the table, "100,000" here
    page.locator("#new-game").select_option("ten-thousand")
    options = page.locator("fieldset", has_text="Options").inner_text()
    assert "(1,000 to 100,000)" in options and "(0 to 5,000)" in options, options
