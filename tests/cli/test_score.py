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


def test_score_ten_thousand_says_what_a_first_roll_would_score() -> None:
    # the README's example: six dice on the table are most often a turn's first roll, so a
    # bare "Farkle" for three pairs misleads; the scorer says what --first-roll gives
    out = runner.invoke(app, ["score", "ten-thousand", "2", "2", "3", "3", "4", "4"])
    assert out.exit_code == 0
    assert "Farkle: no scoring dice." in out.stdout
    assert "On the first roll of a turn: 1000 (--first-roll)." in out.stdout
    plain = runner.invoke(app, ["score", "ten-thousand", "2", "2", "3", "4", "6", "6"])
    assert "first roll" not in plain.stdout  # no special: nothing to add
    data = json.loads(
        runner.invoke(app, ["score", "ten-thousand", "2", "2", "3", "3", "4", "4", "--json"]).stdout
    )
    assert data["points"] == 0  # JSON unchanged


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
