"""Table chat: players post, everyone who may see the table reads (spectators cannot
post), the limits (length, rate) refuse with a reason, a mute hides the muted person's
messages from the muter in the list and live, and the chat is pushed as ``chat``."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.quick_game import QUICK_GAME
from tests.server.conftest import FakeClock, register
from tests.server.helpers import people_table


def post(client: TestClient, table_id: int, who: dict[str, str], text: str) -> Any:
    return client.post(f"/tables/{table_id}/chat", json={"text": text}, headers=who)


def texts(client: TestClient, table_id: int, who: dict[str, str] | None = None) -> list[str]:
    answer = client.get(f"/tables/{table_id}/chat", headers=who or {})
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


def test_players_post_and_everyone_who_may_see_the_table_reads(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    made = post(client, table_id, seats[0], "  good luck  ")
    assert made.status_code == 201, made.text
    line = made.json()
    assert line["text"] == "good luck" and line["name"] == "player0" and line["table"] == table_id
    assert post(client, table_id, seats[1], "<b>you too</b>").status_code == 201
    assert texts(client, table_id, seats[1]) == ["good luck", "<b>you too</b>"]
    assert texts(client, table_id) == ["good luck", "<b>you too</b>"]  # an anonymous spectator
    watcher = register(client, "watcher")
    refused = post(client, table_id, watcher, "hello")
    assert refused.status_code == 403 and "spectators read it" in refused.json()["detail"]
    after = client.get(f"/tables/{table_id}/chat?after={line['id']}").json()["messages"]
    assert [m["text"] for m in after] == ["<b>you too</b>"]
    assert post(client, table_id, {}, "hi").status_code == 401
    assert client.get("/tables/999999/chat").status_code == 404


def test_an_invite_only_table_chat_is_its_players_and_code_holders(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME, visibility="invite")
    assert post(client, table_id, seats[0], "private").status_code == 201
    outsider = register(client, "outsider")
    assert client.get(f"/tables/{table_id}/chat", headers=outsider).status_code == 404
    assert post(client, table_id, outsider, "hi").status_code == 404
    code = client.get(f"/tables/{table_id}", headers=seats[0]).json()["invite_code"]
    assert (
        client.get(f"/tables/{table_id}/chat?invite={code}").json()["messages"][0]["text"]
        == "private"
    )


def test_too_long_empty_and_control_characters_are_refused_with_a_reason(
    client: TestClient,
) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    long = post(client, table_id, seats[0], "x" * 501)
    assert long.status_code == 422
    assert long.json()["detail"] == "a chat message is at most 500 characters (this one has 501)"
    assert post(client, table_id, seats[0], "x" * 500).status_code == 201
    empty = post(client, table_id, seats[0], "   ")
    assert empty.status_code == 422 and empty.json()["detail"] == "a chat message needs some text"
    bell = post(client, table_id, seats[0], "ding\x07")
    assert bell.status_code == 422 and "control characters" in bell.json()["detail"]
    assert post(client, table_id, seats[0], "two\nlines").status_code == 201
    # found by a tester: a right-to-left override showed "gnp.exe" as "exe.png"
    for mark in ("\u202e", "\u202a", "\u202d", "\u2066", "\u2069"):
        turned = post(client, table_id, seats[0], f"see gnp{mark}.exe")
        assert turned.status_code == 422, mark
        assert turned.json()["detail"] == (
            "a chat message may not hold the invisible characters that change the direction "
            "of text (they can make words read backwards)"
        )
    assert post(client, table_id, seats[0], "\u05e9\u05dc\u05d5\u05dd\u200f!").status_code == 201
    assert texts(client, table_id) == ["x" * 500, "two\nlines", "\u05e9\u05dc\u05d5\u05dd\u200f!"]


def test_the_rate_limit_refuses_with_429_until_the_window_passes(
    client: TestClient, clock: FakeClock
) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    for n in range(5):
        assert post(client, table_id, seats[0], f"line {n}").status_code == 201
    over = post(client, table_id, seats[0], "one too many")
    assert over.status_code == 429 and over.json()["code"] == "rate_limited"
    assert over.json()["detail"] == "at most 5 chat messages in 10 seconds: wait a moment"
    assert over.headers["retry-after"] == "10"
    assert post(client, table_id, seats[1], "the other player is not limited").status_code == 201
    clock.advance(seconds=10.5)
    assert post(client, table_id, seats[0], "back").status_code == 201
    assert texts(client, table_id)[-1] == "back" and "one too many" not in texts(client, table_id)


def until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def test_a_mute_hides_the_muted_from_the_muter_listed_and_live(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    assert post(client, table_id, seats[0], "before the mute").status_code == 201
    muted = client.put("/me/mutes/PLAYER0", headers=seats[1])
    assert muted.status_code == 200 and muted.json() == {"muted": ["player0"]}
    assert client.put("/me/mutes/player0", headers=seats[1]).json() == {"muted": ["player0"]}
    assert texts(client, table_id, seats[1]) == []
    assert texts(client, table_id, seats[0]) == ["before the mute"]
    with (
        client.websocket_connect("/ws", headers=seats[1]) as muter,
        client.websocket_connect("/ws") as spectator,
    ):
        for ws in (muter, spectator):
            until(ws, "hello")
            ws.send_json({"type": "follow", "table": table_id})
            until(ws, "update")
        assert post(client, table_id, seats[0], "muted line").status_code == 201
        assert post(client, table_id, seats[1], "from the muter").status_code == 201
        assert until(spectator, "chat")["message"]["text"] == "muted line"
        assert until(spectator, "chat")["message"]["text"] == "from the muter"
        seen = until(muter, "chat")["message"]  # the muted line never came
        assert seen["text"] == "from the muter" and seen["name"] == "player1"
    assert texts(client, table_id, seats[1]) == ["from the muter"]
    assert client.delete("/me/mutes/player0", headers=seats[1]).json() == {"muted": []}
    assert texts(client, table_id, seats[1]) == ["before the mute", "muted line", "from the muter"]
    assert client.put("/me/mutes/nobody", headers=seats[1]).status_code == 404
    self_mute = client.put("/me/mutes/player1", headers=seats[1])
    assert self_mute.status_code == 422 and self_mute.json()["detail"] == "you cannot mute yourself"


def test_a_tables_chat_goes_when_a_host_removes_the_table(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME, options={"target": 10})
    assert post(client, table_id, seats[0], "gg").status_code == 201
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    from parlour.server.services.admin import remove_table

    remove_table(ctx.engine, table_id)  # a host removes the table: its chat goes with it
    assert client.get(f"/tables/{table_id}/chat").status_code == 404


def test_windows_line_breaks_are_line_breaks_and_times_carry_their_zone(
    client: TestClient,
) -> None:
    """A client that sends CRLF (or a lone CR) is told "line breaks are fine" and means it:
    they are stored as plain line breaks; and a line's time names its zone (UTC) listed as
    well as posted, so a browser does not read it as local time."""
    table_id, seats = people_table(client, QUICK_GAME)
    made = post(client, table_id, seats[0], "two\r\nlines\rthree")
    assert made.status_code == 201, made.text
    assert made.json()["text"] == "two\nlines\nthree"
    listed = client.get(f"/tables/{table_id}/chat").json()["messages"]
    assert listed[0]["created_at"] == made.json()["created_at"]
    assert listed[0]["created_at"].endswith("+00:00")


def test_a_chat_body_with_an_unknown_field_or_a_wrong_type_is_refused(
    client: TestClient,
) -> None:
    """The chat's body is checked as every request body is (docs/server.md: unknown
    fields, wrong types and NUL characters get 422), and nothing is posted."""
    table_id, seats = people_table(client, QUICK_GAME)
    for body in ({"text": "hi", "name": "player1"}, {"text": 5}, {"text": ["hi"]}):
        refused = client.post(f"/tables/{table_id}/chat", json=body, headers=seats[0])
        assert refused.status_code == 422, (body, refused.text)
        assert refused.json()["code"] == "invalid_request"
    assert texts(client, table_id) == []
