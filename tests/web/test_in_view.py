"""Everything a player needs in view without scrolling, at two laptop sizes and a phone:
the board, the dice or cards, your own rack or hand, your controls, whose turn it is and the
scores. Each game at each size is measured (every box inside the viewport) and saved as a
screenshot, ``artifacts/screenshots/in_view-<game>-<size>.png``."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from parlour.engine.registry import find
from parlour.engine.state import State
from tests.quick_game import QUICK_GAME
from tests.web.conftest import ARTIFACTS, ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique

SIZES = {"1280x800": (1280, 800), "1366x768": (1366, 768), "390x844": (390, 844)}

DICE = ["#dice", "#roll", "#bank", "#turn-head", "#turn-total", "#scoreboard", "#table-status"]
GAMES: dict[str, tuple[list[str], list[str], str]] = {
    # game: (seats after you, the boxes that must be in view, what shows it is your turn)
    "ten-thousand": (["cpu:cautious", "cpu:steady"], DICE, "#dice .die"),
    "greedy": (["cpu:easy"], DICE, "#dice .die"),
    "rummy": (
        ["cpu:easy", "cpu:medium"],
        [
            "#hand",
            "#draw-stock",
            "#take-discard",
            "#meld",
            "#discard-card",
            "#stock",
            "#discard",
            "#melds",
            "#rummy-status",
            "#scoreboard",
            "#table-status",
        ],
        "#draw-stock:enabled",
    ),
    "crossword": (
        ["cpu:easy"],
        ["#board", "#rack", "#play", "#pass", "#cw-status", "#scoreboard", "#table-status"],
        "#rack .tile-btn",
    ),
    # a game with no page of its own: the generic renderer's moves, scores and turn
    QUICK_GAME: (
        [f"cpu:{find(QUICK_GAME).bot_levels[-1]}"],
        ["#turn-head", "#legal-actions", "#scores", "#table-status"],
        "#legal-actions button",
    ),
}

FIRST_ROLLS = {"ten-thousand": "roll 1 1 5 2 3 4", "greedy": "roll 1 1 5 2 3 4 6 6 2"}

OUT_OF_VIEW = """(selectors) => {
  const w = window.innerWidth, h = window.innerHeight;
  const out = [];
  for (const s of selectors) {
    const el = document.querySelector(s);
    if (!el) { out.push(`${s}: missing`); continue; }
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) out.push(`${s}: not shown`);
    else if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1)
      out.push(`${s}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} outside ${w}x${h}`);
  }
  return out;
}"""


def first_roll(game: str) -> object:
    rolls = [FIRST_ROLLS.get(game)]

    def script(state: State) -> str | None:
        if getattr(state, "seat", None) == 0 and rolls:
            return rolls.pop(0)
        return None

    return script


def png_size(path: Path) -> tuple[int, int]:
    """The width and height a PNG file's header gives (its IHDR chunk, bytes 16 to 24)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def scrolled(page: Page) -> dict[str, int]:
    return dict(
        page.evaluate(
            "() => ({x: document.documentElement.scrollWidth - innerWidth,"
            " y: document.documentElement.scrollHeight - innerHeight})"
        )
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_everything_in_view_at_three_sizes(pages: Pages, script: ChanceScript, game: str) -> None:
    seats, boxes, ready = GAMES[game]
    if game in FIRST_ROLLS:
        script.by_game[game] = first_roll(game)  # type: ignore[assignment]
    page = pages.open(width=1280, height=800)
    sign_up(page, unique("vi"))
    create_table(page, game, seats)
    expect(page.locator(ready).first).to_be_visible(timeout=30_000)
    problems = {}
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(100)  # a frame for the layout to settle after the resize
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"{game}-{size}.png"
        shot.unlink(missing_ok=True)  # a file from an earlier run proves nothing
        page.screenshot(path=str(shot))
        assert png_size(shot) == (width, height), (shot, png_size(shot))
        out = page.evaluate(OUT_OF_VIEW, boxes)
        if out:
            problems[size] = out
        assert scrolled(page)["x"] <= 0, f"{game} at {size} scrolls sideways"
    assert not problems, problems
