"""Pig's records and saves like every game's: a hand-written record replays to its result, a
record of a played game replays to the same state, bad events are refused at their index,
``parlour replay`` prints the scoreboard, and a local game saves, resumes and exports."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli.main import app
from parlour.engine.errors import BadRecord
from parlour.engine.records import read_record, replay, to_record
from parlour.engine.state import parse_player_label
from parlour.games.pig.bots import make_bot
from parlour.games.pig.state import PigState
from parlour.session import LocalGame
from parlour.storage import open_database

RECORD = Path(__file__).parent / "data" / "pig-to-20.json"


def golden() -> dict[str, Any]:
    record: dict[str, Any] = read_record(RECORD)
    return copy.deepcopy(record)


def test_the_hand_written_record_replays_to_its_result() -> None:
    # 6+5 held (11); 3 then a 1 (lost); ann skipped by the host; 4 held; 5+4 held: 20 wins
    state = replay(golden())
    assert isinstance(state, PigState) and state.is_terminal()
    assert state.result().scores == (20, 4) and state.result().winners == (0,)
    assert state.turns == 5
    assert to_record(state, ["ann", "bob"]) == golden()


@pytest.mark.parametrize(
    ("index", "move", "reason"),
    [
        (0, "die 7", "event 0: 'die 7': 'die 7': a die shows 1 to 6, not 7"),
        (1, "die 2", "event 1: 'die 2': die 2 is a chance outcome: a player may roll or hold"),
        (2, "roll", "event 2: 'roll': a chance outcome is a die face"),
        (7, "quit", "event 7: 'quit': 'quit' is not a Pig move"),
        (7, "new-day", "event 7: 'new-day': 'new-day' is not a Pig move"),
    ],
)
def test_a_bad_event_is_refused_at_its_index(index: int, move: str, reason: str) -> None:
    record = golden()
    record["events"][index]["move"] = move
    with pytest.raises(BadRecord) as refused:
        replay(record)
    assert refused.value.index == index
    assert str(refused.value).startswith(reason)


def test_a_wrong_result_is_refused() -> None:
    record = golden()
    record["result"] = {"scores": [20, 4], "winners": [1]}
    with pytest.raises(BadRecord, match="is not what its events give"):
        replay(record)


def test_parlour_replay_prints_the_scoreboard() -> None:
    out = CliRunner().invoke(app, ["replay", str(RECORD), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == {
        "game": "pig",
        "players": ["ann", "bob"],
        "scores": [20, 4],
        "winners": ["ann"],
        "finished": True,
        "events": 14,
    }
    table = CliRunner().invoke(app, ["replay", str(RECORD)])
    assert table.exit_code == 0 and "Pig: 14 events replayed" in table.output


def play_local(local: LocalGame, *, steps: int | None = None) -> None:
    """Drive *local* as a terminal app does: chance rolled, the computer seat asked, the person
    (seat 0) holding at 10."""
    rng = random.Random(5)
    for _ in range(steps if steps is not None else 10_000):
        state = local.state
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_sample(rng)
        elif local.bot_to_move():
            state.apply(local.bot_choice())
        else:
            assert isinstance(state, PigState)
            state.apply(state.parse_action("hold" if state.turn_total >= 10 else "roll"))


def test_a_local_game_saves_resumes_and_exports_its_record(tmp_path: Path) -> None:
    local = LocalGame.new("pig", "ann,cpu:hold-20", target=50)
    local.rng = random.Random(4)
    play_local(local, steps=15)
    assert not local.state.is_terminal() and len(local.state.history) == 15
    engine = open_database()
    save_id = local.save(engine)
    resumed = LocalGame.resume(engine, save_id)
    assert resumed.state == local.state and [s.text() for s in resumed.seats] == [
        "ann",
        "cpu:hold-20",
    ]
    resumed.rng = random.Random(5)
    play_local(resumed)
    assert resumed.state.is_terminal()
    resumed.save(engine)
    out = CliRunner().invoke(app, ["saves", "export", str(save_id), str(tmp_path / "r.json")])
    assert out.exit_code == 0, out.output
    record = read_record(tmp_path / "r.json")
    assert record["game"] == "pig" and record["players"] == ["ann", "cpu:hold-20"]
    assert replay(record) == resumed.state
    assert record["result"] == resumed.state.result().to_json()
    # every move of the computer seat in the record is what hold-20 chooses there
    bot, state = make_bot("hold-20"), parlour.load("pig", target=50).new_initial_state()
    for event in record["events"]:
        player = parse_player_label(event["by"])
        action = state.parse_action(event["move"], player=player)
        if player == 1:
            assert bot.choose(state, 1, random.Random(0)) == action
        state.apply(action, player=player)
    assert any(event["by"] == 1 for event in record["events"])
