"""The table-side scorers: ``parlour score ten-thousand`` and ``parlour score greedy``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.cli.main import app

runner = CliRunner()


def test_score_ten_thousand_json() -> None:
    out = runner.invoke(
        app, ["score", "ten-thousand", "1", "1", "1", "1", "5", "5", "--first-roll", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["points"] == 2100
    assert [p["label"] for p in data["parts"]] == ["four 1s", "single 5", "single 5"]


def test_score_ten_thousand_table() -> None:
    out = runner.invoke(
        app, ["score", "ten-thousand", "2", "2", "4", "4", "6", "6", "--first-roll"]
    )
    assert out.exit_code == 0
    assert "three pairs" in out.stdout and "1000" in out.stdout


def test_score_ten_thousand_three_pairs_gives_both_readings() -> None:
    # three pairs score 1000 on the first roll of a turn only; on a later roll, nothing
    out = runner.invoke(app, ["score", "ten-thousand", "2", "2", "3", "3", "4", "4"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert "Farkle on a later roll of the turn: no scoring dice." in lines
    assert "On the first roll of a turn: 1000 points (three pairs; --first-roll)." in lines


def test_score_ten_thousand_first_roll_names_the_later_reading() -> None:
    out = runner.invoke(
        app, ["score", "ten-thousand", "1", "2", "3", "4", "5", "6", "--first-roll"]
    )
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert "Scored as the first roll of a turn: 1500 points." in lines
    assert "On a later roll of the turn: 150 points (single 1, single 5)." in lines


def test_score_ten_thousand_json_gives_both_readings() -> None:
    out = runner.invoke(app, ["score", "ten-thousand", "1", "1", "5", "5", "6", "6", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    # later roll: two 1s and two 5s, 300; first roll: three pairs, 1000
    readings = (data["points"], data["later_roll_points"], data["first_roll_points"])
    assert readings == (300, 300, 1000)


def test_score_ten_thousand_one_reading_when_they_agree() -> None:
    out = runner.invoke(app, ["score", "ten-thousand", "1", "1", "1"])
    assert out.exit_code == 0, out.output
    assert "1000" in out.stdout and "first roll" not in out.stdout
    assert "later roll" not in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1"] * 7, "7 dice given, at most 6"),
        (["0", "1"], "0 is not a die face"),
        (["7"], "7 is not a die face"),
        (["one"], "'one' is not a die face"),
    ],
)
def test_score_ten_thousand_refuses_bad_dice(args: list[str], message: str) -> None:
    out = runner.invoke(app, ["score", "ten-thousand", *args])
    assert out.exit_code == 2
    assert message in out.stderr


def test_score_greedy_json() -> None:
    out = runner.invoke(
        app, ["score", "greedy", "1", "1", "1", "1", "5", "5", "2", "2", "2", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["points"] == 1400 and data["unscored"] == []  # 1000+100+50+50+200


@pytest.mark.parametrize(
    ("args", "message"),
    [(["1"] * 10, "10 dice given, at most 9"), (["8"], "8 is not a die face")],
)
def test_score_greedy_refuses_bad_dice(args: list[str], message: str) -> None:
    out = runner.invoke(app, ["score", "greedy", *args])
    assert out.exit_code == 2
    assert message in out.stderr


def test_full_width_digits_are_not_faces() -> None:
    out = runner.invoke(app, ["score", "ten-thousand", "\uff16"])
    assert out.exit_code == 2
    assert "is not a die face" in out.stderr
