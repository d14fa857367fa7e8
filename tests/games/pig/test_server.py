"""Pig on the server through the generic paths only (no Pig code in ``parlour.server``): a
table with a computer seat over REST, played to the end, then its record and its replay."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from parlour.engine.records import replay
from tests.server.conftest import register, wait_until


def your_turn_or_the_end(client: TestClient, table_id: int, who: dict[str, str]) -> Any:
    """The table as *who* sees it once it is their turn or the game is over, else None
    (the computer seat moves in the background)."""
    table = client.get(f"/tables/{table_id}", headers=who).json()
    return table if table["your_turn"] or table["status"] == "finished" else None


def test_pig_is_listed_with_its_options_and_levels(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/games").json()}
    pig = games["pig"]
    assert pig["title"] == "Pig" and pig["bot_levels"] == ["random", "hold-20"]
    assert (pig["min_players"], pig["max_players"]) == (2, 6)
    assert pig["options"]["target"]["default"] == 100
    assert pig["rules_doc"] == "docs/rules/pig.md"


def test_a_pig_table_against_the_computer_plays_to_the_end_and_replays(
    client: TestClient,
) -> None:
    ann = register(client, "ann")
    created = client.post(
        "/tables",
        json={
            "game": "pig",
            "seats": ["me", "cpu:hold-20"],
            "options": {"target": 30},
            "start": True,
        },
        headers=ann,
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    moves = 0
    for _ in range(500):
        table = wait_until(lambda: your_turn_or_the_end(client, table_id, ann))
        if table["status"] == "finished":
            break
        assert sorted(table["legal"]) == ["hold", "roll"]
        assert table["view"]["to_move"] == 0 and table["view"]["turn_total"] > 0
        move = "hold" if table["view"]["turn_total"] >= 8 else "roll"
        answer = client.post(
            f"/tables/{table_id}/actions",
            json={"action": move, "version": table["version"]},
            headers=ann,
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["events"][0]["move"] == move
        moves += 1
    else:
        raise AssertionError("the game did not end")
    assert moves > 0
    record = client.get(f"/tables/{table_id}/record", headers=ann).json()
    assert record["game"] == "pig" and record["options"] == {"players": 2, "target": 30}
    assert record["players"][0] == "ann"
    assert {e["by"] for e in record["events"]} == {"chance", 0, 1}
    state = replay(json.loads(json.dumps(record)))
    assert state.is_terminal() and record["result"] == state.result().to_json()
    winner = record["result"]["winners"][0]
    assert record["result"]["scores"][winner] >= 30
    steps = len(record["events"])
    last = client.get(f"/tables/{table_id}/replay", params={"step": steps}, headers=ann).json()
    assert last["steps"] == steps and last["event"]["move"] == "hold"
    assert last["views"][0]["winners"] == [winner]
    assert last["views"][1]["scores"] == record["result"]["scores"]
    first = client.get(f"/tables/{table_id}/replay", params={"step": 1}, headers=ann).json()
    assert first["event"] == {"seq": 0, "by": -1, "move": record["events"][0]["move"]}
