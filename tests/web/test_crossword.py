"""Two people play the crossword in two browsers: invite link, plays by clicking, by
typing on the board and by typing the play whole; each sees the other's play appear
without reloading, and never the other's rack."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Page, expect

from parlour.engine.state import State
from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique


def draws(by_seat: dict[int, list[str]]) -> Any:
    """A script: each seat's draws come from its list in order (then the server draws)."""
    queues = {seat: list(tiles) for seat, tiles in by_seat.items()}

    def script(state: State) -> str | None:
        seat = state.to_draw[0]  # type: ignore[attr-defined]
        queue = queues.get(seat)
        return "draw " + queue.pop(0) if queue else None

    return script


def received_racks(page: Page) -> list[str]:
    """Every ``rack`` value in the JSON this page receives (WebSocket and HTTP)."""
    seen: list[str] = []

    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "rack" and isinstance(item, str):
                    yield item
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    def frame(payload: str | bytes) -> None:
        try:
            seen.extend(walk(json.loads(payload)))
        except ValueError:
            pass

    page.on("websocket", lambda ws: ws.on("framereceived", frame))

    def response(answer: Any) -> None:
        if "json" in (answer.headers.get("content-type") or ""):
            try:
                frame(answer.text())
            except Exception:  # a response without a body (204)
                pass

    page.on("response", response)
    return seen


def square(page: Page, name: str) -> Any:
    return page.locator(f'#board [data-square="{name}"]')


def rack(page: Page) -> str:
    return "".join(page.locator("#rack .tile-btn").evaluate_all("els => els.map(e => e.dataset.letter)"))


def test_two_people_play_a_crossword(pages: Pages, script: ChanceScript) -> None:
    script.by_game["crossword"] = draws({0: ["CATSDOG", "EIR", "E"], 1: ["BOATERS", "NL"]})
    ann = pages.open()
    bob = pages.open(width=390, height=844)  # a phone
    ann_racks = received_racks(ann)
    bob_racks = received_racks(bob)
    ann_name, bob_name = unique("ann"), unique("bob")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    table = create_table(ann, "crossword", ["open"], invite=True, min_players=2)
    expect(ann.locator("#lobby-box")).to_contain_text("Waiting for players")
    link = ann.locator("#invite-link").input_value()
    assert f"#/table/{table}?invite=" in link
    pages.shot(ann, "lobby")
    bob.goto(link)  # the invite link joins; both seats taken: the game begins by itself
    expect(bob.locator("#board")).to_be_visible()
    expect(ann.locator("#board")).to_be_visible()  # pushed to ann's page
    expect(ann.locator("#cw-status")).to_have_text("Your turn.")
    expect(bob.locator("#cw-status")).to_have_text(f"{ann_name} to play.")
    assert rack(ann) == "ACDGOST" and rack(bob) == "ABEORST"  # a draw is stored sorted

    # ann: click G8, then the tiles C, A, T; the server's preview before confirming
    square(ann, "G8").click()
    for letter in "CAT":
        ann.locator(f'#rack .tile-btn[data-letter="{letter}"]:not(.used)').first.click()
    expect(ann.locator("#preview")).to_have_text("CAT G8 across: 10 points (CAT 10)")
    expect(ann.locator("#play")).to_have_text("Play CAT for 10")
    pages.shot(ann, "preview")
    ann.locator("#play").click()
    expect(square(bob, "H8")).to_contain_text("A")  # appears on bob's board, no reload
    expect(bob.locator("#plays")).to_contain_text("CAT G8 across, 10 (CAT 10)")
    expect(ann.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("10")
    assert rack(ann) == "DGOSEIR"

    # bob, on the phone: types the play whole
    expect(bob.locator("#cw-status")).to_have_text("Your turn.")
    bob.locator("#typed").fill("cob g8 down")
    bob.locator("#typed-preview").click()
    expect(bob.locator("#preview")).to_have_text("COB G8 down: 8 points (COB 8)")  # G9 is DL
    pages.shot(bob, "phone-preview")
    bob.locator("#play").click()
    expect(square(ann, "G10")).to_contain_text("B")

    # ann rearranges her rack: drag the first tile onto the fourth, then Shift+→
    before = rack(ann)
    ann.locator("#rack .tile-btn").nth(0).drag_to(ann.locator("#rack .tile-btn").nth(3))
    moved = before[1:4] + before[0] + before[4:]
    ann.wait_for_function(f"() => [...document.querySelectorAll('#rack .tile-btn')].map(e => e.dataset.letter).join('') === '{moved}'")
    ann.locator("#rack .tile-btn").nth(4).focus()
    ann.keyboard.press("Shift+ArrowRight")
    moved = moved[:4] + moved[5] + moved[4] + moved[6:]
    ann.wait_for_timeout(1200)  # the rearrangement is stored after a short pause
    ann.reload()
    expect(ann.locator("#board")).to_be_visible()
    ann.wait_for_function(f"() => [...document.querySelectorAll('#rack .tile-btn')].map(e => e.dataset.letter).join('') === '{moved}'")

    # ann covers bob's B with a G by keyboard: click G10, type g, Enter
    square(ann, "G10").click()
    ann.keyboard.press("g")
    expect(ann.locator("#preview")).to_have_text("COG G8 down: 6 points (COG 6); covers B")
    ann.keyboard.press("Enter")
    expect(square(bob, "G10")).to_contain_text("G")
    expect(square(bob, "G10")).to_have_attribute("aria-label", "G10: G, 1 tile covered")
    expect(bob.locator("#covered")).to_have_text("Covered and out of the game: B")

    # bob: a bingo, typed whole
    bob.locator("#typed").fill("ANTLERS A11 across")
    bob.locator("#typed").press("Enter")
    expect(bob.locator("#preview")).to_contain_text("ANTLERS A11 across: 71 points")
    expect(bob.locator("#preview")).to_contain_text("with a 50 point bingo")
    bob.locator("#play").click()
    expect(square(ann, "A11")).to_contain_text("A")
    expect(ann.locator("#plays li")).to_have_count(4)
    expect(ann.locator("#scoreboard tbody tr").nth(1).locator(".score")).to_have_text("79")
    expect(ann.locator("#bag")).to_have_text(f"Bag: {98 - 14 - 3 - 2 - 1 - 7} tiles")
    pages.shot(ann, "after-four-plays")
    pages.shot(bob, "phone-after-four-plays")

    # never the other's rack: every rack either page was sent is its own (or a preview's)
    ann_seen = {"".join(sorted(r)) for r in ann_racks if r}
    bob_seen = {"".join(sorted(r)) for r in bob_racks if r}
    assert {"ACDGOST", "DEGIORS", "DEEIORS"} <= ann_seen
    assert {"ABEORST", "AELNRST"} <= bob_seen
    assert not ann_seen & bob_seen
    assert "AERSTLN" not in ann.content() and "DOSEIRE" not in bob.content()
