"""Finished games on the server go into the scorebook: Greedy standings and Rummy
statistics, once each, readable at /standings/greedy and /stats/rummy."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from parlour.engine.registry import find
from parlour.server.services import accounts, lobby, scores
from parlour.server.services.cache import current_entry
from parlour.server.services.clock import sweep
from parlour.server.services.context import ServerContext
from parlour.server.services.play import commit
from parlour.server.services.scores import score_finished
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from parlour.storage.tables import set_seat
from tests.server.conftest import register, wait_until
from tests.server.helpers import choose, server_state


def _mine_or_over(client: TestClient, table_id: int, who: dict) -> dict | None:
    view: dict = client.get(f"/tables/{table_id}", headers=who).json()
    return view if view["your_turn"] or view["status"] == "finished" else None


def play_against_the_computer(client: TestClient, game: str, options: dict) -> dict:
    ann = register(client, "Ann")
    table = client.post(
        "/tables",
        json={"game": game, "seats": ["me", "cpu"], "start": True, "options": options},
        headers=ann,
    ).json()
    rng = random.Random(4)
    for _ in range(3_000):
        view = wait_until(lambda: _mine_or_over(client, table["id"], ann))
        if view["status"] == "finished":
            return view
        move = choose(server_state(client, table["id"]), 0, rng)
        response = client.post(
            f"/tables/{table['id']}/actions",
            json={"action": move, "version": view["version"]},
            headers=ann,
        )
        assert response.status_code == 200, response.text
    pytest.fail("the game did not end")


def test_a_greedy_game_against_the_computer_updates_the_standings(client: TestClient) -> None:
    assert find("greedy").bot_levels == ("easy", "steady", "strong", "optimal")
    final = play_against_the_computer(client, "greedy", {})
    standings = wait_until(lambda: client.get("/standings/greedy").json())
    ann, cpu = final["result"]["scores"]
    won = final["result"]["winners"] == [0]
    # docs/rules/greedy.md#standings: a win is 5,000 + 10 per point over 10,000; a loss
    # costs 1,000 + 5 per computer point over 10,000
    points = 5_000 + 10 * max(0, ann - 10_000) if won else -(1_000 + 5 * max(0, cpu - 10_000))
    assert [
        (s["name"], s["games"], s["wins"], s["losses"], s["points"], s["best_margin"])
        for s in standings
    ] == [("Ann", 1, int(won), int(not won), points, ann - cpu if won else None)]
    # recorded once: scoring again (as the sweeper would) changes nothing
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    assert score_finished(ctx, final["id"]) is False
    assert sweep(ctx).unscored == []
    assert client.get("/standings/greedy").json()[0]["games"] == 1


def test_a_rummy_game_against_the_computer_updates_the_statistics(client: TestClient) -> None:
    final = play_against_the_computer(client, "rummy", {"ending_score": 100})
    stats = wait_until(lambda: client.get("/stats/rummy").json())
    won = 0 in final["result"]["winners"]
    assert len(stats) == 1  # the computer player keeps no statistics
    assert stats[0]["name"] == "Ann" and stats[0]["played"] == 1
    assert (stats[0]["won"], stats[0]["lost"]) == (int(won), int(not won))
    assert stats[0]["best_game_score"] == final["result"]["scores"][0]
    assert (stats[0]["current_streak"], stats[0]["longest_streak"]) == (int(won), int(won))
    assert client.get("/stats/rummy?name=ann").json() == stats
    assert client.get("/stats/rummy?name=nobody").json() == []


def test_a_greedy_game_with_a_seat_the_clock_took_counts_as_against_the_computer(
    settings: Settings,
) -> None:
    # a person the clock took out makes a table of one person against one computer seat
    # too; it counts for the other person's standings (played here through the services)
    ctx = ServerContext(engine=open_database(settings.database_url), settings=settings)
    ann = accounts.register(ctx, name="Ann", password="password123").account.id
    bob = accounts.register(ctx, name="Bob", password="password123").account.id
    table_id = lobby.create_table(
        ctx,
        account_id=ann,
        request=lobby.NewTable(game="greedy", seats=["me", "open"], options={}),
    )
    lobby.join_table(ctx, table_id=table_id, account_id=bob)
    lobby.start_table(ctx, table_id=table_id, account_id=ann)
    with ctx.engine.begin() as connection:
        set_seat(connection, table_id, 1, removed=True, bot_level="strong")
    ctx.cache.drop(table_id)
    rng = random.Random(8)
    for _ in range(5_000):
        with ctx.cache.lock(table_id):
            entry = current_entry(ctx, table_id)
            if entry.state.is_terminal():
                break
            seat = entry.state.actors()[0]
            move = choose(entry.state.clone(), seat, rng)
            commit(ctx, entry, seat, entry.state.parse_action(move, player=seat))
    assert score_finished(ctx, table_id) is True
    assert score_finished(ctx, table_id) is False
    with ctx.cache.lock(table_id):
        result = current_entry(ctx, table_id).state.result()
    (row,) = scores.standings(ctx)
    assert (row["name"], row["games"], row["wins"]) == ("Ann", 1, int(0 in result.winners))
