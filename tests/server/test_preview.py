"""Previews, replays, the session check, scripted chance and the web client's files."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.engine.state import State
from parlour.games.rummy.cards import card_text
from parlour.server import Settings, create_app
from tests.server.conftest import register
from tests.server.helpers import people_table, server_state


def _crossword_script(state: State, seed: str) -> str | None:
    """Seat 0 draws CATSDOG, seat 1 BOATERS, later draws the bag's first tiles."""
    racks = {0: "CATSDOG", 1: "BOATERS"}
    seat = state.to_draw[0]  # type: ignore[attr-defined]
    if not state.racks[seat]:  # type: ignore[attr-defined]
        return "draw " + racks[seat]
    return None


@pytest.fixture
def scripted(settings: Settings) -> Iterator[TestClient]:
    settings.chance_script = _crossword_script
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_preview_of_tiles_gives_the_play_words_and_score(scripted: TestClient) -> None:
    table_id, (ann, _bob) = people_table(scripted, "crossword")
    view = scripted.get(f"/tables/{table_id}", headers=ann).json()
    assert view["view"]["rack"] == "ACDGOST"  # a draw is a multiset, stored sorted
    tiles = [["G8", "c"], ["H8", "A"], ["I8", "T"]]
    answer = scripted.post(f"/tables/{table_id}/preview", json={"tiles": tiles}, headers=ann)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["ok"] is True
    assert body["action"] == "CAT G8 across"
    last = body["view"]["log"][-1]
    # (3+1+1) x2 (H8, double word): docs/rules/crossword.md, hand-checked examples
    assert last["score"] == 10
    assert last["words"] == [["CAT", 10]]
    assert body["view"]["rack"] == "DGOS"  # the copy's rack; the table's is unchanged
    again = scripted.get(f"/tables/{table_id}", headers=ann).json()
    assert again["version"] == view["version"]
    assert again["view"]["rack"] == "ACDGOST"


def test_a_refused_preview_is_an_answer_with_the_reason(scripted: TestClient) -> None:
    table_id, (ann, bob) = people_table(scripted, "crossword")
    gap = scripted.post(
        f"/tables/{table_id}/preview", json={"tiles": [["G8", "C"], ["I8", "T"]]}, headers=ann
    ).json()
    assert gap == {
        "ok": False,
        "action": None,
        "reason": "gap at H8: a play's tiles make one unbroken word",
        "version": gap["version"],
        "view": None,
    }
    off_centre = scripted.post(
        f"/tables/{table_id}/preview", json={"action": "CAT A1 across"}, headers=ann
    ).json()
    assert off_centre["ok"] is False
    assert "H8" in off_centre["reason"]
    # not bob's turn: the engine's reason too
    early = scripted.post(
        f"/tables/{table_id}/preview", json={"action": "BOAT H8 down"}, headers=bob
    ).json()
    assert early["ok"] is False
    assert early["reason"] == "seat 1 may not act now: to move: seat 0"
    # bad notation from a player lists only the moves a player makes
    bad = scripted.post(
        f"/tables/{table_id}/preview", json={"action": "castle"}, headers=ann
    ).json()
    assert bad["ok"] is False
    assert bad["reason"] == (
        "'castle': moves are '<WORD> <square> across|down' (e.g. 'QUACK H8 across'), "
        "'exchange <tiles>', 'pass' and 'rack <tiles>'"
    )


def test_preview_needs_a_seat_and_one_kind_of_input(scripted: TestClient) -> None:
    table_id, (ann, _bob) = people_table(scripted, "crossword")
    carl = register(scripted, "carl")
    url = f"/tables/{table_id}/preview"
    assert scripted.post(url, json={"action": "pass"}, headers=carl).status_code == 403
    both = scripted.post(url, json={"action": "pass", "tiles": [["H8", "A"]]}, headers=ann)
    assert both.status_code == 422
    assert scripted.post(url, json={}, headers=ann).status_code == 422
    bad = scripted.post(url, json={"tiles": [["H8", "AB"]]}, headers=ann)
    assert bad.status_code == 422


def test_tiles_are_refused_in_a_game_without_them(client: TestClient) -> None:
    table_id, (ann, _bob) = people_table(client, "ten-thousand")
    answer = client.post(f"/tables/{table_id}/preview", json={"tiles": [["H8", "A"]]}, headers=ann)
    assert answer.status_code == 422
    assert answer.json()["detail"] == "Ten-Thousand has no tiles to put on squares"


def test_dice_preview_shows_the_turn_total_after_a_keep(client: TestClient) -> None:
    table_id, (ann, _bob) = people_table(client, "ten-thousand")
    view = client.get(f"/tables/{table_id}", headers=ann).json()
    legal = [a for a in view["legal"] if a.endswith(" roll")]
    keep = legal[0]
    body = client.post(f"/tables/{table_id}/preview", json={"action": keep}, headers=ann).json()
    assert body["ok"] is True and body["action"] == keep
    kept = body["view"]["kept"]
    assert len(kept) == 1 and body["view"]["turn_total"] == kept[0][1] > 0


def test_a_rummy_preview_never_shows_the_card_on_top_of_the_stock(client: TestClient) -> None:
    # found by probing the API: the deal shuffles the whole deck into the state, so a
    # preview of "draw stock" showed the card it would take (and the seat could then take
    # the discard instead)
    table_id, (ann, _bob) = people_table(client, "rummy")
    state = server_state(client, table_id)
    top = card_text(state.stock[-1])  # type: ignore[attr-defined]
    upcard = card_text(state.discard[-1])  # type: ignore[attr-defined]
    view = client.get(f"/tables/{table_id}", headers=ann).json()
    assert view["to_move"] == [0] and view["view"]["phase"] == "draw"
    draw = client.post(f"/tables/{table_id}/preview", json={"action": "s"}, headers=ann)
    assert draw.status_code == 200, draw.text
    assert draw.json() == {
        "ok": True,
        "action": "draw stock",
        "reason": "the stock's top card stays hidden until you draw it",
        "version": view["version"],
        "view": None,
    }
    assert top not in draw.text.split('"')
    # the discard is face up: its preview shows the hand with it
    take = client.post(
        f"/tables/{table_id}/preview", json={"action": "draw discard"}, headers=ann
    ).json()
    assert take["ok"] is True and upcard in take["view"]["hand"]
    assert len(take["view"]["hand"]) == 11 and take["view"]["stock_count"] == 31
    drawn = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "draw stock", "version": view["version"]},
        headers=ann,
    ).json()
    assert top in drawn["view"]["hand"]  # the card the preview kept hidden
    # an illegal draw is still refused with the engine's reason
    again = client.post(f"/tables/{table_id}/preview", json={"action": "s"}, headers=ann).json()
    assert again["ok"] is False
    assert again["reason"] == "you have drawn this turn: meld, lay off or discard"


def test_replay_steps_through_a_finished_game(client: TestClient) -> None:
    table_id, (ann, _bob) = people_table(client, "greedy")
    # ann quits: the game is over at once (docs/rules/greedy.md#winning)
    version = client.get(f"/tables/{table_id}", headers=ann).json()["version"]
    done = client.post(
        f"/tables/{table_id}/actions", json={"action": "quit", "version": version}, headers=ann
    )
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "finished"
    start = client.get(f"/tables/{table_id}/replay?step=0").json()
    assert start["step"] == 0 and start["steps"] == version + 1 and start["event"] is None
    assert start["names"] == ["player0", "player1"]
    assert start["views"][0]["roll"] is None  # nothing rolled yet
    first = client.get(f"/tables/{table_id}/replay?step=1").json()
    assert first["event"]["by"] == -1 and first["event"]["move"].startswith("roll ")
    assert len(first["views"][0]["roll"]) == 9
    end = client.get(f"/tables/{table_id}/replay?step=999").json()
    assert end["step"] == end["steps"] and end["event"]["move"] == "quit"
    assert end["views"][1]["over"] is True and end["views"][1]["winners"] == [1]


def test_replay_waits_for_the_end(client: TestClient) -> None:
    table_id, (ann, _bob) = people_table(client, "greedy")
    answer = client.get(f"/tables/{table_id}/replay", headers=ann)
    assert answer.status_code == 409


def test_session_says_who_without_an_error(client: TestClient) -> None:
    assert client.get("/auth/session").json() == {"account": None}
    response = client.post("/auth/register", json={"name": "ann", "password": "password123"})
    assert response.status_code == 201
    who = client.get("/auth/session").json()  # by the cookie
    assert who["account"]["name"] == "ann"
    # the only session cookie (set beside the real one, which of the two a client sends first
    # is up to the client: httpx2 sends the real one)
    client.cookies.clear()
    client.cookies.set("parlour_session", "not-a-token")
    answer = client.get("/auth/session")
    assert answer.status_code == 200 and answer.json() == {"account": None}
    assert "parlour_session" in answer.headers.get("set-cookie", "")  # deleted


def test_the_web_client_is_served_at_the_root(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="js/main.js">' in page.text
    script = client.get("/js/main.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/health").json()["ok"] is True  # routes still win
    missing = client.get("/no-such-file.js")
    assert missing.status_code == 404 and missing.json()["code"] == "http_error"


def test_a_scripted_chance_outcome_is_used(scripted: TestClient) -> None:
    table_id, (ann, bob) = people_table(scripted, "crossword")
    events = scripted.get(f"/tables/{table_id}", headers=ann).json()["events"]
    assert [e["move"] for e in events if e["by"] == -1] == []  # draws are hidden from seats
    assert scripted.get(f"/tables/{table_id}", headers=bob).json()["view"]["rack"] == "ABEORST"


def test_another_seats_rack_order_does_not_make_a_play_stale(scripted: TestClient) -> None:
    """Rearranging a rack changes no other seat's play (the crossword's ``independent``
    hook): a play made against the version before bob's rack order is taken, while bob's
    rack order made against the version before ann's play is stale."""
    table_id, (ann, bob) = people_table(scripted, "crossword")
    before = scripted.get(f"/tables/{table_id}", headers=ann).json()["version"]

    def act(headers: dict[str, str], action: str, version: int) -> tuple[int, dict[str, Any]]:
        answer = scripted.post(
            f"/tables/{table_id}/actions",
            json={"action": action, "version": version},
            headers=headers,
        )
        return answer.status_code, answer.json()

    status, body = act(bob, "rack TSROEBA", before)
    assert status == 200, body
    assert body["version"] == before + 1
    status, body = act(ann, "CAT G8 across", before)  # made before bob's rack order
    assert status == 200, body
    assert body["view"]["rack"].startswith("DGOS")
    status, body = act(bob, "rack ABEORST", before + 1)  # made before ann's play
    assert status == 409, body
    assert body["current"]["version"] >= before + 2  # ann's play and its draw


# --- a preview of a move that ends the game or the round ------------------------------


def test_a_preview_of_the_last_pass_shows_no_final_rack(scripted: TestClient) -> None:
    """Found by probing the API: after three passes in a two-seat crossword, a preview of the
    fourth (which ends the game) showed every final rack while 84 tiles were still in the
    bag, and the player could then play instead. The preview says the game would end and
    what the seat's own rack costs it; the other rack and what it costs stay hidden."""
    table_id, (ann, bob) = people_table(scripted, "crossword")
    for turn in range(3):
        version = scripted.get(f"/tables/{table_id}", headers=ann).json()["version"]
        passed = scripted.post(
            f"/tables/{table_id}/actions",
            json={"action": "pass", "version": version},
            headers=(ann, bob)[turn % 2],
        )
        assert passed.status_code == 200, passed.text
    before = scripted.get(f"/tables/{table_id}", headers=bob).json()
    answer = scripted.post(f"/tables/{table_id}/preview", json={"action": "pass"}, headers=bob)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["ok"] is True and body["action"] == "pass"
    assert body["version"] == before["version"]
    view = body["view"]
    assert "ACDGOST" not in answer.text  # ann's rack
    assert "final_racks" not in view
    assert view["over"] is True and view["winners"] is None
    assert view["bag"] == 84 and view["rack"] == "ABEORST"
    assert view["log"][-1] == {"kind": "end", "out": None, "adjustments": [None, -9]}
    assert view["scores"] == [None, -9]  # A1 B3 E1 O1 R1 S1 T1 (docs/rules/crossword.md)
    # nothing changed: bob may still play instead
    played = scripted.post(
        f"/tables/{table_id}/actions",
        json={"action": "BOAT H8 across", "version": before["version"]},
        headers=bob,
    )
    assert played.status_code == 200, played.text
    assert played.json()["status"] == "active"


HANDS = {
    0: ["AS", "2S", "3S", "4S", "5H", "5D", "5C", "9C", "10C", "JC"],
    1: ["KH", "KD", "2H", "3H", "7D", "8D", "6S", "7S", "9H", "2D"],
}
UPCARD = "QC"


def _rummy_script(state: State, seed: str) -> str | None:
    """The first deal gives seat 0 three melds and a fourth but for the upcard (QC)."""
    if state.round != 1:  # type: ignore[attr-defined]
        return None
    order = [card for pair in zip(HANDS[0], HANDS[1], strict=True) for card in pair]
    order.append(UPCARD)
    deck = [card_text(c) for c in range(52)]
    order += [card for card in deck if card not in order]
    return "deal " + " ".join(order)


@pytest.fixture
def dealt(settings: Settings) -> Iterator[TestClient]:
    settings.chance_script = _rummy_script
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_a_preview_of_going_out_shows_no_other_hand(dealt: TestClient) -> None:
    """Found by probing the API: a preview of a meld that goes out (and so ends the round)
    showed the round's summary with the opponent's whole hand, and the player could then
    not go out. Whether the round's end ends the game, and every score it changes, hangs on
    the hidden hands, so such a preview says only that the move is legal and ends the
    round."""
    table_id, (ann, _bob) = people_table(dealt, "rummy")
    start = dealt.get(f"/tables/{table_id}", headers=ann).json()
    assert sorted(start["view"]["hand"]) == sorted(HANDS[0])
    version = start["version"]
    for move in ("draw discard", "meld AS 2S 3S 4S", "meld 5H 5D 5C"):
        done = dealt.post(
            f"/tables/{table_id}/actions",
            json={"action": move, "version": version},
            headers=ann,
        )
        assert done.status_code == 200, done.text
        version = done.json()["version"]
    url = f"/tables/{table_id}/preview"
    answer = dealt.post(url, json={"action": "meld 9C 10C JC QC"}, headers=ann)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "ok": True,
        "action": "meld 9C 10C JC QC",
        "reason": "going out ends the round: every hand is shown once you do",
        "version": version,
        "view": None,
    }
    assert not set(answer.text.split('"')) & set(HANDS[1])
    # a meld that keeps cards in the hand is still previewed in full
    part = dealt.post(url, json={"action": "meld 10C JC QC"}, headers=ann).json()
    assert part["ok"] is True and part["view"]["hand"] == ["9C"]
    # nothing changed: ann may keep the run and discard instead
    kept = dealt.post(
        f"/tables/{table_id}/actions",
        json={"action": "discard 9C", "version": version},
        headers=ann,
    )
    assert kept.status_code == 200, kept.text
    assert kept.json()["view"]["phase"] != "deal"
