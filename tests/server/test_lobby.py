"""The lobby: create with options and seats, open or invite-only, join, leave, start, lists."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from parlour.engine.registry import find
from parlour.engine.state import CHANCE
from tests.server.conftest import Headers, register
from tests.server.helpers import server_state

TT = "ten-thousand"


def create(client: TestClient, who: Headers, **body: object) -> dict:
    payload = {"game": TT, "seats": ["me", "open"], **body}
    response = client.post("/tables", json=payload, headers=who)
    assert response.status_code == 201, response.text
    return response.json()


def test_create_with_options_and_a_computer_seat(client: TestClient) -> None:
    ann = register(client, "ann")
    table = create(
        client,
        ann,
        seats=["me", "open", "cpu:reckless"],
        options={"target": 5000},
        clock_days=3,
    )
    assert table["status"] == "lobby"
    assert table["options"] == {
        "players": 3,
        "target": 5000,
        "entry": 0,
        "specials_any_roll": False,
    }
    assert table["clock_days"] == 3 and table["max_skips"] == 3
    assert [(s["kind"], s["name"], s["level"], s["you"]) for s in table["seats"]] == [
        ("person", "ann", None, True),
        ("open", None, None, False),
        ("cpu", "cpu:reckless", "reckless", False),
    ]
    assert table["can_start"] is False
    assert table["start_refusal"] == "1 seat still open: wait for players to join"
    assert table["view"] is None and table["version"] == 0


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"game": "chess"}, "no game called 'chess'"),
        ({"options": {"target": 10_001}}, "multiple of 50"),
        ({"options": {"colour": "red"}}, "no option 'colour'"),
        ({"options": {"players": 3}}, "3 players but 2 seats"),
        ({"seats": ["me", "me"]}, "exactly one seat is 'me'"),
        ({"seats": ["open", "open"]}, "exactly one seat is 'me'"),
        ({"seats": ["me", "cpu:genius"]}, "unknown computer level 'genius'"),
        ({"seats": ["me", "somebody"]}, "is not 'me', 'open'"),
        ({"seats": ["me"] + ["open"] * 6}, "out of range"),
        ({"clock_days": 4}, "1, 2, 3, 5, 7, 14 days"),
        # a word list is a file on the server's disk: a client may never name one
        ({"game": "crossword", "options": {"lexicon": "/etc/passwd"}}, "names a file"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(
    client: TestClient, body: dict, reason: str
) -> None:
    ann = register(client, "ann")
    response = client.post(
        "/tables", json={"game": TT, "seats": ["me", "open"], **body}, headers=ann
    )
    assert response.status_code == 422
    assert reason in response.json()["detail"]


def test_join_start_and_lists(client: TestClient) -> None:
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    table = create(client, ann)
    tid = table["id"]
    assert [t["id"] for t in client.get("/tables", headers=cat).json()] == [tid]
    refused = client.post(f"/tables/{tid}/start", headers=ann)
    assert refused.status_code == 409 and "still open" in refused.json()["detail"]
    joined = client.post(f"/tables/{tid}/join", json={}, headers=bob)
    assert joined.status_code == 200
    assert joined.json()["you"] == 1
    assert client.post(f"/tables/{tid}/join", json={}, headers=bob).json()["detail"] == (
        "you already sit at this table"
    )
    full = client.post(f"/tables/{tid}/join", json={}, headers=cat)
    assert full.status_code == 409 and full.json()["detail"] == "the table is full"
    not_yours = client.post(f"/tables/{tid}/start", headers=bob)
    # not his to start, ever (403), where "still open" above is not yet (409)
    assert not_yours.status_code == 403
    assert not_yours.json()["detail"] == "only the table's creator may start it"
    started = client.post(f"/tables/{tid}/start", headers=ann).json()
    assert started["status"] == "active"
    assert started["version"] >= 1  # the first roll is logged
    assert started["events"][0]["by"] == -1
    assert client.get("/tables", headers=cat).json() == []
    mine_ann = client.get("/tables?which=mine", headers=ann).json()
    mine_bob = client.get("/tables?which=mine", headers=bob).json()
    to_move = started["to_move"]  # seat 0, or seat 1 if the first roll was a farkle
    assert [t["your_turn"] for t in mine_ann] == [0 in to_move]
    assert [t["your_turn"] for t in mine_bob] == [1 in to_move]
    late = client.post(f"/tables/{tid}/join", json={}, headers=cat)
    assert late.status_code == 409 and "started" in late.json()["detail"]
    leave = client.post(f"/tables/{tid}/leave", headers=bob)
    assert leave.status_code == 409 and "before the start" in leave.json()["detail"]


def test_the_open_list_holds_only_tables_with_a_seat_to_take(client: TestClient) -> None:
    # found by a newcomer: a table full of computer players, created without "start",
    # was listed among the open games with a Join button that could only answer "full"
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    waiting = client.post("/tables", json={"game": TT, "seats": ["me", "cpu"]}, headers=ann).json()
    assert waiting["status"] == "lobby"
    table = create(client, ann)
    assert [t["id"] for t in client.get("/tables", headers=cat).json()] == [table["id"]]
    client.post(f"/tables/{table['id']}/join", json={}, headers=bob)
    assert client.get("/tables", headers=cat).json() == []
    mine = client.get("/tables?which=mine", headers=ann).json()
    assert sorted(t["id"] for t in mine) == sorted([waiting["id"], table["id"]])


def test_my_turn_comes_first_in_my_games(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    started = []
    for _ in range(4):
        table = create(client, bob)
        client.post(f"/tables/{table['id']}/join", json={}, headers=ann)
        started.append(client.post(f"/tables/{table['id']}/start", headers=bob).json())
    waiting = create(client, ann)
    mine = client.get("/tables?which=mine", headers=ann).json()
    # ann is seat 1: her turn where the first roll passed the dice (a farkle) to her
    turns = {t["id"]: 1 in t["to_move"] for t in started}
    expected = [*sorted(turns, key=lambda i: (not turns[i], -i)), waiting["id"]]
    assert [t["id"] for t in mine] == expected
    assert [t["your_turn"] for t in mine] == [turns[i] for i in expected[:-1]] + [False]


def test_invite_only_tables_need_the_code(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    table = create(client, ann, visibility="invite")
    tid, code = table["id"], table["invite_code"]
    assert code
    assert client.get("/tables", headers=bob).json() == []
    assert client.get(f"/tables/{tid}", headers=bob).status_code == 404
    assert client.post(f"/tables/{tid}/join", json={}, headers=bob).status_code == 404
    wrong = client.post(f"/tables/{tid}/join", json={"invite": "guess"}, headers=bob)
    assert wrong.status_code == 404
    seen = client.get(f"/tables/{tid}?invite={code}", headers=bob).json()
    assert seen["invite_code"] is None  # only the seated see the code
    assert client.post(f"/tables/{tid}/join", json={"invite": code}, headers=bob).is_success
    assert client.get(f"/tables/{tid}", headers=bob).json()["invite_code"] == code


def test_a_stranger_learns_nothing_of_an_invite_only_table(client: TestClient) -> None:
    """Found by a tester: vote, start, leave, preview and actions answered a stranger 403
    ("you have no seat") at an invite-only table, telling it the table exists and whether
    it has started; every one is now the 404 of a table that does not exist."""
    ann, bob, eve = register(client, "ann"), register(client, "bob"), register(client, "eve")
    table = create(client, ann, visibility="invite")
    tid, code = table["id"], table["invite_code"]
    missing = client.post("/tables/99999/vote", headers=eve).json()
    assert missing["detail"] == "no table 99999"
    for request in ("vote", "start", "leave"):
        answer = client.post(f"/tables/{tid}/{request}", headers=eve)
        assert (answer.status_code, answer.json()["detail"]) == (404, f"no table {tid}")
    assert client.post(f"/tables/{tid}/join", json={"invite": code}, headers=bob).is_success
    assert client.post(f"/tables/{tid}/start", headers=ann).is_success
    for path, body in (
        ("preview", {"action": "roll"}),
        ("actions", {"action": "roll", "version": 1}),
    ):
        answer = client.post(f"/tables/{tid}/{path}", json=body, headers=eve)
        assert (answer.status_code, answer.json()["detail"]) == (404, f"no table {tid}")
    # at an open table a stranger is told why instead (the table is public anyway)
    public = create(client, ann)["id"]
    assert client.post(f"/tables/{public}/vote", headers=eve).status_code == 403


def test_leaving_an_invite_only_table_answers_the_table_without_its_code(
    client: TestClient,
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    table = create(client, ann, visibility="invite")
    tid, code = table["id"], table["invite_code"]
    assert client.post(f"/tables/{tid}/join", json={"invite": code}, headers=bob).is_success
    left = client.post(f"/tables/{tid}/leave", headers=bob)
    assert left.status_code == 200  # the leave happened: no 404 for the table just left
    body = left.json()
    assert body["invite_code"] is None
    assert [seat["kind"] for seat in body["seats"]] == ["person", "open"]
    assert not any(seat["you"] for seat in body["seats"])
    assert client.get(f"/tables/{tid}", headers=bob).status_code == 404  # no longer a player


def test_leave_before_the_start_and_the_creator_cancels(client: TestClient) -> None:
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    table = create(client, ann)
    tid = table["id"]
    client.post(f"/tables/{tid}/join", json={}, headers=bob)
    left = client.post(f"/tables/{tid}/leave", headers=bob).json()
    assert [s["kind"] for s in left["seats"]] == ["person", "open"]
    assert client.post(f"/tables/{tid}/leave", headers=bob).status_code == 403
    assert client.post(f"/tables/{tid}/join", json={}, headers=cat).json()["you"] == 1
    cancelled = client.post(f"/tables/{tid}/leave", headers=ann).json()
    assert cancelled["status"] == "cancelled"
    restart = client.post(f"/tables/{tid}/start", headers=ann)
    assert restart.status_code == 409 and "cancelled" in restart.json()["detail"]
    assert client.get("/tables", headers=bob).json() == []


def test_start_at_once_against_computer_players(client: TestClient) -> None:
    ann = register(client, "ann")
    table = create(client, ann, seats=["me", "cpu"], start=True)
    assert table["status"] == "active"
    assert table["seats"][1]["level"] == find(TT).bot_levels[-1]


def test_against_the_computer_the_person_starts_rummy_whatever_the_seat(
    client: TestClient,
) -> None:
    # docs/rules/rummy.md: "The human player starts out playing each round"
    ann = register(client, "ann")
    table = create(client, ann, game="rummy", seats=["cpu:easy", "me"], start=True)
    assert table["status"] == "active" and table["options"]["first"] == 1
    state = server_state(client, table["id"])
    # only the deal so far: ann, in seat 1, is to draw (the computer in seat 0 waits)
    assert [by for by, _ in state.history] == [CHANCE] and state.current_player() == 1
    second = create(client, ann, game="rummy", seats=["me", "cpu:easy"], start=True)
    assert second["options"]["first"] == 0


def test_open_tables_per_player_are_bounded(client: TestClient) -> None:
    client.app.state.ctx.settings.max_open_tables = 2  # type: ignore[attr-defined]
    ann, bob = register(client, "ann"), register(client, "bob")
    create(client, ann)
    other = create(client, bob)
    assert client.post(f"/tables/{other['id']}/join", json={}, headers=ann).is_success
    response = client.post("/tables", json={"game": TT, "seats": ["me", "open"]}, headers=ann)
    assert response.status_code == 422
    assert "2 unfinished tables" in response.json()["detail"]
    third = create(client, bob)
    assert client.post(f"/tables/{third['id']}/join", json={}, headers=ann).status_code == 422


def test_games_lists_every_registered_game_with_its_form(client: TestClient) -> None:
    import parlour

    games = client.get("/games").json()
    assert [g["name"] for g in games] == [s.name for s in parlour.games()]
    tt = next(g for g in games if g["name"] == TT)
    assert tt["options"]["target"] == {
        "kind": "int",
        "default": 10000,
        "minimum": 1000,
        "maximum": 100000,
        "step": 50,
        "choices": [],
        "allowed": "1000..100000, a multiple of 50",
        "help": "score that starts the last turns",
        "file": False,
    }
    assert tt["bot_levels"] == list(find(TT).bot_levels)
    assert tt["clock_days"] == [1, 2, 3, 5, 7, 14]


def test_anonymous_spectators_see_open_tables_but_cannot_act(client: TestClient) -> None:
    ann = register(client, "ann")
    table = create(client, ann, seats=["me", "cpu"], start=True)
    seen = client.get(f"/tables/{table['id']}")
    assert seen.status_code == 200
    assert seen.json()["you"] is None and seen.json()["legal"] == []
    response = client.post(
        f"/tables/{table['id']}/actions", json={"action": "keep 1 bank", "version": 1}
    )
    assert response.status_code == 401
    assert client.post("/tables", json={"game": TT, "seats": ["me"]}).status_code == 401


def test_votes_to_begin_are_kept_and_shown(client: TestClient) -> None:
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    table = create(client, ann, seats=["me", "open", "open"])
    tid = table["id"]
    client.post(f"/tables/{tid}/join", json={}, headers=bob)
    client.post(f"/tables/{tid}/join", json={}, headers=cat)
    assert client.post(f"/tables/{tid}/vote", headers=bob).json()["votes"] == [1]
    again = client.post(f"/tables/{tid}/vote", headers=bob)
    assert again.status_code == 409 and "already voted" in again.json()["detail"]
    assert client.post(f"/tables/{tid}/vote", headers=ann).json()["votes"] == [1, 0]
    left = client.post(f"/tables/{tid}/leave", headers=bob).json()
    assert left["votes"] == [0]
    # the default rule ignores votes: still the creator's start
    assert client.post(f"/tables/{tid}/start", headers=ann).status_code == 409
    stranger = register(client, "dan")
    assert client.post(f"/tables/{tid}/vote", headers=stranger).status_code == 403


def test_my_games_leave_out_cancelled_tables_and_list_finished_ones_last(
    client: TestClient,
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    cancelled = create(client, ann)
    left = client.post(f"/tables/{cancelled['id']}/leave", headers=ann).json()
    assert left["status"] == "cancelled"
    waiting = create(client, ann)
    finished = create(client, ann, game="greedy")
    client.post(f"/tables/{finished['id']}/join", json={}, headers=bob)
    started = client.post(f"/tables/{finished['id']}/start", headers=ann).json()
    quit_ = client.post(
        f"/tables/{finished['id']}/actions",
        json={"action": "quit", "version": started["version"]},
        headers=ann,
    )
    assert quit_.status_code == 200, quit_.text
    assert quit_.json()["status"] == "finished"
    active = create(client, ann)
    client.post(f"/tables/{active['id']}/join", json={}, headers=bob)
    client.post(f"/tables/{active['id']}/start", headers=ann)
    mine = client.get("/tables?which=mine", headers=ann).json()
    # the finished table comes after the waiting one though it is newer; cancelled is gone
    assert [(t["id"], t["status"]) for t in mine] == [
        (active["id"], "active"),
        (waiting["id"], "lobby"),
        (finished["id"], "finished"),
    ]
