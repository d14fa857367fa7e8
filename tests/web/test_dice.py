"""Ten-Thousand and Greedy in the browser, against computer players, with scripted dice."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from parlour.engine.state import State
from tests.web.conftest import ChanceScript, Pages
from tests.web.helpers import create_table, sign_up, unique


def rolls_for_seat(seat: int, rolls: list[str], **others: list[str]) -> object:
    """A script: *seat*'s rolls come from *rolls* in order (and seat N's from ``seatN=``);
    everyone else's, and any roll after those, are drawn."""
    queues = {
        seat: list(rolls),
        **{int(k.removeprefix("seat")): list(v) for k, v in others.items()},
    }

    def script(state: State) -> str | None:
        queue = queues.get(state.seat)  # type: ignore[attr-defined]
        return queue.pop(0) if queue else None

    return script


STORY = """() => {
    window.story = [];
    const el = document.getElementById("play-by-play");
    new MutationObserver(() => window.story.push(el.textContent))
        .observe(el, {childList: true, characterData: true, subtree: true});
}"""


def select_dice(page: Page, faces: list[int]) -> None:
    """Click dice showing *faces* (each die once)."""
    used: set[int] = set()
    dice = page.locator("#dice .die")
    for face in faces:
        for index in range(dice.count()):
            die = dice.nth(index)
            if index not in used and die.get_attribute("data-face") == str(face):
                die.click()
                used.add(index)
                break
        else:
            raise AssertionError(f"no free die showing {face}")


@pytest.mark.slow
def test_ten_thousand_full_game_against_computers(pages: Pages, script: ChanceScript) -> None:
    # each computer keeps a 1, then a 5 from five dice (so its turn shows two keeps at least)
    computer = ["roll 1 2 3 4 6 6", "roll 2 3 4 5 6"]
    script.by_game["ten-thousand"] = rolls_for_seat(
        0,
        ["roll 1 1 1 5 2 3", "roll 1 5", "roll 1 1 1 1 1 1", "roll 1 1 1 1 1 1"],
        seat1=computer,
        seat2=computer,
    )
    page = pages.open()
    name = unique("tess")
    sign_up(page, name)
    create_table(page, "ten-thousand", ["cpu:cautious", "cpu:reckless"])
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    expect(page.locator("#dice .die")).to_have_count(6)
    # keys 1-4 pick the first four dice (sorted: 1 1 1 2 3 5): the three 1s and ... a 2
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.keyboard.press("3")
    select_dice(page, [5])
    expect(page.locator("#selection")).to_have_text("Selected: 1,050 points · turn total 1,050")
    pages.shot(page, "selected")
    page.keyboard.press("r")
    expect(page.locator("#dice .die")).to_have_count(2)
    expect(page.locator("#turn-total")).to_have_text("Turn total: 1,050")
    select_dice(page, [1, 5])
    expect(page.locator("#bonus")).to_contain_text("Hot dice!")
    page.locator("#roll").click()
    expect(page.locator("#dice .die")).to_have_count(6)
    expect(page.locator("#turn-total")).to_have_text("Turn total: 1,200")
    page.keyboard.press("a")  # every scoring die: six 1s, 8,000
    expect(page.locator("#selection")).to_have_text("Selected: 8,000 points · turn total 9,200")
    page.evaluate(STORY)  # write down every line the play-by-play shows
    page.locator("#bank").click()
    expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("9,200")
    # the computers play, one move at a time on screen; then it is our turn again
    expect(page.locator("#turn-head")).to_have_text("Your turn", timeout=30_000)
    story = page.evaluate("window.story")
    cautious = [line for line in story if line.startswith("cpu:cautious kept")]
    reckless = [line for line in story if line.startswith("cpu:reckless kept")]
    assert len(cautious) >= 2 and len(reckless) >= 2, story  # each keep shown on its own
    pages.shot(page, "second-turn")
    # the new roll on screen before choosing from it: "Your turn" can show before the roll
    # arrives, and a bank sent from the dice before it named an old version (a 409, 1 in 5
    # repeats on a loaded machine)
    expect(page.locator("#dice .die")).to_have_count(6)
    page.keyboard.press("a")
    expect(page.locator("#selection")).to_have_text("Selected: 8,000 points · turn total 8,000")
    page.keyboard.press("b")
    expect(page.locator("#banner")).to_contain_text("Last turns", timeout=10_000)
    pages.shot(page, "last-turns")
    expect(page.locator("#result")).to_contain_text("You win!", timeout=30_000)
    expect(page.locator("#result")).to_contain_text("17,200")
    pages.shot(page, "finished")
    events = page.locator("#events li").all_text_contents()
    assert events[-1].endswith("roll 1 1 1 2 3 5")  # newest first: the first roll is last
    assert sum("keep 1 1 1 1 1 1 bank" in e for e in events) == 2

    # the replay, step by step: the first roll, then the first keep
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_have_text(f"Step 0 of {len(events)}")
    # a replay never says it is your turn nor offers actions (a QA pass saw "Your turn")
    expect(page.locator("#turn-head")).to_have_text(f"{name} is playing")
    expect(page.locator("#roll")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    # in words, not notation
    expect(page.locator("#replay-event")).to_have_text(f"{name} rolled 1 1 1 2 3 5")
    expect(page.locator("#dice .die")).to_have_count(6)
    expect(page.locator("#turn-head")).to_have_text(f"{name} is playing")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-event")).to_have_text(
        f"{name} kept 1 1 1 5 for 1,050 and rolled 2 dice"
    )
    expect(page.locator("#turn-total")).to_have_text("Turn total: 1,050")
    page.keyboard.press("End")
    expect(page.locator("#replay-step")).to_have_text(f"Step {len(events)} of {len(events)}")
    expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("17,200")
    pages.shot(page, "replay")


def test_a_refused_action_shows_its_reason(pages: Pages, script: ChanceScript) -> None:
    script.by_game["ten-thousand"] = rolls_for_seat(0, ["roll 1 2 2 3 4 6"])
    page = pages.open(width=390, height=844)
    sign_up(page, unique("rex"))
    table = create_table(page, "ten-thousand", ["cpu:strong"])
    expect(page.locator("#dice .die")).to_have_count(6)
    watcher = pages.open()  # someone not logged in, watching the open table
    watcher.goto(f"/#/table/{table}")
    expect(watcher.locator("#dice .die")).to_have_count(6)
    expect(watcher.locator("#roll")).to_be_hidden()
    select_dice(page, [2])
    expect(page.locator("#selection")).to_contain_text("Not a keep: 2 does not score as a whole")
    expect(page.locator("#roll")).to_be_disabled()  # no button for a keep that cannot score
    page.keyboard.press("r")  # the key sends it anyway: the server refuses, saying why
    expect(page.locator("#table-message")).to_have_text(
        "Refused: 2 does not score as a whole: set aside only scoring dice "
        "(1s, 5s, groups, three pairs, straight)"
    )
    # nothing changed: the same dice, the turn total, still our turn
    faces = page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.face)")
    assert faces == ["1", "2", "2", "3", "4", "6"]
    expect(page.locator("#turn-total")).to_have_text("Turn total: 0")
    expect(page.locator("#turn-head")).to_have_text("Your turn")
    pages.shot(page, "refused")
    page.keyboard.press("Escape")
    select_dice(page, [1])
    page.keyboard.press("b")
    expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("100")
    expect(page.locator("#table-message")).to_have_text("")
    expect(watcher.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("100")


def test_a_move_that_meets_a_newer_table_says_so_in_plain_words(
    pages: Pages, script: ChanceScript
) -> None:
    # only a new table's first roll: earlier tests' tables may still be rolling
    script.by_game["ten-thousand"] = lambda state: None if state.history else "roll 1 2 2 3 4 6"
    page = pages.open()
    late: list[bool] = [False]

    def stale(ws: WebSocketRoute) -> None:
        """Pass the socket through; while ``late[0]``, an action names an older version
        (as when a move arrives after another one moved the table on)."""
        server = ws.connect_to_server()

        def from_page(message: Any) -> None:
            data = json.loads(message)
            if data.get("type") == "action" and late[0]:
                data["version"] -= 1
            server.send(json.dumps(data))

        ws.on_message(from_page)

    page.route_web_socket("**/ws", stale)
    sign_up(page, unique("stan"))
    create_table(page, "ten-thousand", ["cpu:strong"])
    expect(page.locator("#dice .die")).to_have_count(6)
    late[0] = True
    select_dice(page, [1])
    page.keyboard.press("b")
    message = page.locator("#table-message")
    expect(message).to_have_text(
        "The table moved on before your move arrived: here it is now; try again."
    )
    assert not any(c.isdigit() for c in message.text_content() or "")
    late[0] = False
    expect(page.locator("#turn-head")).to_have_text("Your turn")  # nothing lost: play again
    page.keyboard.press("Escape")
    select_dice(page, [1])
    page.keyboard.press("b")
    expect(page.locator("#scoreboard tbody tr").nth(0).locator(".score")).to_have_text("100")
