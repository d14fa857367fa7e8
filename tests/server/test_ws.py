"""The WebSocket: following tables, pushed updates, actions, turn notices, bad messages."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import register
from tests.server.helpers import people_table, play_once, server_state


def until(ws: WebSocketTestSession, kind: str, **match: Any) -> dict[str, Any]:
    """The next message of *kind* (whose fields equal *match*), skipping others."""
    for _ in range(200):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} message")


def test_hello_follow_and_updates_pushed_after_each_action(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    with client.websocket_connect("/ws", headers=seats[1]) as ws:
        hello = ws.receive_json()
        assert hello == {"type": "hello", "account": {"id": 2, "name": "player1"}}
        ws.send_json({"type": "follow", "table": table_id})
        first = until(ws, "update")
        state = server_state(client, table_id)
        assert first["version"] == len(state.history)
        assert first["you"] == 1 and first["your_turn"] == (1 in state.actors())
        assert first["view"] == state.observation(1)
        assert first["events"][0]["seq"] == 0
        answer = play_once(client, table_id, seats, random.Random(1))
        pushed = until(ws, "update", version=answer["version"])
        assert pushed["events"] == answer["events"]  # only what is new
        assert pushed["view"] == server_state(client, table_id).observation(1)


def test_actions_over_the_websocket_are_acknowledged_or_refused(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    with client.websocket_connect("/ws", headers=seats[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": table_id})
        update = until(ws, "update")
        move = update["legal"][0]
        ws.send_json(
            {
                "type": "action",
                "table": table_id,
                "action": move,
                "version": update["version"] - 1,
                "ref": "a",
            }
        )
        stale = until(ws, "error", ref="a")
        assert stale["status"] == 409 and stale["code"] == "stale_version"
        assert stale["current"]["version"] == update["version"]
        ws.send_json(
            {
                "type": "action",
                "table": table_id,
                "action": "keep 6 6 6 6 6 6 bank",
                "version": update["version"],
                "ref": "b",
            }
        )
        illegal = until(ws, "error", ref="b")
        assert illegal["status"] == 422 and illegal["code"] == "illegal_move"
        ws.send_json(
            {
                "type": "action",
                "table": table_id,
                "action": move,
                "version": update["version"],
                "ref": "c",
            }
        )
        # the update (to every follower) and the ack both come, in either order; the
        # table's notices may come between them on a busy machine
        got: dict[str, dict[str, Any]] = {}
        for _ in range(20):
            message: dict[str, Any] = ws.receive_json()
            assert message["type"] in ("ack", "update", "notification"), message
            got.setdefault(message["type"], message)
            if "ack" in got and "update" in got:
                break
        assert got["ack"]["ref"] == "c"
        assert got["ack"]["version"] == got["update"]["version"] > update["version"]
        assert got["update"]["events"][0]["move"] == move


def test_a_turn_notice_for_tables_not_followed(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    rng = random.Random(4)
    with client.websocket_connect("/ws", headers=seats[1]) as ws:
        ws.receive_json()
        answer = play_once(client, table_id, seats, rng)
        while server_state(client, table_id).actors()[0] == 0:
            answer = play_once(client, table_id, seats, rng)
        notice = until(ws, "turn")
        assert notice == {"type": "turn", "table": table_id, "version": answer["version"]}


def test_lobby_changes_are_announced(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    table = client.post(
        "/tables", json={"game": "ten-thousand", "seats": ["me", "open"]}, headers=ann
    ).json()
    with client.websocket_connect("/ws", headers=ann) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": table["id"]})
        assert until(ws, "table") == {"type": "table", "table": table["id"]}
        client.post(f"/tables/{table['id']}/join", json={}, headers=bob)
        assert until(ws, "table")["status"] == "lobby"
        client.post(f"/tables/{table['id']}/start", headers=ann)
        started = until(ws, "update")
        assert started["status"] == "active"
        assert started["your_turn"] == (0 in started["to_move"])


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "dance"}', "bad_message"),
        ('{"type": "follow", "table": "one"}', "bad_message"),
        ('{"type": "follow", "table": true}', "bad_message"),
        ('{"type": "follow", "table": 999}', "not_found"),
        ('{"type": "action", "table": 1, "action": 5, "version": 1}', "invalid_request"),
        ('{"type": "action", "table": 1, "action": "x", "version": "1"}', "invalid_request"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
        # JSON nested deeper than the parser's recursion dropped the socket
        ("[" * 2000 + "]" * 2000, "bad_json"),
        # ids past the database's integers dropped the socket with an OverflowError
        ('{"type": "follow", "table": 9223372036854775808}', "bad_message"),
        ('{"type": "follow", "table": 1000000000000000000000000000000}', "bad_message"),
        ('{"type": "unfollow", "table": 2147483648}', "bad_message"),
        ('{"type": "action", "table": 1, "action": "x", "version": 1e400}', "invalid_request"),
        ('{"type": "action", "table": 1, "action": "x", "version": -1}', "invalid_request"),
        (
            '{"type": "action", "table": 1, "action": "x", "version": 100000000000000000000}',
            "invalid_request",
        ),
    ],
)
def test_bad_messages_get_an_error_and_the_socket_stays_open(
    client: TestClient, message: str, code: str
) -> None:
    ann = register(client, "ann")
    with client.websocket_connect("/ws", headers=ann) as ws:
        ws.receive_json()
        ws.send_text(message)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == code
        ws.send_json({"type": "ping", "ref": 1})
        assert ws.receive_json() == {"type": "pong", "ref": 1}


@pytest.mark.parametrize(
    "body",
    [
        {"action": "x" * 501, "version": 0},  # longer than a REST action may be
        {"action": "", "version": 0},
        {"action": 5, "version": 0},
        {"action": "roll", "version": "0"},
        {"action": "roll", "version": True},
        {"action": "roll", "version": 10_000_001},
        {"action": "roll\u0000", "version": 0},
        {"action": "roll"},
        {"action": "roll", "version": 0, "extra": 1},
    ],
)
def test_a_socket_action_is_refused_with_the_rest_routes_reason_and_the_socket_plays_on(
    client: TestClient, body: dict[str, Any]
) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    who = seats[table["to_move"][0]]
    table = client.get(f"/tables/{table_id}", headers=who).json()
    rest = client.post(f"/tables/{table_id}/actions", json=body, headers=who)
    assert rest.status_code == 422
    with client.websocket_connect("/ws", headers=who) as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "table": table_id, "ref": "r", **body})
        error = until(ws, "error")
        assert error["ref"] == "r" and error["status"] == 422
        assert error["code"] == rest.json()["code"] == "invalid_request"
        assert error["detail"] == rest.json()["detail"]
        # the socket stays usable: a good action is acknowledged
        good = {"action": table["legal"][0], "version": table["version"]}
        ws.send_json({"type": "action", "table": table_id, "ref": "ok", **good})
        ack = until(ws, "ack", ref="ok")
        assert ack["version"] > table["version"]


@pytest.mark.parametrize(
    ("ref", "echoed"),
    [
        ("100000000000000000000000000000", 100000000000000000000000000000),  # past 64 bits
        ("1e400", None),  # no JSON number is infinite: the answer says null
        ("NaN", None),  # nor is one "NaN" (Python's json reads it)
        # both at once: the slow encoder (for the big integer) must not meet the infinity
        ("[1e400, 100000000000000000000000000000]", [None, 100000000000000000000000000000]),
        ('"abc"', "abc"),
    ],
)
def test_any_ref_a_client_sends_is_answered(client: TestClient, ref: str, echoed: Any) -> None:
    # the fast encoder refuses integers past 64 bits: such a ref must not drop the socket
    ann = register(client, "ann")
    with client.websocket_connect("/ws", headers=ann) as ws:
        ws.receive_json()
        ws.send_text('{"type": "ping", "ref": ' + ref + "}")
        assert ws.receive_json() == {"type": "pong", "ref": echoed}
        ws.send_text('{"type": "dance", "ref": ' + ref + "}")
        assert ws.receive_json()["ref"] == echoed


def test_a_bad_token_is_turned_away_and_anonymous_sockets_only_watch(
    client: TestClient,
) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws?token=nonsense") as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4401
    table_id, _ = people_table(client, "ten-thousand")
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json() == {"type": "hello", "account": None}
        ws.send_json({"type": "follow", "table": table_id})
        update = until(ws, "update")
        assert update["you"] is None and update["legal"] == []
        assert update["view"] == server_state(client, table_id).observation(None)
        ws.send_json(
            {
                "type": "action",
                "table": table_id,
                "action": "keep 1 bank",
                "version": update["version"],
                "ref": 9,
            }
        )
        assert until(ws, "error", ref=9)["status"] == 401


def test_invite_only_tables_are_followed_by_members_or_with_the_code(
    client: TestClient,
) -> None:
    table_id, seats = people_table(client, "ten-thousand", visibility="invite")
    code = client.get(f"/tables/{table_id}", headers=seats[0]).json()["invite_code"]
    stranger = register(client, "stranger")
    with client.websocket_connect("/ws", headers=stranger) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": table_id})
        assert ws.receive_json()["code"] == "not_found"
        ws.send_json({"type": "follow", "table": table_id, "invite": code})
        assert until(ws, "update")["you"] is None


def test_a_socket_stops_acting_for_an_account_once_it_logs_out(client: TestClient) -> None:
    # found by probing: a socket opened before the logout still played the account's moves
    table_id, seats = people_table(client, "ten-thousand")
    view = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    mover = seats[view["to_move"][0]]
    with client.websocket_connect("/ws", headers=mover) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "ping", "ref": 1})
        # the table's notices may come first (written at most every 50 ms)
        assert until(ws, "pong") == {"type": "pong", "ref": 1}
        assert client.post("/auth/logout", headers=mover).status_code == 204
        ws.send_json(
            {
                "type": "action",
                "table": table_id,
                "action": view["legal"][0],
                "version": view["version"],
                "ref": 2,
            }
        )
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(20):  # nothing but a notice before the close
                assert ws.receive_json()["type"] == "notification"
        assert closed.value.code == 4401
    after = client.get(f"/tables/{table_id}", headers=seats[1 - view["to_move"][0]]).json()
    assert after["version"] == view["version"]  # nothing was played


def test_a_server_bug_on_one_message_does_not_drop_the_socket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.server import ws as ws_module

    def broken(*args: Any) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(ws_module, "_follow", broken)
    ann = register(client, "ann")
    with client.websocket_connect("/ws", headers=ann) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": 1, "ref": 5})
        assert ws.receive_json() == {
            "type": "error",
            "status": 500,
            "ref": 5,
            "code": "internal",
            "detail": "the server failed on this message: try again",
        }
        ws.send_json({"type": "ping", "ref": 6})
        assert ws.receive_json() == {"type": "pong", "ref": 6}


def test_a_logged_out_socket_is_sent_no_more_updates(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    watcher = 1 - server_state(client, table_id).actors()[0]  # the seat not to move
    with client.websocket_connect("/ws", headers=seats[watcher]) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "follow", "table": table_id})
        assert until(ws, "update")["you"] == watcher
        assert client.post("/auth/logout", headers=seats[watcher]).status_code == 204
        play_once(client, table_id, seats, random.Random(2))  # the other seat's move
        with pytest.raises(WebSocketDisconnect) as closed:
            until(ws, "update")
        assert closed.value.code == 4401


def test_a_binary_frame_is_answered_like_any_bad_message(client: TestClient) -> None:
    """Found by probing the API: a binary frame raised an unhandled error in the socket."""
    table_id, seats = people_table(client, "ten-thousand")
    with client.websocket_connect("/ws", headers=seats[0]) as ws:
        ws.receive_json()
        ws.send_bytes(b'{"type": "ping"}')
        # a turn's notification may come first: it now shares a later write's transaction
        assert until(ws, "error") == {
            "type": "error",
            "status": 400,
            "code": "bad_message",
            "detail": "messages are JSON text frames, not binary ones",
        }
        ws.send_json({"type": "ping", "ref": 1})  # the socket stays open
        assert until(ws, "pong") == {"type": "pong", "ref": 1}
        ws.send_json({"type": "follow", "table": table_id})
        assert until(ws, "update")["you"] == 0


def test_a_token_in_the_query_string_is_never_logged(client: TestClient) -> None:
    """Found by reading the server's log: uvicorn writes each WebSocket's path with its query
    string (``"WebSocket /ws?token=..." [accepted]``), so a login's token was in clear in
    the log. The app hides it from every record of uvicorn's loggers. (The records are read
    by a handler on those loggers: a server another test ran may have stopped them
    propagating to the root logger.)"""
    token = "s3cr3t-t0ken_value"
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    keep = Keep()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "uvicorn.access")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(keep)
        logger.setLevel(logging.INFO)
    try:
        # the records uvicorn writes, as its WebSocket and HTTP protocols build them
        loggers[0].info(
            '%s - "WebSocket %s" %s', "127.0.0.1:5000", f"/ws?token={token}", "[accepted]"
        )
        loggers[1].info(
            '%s - "%s %s HTTP/%s" %d',
            "127.0.0.1:5000",
            "GET",
            f"/tables?which=mine&token={token}&x=1",
            "1.1",
            200,
        )
        loggers[0].info(f"odd: /ws?Token={token}")
        # names the server reads as token too (found by a tester: logged in clear before)
        for path in (f"/ws?%74oken={token}", f"/ws?a=1;tok%45n={token}"):
            loggers[0].info('%s - "WebSocket %s" %s', "127.0.0.1:5000", path, "[accepted]")
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(keep)
            logger.setLevel(level)
    text = "\n".join(seen)
    assert len(seen) == 5
    assert token not in text
    assert "/ws?token=[hidden]" in text
    assert "which=mine&token=[hidden]&x=1" in text
    assert "/ws?%74oken=[hidden]" in text and "/ws?a=1;tok%45n=[hidden]" in text
