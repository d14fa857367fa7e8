"""Notifications: a person is told of the start, each of their turns, the end and a clock
with less than a day left, once each; the list is paged with an unread count, marked read
one or all, and pushed live to the account's sockets."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from parlour.server import Settings, create_app
from parlour.server.services.notifications import warn_clocks
from tests.quick_game import QUICK_GAME
from tests.server.conftest import FakeClock, register, wait_until
from tests.server.helpers import people_table
from tests.server.social_helpers import notifications, pass_turn, wait_notified


def test_start_and_turns_are_told_once_each_with_the_table_and_game(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    for who in seats:
        started = wait_notified(client, who, "start")
        assert len(started) == 1 and started[0]["table"] == table_id
        assert started[0]["text"].startswith(f"The game at table {table_id} (Pig) has started.")
    mover = pass_turn(client, table_id, seats)
    told = wait_notified(client, seats[mover], "turn")
    assert told[0]["text"] == f"It is your turn at table {table_id} (Pig)."
    assert notifications(client, seats[1 - mover], "turn") == []
    mover = pass_turn(client, table_id, seats)  # and back: the other one is told
    assert len(wait_notified(client, seats[mover], "turn")) == 1
    # the same change seen again (another process, a restart) stores nothing twice
    notifier = client.app.state.notifier  # type: ignore[attr-defined]
    notifier._told.clear()
    notifier.on_change(table_id)
    client.app.state.ctx.writer.submit(lambda c: None).result()  # type: ignore[attr-defined]
    assert len(notifications(client, seats[mover], "turn")) == 1
    assert len(notifications(client, seats[mover], "start")) == 1


def test_the_list_is_paged_newest_first_and_marked_read(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    for _ in range(4):
        pass_turn(client, table_id, seats)
    wait_notified(client, seats[0], "turn", 2)
    whole = client.get("/me/notifications", headers=seats[0]).json()
    ids = [n["id"] for n in whole["notifications"]]
    assert ids == sorted(ids, reverse=True) and len(ids) == 3  # start + two turns
    assert whole["unread"] == 3 and whole["next_before"] is None
    first = client.get("/me/notifications?limit=2", headers=seats[0]).json()
    assert [n["id"] for n in first["notifications"]] == ids[:2]
    rest = client.get(f"/me/notifications?limit=2&before={first['next_before']}", headers=seats[0])
    assert [n["id"] for n in rest.json()["notifications"]] == ids[2:]
    one = client.post(f"/me/notifications/{ids[1]}/read", headers=seats[0])
    assert one.json() == {"unread": 2}
    assert [n["read"] for n in notifications(client, seats[0])] == [False, True, False]
    others = client.post(f"/me/notifications/{ids[0]}/read", headers=seats[1])
    assert others.status_code == 404 and others.json()["code"] == "not_found"
    assert client.post("/me/notifications/read", headers=seats[0]).json() == {"unread": 0}
    assert client.get("/me/notifications", headers=seats[0]).json()["unread"] == 0
    assert client.get("/me/notifications").status_code == 401
    bad = client.get("/me/notifications?limit=0", headers=seats[0])
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"


def test_the_end_is_told_to_every_player(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME, options={"target": 10})
    for _ in range(200):
        state = client.get(f"/tables/{table_id}", headers=seats[0]).json()
        if state["status"] == "finished":
            break
        pass_turn(client, table_id, seats)
    for who in seats:
        ended = wait_notified(client, who, "end")
        assert ended[0]["text"] == f"The game at table {table_id} (Pig) is over."


def test_a_notification_is_pushed_to_the_account_sockets(client: TestClient) -> None:
    table_id, seats = people_table(client, QUICK_GAME)
    table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    mover = table["to_move"][0]
    with client.websocket_connect("/ws", headers=seats[1 - mover]) as ws:
        assert ws.receive_json()["type"] == "hello"
        pass_turn(client, table_id, seats)
        seen: list[dict[str, Any]] = []
        while not seen or seen[-1]["kind"] != "turn":
            message: dict[str, Any] = ws.receive_json()
            if message["type"] == "notification":
                seen.append(message["notification"])
        # the table's start notice may come first: it is pushed when the notices are written,
        # which on a busy machine can be after the socket opened
        assert [(n["kind"], n["table"]) for n in seen[:-1]] in ([], [("start", table_id)])
        note = seen[-1]
        assert note["table"] == table_id and note["read"] is False


def test_a_clock_with_less_than_a_day_left_is_told_once(
    client: TestClient, clock: FakeClock
) -> None:
    table_id, seats = people_table(client, QUICK_GAME, clock_days=2)
    mover = client.get(f"/tables/{table_id}", headers=seats[0]).json()["to_move"][0]
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    notifier = client.app.state.notifier  # type: ignore[attr-defined]
    assert warn_clocks(ctx, notifier) == 0  # two days left
    clock.advance(hours=25)
    assert warn_clocks(ctx, notifier) == 1
    warned = notifications(client, seats[mover], "clock")
    assert len(warned) == 1 and warned[0]["text"].startswith("Less than 24 hours left")
    assert f"table {table_id} (Pig)" in warned[0]["text"]
    assert warn_clocks(ctx, notifier) == 0  # once per deadline
    assert notifications(client, seats[1 - mover], "clock") == []


def test_a_lobby_join_tells_nobody_and_anonymous_gets_nothing(client: TestClient) -> None:
    creator = register(client, "creator")
    made = client.post(
        "/tables", json={"game": QUICK_GAME, "seats": ["me", "open"]}, headers=creator
    )
    assert made.status_code == 201
    wait_until(lambda: client.app.state.ctx.writer.submit(lambda c: True).result())  # type: ignore[attr-defined]
    assert notifications(client, creator) == []


def test_the_routes_are_in_the_openapi_with_their_models_and_errors(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    listed = paths["/me/notifications"]["get"]["responses"]
    assert listed["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/NotificationsOut"
    )
    assert listed["401"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
    chat = paths["/tables/{table_id}/chat"]
    assert chat["post"]["responses"]["201"]["content"]["application/json"]["schema"][
        "$ref"
    ].endswith("/ChatLineOut")
    assert "429" in chat["post"]["responses"] and "403" in chat["post"]["responses"]
    for path in ("/me/notifications/read", "/me/mail", "/me/mutes/{name}", "/unsubscribe/{token}"):
        assert path in paths, path


def test_with_notifications_off_nothing_is_stored(settings: Settings) -> None:
    from dataclasses import replace

    with TestClient(create_app(replace(settings, notifications=False))) as client:
        table_id, seats = people_table(client, QUICK_GAME)
        pass_turn(client, table_id, seats)
        client.app.state.ctx.writer.submit(lambda c: None).result()  # type: ignore[attr-defined]
        assert notifications(client, seats[0]) == notifications(client, seats[1]) == []


def test_a_notification_time_names_its_zone(client: TestClient) -> None:
    """Listed notifications carry UTC's offset (the web page reads the time with ``new
    Date``, which takes a time without one as the browser's local time)."""
    _, seats = people_table(client, QUICK_GAME)
    started = wait_notified(client, seats[0], "start")
    assert started[0]["created_at"].endswith("+00:00"), started[0]["created_at"]
