"""Server messages in words (issue 15): whatever a refusal tells the player, over the
WebSocket or REST, in the game or around it, is in words: no field name, no JSON, no code,
no Python repr, no seat number. A move out of turn, a stale version, a move the rules
refuse, a malformed move, a chat message too long or turning text backwards, a join at a
full table; shown at the three sizes, in view."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.quick_game import QUICK_GAME
from tests.web.conftest import Pages
from tests.web.helpers import sign_up, unique
from tests.web.test_in_view import OUT_OF_VIEW, SIZES
from tests.web.test_social import api

NOT_WORDS = re.compile(r"[{}\[\]_]|body\.|\bseat \d|\bNone\b|\bnull\b|\bstale_version\b")

ACT = """async ([table, action, version]) => {
    // what the page's move goes through: the socket's answer, told as the page tells it
    const { live } = await import("/js/live.js");
    const { refusalInWords } = await import("/js/api.js");
    try {
        await live.action(table, action, version);
        return ["accepted", ""];
    } catch (err) {
        return [err.code, refusalInWords(err)];
    }
}"""

REST = """async ([method, path, body]) => {
    const { api } = await import("/js/api.js");
    try {
        await api(method, path, body);
        return "accepted";
    } catch (err) {
        return err.message;
    }
}"""


def in_words(said: str) -> str:
    assert said and not NOT_WORDS.search(said), said
    return said


def people(pages: Pages, size: tuple[int, int]) -> tuple[Page, Page, str, str, int]:
    ann, bob = pages.open(width=size[0], height=size[1]), pages.open()
    ann_name, bob_name = unique("ann"), unique("bob")
    sign_up(ann, ann_name)
    sign_up(bob, bob_name)
    made: dict[str, Any] = api(
        ann, "POST", "/tables", {"game": QUICK_GAME, "seats": ["me", "open"]}
    )
    api(bob, "POST", f"/tables/{made['id']}/join", {"invite": made["invite_code"]})
    api(ann, "POST", f"/tables/{made['id']}/start")
    return ann, bob, ann_name, bob_name, int(made["id"])


@pytest.mark.parametrize("size", list(SIZES))
def test_refusals_in_the_game_are_in_words(pages: Pages, size: str) -> None:
    ann, bob, ann_name, _bob_name, table = people(pages, SIZES[size])
    ann.goto(f"/#/table/{table}")
    bob.goto(f"/#/table/{table}")
    expect(ann.locator("#turn-head")).to_have_text("Your turn")
    expect(bob.locator("#live")).to_have_attribute("data-state", "open")
    version = int(ann.locator("#game").get_attribute("data-version") or "0")
    # a move out of turn, over the socket: who is to move, by name
    code, said = bob.evaluate(ACT, [table, "roll", version])
    assert code == "not_your_turn"
    assert in_words(said) == f"Refused: it is not your turn: {ann_name} to move"
    # a stale version
    code, said = ann.evaluate(ACT, [table, "roll", version + 5])
    assert code == "stale_version"
    assert in_words(said) == (
        "The table moved on before your move arrived: here it is now; try again."
    )
    # a request the wire refuses: the field in words
    code, said = ann.evaluate(ACT, [table, "roll", -1])
    assert code == "invalid_request"
    assert in_words(said).startswith("Refused: the table's version: "), said
    # a move the rules refuse, typed in the page's notation box: shown on the page
    ann.locator("#notation").fill("xyzzy")
    ann.locator("#play-typed").click()
    message = ann.locator("#table-message")
    expect(message).to_contain_text("Refused: ")
    in_words(message.inner_text())
    assert ann.evaluate(OUT_OF_VIEW, ["#table-message"]) == []
    pages.shot(ann, f"refused-{size}", full_page=False)
    # chat: too long past the page's own check, and an override that turns text backwards
    said = ann.evaluate(REST, ["POST", f"/tables/{table}/chat", {"text": "x" * 501}])
    assert in_words(said) == "a chat message is at most 500 characters (this one has 501)"
    said = ann.evaluate(REST, ["POST", f"/tables/{table}/chat", {"text": 5}])
    assert in_words(said) == "the message: Input should be a valid string"
    ann.locator("#chat-input").fill("see gnp\u202e.exe")
    ann.locator("#chat-send").click()
    chat_said = ann.locator("#chat .message")
    expect(chat_said).to_contain_text("change the direction of text")
    in_words(chat_said.inner_text())
    # a seat at a full table
    cat = pages.open()
    sign_up(cat, unique("cat"))
    said = cat.evaluate(REST, ["POST", f"/tables/{table}/join", {}])
    assert in_words(said) == "the game has already started"
    bob.goto("/#/")
    made = api(ann, "POST", "/tables", {"game": QUICK_GAME, "seats": ["me", "open"]})
    api(bob, "POST", f"/tables/{made['id']}/join", {"invite": made["invite_code"]})
    said = cat.evaluate(
        REST, ["POST", f"/tables/{made['id']}/join", {"invite": made["invite_code"]}]
    )
    assert in_words(said) == "the table is full"
    # the refused requests are logged by the browser as failed loads; nothing else
    refused = [e for e in pages.errors if "Failed to load resource" not in e]
    assert refused == [], pages.errors
    pages.errors.clear()
