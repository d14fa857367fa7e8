"""The per-game extension points: a start rule with votes, host events, event visibility,
and the server's hooks built from each game's platform declarations."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.engine.spec import GameSpec
from parlour.server import hooks
from parlour.server.hooks import CreatorStarts, GameHooks, LobbyView, Moment
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


def test_the_hooks_are_built_from_the_games_declarations() -> None:
    """A spec the server has never heard of gets the vote lobby, daily clocks, previews and
    its limits from its ``platform`` declarations alone."""
    from dataclasses import replace

    from parlour.engine.platform import Platform, Start
    from parlour.engine.registry import find
    from parlour.server import daily, votes

    def compose(state: Any, tiles: Any) -> str:
        return "pass"

    def on_days(options: Any) -> bool:
        return bool(options.get("on_days"))

    base = find("ten-thousand")
    plain = hooks.build_hooks(base)
    assert plain == GameHooks()
    declared = Platform(compose=compose, legal_limit=7, start=Start.VOTE, daily=on_days, warm=print)
    built = hooks.build_hooks(
        replace(base, name="unheard-of", host_events=("skip", "new-day"), platform=declared)
    )
    assert isinstance(built.start, votes.VotesToBegin)
    assert built.host_events is daily.daily_host_events
    assert built.deadline is daily.daily_deadline
    assert built.check_table({"on_days": True}, 3) is not None
    assert built.check_table({"on_days": True}, 1) is None
    assert built.check_table({"on_days": False}, 3) is None
    assert (built.compose, built.legal_limit, built.warm) == (compose, 7, print)
    assert built.preview_hides is hooks.end_hidden
    with pytest.raises(ValueError, match="runs on days but its host_events lack 'new-day'"):
        hooks.build_hooks(replace(base, platform=declared))


def test_the_crossword_declares_which_moves_are_secret() -> None:
    """Plays and passes are public; exchanges and rack orders only their seat's until the
    end; chance's draws nobody else's. Rummy's moves are all public (a draw from the stock
    names no card), its deal nobody's."""
    from parlour.engine.registry import find

    crossword, rummy = find("crossword"), find("rummy")
    visible = hooks.default_visibility
    for move, public in (("CAT H8 across", True), ("pass", True), ("exchange QV", False)):
        assert visible(crossword, 1, move, 0, False) is public
        assert visible(crossword, 1, move, None, False) is public
        assert visible(crossword, 1, move, 1, False)
        assert visible(crossword, 1, move, 0, True)
    assert not visible(crossword, 1, "rack RETAINS", 0, False)
    assert not visible(crossword, -1, "draw ABC", 1, False)
    assert visible(crossword, -4, "new-day", None, False)
    for move in ("draw stock", "draw discard", "meld 3S 4S 5S", "layoff 6S on 1", "discard 7S"):
        assert visible(rummy, 1, move, 0, False)
        assert visible(rummy, 1, move, None, False)
    assert not visible(rummy, -1, "deal 7H 2C KS", 0, False)
    assert visible(find("greedy"), -1, "roll 1 2 3 4 5 6 6 6 6", None, False)
