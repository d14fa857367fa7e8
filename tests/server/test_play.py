"""Playing every registered game through the API: versions, refusals, records, rebuilds."""

from __future__ import annotations

import json
import random
import threading

import pytest
from fastapi.testclient import TestClient

import parlour
from parlour.engine.records import replay
from parlour.server.services.cache import load_entry
from tests.server.helpers import people_table, play_once, server_state

GAMES = [spec.name for spec in parlour.games()]
STEPS = 5_000


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_to_the_end_gives_a_record_that_replays(
    client: TestClient, game: str
) -> None:
    table_id, seats = people_table(client, game)
    rng = random.Random(5)
    assert client.get(f"/tables/{table_id}/record", headers=seats[0]).status_code == 409
    version = client.get(f"/tables/{table_id}", headers=seats[0]).json()["version"]
    for _ in range(STEPS):
        answer = play_once(client, table_id, seats, rng)
        added = answer["events"]
        # the action, then the chance outcomes after it (those the seat may see)
        assert added and added[0]["seq"] == version
        assert answer["version"] >= version + len(added)
        version = answer["version"]
        if answer["status"] == "finished":
            break
    else:
        pytest.fail("the game did not end")
    record = client.get(f"/tables/{table_id}/record", headers=seats[1]).json()
    assert record["players"] == [f"player{i}" for i in range(len(seats))]
    assert len(record["events"]) == version
    state = replay(json.loads(json.dumps(record)))
    assert state == server_state(client, table_id)
    assert record["result"] == answer["result"] == state.result().to_json()
    # refused after the end
    late = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "skip", "version": version},
        headers=seats[0],
    )
    assert late.status_code == 409 and late.json()["detail"] == "the game is over"


@pytest.mark.parametrize("game", GAMES)
def test_the_log_rebuilds_the_state_exactly(client: TestClient, game: str) -> None:
    table_id, seats = people_table(client, game)
    rng = random.Random(9)
    for _ in range(30):
        if play_once(client, table_id, seats, rng)["status"] != "active":
            break
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with ctx.engine.connect() as connection:
        rebuilt = load_entry(connection, table_id)
    assert rebuilt is not None
    assert rebuilt.state == server_state(client, table_id)
    assert rebuilt.version == len(rebuilt.state.history)


def _snapshot(client: TestClient, table_id: int, who: dict[str, str]) -> dict:
    return client.get(f"/tables/{table_id}", headers=who).json()


@pytest.mark.parametrize("game", GAMES)
def test_a_stale_version_gets_409_with_the_current_view_and_changes_nothing(
    client: TestClient, game: str
) -> None:
    table_id, seats = people_table(client, game)
    rng = random.Random(2)
    first = play_once(client, table_id, seats, rng)
    state = server_state(client, table_id)
    seat = state.actors()[0]
    before = _snapshot(client, table_id, seats[seat])
    legal = before["legal"] or [state.action_to_string(state.legal_actions(seat)[0])]
    response = client.post(
        f"/tables/{table_id}/actions",
        json={"action": legal[0], "version": first["version"] - 1},
        headers=seats[seat],
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_version"
    assert body["current"]["version"] == before["version"]
    assert body["current"]["view"] == before["view"]
    assert _snapshot(client, table_id, seats[seat]) == before


@pytest.mark.parametrize("game", GAMES)
def test_illegal_actions_get_422_with_the_engine_reason_and_change_nothing(
    client: TestClient, game: str
) -> None:
    table_id, seats = people_table(client, game)
    state = server_state(client, table_id)
    seat = state.actors()[0]
    other = (seat + 1) % len(seats)
    before = _snapshot(client, table_id, seats[0])
    version = before["version"]
    move = state.action_to_string(state.legal_actions(seat)[0])
    # the mover's legal action, sent by another seat: not their turn
    out_of_turn = client.post(
        f"/tables/{table_id}/actions",
        json={"action": move, "version": version},
        headers=seats[other],
    )
    # in words with the mover's name, not the engine's seat numbers
    assert out_of_turn.status_code == 409
    assert out_of_turn.json()["code"] == "not_your_turn"
    mover = client.get(f"/tables/{table_id}", headers=seats[0]).json()["seats"][seat]
    assert out_of_turn.json()["detail"] == f"it is not your turn: {mover['name']} to move"
    garbage = client.post(
        f"/tables/{table_id}/actions",
        json={"action": "xyzzy 42", "version": version},
        headers=seats[seat],
    )
    assert garbage.status_code == 422
    assert garbage.json()["code"] == "invalid_notation"
    assert _snapshot(client, table_id, seats[0]) == before


@pytest.mark.parametrize("game", GAMES)
def test_only_seated_people_act_and_only_for_their_own_seat(client: TestClient, game: str) -> None:
    from tests.server.conftest import register

    table_id, _ = people_table(client, game)
    state = server_state(client, table_id)
    move = state.action_to_string(state.legal_actions(state.actors()[0])[0])
    stranger = register(client, "stranger")
    response = client.post(
        f"/tables/{table_id}/actions",
        json={"action": move, "version": len(state.history)},
        headers=stranger,
    )
    assert response.status_code == 403
    assert response.json()["detail"] == "you have no seat at this table"
    spectator = client.get(f"/tables/{table_id}", headers=stranger).json()
    assert spectator["you"] is None
    assert spectator["view"] == state.observation(None)


def test_two_simultaneous_submissions_exactly_one_wins(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    state = server_state(client, table_id)
    seat = state.actors()[0]
    legal = [state.action_to_string(a) for a in state.legal_actions(seat)]
    version = len(state.history)
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def submit(action: str) -> None:
        barrier.wait()
        response = client.post(
            f"/tables/{table_id}/actions",
            json={"action": action, "version": version},
            headers=seats[seat],
        )
        answers.append(response.status_code)

    threads = [threading.Thread(target=submit, args=(legal[i % len(legal)],)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 409]
    after = server_state(client, table_id)
    assert len(after.history) > version
    assert sum(1 for by, _ in after.history[version:] if by == seat) == 1
