"""The per-game extension points: a start rule with votes, an on-finished hook inside the
finishing transaction, host events, and event visibility."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from parlour.engine.spec import GameSpec
from parlour.server import hooks
from parlour.server.hooks import CreatorStarts, Finished, GameHooks, LobbyView, Moment
from parlour.storage.tables import SeatRow
from tests.server.conftest import register
from tests.server.helpers import people_table, play_once, server_state

TT = "ten-thousand"


@pytest.fixture
def with_hooks(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def install(game_hooks: GameHooks) -> None:
        monkeypatch.setitem(hooks._HOOKS, TT, game_hooks)

    return install


@dataclass(frozen=True)
class TwoVotesDropOpenSeats(CreatorStarts):
    """Like the crossword's lobby: begins when two have voted, with those who joined."""

    def starts_by_itself(self, lobby: LobbyView) -> bool:
        return len(lobby.table.lobby.get("votes", [])) >= 2

    def start_options(self, lobby: LobbyView) -> tuple[dict[str, Any], list[SeatRow]]:
        taken = [s for s in lobby.seats if not s.is_open]
        return {**lobby.table.options, "players": len(taken)}, taken


def test_a_start_rule_can_start_on_votes_with_the_players_who_came(
    client: TestClient, with_hooks: Any
) -> None:
    with_hooks(GameHooks(start=TwoVotesDropOpenSeats()))
    ann, bob = register(client, "ann"), register(client, "bob")
    table = client.post(
        "/tables", json={"game": TT, "seats": ["me", "open", "open"]}, headers=ann
    ).json()
    tid = table["id"]
    client.post(f"/tables/{tid}/join", json={}, headers=bob)
    client.post(f"/tables/{tid}/vote", headers=ann)
    started = client.post(f"/tables/{tid}/vote", headers=bob).json()
    assert started["status"] == "active"
    assert started["options"]["players"] == 2
    assert server_state(client, tid).game.num_players == 2
    assert [(s["seat"], s["name"]) for s in started["seats"]] == [(0, "ann"), (1, "bob")]


def test_on_finished_runs_inside_the_finishing_transaction(
    client: TestClient, with_hooks: Any
) -> None:
    seen: list[tuple[int, list[str], tuple[int, ...]]] = []

    def record(finished: Finished) -> None:
        # the hook can write in the same transaction (standings, statistics)
        count = finished.connection.execute(text("SELECT count(*) FROM table_events")).scalar()
        seen.append((finished.table.id, list(finished.names), finished.state.result().winners))
        assert count == finished.table.version

    with_hooks(GameHooks(on_finished=record))
    table_id, seats = people_table(client, TT)
    rng = random.Random(1)
    while play_once(client, table_id, seats, rng)["status"] == "active":
        pass
    assert len(seen) == 1
    assert seen[0][0] == table_id and seen[0][1] == ["player0", "player1"]


def test_host_events_come_from_the_hook(client: TestClient, with_hooks: Any) -> None:
    from parlour.server.services.play import apply_host_events

    calls: list[Moment] = []

    def skip_once(moment: Moment) -> list[str]:
        calls.append(moment)
        return ["skip"] if len(calls) == 1 else []

    with_hooks(GameHooks(host_events=skip_once))
    table_id, _ = people_table(client, TT)
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    before = len(server_state(client, table_id).history)
    assert apply_host_events(ctx, table_id) == 1
    history = server_state(client, table_id).history
    assert history[before][0] == -4 and str(history[before][1]) == "skip"


def test_event_visibility_hides_what_the_hook_hides(client: TestClient, with_hooks: Any) -> None:
    def own_only(spec: GameSpec, by: int, move: str, seat: int | None, over: bool) -> bool:
        return by == seat

    with_hooks(GameHooks(event_visible=own_only))
    table_id, seats = people_table(client, TT)
    answer = play_once(client, table_id, seats, random.Random(2))
    assert all(e["by"] >= 0 for e in answer["events"])  # the rolls are not sent
    spectator = client.get(f"/tables/{table_id}").json()
    assert spectator["events"] == []


def test_by_default_a_move_that_ends_a_game_of_hidden_information_is_not_previewed() -> None:
    """The default ``preview_hides``: the last of four passes ends a two-seat crossword (an
    imperfect-information game, whose end may show every rack); Greedy's quit ends a
    perfect-information game, which hides nothing."""
    import parlour

    crossword = parlour.load("crossword").new_initial_state()
    rng = random.Random(3)
    while crossword.current_player() < 0:  # the opening draws
        crossword.apply(crossword.sample_chance(rng))
    for seat in (0, 1, 0):
        crossword.apply(crossword.parse_action("pass"), player=seat)
    after = crossword.clone()
    last = after.parse_action("pass")
    after.apply(last, player=1)
    assert after.is_terminal()
    assert hooks.end_hidden(crossword, last, 1, after) == (
        "this move ends the game: what the end shows is shown once you make it"
    )
    assert hooks.end_hidden(crossword, last, 1, crossword.clone()) is None
    greedy = parlour.load("greedy").new_initial_state()
    while greedy.current_player() < 0:
        greedy.apply(greedy.sample_chance(rng))
    quit_ = greedy.parse_action("quit")
    ended = greedy.clone()
    ended.apply(quit_, player=greedy.current_player())
    assert ended.is_terminal()
    assert hooks.end_hidden(greedy, quit_, 0, ended) is None
