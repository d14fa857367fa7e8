"""Resign, abort, rematch, rated or casual tables, the leaderboard and player pages, the
watch list: through the real app (REST and the WebSocket)."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from parlour.server import Settings, create_app
from parlour.server.services.ratings import places
from parlour.storage.ratings import count_rated
from tests.quick_game import QUICK_GAME
from tests.server.conftest import Headers, register, wait_until
from tests.server.helpers import choose, people_table, play_once, server_state, until
from tests.server.social_helpers import wait_notified


def _table(
    client: TestClient, game: str, names: list[str], **extra: object
) -> tuple[int, list[Headers]]:
    """A started table of *game* for the people *names* (registered now), in seat order."""
    seats = [register(client, name) for name in names]
    created = client.post(
        "/tables",
        json={"game": game, "seats": ["me"] + ["open"] * (len(names) - 1), **extra},
        headers=seats[0],
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    for who in seats[1:]:
        joined = client.post(
            f"/tables/{table_id}/join", json={"invite": created.json()["invite_code"]}, headers=who
        )
        assert joined.is_success, joined.text
    if client.get(f"/tables/{table_id}", headers=seats[0]).json()["status"] == "lobby":
        assert client.post(f"/tables/{table_id}/start", headers=seats[0]).status_code == 200
    return table_id, seats


def _play(client: TestClient, table_id: int, seats: list[Headers], rng: random.Random) -> None:
    """One action by the person to move, against the table's version (events included)."""
    state = server_state(client, table_id)
    seat = state.actors()[0]
    answer = client.post(
        f"/tables/{table_id}/actions",
        json={"action": choose(state, seat, rng), "version": _version(client, table_id, seats[0])},
        headers=seats[seat],
    )
    assert answer.status_code == 200, answer.text


def _version(client: TestClient, table_id: int, who: Headers) -> int:
    version: int = client.get(f"/tables/{table_id}", headers=who).json()["version"]
    return version


def _resign(client: TestClient, table_id: int, who: Headers) -> dict:
    """Resign *who* against the version read just before (read again if a computer player
    moved in between)."""
    for _ in range(20):
        answer = client.post(
            f"/tables/{table_id}/resign",
            json={"version": _version(client, table_id, who)},
            headers=who,
        )
        if answer.json().get("code") != "stale_version":
            break
    assert answer.status_code == 200, answer.text
    body: dict = answer.json()
    return body


def _rated(client: TestClient, table_id: int) -> bool:
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with ctx.engine.connect() as connection:
        return count_rated(connection, table_id) == 1


def test_resigning_a_two_player_game_ends_it_and_the_other_wins(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    play_once(client, table_id, seats, random.Random(3))
    with client.websocket_connect("/ws", headers=seats[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": table_id})
        until(ws, "update")
        body = _resign(client, table_id, seats[1])
        update = until(ws, "update", status="finished")  # the update comes first
        assert update["result"]["winners"] == [0]
        event = until(ws, "table_event")
        assert event["event"] == "resigned" and event["seat"] == 1
        assert event["name"] == "player1" and event["status"] == "finished"
    assert body["status"] == "finished"
    assert body["result"]["winners"] == [0] and body["result"]["resigned"] == [1]
    assert body["ended"] == {"how": "resigned", "seat": 1}
    assert body["events"][-1] == {"seq": body["version"] - 1, "by": -5, "move": "resign 1"}
    # the game is over: a move and a second resignation are refused
    state = server_state(client, table_id)
    refused = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "roll", "version": body["version"]},
        headers=seats[state.actors()[0] if state.actors() else 0],
    )
    assert refused.status_code == 409 and refused.json()["detail"] == "the game is over"
    again = client.post(
        f"/tables/{table_id}/resign", json={"version": body["version"]}, headers=seats[0]
    )
    assert again.status_code == 409 and again.json()["detail"] == "the game is over"
    wait_until(lambda: _rated(client, table_id))
    board = client.get("/ratings/ten-thousand").json()
    assert [p["player"] for p in board["players"]] == ["player0", "player1"]
    assert board["players"][0]["rating"] > board["players"][1]["rating"]
    assert all(p["provisional"] and p["games"] == 1 for p in board["players"])
    assert board["players"][0]["wins"] == 1 and board["players"][1]["wins"] == 0
    # the table loads again from its log (the server's event is skipped by the replay)
    client.app.state.ctx.cache.drop(table_id)  # type: ignore[attr-defined]
    reloaded = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    assert reloaded["status"] == "finished" and reloaded["version"] == body["version"]
    replay = client.get(f"/tables/{table_id}/replay?step=1000")
    assert replay.status_code == 200 and replay.json()["steps"] == body["version"]


def test_resigning_among_three_people_hands_the_seat_to_a_computer(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand", people=3)
    body = _resign(client, table_id, seats[2])
    assert body["status"] == "active"
    assert body["resigned"] == [2]
    seat = body["seats"][2]
    assert seat["kind"] == "cpu" and seat["removed"] and seat["level"] == "optimal"
    again = client.post(
        f"/tables/{table_id}/resign", json={"version": body["version"]}, headers=seats[2]
    )
    assert again.status_code == 409 and "out of this game already" in again.json()["detail"]
    # the two others play on; the computer moves for seat 2
    rng = random.Random(5)
    for _ in range(6):
        state = server_state(client, table_id)
        if state.is_terminal():
            break
        if state.actors()[0] == 2:
            wait_until(lambda: server_state(client, table_id).actors()[:1] != (2,))
            continue
        _play(client, table_id, seats, rng)


def test_refusals_say_why(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    stranger = register(client, "stranger")
    version = _version(client, table_id, seats[0])
    no_seat = client.post(f"/tables/{table_id}/resign", json={"version": version}, headers=stranger)
    assert (
        no_seat.status_code == 403 and no_seat.json()["detail"] == "you have no seat at this table"
    )
    stale = client.post(
        f"/tables/{table_id}/resign", json={"version": version - 1}, headers=seats[0]
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert stale.json()["current"]["version"] == version
    early = client.post(f"/tables/{table_id}/rematch", headers=seats[0])
    assert early.status_code == 409
    assert early.json()["detail"] == "a rematch is offered once the game is over"
    lobby = client.post(
        "/tables", json={"game": "ten-thousand", "seats": ["me", "open"]}, headers=seats[0]
    ).json()["id"]
    for path, body in (("resign", {"version": 0}), ("abort", None)):
        answer = client.post(f"/tables/{lobby}/{path}", json=body, headers=seats[0])
        assert answer.status_code == 409
        assert answer.json()["detail"] == "the game has not started: leave the table instead"
    unauthenticated = client.post(f"/tables/{table_id}/abort")
    assert unauthenticated.status_code == 401
    assert _version(client, table_id, seats[0]) == version  # nothing changed


def test_abort_before_the_first_move_counts_for_nobody(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    stranger = register(client, "watcher")
    refused = client.post(f"/tables/{table_id}/abort", headers=stranger)
    assert refused.status_code == 403
    with client.websocket_connect("/ws", headers=seats[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "follow", "table": table_id})
        until(ws, "update")
        answer = client.post(f"/tables/{table_id}/abort", headers=seats[1])
        assert answer.status_code == 204, answer.text
        event = until(ws, "table_event")
        assert event["event"] == "aborted" and event["status"] == "cancelled"
    view = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    assert view["status"] == "cancelled"
    assert view["ended"] == {"how": "aborted", "seat": 1}
    move = client.post(
        f"/tables/{table_id}/actions", json={"action": "roll", "version": 1}, headers=seats[0]
    )
    assert move.status_code == 409
    assert client.get("/ratings/ten-thousand").json()["players"] == []
    assert client.get("/players/player0").json()["games_played"] == 0
    # a table where a seat has moved cannot be aborted
    other, people = _table(client, QUICK_GAME, ["pia", "pog"])
    play_once(client, other, people, random.Random(1))
    late = client.post(f"/tables/{other}/abort", headers=people[0])
    assert late.status_code == 409 and late.json()["detail"].startswith("a move was made")


def test_a_rematch_rotates_the_seats_and_keeps_the_options(client: TestClient) -> None:
    ann = register(client, "ann")
    bob = register(client, "bob")
    created = client.post(
        "/tables",
        json={
            "game": "ten-thousand",
            "seats": ["me", "open", "cpu:cautious"],
            "options": {"target": 5000},
            "clock_days": 3,
            "rated": False,
        },
        headers=ann,
    ).json()
    table_id = created["id"]
    assert created["rated"] is False
    client.post(f"/tables/{table_id}/join", json={}, headers=bob)
    client.post(f"/tables/{table_id}/start", headers=ann)
    _resign(client, table_id, ann)  # bob plays on against the computer
    body = _resign(client, table_id, bob)  # no person left: the game ends
    assert body["status"] == "finished" and body["resigned"] == [0, 1]
    assert body["result"]["winners"] == [2]
    offer = client.post(f"/tables/{table_id}/rematch", headers=bob)
    assert offer.status_code == 200, offer.text
    assert offer.json() == {"table": table_id, "seats": [1], "waiting": [0], "new_table": None}
    twice = client.post(f"/tables/{table_id}/rematch", headers=bob)
    assert twice.status_code == 409
    assert client.get(f"/tables/{table_id}", headers=ann).json()["rematch"] == {
        "accepted": ["bob"],
        "table": None,
    }
    made = client.post(f"/tables/{table_id}/rematch", headers=ann).json()
    new = made["new_table"]
    assert made["waiting"] == [] and new is not None
    view = client.get(f"/tables/{new}", headers=ann).json()
    assert view["status"] == "active"
    assert [(s["kind"], s["name"], s["level"]) for s in view["seats"]] == [
        ("person", "bob", None),
        ("cpu", "cpu:cautious", "cautious"),
        ("person", "ann", None),
    ]
    assert view["options"]["target"] == 5000 and view["clock_days"] == 3
    assert view["rated"] is False and view["rematch_of"] == table_id
    late = client.post(f"/tables/{table_id}/rematch", headers=ann)
    assert late.status_code == 409 and late.json()["detail"] == (
        f"the rematch is already made: table {new}"
    )
    # a casual game changes no rating
    client.app.state.ctx.cache.drop(table_id)  # type: ignore[attr-defined]
    assert client.get("/ratings/ten-thousand").json()["players"] == []


def test_a_player_page_and_a_computer_level_page(client: TestClient) -> None:
    ann = register(client, "ann")
    for _ in range(2):
        table_id = client.post(
            "/tables",
            json={"game": "greedy", "seats": ["me", "cpu:easy"], "start": True},
            headers=ann,
        ).json()["id"]
        _resign(client, table_id, ann)
        wait_until(lambda table_id=table_id: _rated(client, table_id))
    wait_until(lambda: [s["games"] for s in client.get("/standings/greedy").json()] == [2])
    page = client.get("/players/ANN").json()
    assert page["name"] == "ann" and page["kind"] == "person" and page["games_played"] == 2
    assert [(r["game"], r["games"], r["wins"], r["provisional"]) for r in page["ratings"]] == [
        ("greedy", 2, 0, True)
    ]
    # Greedy resigns by its own quit: a loss in the tournament standings, as the manual says
    assert [g["won"] for g in page["recent"]] == [False, False]
    assert page["standings"] is not None and page["standings"]["losses"] == 2
    assert page["standings"]["games"] == 2 and page["statistics"] is None
    assert page["recent"][0]["rating_after"] < page["recent"][0]["rating_before"]
    cpu = client.get("/players/cpu:easy").json()
    assert cpu["kind"] == "cpu" and cpu["ratings"][0]["wins"] == 2
    assert client.get("/players/nobody").status_code == 404
    assert client.get("/ratings/no-such-game").status_code == 404


def test_the_watch_list_shows_open_games_in_play_only(client: TestClient) -> None:
    open_table, _seats = people_table(client, "ten-thousand")
    hidden, _ = _table(client, QUICK_GAME, ["pia", "pog"], visibility="invite")
    finished, others = _table(client, "greedy", ["gia", "gog"])
    _resign(client, finished, others[0])
    listed = client.get("/watch").json()
    assert [t["id"] for t in listed] == [open_table]
    assert [s["name"] for s in listed[0]["seats"]] == ["player0", "player1"]
    assert hidden not in [t["id"] for t in client.get(f"/watch?game={QUICK_GAME}").json()]
    # an unknown game is not found, as its leaderboard is (it answered [] before)
    for url in ("/watch?game=nope", "/ratings/nope"):
        unknown = client.get(url)
        assert unknown.status_code == 404, url
        assert unknown.json()["detail"] == "no game 'nope'", url


def test_places_from_a_result() -> None:
    result = {"scores": [10, 30, 30, 5], "winners": [1, 2]}
    assert places(result, []) == [3, 1, 1, 4]
    assert places(result, [1]) == [2, 4, 1, 3]
    assert places({"scores": [7, 7, 2], "winners": [0]}, []) == [1, 2, 3]


def _resigned_seat_wins(client: TestClient) -> tuple[int, list[Headers]]:
    """Three people at Pig to 30: player0 resigns at once and the computer that plays her
    seat out wins it (with every die a 6, see the callers); the others roll once and hold."""
    table_id, seats = people_table(client, QUICK_GAME, people=3, options={"target": 30})
    _resign(client, table_id, seats[0])
    for _ in range(40):
        table = client.get(f"/tables/{table_id}", headers=seats[1]).json()
        if table["status"] == "finished":
            break
        for who in seats[1:]:
            mine = client.get(f"/tables/{table_id}", headers=who).json()
            if mine["legal"]:
                action = "hold" if "hold" in mine["legal"] else "roll"
                body = {"action": action, "version": mine["version"]}
                client.post(f"/tables/{table_id}/actions", json=body, headers=who)
    assert table["status"] == "finished" and table["result"]["winners"] == [0]
    return table_id, seats


def test_a_resigned_player_whose_computer_wins_the_seat_did_not_win(settings: Settings) -> None:
    """Found by playing: among three people, ann resigns and the computer that plays her
    seat out wins it; her player page listed that game as won (the ratings rightly rank her
    last). Every die is a 6, so the computer (hold at 20) goes out first."""
    settings.chance_script = lambda state, seed: "die 6"
    with TestClient(create_app(settings)) as client:
        table_id, _seats = _resigned_seat_wins(client)
        wait_until(lambda: _rated(client, table_id))
        page = client.get("/players/player0").json()
        assert [(g["won"], g["resigned"]) for g in page["recent"]] == [(False, True)]
        assert page["ratings"][0]["wins"] == 0


def test_a_resigned_player_is_told_the_end_and_may_accept_the_rematch(
    settings: Settings,
) -> None:
    """Found by playing: a player who resigned while a computer played her seat out was
    never told the game ended, yet the rematch waits for her acceptance too."""
    settings.chance_script = lambda state, seed: "die 6"
    with TestClient(create_app(settings)) as client:
        table_id, seats = _resigned_seat_wins(client)
        for who in seats:
            told = wait_notified(client, who, "end")
            assert [n["table"] for n in told] == [table_id]
        for who in seats[1:]:
            assert client.post(f"/tables/{table_id}/rematch", headers=who).status_code == 200
        made = client.post(f"/tables/{table_id}/rematch", headers=seats[0]).json()
        assert made["new_table"] is not None and made["waiting"] == []
