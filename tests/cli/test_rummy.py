"""The Rummy commands: score, stats, arena, bench."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from parlour.cli.main import app
from parlour.storage import open_database
from parlour.storage.rummy_stats import PersonGame, record_rummy_game

runner = CliRunner()


def test_score_prints_the_best_split() -> None:
    out = runner.invoke(app, ["score", "rummy", "3S", "4S", "5S", "6S", "7S", "6H", "6D"])
    assert out.exit_code == 0, out.output
    assert "3S 4S 5S" in out.output and "6S 6H 6D" in out.output and "7S" in out.output


def test_score_json() -> None:
    out = runner.invoke(app, ["score", "rummy", "4H", "5H", "6H", "7H", "7C", "7D", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["deadwood"] == [] and data["deadwood_points"] == 0
    assert sorted(map(sorted, data["melds"])) == [["4H", "5H", "6H"], ["7C", "7D", "7H"]]
    assert data["melded_points"] == 30


def test_score_refuses_unknown_and_duplicate_cards() -> None:
    out = runner.invoke(app, ["score", "rummy", "3S", "3S", "4S"])
    assert out.exit_code == 2 and "3S is given twice" in out.output
    out = runner.invoke(app, ["score", "rummy", "3S", "1Z"])
    assert out.exit_code == 2 and "not a card" in out.output


def test_stats_table_and_json() -> None:
    engine = open_database()
    record_rummy_game(engine, "g1", [PersonGame("Ann", True, 540, (140, 400))])
    out = runner.invoke(app, ["stats", "rummy", "--json"])
    assert out.exit_code == 0
    (row,) = json.loads(out.output)
    assert row["name"] == "Ann" and row["won"] == 1 and row["average_round_score"] == 270.0
    out = runner.invoke(app, ["stats", "rummy"])
    assert "Ann" in out.output and "100%" in out.output and "540" in out.output


def test_arena_json() -> None:
    out = runner.invoke(app, ["arena", "rummy", "--bots", "easy,medium", "--games", "4", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 4 and [b["name"] for b in data["bots"]] == ["easy", "medium"]
    assert sum(b["wins"] for b in data["bots"]) == 4


def test_arena_refuses_unknown_level() -> None:
    out = runner.invoke(app, ["arena", "rummy", "--bots", "easy,genius"])
    assert out.exit_code == 2 and "genius" in out.output


def test_bench_without_openspiel() -> None:
    out = runner.invoke(
        app,
        [
            "bench",
            "rummy",
            "--hands",
            "20",
            "--trials",
            "1",
            "--openspiel-python",
            "/nonexistent",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (
        data["rummy_hands_per_second"] > 0 and data["openspiel_gin_rummy_hands_per_second"] is None
    )


def test_play_refuses_bad_players_and_missing_saves() -> None:
    out = runner.invoke(app, ["play", "rummy", "--players", "me,cpu:genius"])
    assert out.exit_code == 2 and "genius" in out.output
    out = runner.invoke(app, ["play", "rummy", "--players", "me"])
    assert out.exit_code == 2 and "2-4 players" in out.output
    out = runner.invoke(app, ["play", "rummy", "--resume", "99"])
    assert out.exit_code == 2 and "no saved game 99" in out.output
