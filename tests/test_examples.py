"""The committed example records replay, and say what the README says they do."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli.main import app
from parlour.engine.records import read_record, replay
from parlour.engine.state import CHANCE
from parlour.games.greedy.bots import make_bot as make_greedy_bot
from parlour.games.ten_thousand.bots import make_bot

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_ten_thousand_example_is_a_whole_game_against_two_computer_levels() -> None:
    record = read_record(EXAMPLES / "ten-thousand.json")
    assert record["players"] == ["me", "cpu:cautious", "cpu:reckless"]
    final = replay(record)
    assert final.result().scores == (10200, 7650, 3550)
    assert final.result().winners == (0,)
    # Every computer move in it is what that level chooses in that position.
    bots = {1: make_bot("cautious"), 2: make_bot("reckless")}
    state = final.game.new_initial_state()
    for event in record["events"]:
        player = CHANCE if event["by"] == "chance" else event["by"]
        action = state.parse_action(event["move"], player=player)
        if player in bots:
            assert bots[player].choose(state, player, random.Random(0)) == action
        state.apply(action, player=player)


def test_parlour_replay_prints_the_example_scoreboard() -> None:
    result = CliRunner().invoke(app, ["replay", str(EXAMPLES / "ten-thousand.json"), "--json"])
    assert result.exit_code == 0
    assert '"scores": [10200, 7650, 3550], "winners": ["me"]' in result.output


def test_greedy_example_is_a_whole_game_against_the_strong_computer() -> None:
    record = read_record(EXAMPLES / "greedy.json")
    assert record["players"] == ["me", "cpu:strong"]
    final = replay(record)
    assert final.result().scores == (10050, 9100)
    assert final.result().winners == (0,)
    # Every computer move in it is what the strong level chooses in that position.
    strong = make_greedy_bot("strong")
    state = final.game.new_initial_state()
    bonus_rounds = 0
    for event in record["events"]:
        player = CHANCE if event["by"] == "chance" else event["by"]
        action = state.parse_action(event["move"], player=player)
        if player == 1:
            assert strong.choose(state, player, random.Random(0)) == action
        before = state.observation(None)["bonus_rounds"]
        state.apply(action, player=player)
        bonus_rounds += state.observation(None)["bonus_rounds"] > before
    assert bonus_rounds == 3  # the person took three bonus rounds in it
