"""The crossword's lobby on the server: begins by itself at the maximum joined or the
minimum voted, with the players who came; nobody starts it by hand."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.helpers import server_state


def test_begins_when_the_minimum_have_voted(client: TestClient) -> None:
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    table = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open", "open", "open"], "min_players": 2},
        headers=ann,
    ).json()
    tid = table["id"]
    assert table["min_players"] == 2
    refused = client.post(f"/tables/{tid}/start", headers=ann)
    assert refused.status_code == 409
    assert "when 4 have joined or 2 have voted to begin" in refused.json()["detail"]
    client.post(f"/tables/{tid}/join", json={}, headers=bob)
    client.post(f"/tables/{tid}/join", json={}, headers=cat)
    assert client.post(f"/tables/{tid}/vote", headers=cat).json()["status"] == "lobby"
    started = client.post(f"/tables/{tid}/vote", headers=ann).json()
    assert started["status"] == "active"
    assert started["options"]["players"] == 3
    assert [s["name"] for s in started["seats"]] == ["ann", "bob", "cat"]
    assert server_state(client, tid).game.num_players == 3


def test_begins_when_the_maximum_have_joined(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    table = client.post(
        "/tables", json={"game": "crossword", "seats": ["me", "open"]}, headers=ann
    ).json()
    joined = client.post(f"/tables/{table['id']}/join", json={}, headers=bob).json()
    assert joined["status"] == "active"
    assert joined["view"] is not None and joined["you"] == 1


def test_a_minimum_outside_the_seats_is_refused(client: TestClient) -> None:
    ann = register(client, "ann")
    response = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open"], "min_players": 3},
        headers=ann,
    )
    assert response.status_code == 422
    assert "min_players is 2-2" in response.json()["detail"]


def test_with_every_seat_taken_at_creation_it_begins_at_once(client: TestClient) -> None:
    from parlour.engine.registry import find

    assert find("crossword").bot_levels, "the crossword's computer players fill the seat"
    ann = register(client, "ann")
    table = client.post(
        "/tables", json={"game": "crossword", "seats": ["me", "cpu"]}, headers=ann
    ).json()
    assert table["status"] == "active"


def test_the_vote_that_begins_it_seats_everyone_who_joined(client: TestClient) -> None:
    # ann and bob vote, cat has joined without voting: the game begins with all three (the
    # votes are counted once everyone who joined is in), not with ann and bob and a third
    # seat the game does not have
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    tid = client.post(
        "/tables",
        json={"game": "crossword", "seats": ["me", "open", "open", "open"], "min_players": 2},
        headers=ann,
    ).json()["id"]
    for who in (bob, cat):
        assert client.post(f"/tables/{tid}/join", json={}, headers=who).status_code == 200
    assert client.post(f"/tables/{tid}/vote", headers=ann).json()["status"] == "lobby"
    started = client.post(f"/tables/{tid}/vote", headers=bob).json()
    assert started["status"] == "active"
    assert started["options"]["players"] == 3
    assert [s["name"] for s in started["seats"]] == ["ann", "bob", "cat"]
    assert server_state(client, tid).game.num_players == 3
    seen = client.get(f"/tables/{tid}", headers=cat)
    assert seen.status_code == 200 and seen.json()["you"] == 2
    assert len(seen.json()["view"]["rack"]) == 7
