"""``parlour analyse`` on a dice record: each decision's chance of winning lost against the
coach's best, and each player's biggest mistakes (a hand-made mistake: rolling six 1s on)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli.main import app
from parlour.engine.records import to_record
from parlour.engine.review import biggest_mistakes, review_record
from parlour.engine.state import CHANCE
from parlour.games.ten_thousand import optimal

runner = CliRunner()
MOVES = [
    "roll 1 1 1 1 1 1",
    "keep 1 1 1 1 1 1 roll",  # the mistake: banking 8,000 wins 99.9%, rolling on 98.3%
    "roll 2 2 3 3 4 6",  # a farkle: 8,000 lost
    "roll 1 2 3 4 6 6",
    "keep 1 roll",  # seat 1: the best here
]


def record_file(tmp_path: Path) -> Path:
    state = parlour.load("ten-thousand").new_initial_state()
    for move in MOVES:
        player = CHANCE if move.startswith("roll") else state.current_player()
        state.apply(state.parse_action(move, player=player), player=player)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(state, ["ann", "bob"])), encoding="utf-8")
    return path


def test_the_review_of_a_hand_made_mistake(tmp_path: Path) -> None:
    record = json.loads(record_file(tmp_path).read_text(encoding="utf-8"))
    decisions = review_record(record)
    assert [(d.index, d.seat, d.made) for d in decisions] == [
        (1, 0, "keep 1 1 1 1 1 1 roll"),
        (4, 1, "keep 1 roll"),
    ]
    mistake = decisions[0]
    assert mistake.best == "keep 1 1 1 1 1 1 bank"
    assert (mistake.text, mistake.best_text) == ("win 98.3%", "win 99.9%")
    assert mistake.loss == pytest.approx(0.016132, abs=1e-6)
    assert decisions[1].loss == 0.0 and decisions[1].best == "keep 1 roll"
    assert biggest_mistakes(decisions) == {0: [mistake]}


def test_parlour_analyse_lists_the_mistake_in_text_and_json(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    out = runner.invoke(app, ["analyse", str(path), "--json"])
    assert out.exit_code == 0, out.output
    review = json.loads(out.stdout)
    assert review["finished"] is False
    ann, bob = review["players"]
    assert (ann["player"], ann["decisions"], bob["decisions"]) == ("ann", 1, 1)
    assert ann["total_loss"] == pytest.approx(0.016132, abs=1e-6) and bob["total_loss"] == 0
    assert [m["made"] for m in ann["mistakes"]] == ["keep 1 1 1 1 1 1 roll"]
    assert bob["mistakes"] == []
    result = runner.invoke(app, ["analyse", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # the console wraps long lines
    assert "ann: 1 decisions, 1.6 points of win chance lost in all" in text
    assert (
        "event 2: keep 1 1 1 1 1 1 roll (win 98.3%) instead of keep 1 1 1 1 1 1 bank "
        "(win 99.9%): 1.6 lost" in text
    )
    assert "bob: 1 decisions, 0.0 points of win chance lost in all" in text
    assert "The game is not finished" in text


def test_analyse_says_when_the_coach_cannot_judge_these_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game at a target with no solved table (1,000 here: found analysing a server
    game's record) is not shown as an empty table and "0 decisions": it says why nothing
    was judged."""
    # no table for target 1,000 in memory from an earlier test (the data directory is new)
    monkeypatch.setattr(optimal, "_TABLES", {})
    state = parlour.load("ten-thousand", target=1000).new_initial_state()
    for move in MOVES[:2]:
        player = CHANCE if move.startswith("roll") else state.current_player()
        state.apply(state.parse_action(move, player=player), player=player)
    path = tmp_path / "small.json"
    path.write_text(json.dumps(to_record(state, ["ann", "bob"])), encoding="utf-8")
    out = runner.invoke(app, ["analyse", str(path)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    said = (
        f"{path}: no decision could be judged: the coach has no solved table for these "
        "rules (entry=0, players=2, specials_any_roll=False, target=1000); see the game's "
        'rules, "The coach".'
    )
    # compared without white space: the console may wrap a long temporary path anywhere
    assert "".join(out.stdout.split()) == "".join(said.split())
