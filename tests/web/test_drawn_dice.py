"""The generic renderer draws dice from the observation's shape (a part named ``die`` or
``dice``), so the worked-example game, which has no page of its own, shows its die as a die,
with words for screen readers, in view at the three sizes. The platform names no game: the
quick game is whatever ``tests.quick_game`` names."""

from __future__ import annotations

from playwright.sync_api import expect

from parlour.engine.registry import find
from parlour.engine.state import State
from tests.quick_game import QUICK_GAME
from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique
from tests.web.test_in_view import OUT_OF_VIEW, SIZES


def test_a_games_die_is_drawn_by_the_generic_renderer(pages: Pages, script: ChanceScript) -> None:
    faces = ["die 4", "die 3"]  # the turn's first roll happens by itself, then ours

    def dice(state: State) -> str | None:
        return faces.pop(0) if faces and getattr(state, "seat", None) == 0 else None

    script.by_game[QUICK_GAME] = dice
    page = pages.open(width=1280, height=800)
    sign_up(page, unique("die"))
    create_table(page, QUICK_GAME, [f"cpu:{find(QUICK_GAME).bot_levels[0]}"])
    expect(page.locator("#legal-actions button").first).to_be_visible(timeout=30_000)
    drawn = page.locator("#generic-dice")
    expect(drawn).to_have_attribute("aria-label", "The die shows four")
    expect(drawn.locator(".die")).to_have_count(1)
    expect(drawn.locator('.die[data-face="4"] .pip')).to_have_count(4)
    assert page.locator('#observation tr[data-part="die"] td').inner_text() == "4"
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    page.locator('#legal-actions button[data-action="roll"]').click()
    expect(drawn).to_have_attribute("aria-label", "The die shows three")
    expect(drawn.locator('.die[data-face="3"] .pip')).to_have_count(3)
    problems = {}
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        pages.shot(page, f"die-{size}", full_page=False)
        out = page.evaluate(OUT_OF_VIEW, ["#generic-dice", "#legal-actions", "#scores"])
        if out:
            problems[size] = out
    assert not problems, problems
