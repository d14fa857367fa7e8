"""What a person does with their own account: change the password, see and end their
sessions, log out everywhere, delete the account."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.server.conftest import FakeClock, Headers, register
from tests.server.helpers import people_table, play_once


def _login(client: TestClient, name: str, password: str = "password123") -> Headers:
    response = client.post("/auth/login", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {response.json()['token']}"}


def _me(client: TestClient, headers: Headers) -> int:
    client.app.state.ctx.logins.clear()  # type: ignore[attr-defined] # as another process
    return client.get("/auth/me", headers=headers).status_code


def test_changing_the_password_needs_the_current_one_and_ends_the_other_sessions(
    client: TestClient,
) -> None:
    here = register(client, "ann")
    there = _login(client, "ann")
    wrong = client.post(
        "/auth/password", json={"current": "not-it-at-all", "new": "brand-new-pw"}, headers=here
    )
    assert wrong.status_code == 403
    assert wrong.json() == {"detail": "the current password is wrong", "code": "forbidden"}
    short = client.post(
        "/auth/password", json={"current": "password123", "new": "short"}, headers=here
    )
    assert short.status_code == 422
    blank = client.post(
        "/auth/password", json={"current": "password123", "new": " " * 12}, headers=here
    )
    assert (blank.status_code, blank.json()["detail"]) == (
        422,
        "a password has more than spaces in it",
    )
    done = client.post(
        "/auth/password", json={"current": "password123", "new": "brand-new-pw"}, headers=here
    )
    assert done.status_code == 204
    assert (_me(client, here), _me(client, there)) == (200, 401)
    old = client.post("/auth/login", json={"name": "ann", "password": "password123"})
    assert old.status_code == 401
    _login(client, "ann", "brand-new-pw")


def test_wrong_current_passwords_count_as_failed_logins(client: TestClient) -> None:
    ann = register(client, "ann")
    codes = [
        client.post(
            "/auth/password", json={"current": f"guess-{i}-x", "new": "brand-new-pw"}, headers=ann
        ).status_code
        for i in range(6)
    ]
    assert codes == [403] * 5 + [429]
    login = client.post("/auth/login", json={"name": "ann", "password": "password123"})
    assert login.status_code == 429  # the account's five guesses are spent


def test_log_out_everywhere_ends_every_session(client: TestClient) -> None:
    one = register(client, "ann")
    two = _login(client, "ann")
    bob = register(client, "bob")
    response = client.post("/auth/logout-all", headers=one)
    assert response.status_code == 204
    assert (_me(client, one), _me(client, two), _me(client, bob)) == (401, 401, 200)


def test_log_out_everywhere_closes_the_accounts_websockets(client: TestClient) -> None:
    one = register(client, "ann")
    two = _login(client, "ann")
    token = two["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect(f"/ws?token={token}") as socket:
        assert socket.receive_json()["type"] == "hello"
        assert client.post("/auth/logout-all", headers=one).status_code == 204
        socket.send_json({"type": "ping"})
        message = socket.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4401


def test_sessions_list_when_each_was_made_and_used_and_which_is_this(
    client: TestClient, clock: FakeClock
) -> None:
    first = register(client, "ann")
    made_first = clock.now.isoformat()
    clock.advance(minutes=10)
    second = _login(client, "ann")
    made_second = clock.now.isoformat()
    clock.advance(minutes=5)
    assert _me(client, second) == 200  # used now
    sessions = client.get("/auth/sessions", headers=second).json()
    assert [(s["created_at"], s["current"]) for s in sessions] == [
        (made_second, True),
        (made_first, False),
    ]
    assert sessions[0]["last_used_at"] == clock.now.isoformat()
    assert all(len(s["id"]) == 16 for s in sessions)
    tokens = {h["Authorization"].removeprefix("Bearer ") for h in (first, second)}
    assert not any(s["id"] in t for s in sessions for t in tokens)  # no part of a token


def test_a_session_is_revoked_by_its_id_and_only_by_its_owner(client: TestClient) -> None:
    first = register(client, "ann")
    second = _login(client, "ann")
    bob = register(client, "bob")
    other = next(s for s in client.get("/auth/sessions", headers=second).json() if not s["current"])
    assert client.delete(f"/auth/sessions/{other['id']}", headers=bob).status_code == 404
    assert _me(client, first) == 200
    assert client.delete(f"/auth/sessions/{other['id']}", headers=second).status_code == 204
    assert (_me(client, first), _me(client, second)) == (401, 200)
    assert client.delete(f"/auth/sessions/{other['id']}", headers=second).status_code == 404
    assert [s["current"] for s in client.get("/auth/sessions", headers=second).json()] == [True]


def test_deleting_the_account_needs_its_password(client: TestClient) -> None:
    ann = register(client, "ann")
    response = client.request("DELETE", "/auth/me", json={"password": "wrong-one"}, headers=ann)
    assert response.status_code == 403
    assert _me(client, ann) == 200


def test_an_account_at_a_game_in_play_is_not_deleted(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    response = client.request(
        "DELETE", "/auth/me", json={"password": "password123"}, headers=seats[1]
    )
    assert response.status_code == 409
    assert response.json()["tables"] == [table_id]
    assert f"table {table_id}" in response.json()["detail"]
    assert _me(client, seats[1]) == 200


def test_a_deleted_account_leaves_the_lobby_and_finished_games_keep_a_placeholder(
    client: TestClient,
) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    rng = random.Random(3)
    for _ in range(2_000):
        if play_once(client, table_id, seats, rng)["status"] == "finished":
            break
    else:
        raise AssertionError("the game did not end")
    leaver = seats[1]
    account_id = client.get("/auth/me", headers=leaver).json()["id"]
    own = client.post(
        "/tables", json={"game": "ten-thousand", "seats": ["me", "open"]}, headers=leaver
    )
    host = register(client, "host")
    theirs = client.post(
        "/tables", json={"game": "ten-thousand", "seats": ["me", "open"]}, headers=host
    )
    joined = client.post(f"/tables/{theirs.json()['id']}/join", json={}, headers=leaver)
    assert joined.status_code == 200, joined.text

    response = client.request(
        "DELETE", "/auth/me", json={"password": "password123"}, headers=leaver
    )
    assert response.status_code == 204
    assert _me(client, leaver) == 401
    assert (
        client.post("/auth/login", json={"name": "player1", "password": "password123"}).status_code
        == 401
    )
    placeholder = f"deleted player {account_id}"
    finished = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    assert [s["name"] for s in finished["seats"]] == ["player0", placeholder]
    record = client.get(f"/tables/{table_id}/record", headers=seats[0]).json()
    assert record["players"] == ["player0", placeholder]
    assert client.get(f"/tables/{own.json()['id']}", headers=host).json()["status"] == "cancelled"
    seats_now = client.get(f"/tables/{theirs.json()['id']}", headers=host).json()["seats"]
    assert [s["kind"] for s in seats_now] == ["person", "open"]
    register(client, "player1")  # the name is free again
