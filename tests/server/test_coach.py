"""The coach at a server table: only for the seat whose decision it is, only at unrated
tables, never for a computer's or another person's decision; and a finished game's review."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from parlour.engine.state import State
from parlour.server import Settings, create_app
from tests.server.conftest import register
from tests.server.helpers import people_table, server_state

ROLLS = ["roll 1 1 1 1 1 1", "roll 2 2 3 3 4 6", "roll 1 2 3 4 6 6"]


def _script(state: State, seed: str) -> str | None:
    """Six 1s for seat 0's first roll, then a farkle, then seat 1's 1 2 3 4 6 6; then the
    server's own draws."""
    rolled = sum(1 for player, _ in state.history if player < 0)
    return ROLLS[rolled] if rolled < len(ROLLS) else None


@pytest.fixture
def scripted(settings: Settings) -> Iterator[TestClient]:
    settings.chance_script = _script
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def act(client: TestClient, table_id: int, who: dict[str, str], action: str) -> None:
    version = len(server_state(client, table_id).history)
    done = client.post(
        f"/tables/{table_id}/actions", json={"action": action, "version": version}, headers=who
    )
    assert done.status_code == 200, done.text


def test_the_coach_answers_only_the_seat_whose_decision_it_is(scripted: TestClient) -> None:
    table_id, (ann, bob) = people_table(scripted, "ten-thousand", rated=False)
    assert server_state(scripted, table_id).roll == (1, 1, 1, 1, 1, 1)
    answer = scripted.get(f"/tables/{table_id}/coach", headers=ann)
    assert answer.status_code == 200, answer.text
    advice = answer.json()["advice"]
    assert advice["seat"] == 0 and advice["note"] == ""
    best = advice["choices"][0]
    assert best["action"] == "keep 1 1 1 1 1 1 bank" and best["best"] is True
    assert best["figures"][0]["text"] == "win 99.9%"
    assert [c["best"] for c in advice["choices"]].count(True) == 1
    # bob's turn is not now: nothing for him, not even ann's figures
    refused = scripted.get(f"/tables/{table_id}/coach", headers=bob)
    assert refused.status_code == 409 and "your decision" in refused.text
    assert "keep" not in refused.text
    stranger = register(scripted, "stranger")
    assert scripted.get(f"/tables/{table_id}/coach", headers=stranger).status_code == 403


def test_a_rated_table_refuses_the_coach(scripted: TestClient) -> None:
    table_id, (ann, _bob) = people_table(scripted, "ten-thousand")  # rated by default
    answer = scripted.get(f"/tables/{table_id}/coach", headers=ann)
    assert answer.status_code == 422 and "not offered at rated tables" in answer.text


@pytest.fixture
def still(settings: Settings) -> Iterator[TestClient]:
    """Scripted dice, and computer players that never move (their decision stays)."""
    settings.chance_script = _script
    settings.bots = False
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_no_coach_for_a_computer_players_decision(still: TestClient) -> None:
    scripted = still
    ann = register(scripted, "ann")
    created = scripted.post(
        "/tables",
        json={"game": "ten-thousand", "seats": ["cpu:cautious", "me"], "rated": False},
        headers=ann,
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    scripted.post(f"/tables/{table_id}/start", headers=ann)
    state = server_state(scripted, table_id)
    assert state.current_player() == 0 and state.roll == (1, 1, 1, 1, 1, 1)  # the computer's
    answer = scripted.get(f"/tables/{table_id}/coach", headers=ann)
    assert answer.status_code == 409 and "keep" not in answer.text


def test_a_finished_games_review_lists_the_mistake(scripted: TestClient) -> None:
    table_id, (ann, bob) = people_table(scripted, "ten-thousand", rated=False)
    early = scripted.get(f"/tables/{table_id}/review", headers=ann)
    assert early.status_code == 409
    act(scripted, table_id, ann, "keep 1 1 1 1 1 1 roll")  # loses 1.6 points of win chance
    act(scripted, table_id, bob, "keep 1 roll")
    version = len(server_state(scripted, table_id).history)
    resigned = scripted.post(f"/tables/{table_id}/resign", json={"version": version}, headers=bob)
    assert resigned.status_code == 200, resigned.text
    review = scripted.get(f"/tables/{table_id}/review", headers=ann)
    assert review.status_code == 200, review.text
    body = review.json()
    assert [d["made"] for d in body["decisions"]] == ["keep 1 1 1 1 1 1 roll", "keep 1 roll"]
    first, second = body["players"]
    assert [m["best"] for m in first["mistakes"]] == ["keep 1 1 1 1 1 1 bank"]
    assert first["mistakes"][0]["loss"] == pytest.approx(0.016132, abs=1e-6)
    assert second["mistakes"] == [] and second["total_loss"] == 0
