"""``GET /tables/{id}/steps``: what each old event did, as the rules tell it, so a page
loaded mid-game tells the log in the same words as live (issue 15)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from parlour.engine.state import State
from parlour.server import Settings, create_app
from tests.server.conftest import register
from tests.server.helpers import people_table

ROLLS = {0: ["roll 1 1 1 5 2 3"], 1: ["roll 2 3 4 4 6 6"]}


def _dice(state: State, seed: str) -> str | None:
    queue = ROLLS.get(state.seat)  # type: ignore[attr-defined]
    return queue.pop(0) if queue else None


@pytest.fixture
def scripted(settings: Settings) -> Iterator[TestClient]:
    ROLLS.update({0: ["roll 1 1 1 5 2 3"], 1: ["roll 2 3 4 4 6 6"]})
    settings.chance_script = _dice
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_steps_tell_whose_turn_and_what_it_scored(scripted: TestClient) -> None:
    table_id, (ann, _bob) = people_table(scripted, "ten-thousand")
    version = scripted.get(f"/tables/{table_id}", headers=ann).json()["version"]
    done = scripted.post(
        f"/tables/{table_id}/actions",
        json={"action": "keep 1 1 1 5 bank", "version": version},
        headers=ann,
    )
    assert done.status_code == 200, done.text
    answer = scripted.get(f"/tables/{table_id}/steps")  # anyone who may watch
    assert answer.status_code == 200, answer.text
    steps = answer.json()["steps"]
    events = scripted.get(f"/tables/{table_id}").json()["events"]
    assert [s["seq"] for s in steps] == [e["seq"] for e in events]
    told = [
        (e["move"], s["seat"], s["points"], s["score_changes"], s["marks"])
        for e, s in zip(events, steps, strict=True)
    ]
    # three ones 1,000 and a five 50 (docs/rules/ten-thousand.md); bob's 2 3 4 4 6 6 scores
    # nothing: a farkle in bob's turn (seat 1), and ann's turn again
    assert told[:3] == [
        ("roll 1 1 1 2 3 5", 0, 0, [0, 0], []),
        ("keep 1 1 1 5 bank", 0, 1050, [1050, 0], ["bank", "turn_over"]),
        ("roll 2 3 4 4 6 6", 1, 0, [0, 0], ["farkle", "turn_over"]),
    ], told
    assert len(told) == 4 and told[3][1] == 0  # ann's next roll, drawn


def test_steps_of_a_table_nobody_may_see_are_not_found(scripted: TestClient) -> None:
    table_id, _seats = people_table(scripted, "ten-thousand", visibility="invite")
    stranger = register(scripted, "stranger")
    answer = scripted.get(f"/tables/{table_id}/steps", headers=stranger)
    assert answer.status_code == 404, answer.text
    assert scripted.get("/tables/999999/steps").status_code == 404
